// The door of engine/spectral: everything other folders may call.
#pragma once

#include "spectral/basic_constraints.h"
#include "spectral/constraint.h"
#include "spectral/newton_schulz.h"
#include "spectral/power_iteration.h"
#include "spectral/softcap_alpha.h"
#include "spectral/spectral_clip.h"
#include "spectral/matrix_stats.h"
#include "spectral/synthetic.h"
