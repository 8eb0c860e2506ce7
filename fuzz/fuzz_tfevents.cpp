// libFuzzer entry point for the TensorBoard event-file reader; the checks live in harness_tfevents.h.
#include "harness_tfevents.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  lwb::fuzz::runTfEvents(data, size);
  return 0;
}
