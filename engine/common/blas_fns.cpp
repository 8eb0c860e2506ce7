#include "common/blas_fns.h"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>

namespace lwb::blas {

namespace {

// LWB_GEMM=blas keeps every float32 product on the BLAS (to compare against it, or to rule
// oneDNN out when something looks wrong); anything else lets routedSgemm choose.
DnnlSgemmFn lookUpDnnl() {
  const char* choice = std::getenv("LWB_GEMM");
  if (choice && std::strcmp(choice, "blas") == 0) return nullptr;
  return reinterpret_cast<DnnlSgemmFn>(dlsym(RTLD_DEFAULT, "dnnl_sgemm"));
}

}  // namespace

const Functions& functions() {
  static const Functions f = [] {
    Functions out;
    out.blasSgemm = reinterpret_cast<GemmFn<float>>(dlsym(RTLD_DEFAULT, "sgemm_"));
    out.dgemm = reinterpret_cast<GemmFn<double>>(dlsym(RTLD_DEFAULT, "dgemm_"));
    out.ssyrk = reinterpret_cast<SyrkFn<float>>(dlsym(RTLD_DEFAULT, "ssyrk_"));
    out.dsyrk = reinterpret_cast<SyrkFn<double>>(dlsym(RTLD_DEFAULT, "dsyrk_"));
    out.dnnlSgemm = out.blasSgemm ? lookUpDnnl() : nullptr;
    out.sgemm = out.dnnlSgemm ? &routedSgemm : out.blasSgemm;
    return out;
  }();
  return f;
}

const char* sgemmRouteFor(int64_t m, int64_t n, int64_t k) {
  const auto& f = functions();
  const bool big = m > 0 && n > 0 && k > 0 && m * n >= kDnnlMinWork / k;
  return f.dnnlSgemm && big ? "onednn" : "blas";
}

void routedSgemm(const char* transa, const char* transb, const int* m, const int* n, const int* k, const float* alpha,
                 const float* a, const int* lda, const float* b, const int* ldb, const float* beta, float* c,
                 const int* ldc) {
  const auto& f = functions();
  if (f.dnnlSgemm && *m > 0 && *n > 0 && *k > 0 &&
      static_cast<int64_t>(*m) * *n >= kDnnlMinWork / *k) {
    // Column-major C = op(A)·op(B) is row-major Cᵀ = op(B)ᵀ·op(A)ᵀ, and a column-major
    // operand read row-major is its transpose: the same flags, the operands swapped.
    using GetFn = int (*)();
    using SetFn = void (*)(int);
    static const auto ompMax = reinterpret_cast<GetFn>(dlsym(RTLD_DEFAULT, "omp_get_max_threads"));
    static const auto ompSet = reinterpret_cast<SetFn>(dlsym(RTLD_DEFAULT, "omp_set_num_threads"));
    const int threads = ompMax && ompSet ? ompMax() : 1;
    if (threads > 1 && static_cast<int64_t>(*m) * *n * *k < kDnnlParallelWork) {
      // One thread for this call only (the OpenMP count is per calling thread; restored after).
      ompSet(1);
      const int status = f.dnnlSgemm(*transb, *transa, *n, *m, *k, *alpha, b, *ldb, a, *lda, *beta, c, *ldc);
      ompSet(threads);
      if (status == 0) return;
    } else if (f.dnnlSgemm(*transb, *transa, *n, *m, *k, *alpha, b, *ldb, a, *lda, *beta, c, *ldc) == 0) return;
  }
  f.blasSgemm(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

}  // namespace lwb::blas
