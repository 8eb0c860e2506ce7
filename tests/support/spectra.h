// Exact references for the engine tests: singular values by float64 SVD and spectral maps.
#pragma once

#include <ATen/core/Tensor.h>

#include <functional>
#include <vector>

namespace lwb::test {

// Singular values, descending, by float64 SVD on the CPU.
std::vector<double> singularValues(const at::Tensor& w);

// U f(S) V^T of w (float64), the exact result of a spectral map f.
at::Tensor applySpectralMap(const at::Tensor& w, const std::function<double(double)>& f);

// Largest |a_i - b_i| over two descending lists of equal length.
double maxAbsDiff(const std::vector<double>& a, const std::vector<double>& b);

// Spectral norm of (a - b), in float64.
double spectralDistance(const at::Tensor& a, const at::Tensor& b);

// The 256x512-style test matrix: singular values log-spaced from sigma1 down to lo.
at::Tensor spectrumMatrix(int64_t m, int64_t n, double sigma1, double lo, uint64_t seed);

}  // namespace lwb::test
