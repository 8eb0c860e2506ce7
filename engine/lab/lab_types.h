// Plain values shared by the Clip Lab computations: the precisions the controls offer
// (cancellation is common/cancel.h). No LibTorch.
#pragma once

#include "common/cancel.h"

#include <string>
#include <vector>

namespace lwb::lab {

// Working precisions the lab runs a method in: "float32", "bfloat16". (Methods, clip
// implementations and Newton–Schulz sets are listed by their registries:
// spectral/constraint_methods.h, spectral/ns_coefficients.h.)
std::vector<std::string> labDtypeIds();

}  // namespace lwb::lab
