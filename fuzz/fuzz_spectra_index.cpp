// libFuzzer entry point for the project's own file kinds (spectra_index); the checks live in harness_json.h.
#include "harness_json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  lwb::fuzz::runSpectraIndex(data, size);
  return 0;
}
