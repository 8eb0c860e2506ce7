#include "common/malloc_policy.h"

#include <malloc.h>

#include <cstdlib>

namespace lwb {

void configureAllocator() {
#if defined(__GLIBC__)
  // 256 MiB: above every per-step buffer of the CPU presets; the largest (GPU-sized) presets
  // still get mmap for bigger blocks. Trim only when 512 MiB at the top of the heap are free.
  if (!std::getenv("MALLOC_MMAP_THRESHOLD_")) mallopt(M_MMAP_THRESHOLD, 256 << 20);
  if (!std::getenv("MALLOC_TRIM_THRESHOLD_")) mallopt(M_TRIM_THRESHOLD, 512 << 20);
#endif
}

}  // namespace lwb
