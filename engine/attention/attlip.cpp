// AttLip's potential, gradient and inner solver (SEEDS-002-004 §C.1–C.2, G.3.1–G.3.2, G.3.8).
#include "attention/attlip.h"

#include "attention/attention_common.h"

#include <ATen/TensorOperators.h>
#include <ATen/core/grad_mode.h>
#include <ATen/ops/full_like.h>
#include <ATen/ops/ones_like.h>
#include <ATen/ops/where.h>
#include <ATen/ops/zeros_like.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace lwb::attention {
namespace {

double tauOf(const at::Tensor& w) { return std::sqrt(static_cast<double>(w.size(1))); }

void checkWeights(const at::Tensor& w, const at::Tensor& x) {
  if (!w.defined() || w.dim() != 3 || w.size(0) < 1 || w.size(1) < 1)
    throw std::invalid_argument("AttLip: W must be [H, d_h, d]");
  if (!x.defined() || (x.dim() != 2 && x.dim() != 3) || x.size(-1) != w.size(2))
    throw std::invalid_argument("AttLip: X must be [N, d] or [B, N, d] with d = W.size(2)");
}

// Per-head scores S^h_ij = ‖W^h(x_i + x_j)‖²/τ and the projections V = X W^hᵀ, for X [B, N, d]:
// V [B, H, N, d_h], S [B, H, N, N]. ‖v_i + v_j‖² = ‖v_i‖² + ‖v_j‖² + 2⟨v_i, v_j⟩.
struct Scores {
  at::Tensor v, s;
};
Scores scores(const at::Tensor& x3, const at::Tensor& w) {
  const auto v = headProjections(x3, w.transpose(-1, -2)).view({x3.size(0), w.size(0), x3.size(1), w.size(1)});
  const auto sq = v.pow(2).sum(-1);
  const auto s = (sq.unsqueeze(-1) + sq.unsqueeze(-2) + headsProduct(v, v.transpose(-1, -2), 2.0)) / tauOf(w);
  return {v, s};
}

// Per-example squared Frobenius norm of [B, N, d].
at::Tensor sqNorm(const at::Tensor& z) { return z.pow(2).sum({-1, -2}); }

at::Tensor perExample(const at::Tensor& v) { return v.reshape({-1, 1, 1}); }

// ‖Y − X‖_F / ‖X‖_F over the whole batch; 0 for X = 0 (then Y = X = 0, AttLip(0) = 0).
double relativeMovement(const at::Tensor& y, const at::Tensor& x) {
  const double xn = x.norm().item<double>();
  return xn > 0 ? (y - x).norm().item<double>() / xn : 0.0;
}

// ∇f from the scores (C.1): Σ_h [(P + Pᵀ)V + diag(1 + Pᵀ𝟙)V] W^h, P = softmax_row(S).
at::Tensor gradientFrom(const Scores& sc, const at::Tensor& w) {
  const auto p = sc.s.softmax(-1);
  const auto colSums = p.sum(-2).unsqueeze(-1);  // Σ_i P^h_ik, unsymmetrised (G.3.2)
  const auto m = headsProduct(p + p.transpose(-1, -2), sc.v) + (1 + colSums) * sc.v;
  return headsSum(m, w);
}

// φ_X(Y − λG) − φ_X(Y) per example as a function of λ, for the Armijo test, without the
// cancellation of subtracting two values of φ: near convergence the sufficient decrease
// c·λ·‖G‖² falls below the rounding of φ itself (≈ 1e−16·φ), the test then fails for every
// λ and the solver stalls at ‖g‖ ≈ 1e−6 (measured). With V = Y W^hᵀ and E = G W^hᵀ the
// score change is Δ_ij = (−λ a_ij + λ² b_ij)/τ with
//   a_ij = 2⟨E_i + E_j, V_i + V_j⟩,  b_ij = ‖E_i + E_j‖²,
// computed once per step; per row LSE(S + Δ) − LSE(S) = log Σ_j P_ij e^{Δ_ij} is taken as
// log1p(Σ_j P_ij expm1(Δ_ij)) while |Δ| ≤ 1 (accurate) and as a log-sum-exp otherwise.
// The quadratic part is (λ²‖G‖² − 2λ⟨G, Y − X⟩)/(2η). Every trial λ costs elementwise work
// on [B, H, N, N] only. Tensors are detached (the line search is under no-grad).
class LineSearch {
 public:
  LineSearch(const Scores& sc, const at::Tensor& g, const at::Tensor& yMinusX, const at::Tensor& w, double eta)
      : tau_(tauOf(w)), eta_(eta) {
    const auto e = headProjections(g, w.transpose(-1, -2)).view(sc.v.sizes());
    const auto ev = (e * sc.v).sum(-1), ee = e.pow(2).sum(-1);
    const auto cross = headsProduct(e, sc.v.transpose(-1, -2));
    a_ = 2 * (ev.unsqueeze(-1) + ev.unsqueeze(-2) + cross + cross.transpose(-1, -2));
    b_ = ee.unsqueeze(-1) + ee.unsqueeze(-2) + headsProduct(e, e.transpose(-1, -2), 2.0);
    logP_ = sc.s.log_softmax(-1);
    p_ = logP_.exp();
    gg_ = sqNorm(g);
    gr_ = (g * yMinusX).sum({-1, -2});
  }
  const at::Tensor& gradSquared() const { return gg_; }
  // λ [B] -> φ(Y − λG) − φ(Y) [B].
  at::Tensor change(const at::Tensor& lambda) const {
    const auto l = lambda.reshape({-1, 1, 1, 1});
    const auto delta = (l * l * b_ - l * a_) / tau_;
    const auto small = delta.abs().amax(-1) <= 1.0;
    const auto accurate = (p_ * delta.expm1()).sum(-1).log1p();
    const auto robust = (logP_ + delta).logsumexp(-1);
    const auto df = at::where(small, accurate, robust).sum({1, 2}) * (tau_ / 2);
    return df + (lambda.pow(2) * gg_ - 2 * lambda * gr_) / (2 * eta_);
  }

