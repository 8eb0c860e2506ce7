// libFuzzer entry point: the input is the data.pkl of a well-formed PyTorch archive (see
// harness_pickle.h), so mutations reach the pickle reader, the flattening and the tensor
// bounds checks instead of dying at the zip CRC check.
#include "harness_pickle.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  lwb::fuzz::runPytorchPickle(data, size);
  return 0;
}
