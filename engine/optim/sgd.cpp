#include "optim/sgd.h"

#include <ATen/TensorOperators.h>
#include <ATen/core/grad_mode.h>

namespace lwb::optim {

Sgd::Sgd(const run::OptimizerConfig& cfg, std::vector<ParamSlot> slots)
    : Optimizer(std::move(slots)), momentum_(cfg.momentum), weightDecay_(cfg.weightDecay), nesterov_(cfg.nesterov) {}

void Sgd::step(double lr) {
  at::NoGradGuard noGrad;
  for (auto& slot : slots_) {
    auto& w = slot.param.tensor;
    const auto& g = w.grad();
    if (!g.defined()) continue;
    const double eta = lr * slot.lrMultiplier;
    if (weightDecay_ > 0 && slot.param.role != models::Role::Other) w.mul_(1.0 - eta * weightDecay_);
    auto& buf = buffers_[slot.param.name];
    buf = buf.defined() ? buf.mul_(momentum_).add_(g) : g.clone();
    w.sub_(nesterov_ ? g + buf * momentum_ : buf, eta);
  }
}

}  // namespace lwb::optim
