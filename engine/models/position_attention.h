// The attention matrix of position scores (model.attention_scores = position, issue 25) as one
// fused kernel (issue 30 §2): A[h, i, j] = softmax_j(pos[h, i − j]) over j ≤ i, 0 above the
// diagonal. Unfused it is index_select (the Toeplitz gather), the causal bias add and softmax
// forward; backward softmax's backward, the add's and index_select's, whose index_add_ walks
// the 4,096 offsets with one ATen select each (0.22 ms per block, lipschitz-cli bench
// --roofline). Here both directions are one loop over h·t² entries.
#pragma once

#include <ATen/core/Tensor.h>

namespace lwb::models {

// pos [h, T] (T ≥ t ≥ 1), float32 or float64. Returns A [h, t, t], differentiable in pos
// (first order). CPU tensors take the fused loop; other devices the unfused ATen ops.
at::Tensor positionAttention(const at::Tensor& pos, int64_t t);

// The unfused reference the kernel replaces (index_select, causal -inf bias, softmax): for
// tests and for devices without the loop.
at::Tensor positionAttentionUnfused(const at::Tensor& pos, int64_t t);

}  // namespace lwb::models
