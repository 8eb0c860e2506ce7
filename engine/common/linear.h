// The models' dense products on the routed float32 GEMM of common/blas_fns.h (issue 30 §2):
// ATen's mm/addmm run OpenBLAS's sgemm, and on the presets' shapes (2,048 tokens against
// K = 64–256) oneDNN's kernel is 1.1–1.35× faster. Custom autograd functions with the exact
// first-order gradient (∂a = g·bᵀ, ∂b = aᵀ·g), operands passed as BLAS transposes where their
// strides allow (no copies of wᵀ or of permuted views with a unit stride). CPU float32 only;
// anything else (float64, CUDA, bf16, double backward) is ATen's op, so results never depend
// on the route beyond rounding. Checked against float64 products in tst_fused_kernels.
#pragma once

#include <ATen/core/Tensor.h>

namespace lwb {

// a [m, k] · b [k, n] (at::mm).
at::Tensor mm(const at::Tensor& a, const at::Tensor& b);

// x [..., in], w [out, in] → x·wᵀ [..., out] (at::linear without a bias).
at::Tensor linear(const at::Tensor& x, const at::Tensor& w);

// a [m, k] · b [k, n] on the routed GEMM into a new contiguous tensor, no autograd: for fused
// functions that own their backward (models/fused_ops.cpp). Needs mmUsesRoutedGemm(a, b).
at::Tensor routedProduct(const at::Tensor& a, const at::Tensor& b);

// Whether mm() takes the routed GEMM for these operands (for tests and benchmarks).
bool mmUsesRoutedGemm(const at::Tensor& a, const at::Tensor& b);

}  // namespace lwb
