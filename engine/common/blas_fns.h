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

// oneDNN's row-major float32 GEMM (dnnl_sgemm; dnnl_dim_t is int64_t), from the libdnnl that
// Debian's LibTorch links. Returns dnnl_status_t (0 = success).
using DnnlSgemmFn = int (*)(char transa, char transb, int64_t m, int64_t n, int64_t k, float alpha, const float* a,
                            int64_t lda, const float* b, int64_t ldb, float beta, float* c, int64_t ldc);

struct Functions {
  GemmFn<float> sgemm = nullptr;  // routedSgemm when oneDNN is loaded, else the BLAS's sgemm_
  GemmFn<double> dgemm = nullptr;
  SyrkFn<float> ssyrk = nullptr;
  SyrkFn<double> dsyrk = nullptr;
  GemmFn<float> blasSgemm = nullptr;  // the BLAS's own sgemm_, always
  DnnlSgemmFn dnnlSgemm = nullptr;    // null when libdnnl is not loaded or LWB_GEMM=blas
};

// The float32 GEMM behind gemm<float>() when oneDNN is loaded: the same Fortran (column-major)
// contract as sgemm_, computed by dnnl_sgemm for products of at least kDnnlMinWork = m·n·k
// multiply-adds and by the BLAS below that (docs/DESIGN.md "Which float32 GEMM"). On the
// presets' shapes (K = 64–256 against 2,048-row activations, Newton–Schulz on 256×784)
// oneDNN's JIT kernels ran 1.1–1.5× OpenBLAS's (no packing of the small operand, no zeroing of
// C); on products below 64³ (attention's per-head 64×64×16) its set-up costs more than the arithmetic.
inline constexpr int64_t kDnnlMinWork = int64_t{1} << 18;
// oneDNN runs every product on the calling thread alone. With more intra-op threads allowed,
// products of kDnnlParallelWork multiply-adds or more go to the (threaded) BLAS instead:
// inside a training step, waking the sleeping OpenMP team for a 2,048×64×64 product cost more
// than the split saved (chars_small_cpu at 2 threads: 0.93× the BLAS with every product split
// by oneDNN, 1.09× with those below 2²⁴ on one thread; MNIST Muon 1.01× / 1.06×), and one
// thread keeps oneDNN's kernels where signals can be blocked around them (blas_fns.cpp).
inline constexpr int64_t kDnnlParallelWork = int64_t{1} << 24;
void routedSgemm(const char* transa, const char* transb, const int* m, const int* n, const int* k, const float* alpha,
                 const float* a, const int* lda, const float* b, const int* ldb, const float* beta, float* c,
                 const int* ldc);

// For tests: oneDNN's routine replaced by `fn` inside routedSgemm (nullptr restores it), so a
// test can see the state the call runs in (signal mask, thread count).
void setDnnlSgemmForTesting(DnnlSgemmFn fn);

// Which routine serves a float32 product of these sizes ("onednn" or "blas"; for tests and
// the bench's report).
const char* sgemmRouteFor(int64_t m, int64_t n, int64_t k);

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
