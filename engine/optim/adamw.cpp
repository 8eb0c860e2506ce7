#include "optim/adamw.h"

#include <ATen/TensorOperators.h>
#include <ATen/core/grad_mode.h>
#include <ATen/ops/scalar_tensor.h>
#include <ATen/ops/zeros_like.h>

#include <cmath>

namespace lwb::optim {

void AdamState::apply(const std::string& name, const at::Tensor& w, const at::Tensor& g, double eta) {
  auto& s = moments_[name];
  if (!s.m.defined()) {
    s.m = at::zeros_like(g);
    s.v = at::zeros_like(g);
  }
  ++s.t;
  s.m.mul_(beta1_).add_(g, 1.0 - beta1_);
  s.v.mul_(beta2_).addcmul_(g, g, 1.0 - beta2_);
  double c1 = 1.0, c2 = 1.0;
  if (biasCorrection_) {
    c1 = 1.0 - std::pow(beta1_, static_cast<double>(s.t));
    c2 = 1.0 - std::pow(beta2_, static_cast<double>(s.t));
  }
  // (m / c1) / (sqrt(v / c2) + eps) = m / (sqrt(v) / sqrt(c2) + eps) / c1: the same update
  // up to rounding, with the scalars folded into the in-place ops.
  auto denom = s.v.sqrt();
  if (c2 != 1.0) denom.div_(std::sqrt(c2));
  denom.add_(eps_);
  w.addcdiv_(s.m, denom, -eta / c1);
}

void AdamState::save(const std::string& prefix, TensorMap& out) const {
  for (const auto& [name, s] : moments_) {
    if (!s.m.defined()) continue;
    out[prefix + "m." + name] = s.m;
    out[prefix + "v." + name] = s.v;
    out[prefix + "t." + name] = at::scalar_tensor(s.t, at::kLong);
  }
}

void AdamState::load(const std::string& prefix, StateIn& in, const std::vector<ParamSlot>& slots) {
  moments_.clear();
  for (const auto& slot : slots) {
    const auto& name = slot.param.name;
    auto m = in.take(prefix + "m." + name, slot.param.tensor);
    if (!m.defined()) continue;
    auto v = in.take(prefix + "v." + name, slot.param.tensor);
    if (!v.defined()) throw InputError("checkpoint: missing tensor '" + prefix + "v." + name + "'");
    moments_[name] = {m, v, in.takeCount(prefix + "t." + name)};
  }
}

AdamW::AdamW(const run::OptimizerConfig& cfg, std::vector<ParamSlot> slots)
    : Optimizer(std::move(slots)),
      weightDecay_(cfg.weightDecay),
      state_(cfg.beta1, cfg.beta2, cfg.eps, cfg.biasCorrection) {}

void AdamW::step(double lr) {
  forEachUpdate(lr, weightDecay_, [&](const ParamSlot& slot, const at::Tensor& w, const at::Tensor& g, double eta) {
    state_.apply(slot.param.name, w, g, eta);
  });
}

}  // namespace lwb::optim
