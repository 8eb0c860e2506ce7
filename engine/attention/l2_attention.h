// ℓ2 multi-head attention of Kim et al. 2021 (seed 004 Eq. 4–6, SEEDS-002-004 §C.5) with
// tied keys W_K ≡ W_Q by construction (there is no key matrix to set), its global Lipschitz
// bound (Kim et al.'s, with ‖W_Q^h‖₂ squared), and 004's Eq. 6 as printed (not a bound).
//   S^h_ij = −‖x_i W_Q^h − x_j W_Q^h‖² / √d_h,  P^h = softmax_row(S^h)
//   F^h(X) = P^h X A_h W_V^h,  A_h = W_Q^h W_Q^hᵀ / √d_h      (Kim's L2-MHA)
//   Att_ℓ2(X) = concat_h F^h(X) · W^O
// Option plainValue drops A_h (004 Eq. 5 as printed, G.3.3): then no bound holds.
#pragma once

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <optional>

namespace lwb::attention {

struct L2AttentionWeights {
  at::Tensor query;  // [H, d, d_h]: W_Q^h (= W_K^h)
  at::Tensor value;  // [H, d, d_h]: W_V^h
  at::Tensor out;    // [H·d_h, d]: W^O
  bool plainValue = false;  // Eq. 5 (X W_V^h) instead of Kim's X A_h W_V^h
};

// X [N, d] or [B, N, d] -> same shape.
at::Tensor l2Attention(const at::Tensor& x, const L2AttentionWeights& w);

// The global ℓ2 Lipschitz bound of the block (docs/DESIGN.md "The ℓ2-attention bound"):
//   c_N · √(Σ_h (‖W_Q^h‖₂² ‖W_V^h‖₂)²) · ‖W^O‖₂,  c_N = (√N/√d_h)(4 W₀((N−1)/e) + 1).
// Head h is F^h = f^h·W_V^h with f^h(X) = P^h X A_h, and Kim's single-head bound is
// Lip(f^h) ≤ c_N ‖W_Q^h‖₂² (A_h = W_Q^h W_Q^hᵀ/√d_h carries W_Q twice); the heads combine
// through the concatenation, ‖[ΔF^1 … ΔF^H]‖_F ≤ √(Σ_h Lip(F^h)²)‖ΔX‖_F. Spectral norms by
// the exact SVD (an upper bound is needed). nullopt with plainValue (no bound, G.3.3).
std::optional<double> l2AttentionBound(const L2AttentionWeights& w, int64_t tokens);

// 004 Eq. 6 as printed (= SEEDS C.5): c_N · √(Σ_h ‖W_Q^h‖₂² ‖W_V^h‖₂²) · ‖W^O‖₂. NOT an upper
// bound: it charges ‖W_Q^h‖₂ once, and with W_Q = 7·I (d = d_h = 4) the block's Lipschitz
// constant (≥ 49/√4 = 24.5, a closed form) is above it (23.9 at N = 4; tst_l2_attention).
// Kept because 004 Table 1's "Theoretical" row is this number; every place that shows it
// labels it as the paper's formula. Computed with plainValue too (it is only a formula).
double l2AttentionBoundAsPrinted(const L2AttentionWeights& w, int64_t tokens);

// Xavier-normal per head block (std √(2/(d + d_h))) for W_Q^h, W_V^h; W^O std 1/√d (G.3.5).
L2AttentionWeights l2AttentionInit(int64_t dim, int64_t heads, uint64_t seed,
                                   at::ScalarType dtype = at::kDouble, bool plainValue = false);

}  // namespace lwb::attention
