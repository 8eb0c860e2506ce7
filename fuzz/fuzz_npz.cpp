// libFuzzer entry point for the npz parser; the checks live in harness_zip.h.
#include "harness_zip.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  lwb::fuzz::runNpz(data, size);
  return 0;
}
