// Attention's batched products, out[i] = bias + alpha · a[i] · b[i], as one BLAS GEMM call per
// matrix from a loop over the batch (issue 30 §2). LibTorch 1.13's CPU bmm/baddbmm without
// MKL loops over the batch itself, but through ATen ops: per matrix a select of the output
// and both inputs, resolve_conj and addmm dispatch — 18 k selects per ICL training step,
// several µs per matrix against ~1–3 µs of arithmetic for attention's 64×64×16 products
// (lipschitz-cli bench --roofline). Gradients by the same loop (a custom autograd function).
#pragma once

#include <ATen/core/Tensor.h>

namespace lwb {

// a [B, m, k], b [B, k, n]; bias [m, n] (broadcast over B) or undefined. Any strides (a
// matrix without a unit stride is copied). CPU float32/float64 with BLAS: the loop above,
// the batch split over the intra-op threads; otherwise at::baddbmm / at::bmm. Differentiable
// in a and b (first order), not in bias.
at::Tensor batchedGemm(const at::Tensor& a, const at::Tensor& b, const at::Tensor& bias, double alpha);

// Whether batchedGemm takes the BLAS loop for these operands (for tests and benchmarks).
bool batchedGemmUsesBlas(const at::Tensor& a, const at::Tensor& b);

}  // namespace lwb
