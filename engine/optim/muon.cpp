#include "optim/muon.h"

#include "io/input_error.h"

#include <ATen/TensorOperators.h>
#include <ATen/core/grad_mode.h>
#include <ATen/ops/clamp_max.h>
#include <ATen/ops/clamp_min.h>
#include <ATen/ops/stack.h>
#include <ATen/ops/zeros_like.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>
#include <vector>

namespace lwb::optim {

Muon::Muon(const run::OptimizerConfig& cfg, std::vector<ParamSlot> slots)
    : Optimizer(std::move(slots)), cfg_(cfg), adam_(cfg.beta1, cfg.beta2, cfg.eps, cfg.biasCorrection) {
  const auto coeffs = spectral::parseNsCoefficients(cfg.nsCoeffs);
  if (!coeffs) throw InputError("optimizer.ns_coeffs: unknown coefficient set '" + cfg.nsCoeffs + "'");
  ns_ = {*coeffs, cfg.nsSteps, 0};
  kappa_ = spectral::nsMaxInflation(ns_);
}

double Muon::scaleFor(int64_t dOut, int64_t dIn) const {
  const double ratio = static_cast<double>(dOut) / static_cast<double>(dIn);
  return cfg_.muonScale == "jordan" ? std::sqrt(std::max(1.0, ratio)) : std::sqrt(ratio);
}

double Muon::updateRmsBound(const ParamSlot& slot, double lr) const {
  const auto& w = slot.param.tensor;
  const double eta = lr * slot.lrMultiplier;
  if (!slot.param.isMatrix()) return -1.0;
  if (slot.param.role == models::Role::Embedding) return cfg_.embedUpdate == "adamw" ? -1.0 : eta;
  // ||Delta W||_2 <= eta * scale * kappa; RMS->RMS multiplies by sqrt(d_in / d_out).
  return eta * scaleFor(w.size(0), w.size(1)) * kappa_ *
         std::sqrt(static_cast<double>(w.size(1)) / static_cast<double>(w.size(0)));
}

void Muon::saveState(TensorMap& out) const {
  for (const auto& [name, buf] : buffers_) out["momentum." + name] = buf;
  adam_.save("adam.", out);
}

void Muon::loadState(StateIn& in) {
  buffers_.clear();
  for (const auto& slot : slots_)
    if (auto buf = in.take("momentum." + slot.param.name, slot.param.tensor); buf.defined()) buffers_[slot.param.name] = buf;
  adam_.load("adam.", in, slots_);
}

namespace {

// Matrices whose small side is at most this go through Newton–Schulz together with the others
// of their shape, as one stack (batched GEMMs): at d = 64 a step's ~20 tiny ops per matrix cost
// more in dispatch than in arithmetic. Larger ones keep their own call, where BLAS syrk
// (unbatched only) saves a quarter of the FLOPs.
constexpr int64_t kBatchedMsignMaxSide = 96;

struct PendingMsign {
  at::Tensor w, u;
  double step;  // eta * scale
};

}  // namespace

void Muon::step(double lr) {
  const double beta = cfg_.momentum;
  // Small matrices by (small side, large side); the update is w -= step * msign(u), the same
  // whether applied now or after the other slots' updates.
  std::map<std::pair<int64_t, int64_t>, std::vector<PendingMsign>> batches;
  forEachUpdate(lr, cfg_.weightDecay, [&](const ParamSlot& slot, const at::Tensor& w, const at::Tensor& g, double eta) {
    const auto role = slot.param.role;
    if (!slot.param.isMatrix() || (role == models::Role::Embedding && cfg_.embedUpdate == "adamw")) {
      adam_.apply(slot.param.name, w, g, eta);
      return;
    }
    auto& buf = buffers_[slot.param.name];
    if (!buf.defined()) buf = at::zeros_like(g);
    buf.mul_(beta).add_(g, 1.0 - beta);  // EMA momentum
    const auto u = cfg_.nesterov ? g * (1.0 - beta) + buf * beta : buf;
    if (role == models::Role::Embedding) {
      // l1 -> RMS duality: each token's vector to unit RMS, inflated at most embed_max_inflation
      // times so rarely seen tokens are not pushed at full strength by stale momentum (App. F).
      const auto rms = u.square().mean({-1}, /*keepdim=*/true).sqrt();
      const auto factor = at::clamp_max(1.0 / at::clamp_min(rms, 1e-30), cfg_.embedMaxInflation);
      w.sub_(u * factor, eta);
    } else {
      const double stepSize = eta * scaleFor(w.size(0), w.size(1));
      const int64_t small = std::min(u.size(0), u.size(1)), large = std::max(u.size(0), u.size(1));
      if (small <= kBatchedMsignMaxSide) batches[{small, large}].push_back({w, u, stepSize});
      else w.sub_(spectral::msign(u, ns_), stepSize);
    }
  });
  at::NoGradGuard noGrad;
  for (auto& [shape, group] : batches) {
    if (group.size() == 1) {
      group[0].w.sub_(spectral::msign(group[0].u, ns_), group[0].step);
      continue;
    }
    // msign of a tall matrix is msign of its transpose, transposed: stack every one wide.
    std::vector<at::Tensor> wide;
    for (const auto& p : group) wide.push_back(p.u.size(0) > p.u.size(1) ? p.u.mT() : p.u);
    const auto signs = spectral::msign(at::stack(wide), ns_);
    for (size_t i = 0; i < group.size(); ++i) {
      const auto& p = group[i];
      const auto o = signs[static_cast<int64_t>(i)];
      p.w.sub_(p.u.size(0) > p.u.size(1) ? o.mT() : o, p.step);
    }
  }
}

}  // namespace lwb::optim
