// libFuzzer entry point for the safetensors parser; the checks live in harness_safetensors.h.
#include "harness_safetensors.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  lwb::fuzz::runSafetensors(data, size);
  return 0;
}
