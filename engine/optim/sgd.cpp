#include "optim/sgd.h"

#include <ATen/TensorOperators.h>
#include <ATen/core/grad_mode.h>

namespace lwb::optim {

Sgd::Sgd(const OptimizerConfig& cfg, std::vector<ParamSlot> slots)
    : Optimizer(std::move(slots)), momentum_(cfg.momentum), weightDecay_(cfg.weightDecay), nesterov_(cfg.nesterov) {}

void Sgd::saveState(TensorMap& out) const {
  for (const auto& [name, buf] : buffers_) out["momentum." + name] = buf;
}

void Sgd::loadState(StateIn& in) {
  buffers_.clear();
  for (const auto& slot : slots_)
    if (auto buf = in.take("momentum." + slot.param.name, slot.param.tensor); buf.defined()) buffers_[slot.param.name] = buf;
}

void Sgd::step(double lr) {
  forEachUpdate(lr, weightDecay_, [&](const ParamSlot& slot, const at::Tensor& w, const at::Tensor& g, double eta) {
    auto& buf = buffers_[slot.param.name];
    buf = buf.defined() ? buf.mul_(momentum_).add_(g) : g.clone();
    w.sub_(nesterov_ ? g + buf * momentum_ : buf, eta);
  });
}

}  // namespace lwb::optim
