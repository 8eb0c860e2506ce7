// msign by Newton–Schulz iteration (Jordan et al. 2024; You 2025), the building block of
// every polynomial weight-constraint method. 001 = spectral-clipping-newton-schulz.md.
#pragma once

#include "spectral/ns_coefficients.h"

#include <ATen/core/Tensor.h>

#include <vector>

namespace lwb::spectral {

// msign(W) = U V^T for W = U S V^T, on a matrix or a stack [..., m, n]; any device,
// float32/float64/bfloat16 (iterates in W's dtype). W is first normalised by its Frobenius
// norm and transposed if tall, so the Gram matrix is the small side (min(m,n)^2).
at::Tensor msign(const at::Tensor& w, const NewtonSchulzConfig& cfg = NewtonSchulzConfig::muon());
// The same for one matrix whose Frobenius norm the caller already has (Muon's fused momentum
// pass computes it): one scaling pass instead of square, sum and divide.
at::Tensor msign(const at::Tensor& w, const NewtonSchulzConfig& cfg, double frobenius);

// Same iteration on an already-normalised X (all singular values <= 1) without transposing;
// exposed for the anti-block-diagonal implementation, which feeds square symmetric input.
at::Tensor newtonSchulzIterate(at::Tensor x, const std::vector<NsTuple>& schedule);

// Frobenius norm per matrix of a stack, shape [..., 1, 1], accumulated in float32 at least.
at::Tensor frobeniusNorm(const at::Tensor& w);

// out = beta * self + alpha * (a @ b) for matrices or stacks of matrices, fused where the
// backend has a kernel for it (addmm / baddbmm).
at::Tensor addMatmul(const at::Tensor& self, const at::Tensor& a, const at::Tensor& b,
                     double beta, double alpha);

// The same into a preallocated `out` (may be a strided view, e.g. a block of a larger
// matrix; GEMM writes it in place). Matrices or one batch dimension only. With beta = 0,
// `self` is ignored.
void addMatmulOut(at::Tensor out, const at::Tensor& self, const at::Tensor& a, const at::Tensor& b,
                  double beta, double alpha);

}  // namespace lwb::spectral
