// The NCCL backend of connect() (issue 28 on a GPU machine): the collectives run on the rank's
// GPU, between GPUs of one machine over NVLink/PCIe and across machines over the network NCCL
// finds. Built only with LWB_WITH_NCCL (packaging/gpu_build.sh turns it on when the LibTorch
// ships ProcessGroupNCCL.hpp and nccl.h is found); Debian's CPU LibTorch has no NCCL.
//
// One rank per GPU: rank r uses cuda:(r mod the GPUs this process sees). NCCL refuses two ranks
// on one GPU, and the trainer places every run on the device its config names, so more ranks on
// one machine than it has GPUs is refused before connecting (cmd_train.cpp).
//
// A NCCL Work's wait() makes the current CUDA stream wait for the collective instead of the
// host; every later use of the tensor is on that stream, so callers see the result as with
// Gloo. CPU tensors (the trainer's flags and config hash) go through the GPU and back.
// The backend's header first: it brings c10d::Work and the collective options that
// group_communicator.h uses (as ProcessGroupGloo.hpp does for communicator.cpp).
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>

#include "dist/group_communicator.h"

#include <c10/cuda/CUDAFunctions.h>

namespace lwb::dist::detail {

std::unique_ptr<Communicator> connectNccl(const World& w) {
  const auto started = std::chrono::steady_clock::now();
  try {
    const int gpus = static_cast<int>(c10::cuda::device_count());
    if (gpus < 1) throw std::runtime_error("NCCL needs a GPU and this process sees none");
    const at::Device gpu(at::kCUDA, static_cast<c10::DeviceIndex>(w.rank % gpus));
    c10::cuda::set_device(gpu.index());
    auto store = makeStore(w);
    auto options = c10d::ProcessGroupNCCL::Options::create();
    options->timeout = timeoutOf(w);
    auto group = c10::make_intrusive<c10d::ProcessGroupNCCL>(store, w.rank, w.size, options);
    return std::make_unique<GroupCommunicator<c10d::ProcessGroupNCCL>>(w, store, group, gpu);
  } catch (const std::exception& e) {
    throw joinError(w, started, e);
  }
}

}  // namespace lwb::dist::detail
