#include "optim/adamw.h"

#include "optim/adamw_kernel.h"

#include <ATen/Parallel.h>
#include <ATen/TensorOperators.h>
#include <ATen/core/grad_mode.h>
#include <ATen/ops/scalar_tensor.h>
#include <ATen/ops/zeros_like.h>

#include <cmath>

namespace lwb::optim {

namespace {

// The single-pass kernel takes float32 CPU tensors laid out alike; anything else (float64
// runs, CUDA) goes through LibTorch's in-place ops.
bool fusable(const at::Tensor& w, const at::Tensor& g, const at::Tensor& m, const at::Tensor& v) {
  for (const auto* t : {&w, &g, &m, &v})
    if (!t->device().is_cpu() || t->scalar_type() != at::kFloat || !t->is_contiguous() || t->numel() != w.numel())
      return false;
  return true;
}

}  // namespace

void AdamState::apply(const std::string& name, const at::Tensor& w, const at::Tensor& g, double eta, double decay) {
  auto& s = moments_[name];
  if (!s.m.defined()) {
    s.m = at::zeros_like(g);
    s.v = at::zeros_like(g);
  }
  ++s.t;
  double c1 = 1.0, c2 = 1.0;
  if (biasCorrection_) {
    c1 = 1.0 - std::pow(beta1_, static_cast<double>(s.t));
    c2 = 1.0 - std::pow(beta2_, static_cast<double>(s.t));
  }
  if (fusable(w, g, s.m, s.v)) {
    const AdamScalars k{static_cast<float>(decay), static_cast<float>(beta1_), static_cast<float>(beta2_),
                        static_cast<float>(std::sqrt(c2)), static_cast<float>(eps_), static_cast<float>(-eta / c1)};
    float* wp = w.data_ptr<float>();
    const float* gp = g.data_ptr<float>();
    float* mp = s.m.data_ptr<float>();
    float* vp = s.v.data_ptr<float>();
    // ATen's grain for elementwise ops: small tensors stay on the calling thread.
    at::parallel_for(0, w.numel(), 32768, [&](int64_t b, int64_t e) { adamwUpdate(wp, gp, mp, vp, b, e, k); });
    // Written through raw pointers: tell autograd w changed, as an in-place op would.
    w.unsafeGetTensorImpl()->bump_version();
    return;
  }
  if (decay != 1.0) w.mul_(decay);
  s.m.mul_(beta1_).add_(g, 1.0 - beta1_);
  s.v.mul_(beta2_).addcmul_(g, g, 1.0 - beta2_);
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

AdamW::AdamW(const OptimizerConfig& cfg, std::vector<ParamSlot> slots)
    : Optimizer(std::move(slots)),
      weightDecay_(cfg.weightDecay),
      state_(cfg.beta1, cfg.beta2, cfg.eps, cfg.biasCorrection) {}

void AdamW::step(double lr) {
  // The decoupled decay goes into the update's single pass (the roles forEachUpdate would
  // decay), not a pass of its own.
  forEachUpdate(lr, 0.0, [&](const ParamSlot& slot, const at::Tensor& w, const at::Tensor& g, double eta) {
    const bool decays = weightDecay_ > 0 && slot.param.role != models::Role::Other;
    state_.apply(slot.param.name, w, g, eta, decays ? 1.0 - eta * weightDecay_ : 1.0);
  });
}

}  // namespace lwb::optim