 private:
  double tau_, eta_;
  at::Tensor a_, b_, logP_, p_, gg_, gr_;
};

}  // namespace


at::Tensor attlipPotential(const at::Tensor& x, const at::Tensor& w) {
  checkWeights(w, x);
  const auto x3 = asBatch(x);
  const auto sc = scores(x3, w);
  // (τ/2) Σ_h Σ_i LSE_j S^h_ij; logsumexp subtracts the row max itself.
  const auto f = sc.s.logsumexp(-1).sum({1, 2}) * (tauOf(w) / 2);
  return x.dim() == 2 ? f.squeeze(0) : f;
}

at::Tensor attlipGradient(const at::Tensor& x, const at::Tensor& w) {
  checkWeights(w, x);
  const auto x3 = asBatch(x);
  const auto g = gradientFrom(scores(x3, w), w);
  return x.dim() == 2 ? g.squeeze(0) : g;
}

at::Tensor proxObjective(const at::Tensor& y, const at::Tensor& x, const at::Tensor& w, double eta) {
  if (y.sizes() != x.sizes()) throw std::invalid_argument("AttLip: Y and X must have the same shape");
  const auto d = y - x;
  const auto quad = x.dim() == 2 ? d.pow(2).sum() : sqNorm(d);
  return attlipPotential(y, w) + quad / (2 * eta);
}

double potentialSmoothnessBound(const at::Tensor& w, int64_t tokens, double radius) {
  if (!w.defined() || w.dim() != 3) throw std::invalid_argument("AttLip: W must be [H, d_h, d]");
  if (tokens < 1 || !(radius >= 0) || !std::isfinite(radius))
    throw std::invalid_argument("AttLip: smoothness bound needs tokens >= 1 and a finite radius >= 0");
  // ‖A^h‖₂ = σ₁(W^h)² (exact SVD). Derivation (Hessian of (τ/2) LSE_j s_ij along V, with
  // ‖W(x_i + x_j)‖ ≤ 2R‖W‖ and Σ_i P_ij ≤ N): ∇²f ⪯ Σ_h (N+1)(2‖A‖ + 16‖A‖²R²/τ) I.
  const auto sigma = spectralNorms(w).contiguous();
  const double tau = tauOf(w);
  double total = 0;
  for (int64_t h = 0; h < sigma.size(0); ++h) {
    const double a = std::pow(sigma[h].item<double>(), 2);
    total += static_cast<double>(tokens + 1) * (2 * a + 16 * a * a * radius * radius / tau);
  }
  return total;
}

