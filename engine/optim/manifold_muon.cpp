#include "optim/manifold_muon.h"

#include "common/run_messages.h"
#include "optim/manifold_muon_math.h"

#include <ATen/TensorOperators.h>
#include <ATen/core/grad_mode.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/scalar_tensor.h>
#include <ATen/ops/zeros_like.h>

#include <cmath>
#include <cstdio>

namespace lwb::optim {

ManifoldMuon::ManifoldMuon(const OptimizerConfig& cfg, std::vector<ParamSlot> slots)
    : Optimizer(std::move(slots)), cfg_(cfg), adam_(cfg.beta1, cfg.beta2, cfg.eps, cfg.biasCorrection) {}

bool ManifoldMuon::onManifold(const models::Param& p) {
  return p.isMatrix() && p.role != models::Role::Embedding && p.role != models::Role::Head;
}

double ManifoldMuon::updateRmsBound(const ParamSlot& slot, double lr) const {
  if (!onManifold(slot.param)) return -1.0;
  const auto& w = slot.param.tensor;
  // ‖W_new − W‖₂ ≤ 2 (both on the manifold) and ≈ lr·‖M‖₂ = lr for small steps; report the
  // first-order value in RMS→RMS units, like Muon.
  return lr * slot.lrMultiplier * std::sqrt(static_cast<double>(w.size(1)) / static_cast<double>(w.size(0)));
}

void ManifoldMuon::saveState(TensorMap& out) const {
  for (const auto& [name, m] : momentum_) out["momentum." + name] = m;
  for (const auto& [name, l] : lambda_) out["lambda." + name] = l;
  for (const auto& [name, c] : retractionCounts_) {
    out["retractions_extended." + name] = at::scalar_tensor(c.extended, at::kLong);
    out["retractions_exact." + name] = at::scalar_tensor(c.exact, at::kLong);
  }
  adam_.save("adam.", out);
}

void ManifoldMuon::loadState(StateIn& in) {
  momentum_.clear();
  lambda_.clear();
  retractionCounts_.clear();
  for (const auto& slot : slots_) {
    const auto& p = slot.param;
    if (!onManifold(p)) continue;
    if (auto m = in.take("momentum." + p.name, p.tensor); m.defined()) momentum_[p.name] = m;
    const int64_t k = std::min(p.tensor.size(0), p.tensor.size(1));
    if (auto l = in.take("lambda." + p.name, at::empty({k, k}, p.tensor.options())); l.defined()) lambda_[p.name] = l;
    // Checkpoints from before issue 26 have no counts: they restart at 0.
    if (in.has("retractions_extended." + p.name))
      retractionCounts_[p.name] = {in.takeCount("retractions_extended." + p.name), in.takeCount("retractions_exact." + p.name)};
  }
  adam_.load("adam.", in, slots_);
}

// Global gradient-norm clipping over the manifold matrices (optimizer.clip_grad_norm; bluey
// meant to clip but never did, SEEDS §A.3, so the default is off).
void ManifoldMuon::clipGradients() {
  if (cfg_.clipGradNorm <= 0) return;
  double total = 0;
  for (const auto& slot : slots_)
    if (onManifold(slot.param) && slot.param.tensor.grad().defined())
      total += slot.param.tensor.grad().square().sum().item<double>();
  const double norm = std::sqrt(total);
  if (norm <= cfg_.clipGradNorm || !std::isfinite(norm)) return;
  for (const auto& slot : slots_)
    if (onManifold(slot.param) && slot.param.tensor.grad().defined())
      slot.param.tensor.mutable_grad().mul_(cfg_.clipGradNorm / norm);
}

void ManifoldMuon::step(double lr) {
  at::NoGradGuard noGrad;
  stats_.clear();
  clipGradients();
  // The schedule multiplies both groups: the AdamW group runs at adam_lr times the factor.
  const double factor = cfg_.lr > 0 ? lr / cfg_.lr : 0.0;
  const double beta = cfg_.momentum;
  for (auto& slot : slots_) {
    const auto& p = slot.param;
    const auto& w = p.tensor;
    const auto& g = w.grad();
    if (!g.defined()) continue;
    if (!onManifold(p)) {
      const double eta = cfg_.adamLr * factor * slot.lrMultiplier;
      if (cfg_.weightDecay > 0 && p.role != models::Role::Other) w.mul_(1.0 - eta * cfg_.weightDecay);
      adam_.apply(p.name, w, g, eta);
      continue;
    }
    auto& m = momentum_[p.name];
    if (!m.defined()) m = at::zeros_like(g);
    m.mul_(beta).add_(g, 1.0 - beta);  // EMA momentum (not Nesterov; β₂ unused, SEEDS §G.1.4)
    const bool offline = cfg_.mmMode == DualMode::Offline;
    auto& lambda = lambda_[p.name];
    if (offline && cfg_.lambdaInit == LambdaInit::Zero && !lambda.defined()) {
      const int64_t k = std::min(w.size(0), w.size(1));
      lambda = at::zeros({k, k}, w.options());
    }
    at::Tensor start;
    if (!offline && !lambda.defined() && cfg_.lambdaInit == LambdaInit::Riemannian) {
      const bool wide = w.size(0) < w.size(1);
      const auto gm = mm::riemannianLambda(wide ? w.mT() : w, wide ? m.mT() : m);
      start = cfg_.normalizeDual ? gm / std::max(1e-30, mm::rms(m)) : gm;
    }
    // Offline re-solves from the Riemannian init every step (TM) unless lambda_init = zero,
    // which starts each solve from zeros; online carries Λ from step to step.
    const auto dir = offline ? mm::offlineDirection(w, m, cfg_.dualLr, cfg_.dualSteps, cfg_.dualTol, cfg_.normalizeDual,
                                                    cfg_.lambdaInit == LambdaInit::Zero ? lambda : at::Tensor())
                             : mm::onlineDirection(w, m, lambda.defined() ? lambda : start, cfg_.dualLr, cfg_.normalizeDual);
    if (!offline) lambda = dir.lambda;
    // Converged retraction (issue 26): at lr near 1, W − lr·M can be singular, and ten Polar
    // Express steps alone then leave W off the manifold.
    const auto r = mm::retractConverged(w, dir.direction, lr * slot.lrMultiplier);
    w.copy_(r.w);
    const double lo = r.sigmaMin, hi = r.sigmaMax;
    auto& count = retractionCounts_[p.name];
    if (r.steps > mm::retractionNs().steps) ++count.extended;
    if (r.exact) ++count.exact;
    stats_.push_back({p.name, dir.tangency.back(), lo, hi, r.steps, r.exact, count.extended, count.exact});
    if (divergence_.empty() && !(std::abs(lo - 1.0) <= kStiefelTolerance && std::abs(hi - 1.0) <= kStiefelTolerance)) {
      const auto num = [](double v) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.7g", v);
        return std::string(buf);
      };
      divergence_ = run::formatMessage(run::kMsgLeftStiefel, {p.name, num(lo), num(hi)});
    }
  }
}

}  // namespace lwb::optim
