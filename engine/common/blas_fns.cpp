#include "common/blas_fns.h"

#include <dlfcn.h>
#include <pthread.h>

#include <atomic>
#include <csignal>

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

namespace {

std::atomic<DnnlSgemmFn> gDnnlForTesting{nullptr};

using OmpGetFn = int (*)();
using OmpSetFn = void (*)(int);

int ompMaxThreads() {
  static const auto get = reinterpret_cast<OmpGetFn>(dlsym(RTLD_DEFAULT, "omp_get_max_threads"));
  return get ? get() : 1;
}

void ompSetThreads(int n) {
  static const auto set = reinterpret_cast<OmpSetFn>(dlsym(RTLD_DEFAULT, "omp_set_num_threads"));
  if (set) set(n);
}

bool dnnlServes(int64_t m, int64_t n, int64_t k, int threads) {
  if (!functions().dnnlSgemm || m <= 0 || n <= 0 || k <= 0 || m * n < kDnnlMinWork / k) return false;
  return threads <= 1 || m * n * k < kDnnlParallelWork;
}

// Every asynchronous signal, blocked on the calling thread while oneDNN's kernel runs: a
// handler that ran on that thread in the middle of dnnl_sgemm corrupted the heap (measured:
// `train` stopped by SIGTERM aborted in malloc 4 and 3 times out of 12 with oneDNN, 0 of 12
// with the BLAS; 0 of 24 with the signals blocked). A signal that arrives meanwhile is
// delivered when the mask is restored, microseconds later. The synchronous ones stay
// deliverable, so a fault still reports.
const sigset_t& asynchronousSignals() {
  static const sigset_t set = [] {
    sigset_t s;
    sigfillset(&s);
    for (const int sync : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGABRT, SIGSYS}) sigdelset(&s, sync);
    return s;
  }();
  return set;
}

}  // namespace

void setDnnlSgemmForTesting(DnnlSgemmFn fn) { gDnnlForTesting = fn; }

const char* sgemmRouteFor(int64_t m, int64_t n, int64_t k) {
  return dnnlServes(m, n, k, ompMaxThreads()) ? "onednn" : "blas";
}

void routedSgemm(const char* transa, const char* transb, const int* m, const int* n, const int* k, const float* alpha,
                 const float* a, const int* lda, const float* b, const int* ldb, const float* beta, float* c,
                 const int* ldc) {
  const auto& f = functions();
  const int threads = ompMaxThreads();
  if (dnnlServes(*m, *n, *k, threads)) {
    // oneDNN always runs on the calling thread alone (the OpenMP count is per calling thread,
    // restored after), so no thread of its team runs its kernel with signals deliverable.
    sigset_t before;
    pthread_sigmask(SIG_BLOCK, &asynchronousSignals(), &before);
    if (threads > 1) ompSetThreads(1);
    // Column-major C = op(A)·op(B) is row-major Cᵀ = op(B)ᵀ·op(A)ᵀ, and a column-major
    // operand read row-major is its transpose: the same flags, the operands swapped.
    const auto dnnl = gDnnlForTesting.load() ? gDnnlForTesting.load() : f.dnnlSgemm;
    const int status = dnnl(*transb, *transa, *n, *m, *k, *alpha, b, *ldb, a, *lda, *beta, c, *ldc);
    if (threads > 1) ompSetThreads(threads);
    pthread_sigmask(SIG_SETMASK, &before, nullptr);
    if (status == 0) return;
  }
  f.blasSgemm(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

}  // namespace lwb::blas
