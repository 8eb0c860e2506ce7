// The collectives a data-parallel run needs (issue 28), over a c10d process group (Gloo, or NCCL
// for CUDA runs in a build that has it):
// SUM all-reduce (Gloo in LibTorch 1.13 has no AVG), broadcast from a root, all-gather of
// equal-shaped tensors, a barrier. Every call blocks until the collective is complete on this
// rank, or throws std::runtime_error naming the collective and the cause (a peer that died or
// hung past World::timeoutSeconds).
#pragma once

#include "dist/world.h"

#include <ATen/core/Tensor.h>

#include <memory>
#include <string>
#include <vector>

namespace lwb::dist {

class Communicator {
 public:
  virtual ~Communicator() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // In place: every tensor becomes the sum of that tensor over all ranks.
  virtual void allreduceSum(std::vector<at::Tensor>& tensors) = 0;
  // In place: every tensor becomes root's.
  virtual void broadcast(std::vector<at::Tensor>& tensors, int root) = 0;
  // In place: tensors[i] becomes roots[i]'s (one collective each, all in flight at once).
  virtual void broadcastEach(std::vector<at::Tensor>& tensors, const std::vector<int>& roots) = 0;
  // out[r] = rank r's `local` (same shape and dtype on every rank).
  virtual std::vector<at::Tensor> allgather(const at::Tensor& local) = 0;
  virtual void barrier() = 0;
  // Wall seconds this rank has spent inside collectives since connect (waiting included): the
  // communication share of a step (metrics.jsonl's comm_s_per_step).
  virtual double secondsInCollectives() const = 0;
};

// Joins the world: rank 0 serves the rendezvous store on masterPort, the others connect to it;
// the backend then connects every pair: NCCL when `cudaTensors` and the build has it
// (LWB_WITH_NCCL), else Gloo. Throws std::runtime_error when the world does not form in
// World::timeoutSeconds (a rank that never comes, an unreachable address, a port in use).
std::unique_ptr<Communicator> connect(const World& world, bool cudaTensors = false);

// Which backend connect() takes for a run's device ("cpu", "cuda", "cuda:1"): "gloo" or "nccl".
const char* backendFor(const std::string& device);

namespace detail {  // the backends, one translation unit each (engine/dist/CMakeLists.txt)
std::unique_ptr<Communicator> connectGloo(const World& world);
std::unique_ptr<Communicator> connectNccl(const World& world);
}  // namespace detail

}  // namespace lwb::dist
