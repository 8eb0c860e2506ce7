// The door of engine/lab: what the Clip Lab page (and the Inspector's "what if" preview)
// may call. Nothing here includes LibTorch: tensors stay inside engine/lab's .cpp files,
// behind LabMatrix, so app translation units that include this compile in seconds.
#pragma once

#include "lab/attention_lab.h"
#include "lab/cap_sweep.h"
#include "lab/constraint_lab.h"
#include "lab/cost_model.h"
#include "lab/equilibrium.h"
#include "lab/lab_matrix.h"
#include "lab/lab_types.h"
#include "lab/matrix_source.h"
#include "lab/ns_trace.h"
#include "lab/stiefel_retraction.h"
