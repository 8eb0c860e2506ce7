// Symmetric products X Xᵀ through BLAS ?syrk. LibTorch has no syrk, and a GEMM computes both
// triangles of a result that is symmetric by construction. syrk computes one triangle: at
// 256×512 float32 on one core it takes 0.36 ms where the GEMM takes 0.65 ms (OpenBLAS 0.3.21,
// Haswell kernels). Every Newton–Schulz step forms two such products (A = X Xᵀ and A²).
#pragma once

#include <ATen/core/Tensor.h>

namespace lwb::spectral {

// x xᵀ for a matrix [m, k] (a stack [..., m, k] goes through matmul). The result is exactly
// symmetric: one triangle is computed and mirrored.
at::Tensor gramOfRows(const at::Tensor& x);

// beta * s + alpha * x xᵀ, for a symmetric s [m, m] (only one triangle of s is read). Exactly
// symmetric, like gramOfRows.
at::Tensor addGramOfRows(const at::Tensor& s, const at::Tensor& x, double beta, double alpha);

// In place: c = beta * c + alpha * x xᵀ for c [m, m] with unit column stride (a contiguous
// matrix or the square part of a row block, e.g. the P block of [P Q]); c's lower triangle
// must hold the accumulator when beta != 0. The whole of c is written, exactly symmetric.
// False (c untouched) when x or c cannot take the BLAS route: the caller uses a GEMM.
bool addGramOfRowsInto(at::Tensor& c, const at::Tensor& x, double beta, double alpha);

// Whether gramOfRows/addGramOfRows take the BLAS route for x (2-D, CPU, float32/float64, not
// recorded by autograd, BLAS with ?syrk loaded); otherwise they fall back to matmul / addMatmul. For tests.
bool usesBlasSyrk(const at::Tensor& x);

}  // namespace lwb::spectral
