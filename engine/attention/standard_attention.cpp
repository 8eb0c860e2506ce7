// Standard multi-head softmax attention and Thm 1's local bound of 004 (SEEDS §C.6).
#include "attention/standard_attention.h"

#include "attention/attention_common.h"
#include "common/batched_gemm.h"

#include <ATen/TensorOperators.h>

#include <cmath>
#include <stdexcept>

namespace lwb::attention {

at::Tensor standardAttention(const at::Tensor& x, const StandardAttentionWeights& w) {
  if (!w.query.defined() || w.query.dim() != 3 || w.key.sizes() != w.query.sizes() ||
      w.value.sizes() != w.query.sizes() || w.out.dim() != 2 ||
      w.out.size(0) != w.query.size(0) * w.query.size(2))
    throw std::invalid_argument("standard attention: weights must be W_Q, W_K, W_V [H, d, d_h], W^O [H·d_h, d]");
  if (!x.defined() || (x.dim() != 2 && x.dim() != 3) || x.size(-1) != w.query.size(1))
    throw std::invalid_argument("standard attention: X must be [N, d] or [B, N, d] with d = W_Q.size(1)");
  const auto x3 = asBatch(x);
  const int64_t b = x3.size(0), n = x3.size(1), heads = w.query.size(0), dh = w.query.size(2);
  // Per (sample, head) products by one BLAS call each (common/batched_gemm.h).
  const auto q = headProjections(x3, w.query), k = headProjections(x3, w.key), v = headProjections(x3, w.value);
  const auto p = batchedGemm(q, k.transpose(1, 2), at::Tensor(), 1.0 / std::sqrt(static_cast<double>(dh))).softmax(-1);
  const auto y = concatHeads(batchedGemm(p, v, at::Tensor(), 1.0).view({b, heads, n, dh}), w.out);
  return x.dim() == 2 ? y.squeeze(0) : y;
}

double standardAttentionLocalBound(const StandardAttentionWeights& w, int64_t tokens, double x0Frobenius,
                                   double delta0) {
  if (tokens < 1 || !(x0Frobenius >= 0) || !(delta0 >= 0))
    throw std::invalid_argument("standard attention bound: needs tokens >= 1, ‖X₀‖ >= 0, δ₀ >= 0");
  const auto q = spectralNorms(w.query), k = spectralNorms(w.key), v = spectralNorms(w.value);
  const double n = static_cast<double>(tokens);
  const double ball = std::pow(x0Frobenius + delta0, 2);
  // ‖W_K^hᵀ‖ = ‖W_K^h‖. As stated in 004 (no 1/√d_h, O(N²)).
  const auto lh = n * (n + 1) * ball * (v * q * k + v);
  return spectralNorm(w.out) * lh.pow(2).sum().sqrt().item<double>();
}

StandardAttentionWeights standardAttentionInit(int64_t dim, int64_t heads, uint64_t seed, at::ScalarType dtype) {
  const int64_t dh = headDim(dim, heads);
  auto gen = seededGenerator(seed);
  StandardAttentionWeights w;
  w.query = xavierBlocks(gen, heads, dim, dh).to(dtype);
  w.key = xavierBlocks(gen, heads, dim, dh).to(dtype);
  w.value = xavierBlocks(gen, heads, dim, dh).to(dtype);
  w.out = gaussian(gen, heads * dh, dim, 1.0 / std::sqrt(static_cast<double>(dim))).to(dtype);
  return w;
}

}  // namespace lwb::attention
