// connect(): the backend for the tensors a run keeps. NCCL for a CUDA run when this build has
// it (LWB_WITH_NCCL: a LibTorch with CUDA and NCCL, e.g. a PyTorch wheel on a GPU machine);
// Gloo otherwise, which Debian's CPU LibTorch has.
#include "dist/communicator.h"

namespace lwb::dist {

std::unique_ptr<Communicator> connect(const World& world, bool cudaTensors) {
#ifdef LWB_WITH_NCCL
  if (cudaTensors) return detail::connectNccl(world);
#else
  (void)cudaTensors;
#endif
  return detail::connectGloo(world);
}

const char* backendFor(const std::string& device) {
#ifdef LWB_WITH_NCCL
  if (device.rfind("cuda", 0) == 0) return "nccl";
#else
  (void)device;
#endif
  return "gloo";
}

}  // namespace lwb::dist
