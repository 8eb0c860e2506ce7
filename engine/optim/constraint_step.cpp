#include "optim/constraint_step.h"

#include "io/input_error.h"
#include "spectral/softcap_alpha.h"

#include <ATen/core/grad_mode.h>
#include <algorithm>
#include <ATen/ops/empty.h>

namespace lwb::optim {

ConstraintStep::ConstraintStep(const run::RunConfig& cfg)
    : updateNormFactor_(cfg.constraint.updateNormFactor) {
  static_cast<spectral::ConstraintSettings&>(params_) = run::trainingConstraint(cfg);
}

bool ConstraintStep::isConstrained(const models::Param& p) {
  return p.isMatrix() && p.role != models::Role::Embedding;
}

spectral::ConstraintSettings ConstraintStep::settingsFor(const Optimizer& opt, const ParamSlot& slot, double lr) const {
  spectral::ConstraintSettings p = params_;
  p.lr = lr * slot.lrMultiplier;
  const double bound = opt.updateRmsBound(slot, lr);
  // Without a known update bound (AdamW, SGD) couple to lr itself, as the paper does.
  p.updateNorm = (bound >= 0 ? bound : p.lr) * updateNormFactor_;
  return p;
}

double ConstraintStep::alphaFor(const Optimizer& opt, const ParamSlot& slot, double lr) const {
  return spectral::resolvedAlpha(settingsFor(opt, slot, lr));
}

double ConstraintStep::softCapPeakFor(const Optimizer& opt, const ParamSlot& slot, double lr) const {
  const spectral::ConstraintSettings p = settingsFor(opt, slot, lr);
  const double k = spectral::softCapWorstCaseK(p.sigmaMax, p.lr, p.lambda, p.updateNorm);
  return std::max(p.sigmaMax, spectral::softCapPeak(spectral::resolvedAlpha(p), k));
}

void ConstraintStep::saveState(TensorMap& out) const {
  for (const auto& [name, st] : powerStates_) {
    if (!st.u.defined() || !st.v.defined()) continue;
    out["power_u." + name] = st.u;
    out["power_v." + name] = st.v;
  }
}

void ConstraintStep::loadState(StateIn& in, const Optimizer& opt) {
  powerStates_.clear();
  for (const auto& slot : opt.slots()) {
    const auto& name = slot.param.name;
    if (!in.has("power_u." + name)) continue;
    const auto& w = slot.param.tensor;
    // The vectors are [m] and [n] for an (m, n) matrix, in the accumulate type of w
    // (float32 for float32/bf16 weights), as PowerIterationState::matches expects.
    const auto acc = w.options().dtype(w.scalar_type() == at::kDouble ? at::kDouble : at::kFloat);
    spectral::PowerIterationState st;
    st.u = in.take("power_u." + name, at::empty({w.size(0)}, acc));
    st.v = in.take("power_v." + name, at::empty({w.size(1)}, acc));
    if (!st.v.defined()) throw InputError("checkpoint: missing tensor 'power_v." + name + "'");
    powerStates_[name] = st;
  }
}

void ConstraintStep::apply(const Optimizer& opt, double lr) {
  if (!active()) return;
  at::NoGradGuard noGrad;
  for (const auto& slot : opt.slots()) {
    if (!isConstrained(slot.param)) continue;
    auto p = params_;
    p.lr = lr * slot.lrMultiplier;
    if (p.method == spectral::ConstraintMethod::SpectralSoftCap) p.alpha = alphaFor(opt, slot, lr);
    const auto& w = slot.param.tensor;  // a handle: copy_ writes the parameter's storage
    w.copy_(spectral::applyConstraint(w, p, &powerStates_[slot.param.name]));
  }
}

}  // namespace lwb::optim
