// Fused elementwise kernels for the Lipschitz transformers' chains (issue 30 §2): one pass
// forward and one backward where ATen runs a pass per op. Each is a custom autograd function
// with an exact first-order gradient, checked against the unfused ops in tst_fused_kernels.
// CPU float32/float64 tensors take the loops; anything else (CUDA, bf16, double backward) the
// unfused ATen ops, so results never depend on which route ran beyond rounding.
#pragma once

#include <ATen/core/Tensor.h>

namespace lwb::models {

// p·x + q·y for same-shaped x, y: the convex residual (1 − a)·x + a·block(x), with the GELU's
// 1/1.1289 folded into q. Unfused: a mul and an add forward (two passes, two tensors), a mul
// per input backward.
at::Tensor residualMix(const at::Tensor& x, const at::Tensor& y, double p, double q);

// GELU (erf form) of a float32 tensor, forward and derivative in one pass: backward is one
// multiply by the saved derivative instead of gelu_backward's second erf/exp pass. Φ within
// 1.5e−7 (Abramowitz & Stegun 7.1.26, as oneDNN's gelu_erf that ATen's CPU gelu runs); float64
// and other devices take at::gelu.
at::Tensor gelu(const at::Tensor& x);

// MaxMin (GroupSort of size 2) over the pairs (h_i, h_{i + m/2}) of the last dimension m
// (even): [max(h_i, h_{i+m/2}) | min(h_i, h_{i+m/2})]. One pass forward, one backward (the
// gradient routed by the same comparison) instead of maximum, minimum and cat with their
// masks; other devices take those ops.
at::Tensor maxMin(const at::Tensor& h);

// The MaxMin MLP W_out · MaxMin(W_in · x) for x [..., d], W_in [m, d], W_out [d_out, m]: one
// function owning its buffers, so MaxMin runs in place on the hidden product forward and on
// its gradient backward (a byte per pair remembers the swaps) instead of two more [N, m]
// tensors. CPU float32 on the routed GEMM; anything else is linear ∘ maxMin ∘ linear.
at::Tensor maxMinMlp(const at::Tensor& x, const at::Tensor& wIn, const at::Tensor& wOut);

// Mean cross-entropy of the rows of z [N, C] against targets [N] (int64 in [0, C), or
// ignoreIndex for a row the mean skips), as at::cross_entropy_loss with that ignore_index.
// Forward keeps softmax(z), so backward is one pass: ∂/∂z = (softmax − onehot)·g/count.
// Unfused: log_softmax and nll_loss forward, nll_loss's backward (a zero fill and a scatter)
// and log_softmax's backward.
at::Tensor crossEntropy(const at::Tensor& z, const at::Tensor& targets, int64_t ignoreIndex);

// The causal input convolution's taps of x [B, T, d] (issue 25's input_conv): [B, T, k·d] with
// row t = [x_t | x_{t−1} | … | x_{t−k+1}], zero where t − o < 0, so one GEMM with the d × kd
// matrix is the convolution. One pass forward and one backward (∂x_t = Σ_o ∂row_{t+o}'s block
// o) where the unfused ops ran a pad per shift, a cat, and backward slices, zero fills and adds
// (3.0 of chars_small_cpu's 42 profiled ms/step).
at::Tensor causalTaps(const at::Tensor& x, int64_t k);

// Whether the fused loops serve these tensors (CPU, float32/float64); for tests and benches.
bool fusedOpsApply(const at::Tensor& x);

}  // namespace lwb::models
