// Request ids -> engine parameters (engine/lab only: includes LibTorch). Throws InputError
// naming the field for unknown ids and out-of-range values.
#pragma once

#include "lab/constraint_lab.h"
#include "spectral/spectral.h"

#include <c10/core/ScalarType.h>

namespace lwb::lab {

spectral::ConstraintParams toConstraintParams(const ConstraintRequest& r);
spectral::NewtonSchulzConfig toNsConfig(const std::string& coefficients, int steps, int polishSteps);
at::ScalarType toScalarType(const std::string& dtype);

}  // namespace lwb::lab
