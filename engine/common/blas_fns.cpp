#include "common/blas_fns.h"

#include <dlfcn.h>

namespace lwb::blas {

const Functions& functions() {
  static const Functions f{reinterpret_cast<GemmFn<float>>(dlsym(RTLD_DEFAULT, "sgemm_")),
                           reinterpret_cast<GemmFn<double>>(dlsym(RTLD_DEFAULT, "dgemm_")),
                           reinterpret_cast<SyrkFn<float>>(dlsym(RTLD_DEFAULT, "ssyrk_")),
                           reinterpret_cast<SyrkFn<double>>(dlsym(RTLD_DEFAULT, "dsyrk_"))};
  return f;
}

}  // namespace lwb::blas