double certifiedStep(double lf, double eta) {
  if (!(eta > 0) || !std::isfinite(eta)) throw std::invalid_argument("AttLip: η must be finite and > 0");
  if (!(lf >= 0) || !std::isfinite(lf)) throw std::invalid_argument("AttLip: the smoothness bound must be finite and >= 0");
  // s = λ/(1 − λ/η) = 2/L_f: the gradient step y − s∇f(y) has Jacobian I − s∇²f with
  // eigenvalues in [−1, 1] on the ball, so it is nonexpansive there (C.2; proof in DESIGN.md).
  return lf > 0 ? 2 * eta / (2 + eta * lf) : eta / 2;
}

double safeFixedStep(const at::Tensor& w, int64_t tokens, double radius, double eta) {
  return certifiedStep(potentialSmoothnessBound(w, tokens, radius), eta);
}

namespace {

void checkProxOptions(const ProxOptions& o) {
  if (!(o.eta > 0) || !std::isfinite(o.eta)) throw std::invalid_argument("AttLip: η must be finite and > 0");
  if (o.maxSteps < 0) throw std::invalid_argument("AttLip: maxSteps must be >= 0");
  if (!(o.beta > 0 && o.beta < 1) || !(o.c > 0 && o.c < 1) || o.backtracks < 0)
    throw std::invalid_argument("AttLip: Armijo needs β in (0, 1), c in (0, 1), backtracks >= 0");
  if (o.tolerance < 0 || o.relTolerance < 0) throw std::invalid_argument("AttLip: tolerances must be >= 0");
}

// One prox step's sizes per example: the fixed λ, or Armijo's backtracking from lambdaInit
// (004 Alg. 1); 0 where the example has converged. `offset` is y − x.
at::Tensor proxStepSizes(const ProxOptions& o, double fixedStep, double lambdaInit, const Scores& sc, const at::Tensor& g,
                         const at::Tensor& offset, const at::Tensor& wd, const at::Tensor& gNorm, const at::Tensor& active) {
  at::NoGradGuard ng;  // "Armijo steps do not accumulate gradients" (C.2)
  at::Tensor lambda;
  if (o.rule == ProxRule::Fixed) {
    lambda = at::full_like(gNorm, fixedStep);
  } else {
    const LineSearch search({sc.v.detach(), sc.s.detach()}, g.detach(), offset.detach(), wd, o.eta);
    const auto gg = search.gradSquared();
    lambda = at::full_like(gNorm, lambdaInit);
    auto accepted = at::zeros_like(active);
    for (int b = 0; b < o.backtracks; ++b) {
      accepted = accepted | (search.change(lambda) <= -o.c * lambda * gg);
      if (accepted.all().item<bool>()) break;
      lambda = at::where(accepted, lambda, lambda * o.beta);  // all fail: the last λ (G.3.8)
    }
  }
  return at::where(active, lambda, 0.0);
}

}  // namespace

