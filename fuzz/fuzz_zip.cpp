// libFuzzer entry point for the zip parser; the checks live in harness_zip.h.
#include "harness_zip.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  lwb::fuzz::runZip(data, size);
  return 0;
}
