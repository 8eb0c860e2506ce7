// Matrices with a chosen spectrum: U diag(s) V^T with Haar-random orthonormal U, V.
// Used by tests (exact references), benchmarks, the CLI demo and teaching pages.
#pragma once

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <vector>

namespace lwb::spectral {

// count values log-spaced from hi down to lo (hi first), both > 0.
std::vector<double> logSpacedSpectrum(int64_t count, double hi, double lo);

// An m x n float64 CPU matrix whose singular values are `spectrum` (sorted descending,
// padded with zeros / truncated to min(m, n)), reproducible from `seed`.
at::Tensor matrixWithSpectrum(int64_t m, int64_t n, const std::vector<double>& spectrum,
                              uint64_t seed);

}  // namespace lwb::spectral
