#include "optim/constraint_step.h"

#include "io/input_error.h"
#include "spectral/softcap_alpha.h"

#include <ATen/core/grad_mode.h>
#include <ATen/ops/empty.h>

namespace lwb::optim {

ConstraintStep::ConstraintStep(const run::ConstraintConfig& cfg, double weightDecay)
    : updateNormFactor_(cfg.updateNormFactor) {
  const auto method = spectral::parseConstraintMethod(cfg.method);
  if (!method) throw InputError("constraint.method: unknown method '" + cfg.method + "'");
  params_.method = *method;
  params_.sigmaMax = cfg.sigmaMax;
  params_.sigmaMin = cfg.sigmaMin;
  params_.alpha = cfg.alpha;
  params_.lambda = *method == spectral::ConstraintMethod::SpectralSoftCap ? weightDecay : cfg.lambda;
  params_.powerIterations = cfg.powerIters;
  const auto impl = spectral::parseClipImpl(cfg.impl);
  const auto coeffs = spectral::parseNsCoefficients(cfg.nsCoeffs);
  if (!impl) throw InputError("constraint.impl: unknown implementation '" + cfg.impl + "'");
  if (!coeffs) throw InputError("constraint.ns_coeffs: unknown coefficient set '" + cfg.nsCoeffs + "'");
  params_.clip.impl = *impl;
  params_.clip.ns = {*coeffs, cfg.nsSteps, cfg.nsPolishSteps};
  params_.stiefelNs = params_.clip.ns;
  params_.norm = cfg.norm == "spectral" ? spectral::ThresholdNorm::Spectral : spectral::ThresholdNorm::Rms;
}

bool ConstraintStep::isConstrained(const models::Param& p) {
  return p.isMatrix() && p.role != models::Role::Embedding;
}

double ConstraintStep::alphaFor(const Optimizer& opt, const ParamSlot& slot, double lr) const {
  if (params_.alpha) return *params_.alpha;
  const double eta = lr * slot.lrMultiplier;
  const double bound = opt.updateRmsBound(slot, lr);
  // Without a known update bound (AdamW, SGD) couple to lr itself, as the paper does.
  const double update = (bound >= 0 ? bound : eta) * updateNormFactor_;
  return spectral::softCapAlphaStar(params_.sigmaMax, eta, params_.lambda, update);
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
