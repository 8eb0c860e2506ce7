// Kim et al.'s L2-MHA (SEEDS-002-004 §C.5, G.3.3), its Lipschitz bound and 004 Eq. 6 as printed.
#include "attention/l2_attention.h"

#include "attention/attention_common.h"
#include "common/batched_gemm.h"
#include "attention/lambert_w.h"

#include <ATen/TensorOperators.h>

#include <cmath>
#include <stdexcept>

namespace lwb::attention {
namespace {

void check(const at::Tensor& x, const L2AttentionWeights& w) {
  if (!w.query.defined() || w.query.dim() != 3 || !w.value.defined() || w.value.sizes() != w.query.sizes() ||
      !w.out.defined() || w.out.dim() != 2 || w.out.size(0) != w.query.size(0) * w.query.size(2))
    throw std::invalid_argument("l2 attention: weights must be W_Q, W_V [H, d, d_h] and W^O [H·d_h, d]");
  if (!x.defined() || (x.dim() != 2 && x.dim() != 3) || x.size(-1) != w.query.size(1))
    throw std::invalid_argument("l2 attention: X must be [N, d] or [B, N, d] with d = W_Q.size(1)");
}

// c_N · √(Σ_h (‖W_Q^h‖₂^queryPower ‖W_V^h‖₂)²) · ‖W^O‖₂: per-head constants add in squares
// through the concatenation of the heads.
double headsBound(const L2AttentionWeights& w, int64_t tokens, int queryPower) {
  const auto q = spectralNorms(w.query), v = spectralNorms(w.value);
  const double heads = (q.pow(queryPower) * v).pow(2).sum().sqrt().item<double>();
  return l2BoundTokenFactor(tokens, static_cast<double>(w.query.size(2))) * heads * spectralNorm(w.out);
}

}  // namespace

at::Tensor l2Attention(const at::Tensor& x, const L2AttentionWeights& w) {
  check(x, w);
  const auto x3 = asBatch(x);
  const int64_t b = x3.size(0), n = x3.size(1), heads = w.query.size(0), dh = w.query.size(2);
  const double sqrtDh = std::sqrt(static_cast<double>(dh));
  // [B·H, N, d_h]; keys are the same (tied). Per (sample, head) products by one BLAS call
  // each (common/batched_gemm.h).
  const auto q = headProjections(x3, w.query);
  const auto sq = q.pow(2).sum(-1);
  // −‖q_i − q_j‖² = −‖q_i‖² − ‖q_j‖² + 2⟨q_i, q_j⟩
  const auto s = (batchedGemm(q, q.transpose(1, 2), at::Tensor(), 2.0) - sq.unsqueeze(-1) - sq.unsqueeze(-2)) / sqrtDh;
  const auto p = s.softmax(-1);
  // X A_h W_V^h with A_h = W_Q^h W_Q^hᵀ/√d_h: (X W_Q^h) (W_Q^hᵀ W_V^h) / √d_h, the second
  // factor per head [H, d_h, d_h], broadcast over the batch as a stride-0 view.
  const auto values = w.plainValue ? headProjections(x3, w.value)
                                   : batchedGemm(q,
                                                 w.query.transpose(-1, -2).matmul(w.value).unsqueeze(0).expand({b, heads, dh, dh}).reshape({b * heads, dh, dh}),
                                                 at::Tensor(), 1.0 / sqrtDh);
  const auto y = concatHeads(batchedGemm(p, values, at::Tensor(), 1.0).view({b, heads, n, dh}), w.out);
  return x.dim() == 2 ? y.squeeze(0) : y;
}

std::optional<double> l2AttentionBound(const L2AttentionWeights& w, int64_t tokens) {
  if (w.plainValue) return std::nullopt;  // Eq. 5 as printed has no global bound (G.3.3)
  return headsBound(w, tokens, 2);  // ‖W_Q^h‖₂² from A_h = W_Q^h W_Q^hᵀ/√d_h
}

double l2AttentionBoundAsPrinted(const L2AttentionWeights& w, int64_t tokens) {
  return headsBound(w, tokens, 1);  // ‖W_Q^h‖₂ once, as 004 Eq. 6 prints it
}

L2AttentionWeights l2AttentionInit(int64_t dim, int64_t heads, uint64_t seed, at::ScalarType dtype,
                                   bool plainValue) {
  const int64_t dh = headDim(dim, heads);
  auto gen = seededGenerator(seed);
  L2AttentionWeights w;
  w.query = xavierBlocks(gen, heads, dim, dh).to(dtype);
  w.value = xavierBlocks(gen, heads, dim, dh).to(dtype);
  w.out = gaussian(gen, heads * dh, dim, 1.0 / std::sqrt(static_cast<double>(dim))).to(dtype);
  w.plainValue = plainValue;
  return w;
}

}  // namespace lwb::attention
