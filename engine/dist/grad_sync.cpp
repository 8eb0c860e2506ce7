#include "dist/grad_sync.h"

#include <ATen/TensorOperators.h>
#include <ATen/core/grad_mode.h>
#include <ATen/ops/cat.h>

namespace lwb::dist {

Share shareOf(int64_t globalRows, int rank, int size) {
  const int64_t base = globalRows / size, extra = globalRows % size;
  Share s;
  s.count = base + (rank < extra ? 1 : 0);
  s.first = rank * base + std::min<int64_t>(rank, extra);
  return s;
}

void averageGradients(std::vector<models::Param>& params, Communicator& comm, double localShare) {
  at::NoGradGuard noGrad;
  std::vector<at::Tensor> grads;
  for (auto& p : params)
    if (p.tensor.grad().defined()) grads.push_back(p.tensor.mutable_grad());
  size_t i = 0;
  while (i < grads.size()) {
    // One bucket: consecutive gradients of one dtype and device up to kBucketElements.
    std::vector<at::Tensor> bucket{grads[i]};
    int64_t elements = grads[i].numel();
    size_t j = i + 1;
    while (j < grads.size() && elements + grads[j].numel() <= kBucketElements &&
           grads[j].scalar_type() == grads[i].scalar_type() && grads[j].device() == grads[i].device()) {
      bucket.push_back(grads[j]);
      elements += grads[j].numel();
      ++j;
    }
    std::vector<at::Tensor> flat;
    for (const auto& g : bucket) flat.push_back(g.reshape(-1));
    std::vector<at::Tensor> buffer{at::cat(flat) * localShare};
    comm.allreduceSum(buffer);
    int64_t offset = 0;
    for (auto& g : bucket) {
      g.copy_(buffer[0].narrow(0, offset, g.numel()).view_as(g));
      offset += g.numel();
    }
    i = j;
  }
}

void broadcastParameters(std::vector<models::Param>& params, Communicator& comm) {
  at::NoGradGuard noGrad;
  std::vector<at::Tensor> tensors;
  for (auto& p : params) tensors.push_back(p.tensor.detach());
  comm.broadcast(tensors, 0);
}

}  // namespace lwb::dist
