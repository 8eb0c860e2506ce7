#include "optim/manifold_muon_math.h"

#include "spectral/newton_schulz.h"

#include <ATen/TensorOperators.h>
#include <ATen/core/grad_mode.h>
#include <ATen/ops/clamp_min.h>
#include <ATen/ops/isfinite.h>
#include <ATen/ops/linalg_eigvalsh.h>
#include <ATen/ops/linalg_svd.h>
#include <ATen/ops/zeros.h>

#include <algorithm>
#include <cmath>
#include <tuple>

namespace lwb::optim::mm {
namespace {

bool isWide(const at::Tensor& w) { return w.size(0) < w.size(1); }
at::Tensor tall(const at::Tensor& x, bool wide) { return wide ? x.mT() : x; }

// G / rms(G) when asked (msign is jointly scale-invariant in (G, Λ), so the direction for the
// same Λ/rms(G) is unchanged; only the dual step becomes scale-free).
at::Tensor dualScale(const at::Tensor& g, bool normalizeDual) {
  if (!normalizeDual) return g;
  return g / at::clamp_min(g.square().mean().sqrt(), 1e-30);
}

}  // namespace

spectral::NewtonSchulzConfig retractionNs() { return {spectral::NsCoefficients::PolarExpress, 10, 0}; }

at::Tensor msignPe(const at::Tensor& x) { return spectral::msign(x, retractionNs()); }

at::Tensor tangencyMatrix(const at::Tensor& w, const at::Tensor& m) {
  const auto wm = w.mT().matmul(m);
  return wm + wm.mT();
}

double rms(const at::Tensor& h) { return h.square().mean().sqrt().item<double>(); }

at::Tensor riemannianLambda(const at::Tensor& w, const at::Tensor& g) { return tangencyMatrix(w, g) * -0.25; }

DirectionResult offlineDirection(const at::Tensor& w0, const at::Tensor& g0, double alpha, int steps, double tol,
                                 bool normalizeDual, const at::Tensor& lambda0) {
  at::NoGradGuard noGrad;
  const bool wide = isWide(w0);
  const auto w = tall(w0, wide), g = tall(dualScale(g0, normalizeDual), wide);
  DirectionResult r;
  r.lambda = lambda0.defined() ? lambda0.clone() : riemannianLambda(w, g);
  at::Tensor m;
  for (int s = 0; s < steps; ++s) {
    m = msignPe(g + 2.0 * w.matmul(r.lambda));
    const auto h = tangencyMatrix(w, m);
    r.tangency.push_back(rms(h));
    if (r.tangency.back() < tol) break;
    r.lambda = r.lambda - h * (alpha * (1.0 - static_cast<double>(s) / steps));
  }
  m = msignPe(g + 2.0 * w.matmul(r.lambda));
  r.tangency.push_back(rms(tangencyMatrix(w, m)));
  r.direction = tall(m, wide).contiguous();
  return r;
}

DirectionResult onlineDirection(const at::Tensor& w0, const at::Tensor& g0, const at::Tensor& lambda, double alpha,
                                bool normalizeDual) {
  at::NoGradGuard noGrad;
  const bool wide = isWide(w0);
  const auto w = tall(w0, wide), g = tall(dualScale(g0, normalizeDual), wide);
  const int64_t k = w.size(1);
  DirectionResult r;
  r.lambda = lambda.defined() ? lambda : at::zeros({k, k}, w.options());
  const auto m1 = msignPe(g + 2.0 * w.matmul(r.lambda));
  const auto h = tangencyMatrix(w, m1);
  r.tangency.push_back(rms(h));
  r.lambda = r.lambda - h * alpha;
  const auto m = msignPe(g + 2.0 * w.matmul(r.lambda));
  r.tangency.push_back(rms(tangencyMatrix(w, m)));
  r.direction = tall(m, wide).contiguous();
  return r;
}

at::Tensor retract(const at::Tensor& w, const at::Tensor& direction, double eta) {
  at::NoGradGuard noGrad;
  return msignPe(w - direction * eta);
}

namespace {

bool onManifold(double lo, double hi) {
  return std::abs(lo - 1.0) <= kRetractionTolerance && std::abs(hi - 1.0) <= kRetractionTolerance;
}

// More steps of Polar Express's last tuple on an iterate whose σ are in (0, ~1]: p(1) = 1,
// p'(1) = 0, p'(0) = 1.875, so a small σ grows geometrically and then converges fast.
at::Tensor polish(const at::Tensor& x, int steps) {
  const bool tallX = x.size(-2) > x.size(-1);
  const auto last = spectral::nsCoefficientSet(spectral::NsCoefficients::PolarExpress).tuples.back();
  auto y = spectral::newtonSchulzIterate((tallX ? x.mT() : x).contiguous(), std::vector<spectral::NsTuple>(steps, last));
  return tallX ? y.mT().contiguous() : y;
}

at::Tensor exactPolar(const at::Tensor& x) {
  const auto [u, s, vh] = at::linalg_svd(x.to(at::kDouble), /*full_matrices=*/false);
  return u.matmul(vh).to(x.scalar_type());
}

}  // namespace

Retraction retractConverged(const at::Tensor& w, const at::Tensor& direction, double eta) {
  at::NoGradGuard noGrad;
  const auto x = w - direction * eta;
  Retraction r;
  r.w = msignPe(x);
  r.steps = retractionNs().steps;
  std::tie(r.sigmaMin, r.sigmaMax) = sigmaRange(r.w);
  // Not finite: nothing to retract; the optimizer's manifold check reports it.
  if (!std::isfinite(r.sigmaMin) || !std::isfinite(r.sigmaMax)) return r;
  constexpr int kBatch = 5;  // steps between checks (each check is a k×k eigvalsh)
  while (!onManifold(r.sigmaMin, r.sigmaMax) && r.steps < kRetractionMaxSteps) {
    const int n = std::min(kBatch, kRetractionMaxSteps - r.steps);
    r.w = polish(r.w, n);
    r.steps += n;
    std::tie(r.sigmaMin, r.sigmaMax) = sigmaRange(r.w);
  }
  if (!onManifold(r.sigmaMin, r.sigmaMax)) {
    r.w = exactPolar(x);
    r.exact = true;
    std::tie(r.sigmaMin, r.sigmaMax) = sigmaRange(r.w);
  }
  return r;
}

std::pair<double, double> sigmaRange(const at::Tensor& w0) {
  at::NoGradGuard noGrad;
  const auto w = tall(w0.detach(), isWide(w0)).to(at::kDouble);
  if (!w.isfinite().all().item<bool>()) return {std::nan(""), std::nan("")};
  const auto ev = at::linalg_eigvalsh(w.mT().matmul(w)).to(at::kCPU);  // ascending
  const double lo = ev[0].item<double>(), hi = ev[-1].item<double>();
  return {std::sqrt(std::max(0.0, lo)), std::sqrt(std::max(0.0, hi))};
}

}  // namespace lwb::optim::mm
