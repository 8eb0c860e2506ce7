#include "common/blas_core.h"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>

namespace lwb {
namespace {

using NameFn = char* (*)();
using InitFn = void (*)();

template <class Fn>
Fn lookup(const char* name) {
  return reinterpret_cast<Fn>(dlsym(RTLD_DEFAULT, name));
}

bool cpuHasSkylakeXSubset() {
#if defined(__x86_64__) && defined(__GNUC__)
  // libgcc's checks include the OS side (XCR0 saves the ZMM and opmask state).
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512cd") &&
         __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
         __builtin_cpu_supports("avx512vl");
#else
  return false;
#endif
}

bool isAvx2Fallback(const std::string& core) { return core == "Haswell" || core == "Zen"; }

}  // namespace

std::string blasCoreName() {
  const auto name = lookup<NameFn>("openblas_get_corename");
  const char* s = name ? name() : nullptr;
  return s ? std::string(s) : std::string();
}

BlasCore preferAvx512BlasKernels() {
  BlasCore out;
  out.before = out.after = blasCoreName();
  if (out.before.empty() || std::getenv("OPENBLAS_CORETYPE") != nullptr) return out;
  if (!isAvx2Fallback(out.before) || !cpuHasSkylakeXSubset()) return out;
  const auto quit = lookup<InitFn>("gotoblas_dynamic_quit");
  const auto init = lookup<InitFn>("gotoblas_dynamic_init");
  if (!quit || !init) return out;  // not a DYNAMIC_ARCH build: its kernels are fixed
  setenv("OPENBLAS_CORETYPE", "SkylakeX", 1);
  quit();
  init();
  out.after = blasCoreName();
  if (out.after != "SkylakeX") {
    // This OpenBLAS does not offer the core by that name: go back to its own choice.
    unsetenv("OPENBLAS_CORETYPE");
    quit();
    init();
    out.after = blasCoreName();
  }
  out.changed = out.after != out.before;
  return out;
}

}  // namespace lwb
