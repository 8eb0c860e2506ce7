// libFuzzer entry point for the restricted pickle reader alone; the checks live in harness_pickle.h.
#include "harness_pickle.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  lwb::fuzz::runPickle(data, size);
  return 0;
}
