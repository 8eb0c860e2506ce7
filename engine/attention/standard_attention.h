// Standard (non-causal) multi-head softmax attention (seed 004 Eq. 1–3) and the local bound
// of its Thm 1 "as stated in 004" (SEEDS-002-004 §C.6): O(N²), without 1/√d_h.
#pragma once

#include <ATen/core/Tensor.h>

#include <cstdint>

namespace lwb::attention {

struct StandardAttentionWeights {
  at::Tensor query, key, value;  // [H, d, d_h] each
  at::Tensor out;                // [H·d_h, d]
};

// Att(X) = concat_h softmax_row((X W_Q^h)(X W_K^h)ᵀ/√d_h) X W_V^h · W^O; X [N, d] or [B, N, d].
at::Tensor standardAttention(const at::Tensor& x, const StandardAttentionWeights& w);

// Thm 1 as stated in 004, on the ball X ∈ B_F(X₀, δ₀):
//   L_h = N(N+1)(‖X₀‖_F + δ₀)² [‖W_V^h‖‖W_Q^h‖‖W_K^hᵀ‖ + ‖W_V^h‖],  L ≤ ‖W_O‖ (Σ_h L_h²)^{1/2}
// with exact spectral norms.
double standardAttentionLocalBound(const StandardAttentionWeights& w, int64_t tokens, double x0Frobenius,
                                   double delta0);

// Xavier-normal per head block for W_Q, W_K, W_V; W^O std 1/√d (G.3.5).
StandardAttentionWeights standardAttentionInit(int64_t dim, int64_t heads, uint64_t seed,
                                               at::ScalarType dtype = at::kDouble);

}  // namespace lwb::attention
