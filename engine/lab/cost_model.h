// A rough time of one Clip Lab request on a CPU, only to warn before a computation that takes
// many seconds (the page asks "Compute anyway?" above a threshold, since one LibTorch call
// cannot be interrupted). A FLOP count per constraint implementation divided by a GEMM rate:
// ~150 GFLOP/s in float32, ~3.3× that in bfloat16. No LibTorch.
#pragma once

#include "lab/constraint_lab.h"

namespace lwb::lab {

// FLOPs of `r` on a rows × cols matrix: the soft cap and the like ~8 m²n, the nested
// Newton–Schulz form 2 (4 m²n + 2 m³) per step, the ABD forms 6 (m + n)³ per step, the SVD
// ~20 m²n (m ≤ n the short side).
double constraintFlops(const ConstraintRequest& r, double rows, double cols);

// Seconds at the assumed GEMM rate for r.dtype.
double estimatedSeconds(const ConstraintRequest& r, double rows, double cols);

}  // namespace lwb::lab
