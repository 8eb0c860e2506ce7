#include "optim/constraint_step.h"

#include "dist/communicator.h"
#include "io/input_error.h"
#include "spectral/softcap_alpha.h"

#include <ATen/core/grad_mode.h>
#include <algorithm>
#include <utility>
#include <vector>

namespace lwb::optim {

namespace {

// FNV-1a of the matrix name, mixed with the run's seed; never 0 (0 means "global generator").
uint64_t startSeed(uint64_t runSeed, const std::string& name) {
  uint64_t h = 14695981039346656037ull ^ (runSeed * 0x9E3779B97F4A7C15ull);
  for (const unsigned char c : name) h = (h ^ c) * 1099511628211ull;
  return h == 0 ? 1 : h;
}

}  // namespace

ConstraintStep::ConstraintStep(const ConstraintConfig& constraint, const OptimizerConfig& optimizer, uint64_t seed)
    : updateNormFactor_(constraint.updateNormFactor), seed_(seed) {
  static_cast<spectral::ConstraintSettings&>(params_) = trainingConstraint(constraint, optimizer);
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
    // The vectors are [m] and [n] for an (m, n) matrix, in the accumulate type of w
    // (float32 for float32/bf16 weights), as PowerIterationState::matches expects.
    const auto shape = spectral::PowerIterationState::emptyFor(slot.param.tensor);
    spectral::PowerIterationState st;
    st.seed = startSeed(seed_, name);
    st.u = in.take("power_u." + name, shape.u);
    st.v = in.take("power_v." + name, shape.v);
    if (!st.v.defined()) throw InputError("checkpoint: missing tensor 'power_v." + name + "'");
    powerStates_[name] = st;
  }
}

void ConstraintStep::apply(const Optimizer& opt, double lr) {
  if (!active()) return;
  at::NoGradGuard noGrad;
  std::vector<const ParamSlot*> slots;
  for (const auto& slot : opt.slots())
    if (isConstrained(slot.param)) slots.push_back(&slot);
  // Weight decay is elementwise: a broadcast would cost more than computing it everywhere.
  const bool split = comm_ && comm_->size() > 1 && params_.method != spectral::ConstraintMethod::WeightDecay;
  const int ranks = split ? comm_->size() : 1, rank = split ? comm_->rank() : 0;
  for (size_t k = 0; k < slots.size(); ++k) {
    // Every matrix's random power-iteration start is seeded by the run's seed and its name, so
    // it is the same whichever rank computes it (and after a resume without saved vectors).
    auto& state = powerStates_[slots[k]->param.name];
    if (state.seed == 0) state.seed = startSeed(seed_, slots[k]->param.name);
    if (static_cast<int>(k % static_cast<size_t>(ranks)) != rank) continue;
    const auto& slot = *slots[k];
    auto p = params_;
    p.lr = lr * slot.lrMultiplier;
    if (p.method == spectral::ConstraintMethod::SpectralSoftCap) p.alpha = alphaFor(opt, slot, lr);
    const auto& w = slot.param.tensor;  // a handle: copy_ writes the parameter's storage
    if (!spectral::applyConstraintInPlace(w, p)) w.copy_(spectral::applyConstraint(w, p, &state));
  }
  if (!split) return;
  // Each constrained matrix (and, for the power-iteration methods, its u and v: the state a
  // checkpoint of rank 0 must hold for every matrix) from the rank that computed it.
  const bool power = spectral::reads(params_.method, spectral::kPowerIters);
  std::vector<at::Tensor> tensors;
  std::vector<int> roots;
  std::vector<std::pair<at::Tensor, at::Tensor>> copyBack;  // (parameter, contiguous buffer)
  for (size_t k = 0; k < slots.size(); ++k) {
    const int owner = static_cast<int>(k % static_cast<size_t>(ranks));
    const auto& w = slots[k]->param.tensor;
    at::Tensor buffer = w;
    if (!w.is_contiguous()) {
      buffer = w.contiguous();
      copyBack.emplace_back(w, buffer);
    }
    tensors.push_back(buffer);
    roots.push_back(owner);
    if (!power) continue;
    auto& st = powerStates_[slots[k]->param.name];
    if (owner != rank && !st.matches(w)) {
      const uint64_t seed = st.seed;
      st = spectral::PowerIterationState::emptyFor(w);
      st.seed = seed;
    }
    st.u = st.u.contiguous();
    st.v = st.v.contiguous();
    tensors.push_back(st.u);
    tensors.push_back(st.v);
    roots.push_back(owner);
    roots.push_back(owner);
  }
  comm_->broadcastEach(tensors, roots);
  for (auto& [param, buffer] : copyBack) param.copy_(buffer);
}

}  // namespace lwb::optim
