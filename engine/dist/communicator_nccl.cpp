// The NCCL backend of connect() (issue 28 on a GPU machine): the collectives run on the rank's
// GPU, between GPUs of one machine over NVLink/PCIe and across machines over the network NCCL
// finds. Built only with LWB_WITH_NCCL (packaging/gpu_build.sh turns it on when the LibTorch
// ships ProcessGroupNCCL.hpp and nccl.h is found); Debian's CPU LibTorch has no NCCL.
//
// One rank per GPU: each rank uses the current CUDA device, which cmd_train.cpp sets from the
// rank's local rank before the trainer places its model (LOCAL_RANK, SLURM_LOCALID, else the
// rank). NCCL refuses two ranks on one GPU, so more local ranks than GPUs is refused before
// any starts.
//
// TORCH_NCCL_BLOCKING_WAIT (unless the user set it): a Work's wait() then blocks the host until
// the collective is done, or throws after the timeout, as the Communicator promises (without it
// wait() only orders the CUDA stream: a hung peer went unreported until NCCL's watchdog killed
// the process, and the time in collectives read as ~0). CPU tensors (the trainer's flags and
// config hash) go through the GPU and back.
// The backend's header first: it brings c10d::Work and the collective options that
// group_communicator.h uses (as ProcessGroupGloo.hpp does for communicator.cpp).
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>

#include "dist/group_communicator.h"

#include <c10/cuda/CUDAFunctions.h>

#include <cstdlib>

namespace lwb::dist::detail {

std::unique_ptr<Communicator> connectNccl(const World& w) {
  const auto started = std::chrono::steady_clock::now();
  try {
    const int gpus = static_cast<int>(c10::cuda::device_count());
    if (gpus < 1) throw std::runtime_error("NCCL needs a GPU and this process sees none");
    const at::Device gpu(at::kCUDA, c10::cuda::current_device());
    ::setenv("TORCH_NCCL_BLOCKING_WAIT", "1", /*overwrite=*/0);
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