ProxResult attlipProx(const at::Tensor& x, const at::Tensor& w, const ProxOptions& o) {
  checkWeights(w, x);
  checkProxOptions(o);
  const bool stopOnTolerance = o.tolerance > 0 || o.relTolerance > 0;

  const auto x3 = asBatch(x);
  const double lambdaInit = o.lambdaInit > 0 ? o.lambdaInit : o.eta;
  double fixedStep = o.fixedStep;
  if (o.rule == ProxRule::Fixed && !(fixedStep > 0)) {
    // The largest input of the call sets the ball (then λ depends on the input: callers that
    // need one fixed map pass fixedStep themselves).
    const double radius = sqNorm(x3.detach()).max().sqrt().item<double>();
    fixedStep = safeFixedStep(w, x3.size(1), radius, o.eta);
  }
  if (o.rule == ProxRule::Fixed && !(fixedStep < o.eta))
    throw std::invalid_argument("AttLip: the fixed step λ must be < η");

  const auto xd = x3.detach();
  const auto wd = w.detach();
  auto phi = [&](const at::Tensor& y) { return attlipPotential(y, wd) + sqNorm(y - xd) / (2 * o.eta); };

  ProxResult r;
  at::Tensor y = x3;
  Scores sc = scores(y, w);
  at::Tensor g = gradientFrom(sc, w) + (y - x3) / o.eta;
  at::Tensor gNorm = sqNorm(g.detach()).sqrt();
  at::Tensor eps;
  if (stopOnTolerance) eps = (gNorm * o.relTolerance).clamp_min(o.tolerance);
  auto record = [&](const at::Tensor& yNow, const at::Tensor& gn) {
    if (!o.recordTrace) return;
    at::NoGradGuard ng;
    r.residualTrace.push_back(gn.max().item<double>());
    r.potentialTrace.push_back(phi(yNow.detach()).sum().item<double>());
    r.movementTrace.push_back(relativeMovement(yNow.detach(), xd));
  };
  record(y, gNorm);
  const at::Tensor g0 = gNorm;
  double stepSum = 0, stepCount = 0, stepMin = 0;
  for (int k = 0; k < o.maxSteps; ++k) {
    at::Tensor active = stopOnTolerance ? gNorm > eps : at::ones_like(gNorm, gNorm.options().dtype(at::kBool));
    if (!active.any().item<bool>()) break;
    const at::Tensor lambda = proxStepSizes(o, fixedStep, lambdaInit, sc, g, y - x3, wd, gNorm, active);
    {
      at::NoGradGuard ng;
      const auto taken = lambda.masked_select(active);
      const double lo = taken.min().item<double>();
      stepSum += taken.sum().item<double>();
      stepCount += static_cast<double>(taken.numel());
      stepMin = k == 0 ? lo : std::min(stepMin, lo);
    }
    if (o.recordTrace) r.stepTrace.push_back(lambda.mean().item<double>());
    y = y - perExample(lambda.to(y.scalar_type())) * g;
    ++r.steps;
    sc = scores(y, w);
    g = gradientFrom(sc, w) + (y - x3) / o.eta;
    gNorm = sqNorm(g.detach()).sqrt();
    record(y, gNorm);
  }
  r.residuals = x.dim() == 2 ? gNorm.squeeze(0) : gNorm;
  r.residual = gNorm.max().item<double>();
  {
    at::NoGradGuard ng;
    r.initialResidual = g0.max().item<double>();
    r.residualRatio = at::where(g0 > 0, gNorm / g0.clamp_min(1e-300), 0.0).max().item<double>();
    r.movement = relativeMovement(y.detach(), xd);
    r.stepMean = stepCount > 0 ? stepSum / stepCount : 0.0;
    r.stepMin = stepMin;
  }
  r.converged = stopOnTolerance && (gNorm <= eps).all().item<bool>();
  r.output = x.dim() == 2 ? y.squeeze(0) : y;
  return r;
}

ProxMovementParts proxMovementParts(const at::Tensor& x, const at::Tensor& y, const at::Tensor& w, double eta) {
  checkWeights(w, y);
  at::NoGradGuard ng;
  const auto y3 = asBatch(y.detach());
  const Scores sc = scores(y3, w.detach());
  const auto p = sc.s.softmax(-1);                                    // [B, H, N, N]
  const auto diag = p.diagonal(0, -2, -1).unsqueeze(-1);              // P_ii [B, H, N, 1]
  const auto colSums = p.sum(-2).unsqueeze(-1);                       // Σ_k P_ki
  const auto mix = headsSum(headsProduct(p + p.transpose(-1, -2), sc.v) - 2 * diag * sc.v, w);
  const auto self = headsSum((1 + colSums + 2 * diag) * sc.v, w);
  ProxMovementParts out;
  out.mixing = (-eta * mix).reshape(y.sizes());
  out.self = (-eta * self).reshape(y.sizes());
  const double xn = x.norm().item<double>();
  out.mixingShare = xn > 0 ? out.mixing.norm().item<double>() / xn : 0.0;
  out.selfShare = xn > 0 ? out.self.norm().item<double>() / xn : 0.0;
  return out;
}

at::Tensor relaxProx(const at::Tensor& x, const at::Tensor& proxOfX, double alpha) {
  if (!(alpha > 0 && std::isfinite(alpha))) throw std::invalid_argument("AttLip: the relaxation must be finite and > 0");
  return alpha == 1 ? proxOfX : x + alpha * (proxOfX - x);
}

double relaxedProxBound(double alpha) {
  if (!(alpha > 0 && std::isfinite(alpha))) throw std::invalid_argument("AttLip: the relaxation must be finite and > 0");
  return std::max(1.0, alpha - 1.0);
}

at::Tensor attlipInitWeights(int64_t dim, int64_t heads, uint64_t seed, at::ScalarType dtype) {
  const int64_t dh = headDim(dim, heads);
  auto gen = seededGenerator(seed);
  return xavierBlocks(gen, heads, dh, dim).to(dtype);
}

}  // namespace lwb::attention
