// libFuzzer entry point for the pytorch parser; the checks live in harness_zip.h.
#include "harness_zip.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  lwb::fuzz::runPytorch(data, size);
  return 0;
}
