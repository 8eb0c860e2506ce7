#include "common/blas_core.h"

#include <dlfcn.h>

namespace lwb {

std::string blasCoreName() {
  // Looked up at run time: the engine does not link BLAS itself (LibTorch loads it).
  using NameFn = char* (*)();
  const auto name = reinterpret_cast<NameFn>(dlsym(RTLD_DEFAULT, "openblas_get_corename"));
  const char* s = name ? name() : nullptr;
  return s ? std::string(s) : std::string();
}

}  // namespace lwb
