// The Clip Lab's "Stiefel retraction" demo (seed 002, SEEDS-002-004 §A.4): a matrix W on the
// Stiefel manifold (all singular values 1), a step W − ηA off it (A = msign of a Gaussian),
// and the spectrum after msign with every Newton–Schulz coefficient set at its default step
// count: only a convergent set retracts back to σ = 1 (Polar Express: 1 ± 4e−7 in float32;
// Jordan's quintic lands in ~[0.7, 1.2]). No LibTorch in this header.
#pragma once

#include "lab/lab_types.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lwb::lab {

struct StiefelRetractionRequest {
  int64_t rows = 128, cols = 64;  // W is rows × cols
  double eta = 0.1;               // step size
  uint64_t seed = 0;
  std::string dtype = "float32";  // precision of the iteration
};

struct RetractionOutcome {
  std::string coefficients;        // registry key
  int steps = 0;
  std::vector<double> singularValues;  // of msign(W − ηA), descending (float64 SVD)
  double maxDeviation = 0;             // max |σ − 1|
};

struct StiefelRetraction {
  std::vector<double> before;  // σ of W − ηA, descending
  std::vector<RetractionOutcome> after;  // one per coefficient set, registry order
};

// InputError for sizes outside 2..2048, η outside (0, 10] or an unknown dtype; Cancelled
// between the sets.
StiefelRetraction stiefelRetraction(const StiefelRetractionRequest& r, const CancelFlag* cancel = nullptr);

}  // namespace lwb::lab
