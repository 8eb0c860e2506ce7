// Fused kernels of the in-context transformer's attention and MLP (issue 30 §2), in the
// manner of models/fused_ops.h: one pass forward and one backward where ATen runs a pass per
// op, custom autograd functions with exact first-order gradients, checked against the
// unfused ops (the *Unfused functions below, which are also the fallback) in tst_fused_kernels.
// CPU float32/float64 take the loops; anything else the unfused ATen ops.
#pragma once

#include <ATen/core/Tensor.h>

#include <array>

namespace lwb::models {

// Row-wise softmax of scores [..., n, n] under the causal mask (key j > query i gets weight 0).
// Unfused: a mask built per call, masked_fill, softmax; backward softmax_backward and
// masked_fill's.
at::Tensor causalSoftmax(const at::Tensor& scores);
at::Tensor causalSoftmaxUnfused(const at::Tensor& scores);

// SwiGLU with a trainable Swish β: for mg = [m | g] (last dimension 2h),
// z = m ⊙ g ⊙ σ(β g), shape [..., h]; β a one-element tensor. Unfused: two narrows, four
// elementwise ops forward, about ten backward.
at::Tensor swiGlu(const at::Tensor& mg, const at::Tensor& beta);
at::Tensor swiGluUnfused(const at::Tensor& mg, const at::Tensor& beta);

// The fused qkv projection's output [B, N, 3d] split into heads {q, k, v}, each
// [B·heads, N, d/heads] contiguous, with q and k rotated by RoPE for positions
// offset, …, offset + N − 1 (θ_{p,i} = p·10000^(−2i/d_head), rotate-half pairing
// (x_i, x_{i + d_head/2})). Unfused: narrows, transposes, the rotation's six elementwise ops
// and a cat per tensor, the heads' reshape copies.
std::array<at::Tensor, 3> ropeHeads(const at::Tensor& qkv, int64_t heads, int64_t offset);
std::array<at::Tensor, 3> ropeHeadsUnfused(const at::Tensor& qkv, int64_t heads, int64_t offset);

}  // namespace lwb::models
