// libFuzzer entry point for the npy parser; the checks live in harness_npy.h.
#include "harness_npy.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  lwb::fuzz::runNpy(data, size);
  return 0;
}
