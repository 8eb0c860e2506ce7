// Per-matrix spectral statistics for inspecting checkpoints (lipschitz-cli inspect, the
// Checkpoint Inspector). Shapes follow torch.nn.Linear: a (d_out, d_in) matrix, so the
// RMS->RMS norm is sigma1 sqrt(d_in / d_out) (000 §3.1).
#pragma once

#include <ATen/core/Tensor.h>

#include <vector>

namespace lwb::spectral {

struct MatrixStats {
  double sigma1 = 0;
  double rmsNorm = 0;        // sigma1 sqrt(d_in / d_out)
  double stableRank = 0;     // ||W||_F^2 / sigma1^2 (0 for the zero matrix)
  double frobenius = 0;
  std::vector<double> singularValues;  // descending, min(d_out, d_in) of them
};

// All singular values of a 2-D tensor of any floating dtype, descending. Uses the
// eigenvalues of the smaller float64 Gram matrix (W^T W or W W^T): one GEMM plus a
// symmetric eigensolve, ~4x faster than an SVD of a wide or tall float32 matrix on CPU.
// Accuracy: absolute error ~ 1e-16 sigma1^2 / sigma_i, so sigma_i / sigma1 >= 1e-6 keeps a
// relative error below 1e-4 (tested against the exact SVD).
// A narrower dtype (float32, float16, bfloat16) is converted slice by slice of its long side,
// `sliceEntries` entries at a time, into one reused float64 buffer (matrix_stats.cpp says why);
// tests pass a small value to exercise several slices.
inline constexpr int64_t kGramSliceEntries = int64_t{1} << 20;
std::vector<double> singularValuesViaGram(const at::Tensor& w, int64_t sliceEntries = kGramSliceEntries);

// The statistics above from the singular values of `w` (rank 2, floating; caller checks).
MatrixStats matrixStats(const at::Tensor& w);

}  // namespace lwb::spectral
