// Shared pieces of the three attention blocks (internal to engine/attention).
#pragma once

#include <ATen/core/Generator.h>
#include <ATen/core/Tensor.h>

#include <cstdint>

namespace lwb::attention {

// [N, d] -> [1, N, d]; [B, N, d] unchanged.
at::Tensor asBatch(const at::Tensor& x);

// d_h = dim / heads; std::invalid_argument unless dim, heads >= 1 and heads divides dim.
int64_t headDim(int64_t dim, int64_t heads);

at::Generator seededGenerator(uint64_t seed);

// [heads, rows, cols] float64, each block Xavier-normal: std √(2/(rows + cols)) (G.3.5).
at::Tensor xavierBlocks(at::Generator& gen, int64_t heads, int64_t rows, int64_t cols);

// [rows, cols] float64 with entries N(0, std²).
at::Tensor gaussian(at::Generator& gen, int64_t rows, int64_t cols, double std);

// σ₁ of a matrix, or of each matrix of a [H, m, n] stack, by the exact float64 SVD.
double spectralNorm(const at::Tensor& m);
at::Tensor spectralNorms(const at::Tensor& stack);  // [H] float64

// x [B, N, d] times each head's W [H, d, d_h], as [B·H, N, d_h] contiguous: one GEMM against
// the heads side by side ([d, H·d_h]) and one copy into head-major order, instead of
// matmul's broadcast over [B, 1, N, d] × [H, d, d_h], whose CPU bmm loop selects each of the
// B·H matrices through ATen (issue 30 §2).
at::Tensor headProjections(const at::Tensor& x, const at::Tensor& w);

// Σ_h m_h W^h for m [B, H, N, d_h] and W [H, d_h, d]: one GEMM of the heads side by side
// ([B·N, H·d_h] × [H·d_h, d]), the sum over heads inside it. Result [B, N, d].
at::Tensor headsSum(const at::Tensor& m, const at::Tensor& w);

// a b per (sample, head) for [B, H, ·, ·] stacks, by common/batched_gemm.h (one BLAS call per
// matrix instead of matmul's bmm loop of ATen selects), times alpha. Result [B, H, rows, cols].
at::Tensor headsProduct(const at::Tensor& a, const at::Tensor& b, double alpha = 1.0);

// Multi-head output concat_h F^h · W^O for F [B, H, N, d_h], W^O [H·d_h, d] -> [B, N, d].
at::Tensor concatHeads(const at::Tensor& f, const at::Tensor& out);

}  // namespace lwb::attention
