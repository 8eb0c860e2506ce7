// The Fortran BLAS entry points (?gemm_, ?syrk_) of the BLAS that LibTorch already loaded,
// looked up at run time: every BLAS exports them (OpenBLAS, reference BLAS, BLIS), so the build
// needs no BLAS development files, and a LibTorch bundling a private BLAS (pip wheels) finds
// none and its callers fall back to ATen. Shared by the symmetric products, Newton–Schulz and
// attention's batched products (issue 30), which call BLAS directly to skip ATen's per-call
// allocation and dispatch on small matrices.
#pragma once

#include <algorithm>
#include <cstdint>

namespace lwb::blas {

template <class T>
using GemmFn = void (*)(const char* transa, const char* transb, const int* m, const int* n, const int* k, const T* alpha,
                        const T* a, const int* lda, const T* b, const int* ldb, const T* beta, T* c, const int* ldc);
template <class T>
using SyrkFn = void (*)(const char* uplo, const char* trans, const int* n, const int* k, const T* alpha, const T* a,
                        const int* lda, const T* beta, T* c, const int* ldc);

struct Functions {
  GemmFn<float> sgemm = nullptr;
  GemmFn<double> dgemm = nullptr;
  SyrkFn<float> ssyrk = nullptr;
  SyrkFn<double> dsyrk = nullptr;
};

// Looked up once; a member is null when the loaded BLAS lacks it.
const Functions& functions();

template <class T>
GemmFn<T> gemm();
template <>
inline GemmFn<float> gemm<float>() { return functions().sgemm; }
template <>
inline GemmFn<double> gemm<double>() { return functions().dgemm; }
template <class T>
SyrkFn<T> syrk();
template <>
inline SyrkFn<float> syrk<float>() { return functions().ssyrk; }
template <>
inline SyrkFn<double> syrk<double>() { return functions().dsyrk; }

// ?syrk with uplo 'U' fills the column-major upper triangle = the row-major lower one (i ≥ j);
// this copies it to the upper triangle so the result is a plain symmetric matrix. In 32×32
// tiles: the column reads of a row-by-row copy miss the cache at m ≳ 256 (tiles measured 2–3×
// faster at m = 256 and 768). ld: the row stride of c (m for a contiguous matrix).
template <class T>
void mirrorLowerToUpper(T* c, int64_t m, int64_t ld) {
  constexpr int64_t kTile = 32;
  for (int64_t ib = 0; ib < m; ib += kTile)
    for (int64_t jb = ib; jb < m; jb += kTile) {
      const int64_t ie = std::min(ib + kTile, m), je = std::min(jb + kTile, m);
      for (int64_t i = ib; i < ie; ++i)
        for (int64_t j = std::max(jb, i + 1); j < je; ++j) c[i * ld + j] = c[j * ld + i];
    }
}

}  // namespace lwb::blas
