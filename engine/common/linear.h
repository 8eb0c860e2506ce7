// The models' dense layers, y = x·wᵀ (at::linear without a bias), with every product — the
// forward and both gradients — on the routed float32 GEMM of common/blas_fns.h (issue 30 §2):
// at::linear runs OpenBLAS's sgemm through addmm, and on the presets' shapes (2,048 tokens
// against K = 64–256) oneDNN's kernel is 1.1–1.3× faster. A custom autograd function with the
// exact first-order gradient (∂x = g·w, ∂w = gᵀ·x); CPU float32 only, anything else (float64,
// CUDA, bf16, double backward) is at::linear, so results never depend on the route beyond
// rounding. Checked against at::linear in tst_fused_kernels.
#pragma once

#include <ATen/core/Tensor.h>

namespace lwb {

// x [..., in], w [out, in] → [..., out].
at::Tensor linear(const at::Tensor& x, const at::Tensor& w);

// Whether linear() takes the GEMM route for these operands (for tests and benchmarks).
bool linearUsesRoutedGemm(const at::Tensor& x, const at::Tensor& w);

}  // namespace lwb
