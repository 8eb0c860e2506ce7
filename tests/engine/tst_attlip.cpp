// AttLip (SEEDS-002-004 §H.3): potential and gradient, convexity, exact facts, the solver's
// optimality and Armijo descent, firm non-expansiveness, ‖J‖₂ of the converged prox,
// Prop. 3 for finite K, the fixed-step mode, and the two backward paths. float64 throughout.
#include "attention/attlip.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/core/grad_mode.h>
#include <ATen/ops/randn.h>
#include <ATen/ops/randperm.h>
#include <ATen/ops/tensor.h>
#include <ATen/ops/zeros.h>
#include <ATen/ops/zeros_like.h>
#include <QtTest/QtTest>
#include "support/random_tensors.h"

#include <cmath>
#include <limits>
#include <stdexcept>

using namespace lwb;
using test::fro;
using test::gaussian;
using namespace lwb::attention;

namespace {

const auto kF64 = at::TensorOptions().dtype(at::kDouble);

ProxOptions converged(double tol = 1e-11) {
  ProxOptions o;
  o.maxSteps = 2000;
  o.tolerance = tol;
  return o;
}

}  // namespace

class TestAttLip : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void gradientMatchesCentralDifferences() {
    for (const auto& [n, d, h] : {std::tuple{8, 16, 2}, std::tuple{12, 8, 4}, std::tuple{6, 32, 4}}) {
      const auto w = attlipInitWeights(d, h, 3);
      const auto x = gaussian({n, d}, 5);
      const auto g = attlipGradient(x, w);
      for (uint64_t s = 0; s < 3; ++s) {
        const auto v = gaussian({n, d}, 10 + s);
        const double hStep = 1e-5;
        const double fd = (attlipPotential(x + hStep * v, w) - attlipPotential(x - hStep * v, w)).item<double>() /
                          (2 * hStep);
        const double exact = (g * v).sum().item<double>();
        QVERIFY2(std::abs(fd - exact) <= 1e-6 * std::abs(exact), qPrintable(QString::number(fd - exact)));
      }
    }
    // Batched calls give each example's own value.
    const auto w = attlipInitWeights(16, 2, 1);
    const auto xb = gaussian({3, 8, 16}, 2);
    const auto gb = attlipGradient(xb, w);
    const auto fb = attlipPotential(xb, w);
    for (int b = 0; b < 3; ++b) {
      QVERIFY(fro(gb[b] - attlipGradient(xb[b], w)) <= 1e-12 * fro(gb[b]));
      QVERIFY(std::abs((fb[b] - attlipPotential(xb[b], w)).item<double>()) <= 1e-12 * std::abs(fb[b].item<double>()));
    }
  }

  void potentialIsConvex() {
    const auto w = attlipInitWeights(16, 4, 7);
    for (uint64_t s = 0; s < 20; ++s) {
      const auto a = gaussian({10, 16}, 100 + s, 1.5), b = gaussian({10, 16}, 200 + s, 1.5);
      for (double theta : {0.1, 0.5, 0.8}) {
        const double mid = attlipPotential(theta * a + (1 - theta) * b, w).item<double>();
        const double chord =
            theta * attlipPotential(a, w).item<double>() + (1 - theta) * attlipPotential(b, w).item<double>();
        QVERIFY(mid <= chord + 1e-9);
      }
    }
  }

  void potentialLowerBoundAndExactFacts() {
    const int n = 9, d = 16, h = 4;
    const auto w = attlipInitWeights(d, h, 2);
    const double floorValue = std::sqrt(4.0) / 2 * h * n * std::log(static_cast<double>(n));
    const auto zero = at::zeros({n, d}, kF64);
    QVERIFY(std::abs(attlipPotential(zero, w).item<double>() - floorValue) <= 1e-12 * floorValue);
    for (uint64_t s = 0; s < 5; ++s) QVERIFY(attlipPotential(gaussian({n, d}, s), w).item<double>() >= floorValue);
    // AttLip(0) = 0 (∇f(0) = 0: zero residual, no step).
    const auto p0 = attlipProx(zero, w, converged());
    QCOMPARE(fro(p0.output), 0.0);
    QCOMPARE(p0.residual, 0.0);
    // W = 0 is the identity.
    const auto x = gaussian({n, d}, 4);
    const auto id = attlipProx(x, at::zeros_like(w), converged());
    QVERIFY(fro(id.output - x) <= 1e-15);
    // Permutation equivariance.
    const auto perm = at::randperm(n, at::TensorOptions().dtype(at::kLong));
    const auto px = attlipProx(x, w, converged()).output;
    const auto ppx = attlipProx(x.index_select(0, perm), w, converged()).output;
    QVERIFY(fro(ppx - px.index_select(0, perm)) <= 1e-9);
  }

  void convergedOutputSolvesTheProxAndArmijoDescends() {
    const auto w = attlipInitWeights(16, 2, 11);
    const auto x = gaussian({12, 16}, 12);
    auto o = converged(1e-10);
    o.recordTrace = true;
    const auto r = attlipProx(x, w, o);
    QVERIFY(r.converged);
    QVERIFY(r.steps > 0 && r.steps < o.maxSteps);
    QVERIFY(fro(r.output + o.eta * attlipGradient(r.output, w) - x) <= 1e-8);
    QCOMPARE(static_cast<int>(r.potentialTrace.size()), r.steps + 1);
    QCOMPARE(static_cast<int>(r.stepTrace.size()), r.steps);
    // (φ is ≈ 1e2 here: allow its rounding, 1e−13 relative.)
    for (size_t k = 1; k < r.potentialTrace.size(); ++k)
      QVERIFY(r.potentialTrace[k] <= r.potentialTrace[k - 1] + 1e-13 * std::abs(r.potentialTrace[k - 1]));
    // Every call reports its residual and steps, converged or not.
    ProxOptions three;
    three.maxSteps = 3;
    const auto r3 = attlipProx(x, w, three);
    QCOMPARE(r3.steps, 3);
    QVERIFY(!r3.converged);
    QVERIFY(r3.residual > 0);
  }

  // Issue 26's split of the movement: mixing + self is y − x at the prox point, and the mixing
  // part equals the sum over other tokens written out with scores and softmax by hand.
  void movementSplitsIntoMixingAndSelf() {
    const auto w = attlipInitWeights(8, 2, 5);  // [H, d_h, d]
    const auto x = gaussian({5, 8}, 6);
    const auto y = attlipProx(x, w, converged(1e-12)).output;
    const auto parts = proxMovementParts(x, y, w, 1.0);
    QVERIFY2(fro(parts.mixing + parts.self - (y - x)) <= 1e-9, qPrintable(QString::number(fro(parts.mixing + parts.self - (y - x)))));
    const int64_t heads = w.size(0), n = y.size(0), dh = w.size(1);
    const double tau = std::sqrt(static_cast<double>(dh));
    at::Tensor expected = at::zeros_like(y);
    for (int64_t h = 0; h < heads; ++h) {
      const auto wh = w[h];  // [d_h, d]
      std::vector<std::vector<double>> p(static_cast<size_t>(n), std::vector<double>(static_cast<size_t>(n)));
      for (int64_t i = 0; i < n; ++i) {
        double z = 0;
        for (int64_t j = 0; j < n; ++j) {
          const double s = wh.matmul(y[i] + y[j]).pow(2).sum().item<double>() / tau;
          p[static_cast<size_t>(i)][static_cast<size_t>(j)] = std::exp(s);
          z += std::exp(s);
        }
        for (auto& v : p[static_cast<size_t>(i)]) v /= z;
      }
      for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j)
          if (j != i) {
            const double c = p[static_cast<size_t>(i)][static_cast<size_t>(j)] + p[static_cast<size_t>(j)][static_cast<size_t>(i)];
            expected[i] -= c * wh.t().matmul(wh.matmul(y[j]));  // −η (P_ij + P_ji) W^hᵀ W^h y_j, η = 1
          }
    }
    QVERIFY2(fro(parts.mixing - expected) <= 1e-10 * fro(expected), qPrintable(QString::number(fro(parts.mixing - expected))));
    QVERIFY(std::abs(parts.mixingShare - fro(expected) / fro(x)) <= 1e-10);
    // One token has nothing to mix with.
    const auto one = gaussian({1, 8}, 7);
    const auto alone = proxMovementParts(one, attlipProx(one, w, converged(1e-12)).output, w, 1.0);
    QCOMPARE(alone.mixingShare, 0.0);
    QVERIFY(alone.selfShare > 0);
  }

  void firmlyNonExpansive() {
    const auto w = attlipInitWeights(16, 4, 21);
    const auto x = gaussian({100, 8, 16}, 22);
    // Half near pairs, half far pairs.
    auto y = gaussian({100, 8, 16}, 23);
    y.narrow(0, 0, 50).copy_(x.narrow(0, 0, 50) + 1e-3 * y.narrow(0, 0, 50));
    const auto px = attlipProx(x, w, converged()), py = attlipProx(y, w, converged());
    QVERIFY(px.converged && py.converged);
    const auto dp = px.output - py.output, dx = x - y;
    const auto lhs = dp.pow(2).sum({1, 2}), rhs = (dp * dx).sum({1, 2});
    QVERIFY((lhs <= rhs + 1e-9).all().item<bool>());
  }

  // The relaxed prox x + α(prox(x) − x) is 1-Lipschitz up to α = 2 (firm non-expansiveness),
  // and not beyond: with η = 3 the prox has curvature directions μ > 4, where α = 2.5 maps a
  // change to 1 − α + α/(1 + μ) < −1 of itself, so some pair moves apart.
  void relaxedProxIsOneLipschitzUpToTwo() {
    const auto w = attlipInitWeights(16, 4, 61);
    const auto x = gaussian({60, 8, 16}, 62, 0.3);
    auto y = gaussian({60, 8, 16}, 63, 0.3);
    y.narrow(0, 0, 30).copy_(x.narrow(0, 0, 30) + 1e-3 * y.narrow(0, 0, 30));
    ProxOptions o = converged(1e-9);
    o.maxSteps = 5000;
    o.eta = 3;
    const auto px = attlipProx(x, w, o), py = attlipProx(y, w, o);
    QVERIFY2(px.converged && py.converged, qPrintable(QString::number(std::max(px.residual, py.residual))));
    // Written out here; relaxProx itself is compared below.
    const auto worst = [&](double alpha) {
      const auto d = (x + alpha * (px.output - x)) - (y + alpha * (py.output - y));
      return (d.norm(2, {1, 2}) / (x - y).norm(2, {1, 2})).max().item<double>();
    };
    QVERIFY(fro(relaxProx(x, px.output, 2.0) - (2 * px.output - x)) <= 1e-12 * fro(x));
    QVERIFY(relaxProx(x, px.output, 1.0).equal(px.output));
    for (double alpha : {0.5, 1.0, 1.5, 2.0}) QVERIFY2(worst(alpha) <= 1 + 1e-9, qPrintable(QString::number(alpha)));
    QVERIFY2(worst(2.5) > 1.01, qPrintable(QString::number(worst(2.5), 'g', 8)));
    QCOMPARE(worst(2.0) > worst(1.0), true);  // the reflection keeps what the prox shrinks
    // Beyond 2 the bound is α − 1 (relaxedProxBound), and the measured ratio stays below it.
    for (double alpha : {2.5, 3.0, 4.0}) {
      QVERIFY(fro(relaxProx(x, px.output, alpha) - (x + alpha * (px.output - x))) <= 1e-12 * fro(x));
      QVERIFY2(worst(alpha) <= relaxedProxBound(alpha) + 1e-9, qPrintable(QString::number(alpha)));
    }
    QCOMPARE(relaxedProxBound(0.5), 1.0);
    QCOMPARE(relaxedProxBound(2.0), 1.0);
    QCOMPARE(relaxedProxBound(3.5), 2.5);
    for (double alpha : {0.0, -1.0, std::nan(""), std::numeric_limits<double>::infinity()}) {
      QVERIFY_THROWS_EXCEPTION(std::invalid_argument, relaxProx(x, px.output, alpha));
      QVERIFY_THROWS_EXCEPTION(std::invalid_argument, relaxedProxBound(alpha));
    }
  }

  void jacobianNormAtConvergedPoint() {
    for (const auto& [n, d, h] : {std::tuple{8, 16, 2}, std::tuple{16, 32, 4}}) {
      const auto w = attlipInitWeights(d, h, 31);
      const auto x = gaussian({n, d}, 32);
      const auto r = attlipProx(x, w, converged(1e-10));
      const double norm = proxJacobianNorm(r.output, w, 1.0);
      QVERIFY2(norm > 0.98 && norm <= 1 + 1e-12, qPrintable(QString::number(norm, 'g', 10)));
    }
  }

  void finiteKDistanceIsBoundedByResidual() {  // Prop. 3
    const auto w = attlipInitWeights(16, 4, 41);
    const auto x = gaussian({10, 16}, 42);
    const auto exact = attlipProx(x, w, converged()).output;
    for (int k = 1; k <= 5; ++k) {
      ProxOptions o;
      o.maxSteps = k;
      const auto r = attlipProx(x, w, o);
      QVERIFY(fro(r.output - exact) <= o.eta * r.residual + 1e-10);
    }
  }

  void fixedStepIsOneLipschitzForEveryK() {
    const auto w = attlipInitWeights(16, 4, 51);
    // Rows scaled to norm ≤ 3.
    auto clampRows = [](const at::Tensor& z) {
      return z * (3.0 / z.norm(2, {-1}, true)).clamp_max(1.0);
    };
    const auto x = clampRows(gaussian({40, 8, 16}, 52, 2.0));
    const auto y = clampRows(x + gaussian({40, 8, 16}, 53, 0.05));
    for (int k = 1; k <= 3; ++k) {
      ProxOptions o;
      o.rule = ProxRule::Fixed;
      o.fixedStep = 1e-3;
      o.maxSteps = k;
      const auto fx = attlipProx(x, w, o).output, fy = attlipProx(y, w, o).output;
      const auto ratio = (fx - fy).norm(2, {1, 2}) / (x - y).norm(2, {1, 2});
      QVERIFY(ratio.max().item<double>() <= 1 + 1e-9);
    }
    // The safe step for the ball holding both inputs of a pair gives a 1-Lipschitz K-step map.
    const auto a = gaussian({12, 16}, 54), b = a + gaussian({12, 16}, 55, 1e-2);
    const double radius = std::max(fro(a), fro(b));
    const double lambda = safeFixedStep(w, 12, radius, 1.0);
    QVERIFY(lambda > 0 && lambda < 1.0);
    for (int k : {1, 2, 5, 20}) {
      ProxOptions o;
      o.rule = ProxRule::Fixed;
      o.fixedStep = lambda;
      o.maxSteps = k;
      const double ratio = fro(attlipProx(a, w, o).output - attlipProx(b, w, o).output) / fro(a - b);
      QVERIFY(ratio <= 1 + 1e-9);
    }
  }

  void smoothnessBoundDominatesTheHessian() {
    // Rayleigh quotients of ∇²f from Hessian-vector products never exceed L_f on the ball.
    const auto w = attlipInitWeights(16, 2, 61);
    const auto x = gaussian({8, 16}, 62);
    const double lf = potentialSmoothnessBound(w, 8, fro(x));
    // J = (I + ηH)⁻¹ ⇒ vᵀJv ≥ 1/(1 + η λ_max(H)) ≥ 1/(1 + η L_f) for unit v.
    for (uint64_t s = 0; s < 3; ++s) {
      auto v = gaussian({8, 16}, 63 + s);
      v = v / fro(v);
      const double q = (v * proxJacobianProduct(x, w, 1.0, v)).sum().item<double>();
      QVERIFY(q >= 1 / (1 + lf) - 1e-12 && q <= 1 + 1e-12);
    }
  }

  void unrolledAndImplicitBackward() {
    const auto w = attlipInitWeights(16, 2, 71);
    const auto x0 = gaussian({8, 16}, 72);
    const auto v = gaussian({8, 16}, 73);
    // Training path: K unrolled steps, autograd w.r.t. x matches central differences of the
    // same K-step map (λ_k constants there, and λ does not change under a 1e-6 nudge here).
    {
      ProxOptions o;
      o.rule = ProxRule::Fixed;
      o.fixedStep = 0.05;
      o.maxSteps = 3;
      auto x = x0.clone().requires_grad_(true);
      const auto y = attlipProx(x, w, o).output;
      (y * v).sum().backward();
      const auto dir = gaussian({8, 16}, 74);
      const double h = 1e-6;
      const double fd = (((attlipProx(x0 + h * dir, w, o).output - attlipProx(x0 - h * dir, w, o).output) * v)
                             .sum()
                             .item<double>()) /
                        (2 * h);
      const double ad = (x.grad() * dir).sum().item<double>();
      QVERIFY2(std::abs(fd - ad) <= 1e-6 * std::abs(ad), qPrintable(QString::number(fd - ad)));
    }
    // Implicit backward (J by CG) equals the unrolled gradient of a converged solve.
    {
      auto o = converged(1e-12);
      o.rule = ProxRule::Fixed;
      o.fixedStep = 0.05;
      auto xa = x0.clone().requires_grad_(true);
      auto wa = w.clone().requires_grad_(true);
      (attlipProx(xa, wa, o).output * v).sum().backward();
      auto xb = x0.clone().requires_grad_(true);
      auto wb = w.clone().requires_grad_(true);
      ProxResult info;
      const auto yb = attlipProxImplicit(xb, wb, o, &info);
      QVERIFY(info.converged);
      (yb * v).sum().backward();
      QVERIFY2(fro(xa.grad() - xb.grad()) <= 1e-7 * fro(xa.grad()),
               qPrintable(QString::number(fro(xa.grad() - xb.grad()))));
      // And w.r.t. W (−η ∂_W⟨J·ḡ, ∇f_W(y*)⟩): the unrolled solve's W-gradient is the
      // reference; a sign or η slip in the implicit form is off by ~2× its norm.
      QVERIFY2(fro(wa.grad() - wb.grad()) <= 1e-7 * fro(wa.grad()),
               qPrintable(QString::number(fro(wa.grad() - wb.grad()) / fro(wa.grad()))));
    }
  }

  // The certified step (DESIGN.md "AttLip: the certified step") is tight where the Hessian
  // bound is: one token, one head, W = [5, 0] (τ = 1), so f = 50·x₁², ∇²f = diag(100, 0) and
  // potentialSmoothnessBound on a ball of radius 1e−4 is 100 + 2e−4. Near the origin the prox
  // iteration is linear; along e₁ one step multiplies by m = 1 − λ(100 + 1/η) and the K-step
  // map by c + m^K(1 − c), c = 1/(1 + 100η). At the certified λ = 2η/(2 + η·L_f) it stays
  // ≤ 1 for every K; 5 % above it (m ≈ −1.08) it exceeds 1 already at K = 1, so the check
  // below can fail.
  void certifiedStepHoldsAndIsTight() {
    const auto w = at::tensor({5.0, 0.0}, kF64).reshape({1, 1, 2});
    const double radius = 1e-4;
    const double lf = potentialSmoothnessBound(w, 1, radius);
    QVERIFY(std::abs(lf - (100 + 2e-4)) < 1e-9);
    const double lambda = safeFixedStep(w, 1, radius, 1.0);
    QCOMPARE(lambda, certifiedStep(lf, 1.0));
    QVERIFY(std::abs(lambda - 2.0 / (2 + lf)) < 1e-15);
    const auto x = at::tensor({4e-5, 3e-5}, kF64).reshape({1, 2});
    const auto y = at::tensor({-5e-5, 2e-5}, kF64).reshape({1, 2});
    auto ratioAt = [&](double step, int k) {
      ProxOptions o;
      o.rule = ProxRule::Fixed;
      o.fixedStep = step;
      o.maxSteps = k;
      return fro(attlipProx(x, w, o).output - attlipProx(y, w, o).output) / fro(x - y);
    };
    double worstAbove = 0;
    for (int k = 1; k <= 8; ++k) {
      QVERIFY2(ratioAt(lambda, k) <= 1 + 1e-9, qPrintable(QString::number(ratioAt(lambda, k))));
      worstAbove = std::max(worstAbove, ratioAt(1.05 * lambda, k));
    }
    QVERIFY2(worstAbove > 1.02, qPrintable(QString::number(worstAbove)));
    // And on a multi-token input with the bound of its ball (a loose bound there).
    const auto w2 = attlipInitWeights(16, 4, 81);
    const auto a = gaussian({3, 10, 16}, 82), b = a + gaussian({3, 10, 16}, 83, 1e-3);
    const double r2 = std::max(a.norm(2, {1, 2}).max().item<double>(), b.norm(2, {1, 2}).max().item<double>());
    for (int k : {1, 3, 10}) {
      ProxOptions o;
      o.rule = ProxRule::Fixed;
      o.fixedStep = safeFixedStep(w2, 10, r2, 0.5);
      o.eta = 0.5;
      o.maxSteps = k;
      const auto ratio = (attlipProx(a, w2, o).output - attlipProx(b, w2, o).output).norm(2, {1, 2}) / (a - b).norm(2, {1, 2});
      QVERIFY(ratio.max().item<double>() <= 1 + 1e-9);
    }
  }

  // The diagnostics of issue 26 against quantities computed here from their definitions.
  void diagnosticsMatchTheirDefinitions() {
    const auto w = attlipInitWeights(16, 2, 91);
    const auto x = gaussian({3, 8, 16}, 92, 0.5);
    ProxOptions o;
    o.maxSteps = 4;
    o.recordTrace = true;
    const auto r = attlipProx(x, w, o);
    QCOMPARE(r.steps, 4);
    const double movement = fro(r.output - x) / fro(x);
    QVERIFY(std::abs(r.movement - movement) < 1e-12 * std::max(1.0, movement));
    QVERIFY(r.movement > 0);
    QCOMPARE(r.movementTrace.size(), size_t{5});
    QCOMPARE(r.movementTrace.front(), 0.0);
    QVERIFY(std::abs(r.movementTrace.back() - movement) < 1e-12);
    // g₀ = ∇φ_X(X) = ∇f(X); the ratio is per example, the max reported.
    const auto g0 = attlipGradient(x, w).norm(2, {1, 2});
    QVERIFY(std::abs(r.initialResidual - g0.max().item<double>()) < 1e-10 * r.initialResidual);
    const double ratio = (r.residuals / g0).max().item<double>();
    QVERIFY(std::abs(r.residualRatio - ratio) < 1e-12);
    QVERIFY(r.residualRatio < 1);
    // Armijo's λ are β-powers of λ_init = η; every accepted one is in [β^20 η, η].
    QVERIFY(r.stepMin > 0 && r.stepMin <= r.stepMean && r.stepMean <= 1.0);
    const double k = std::log(r.stepMin) / std::log(0.5);
    QVERIFY(std::abs(k - std::round(k)) < 1e-9);
    // The fixed rule reports its own λ; W = 0 is the identity: no movement, ratio 0 (g₀ = 0).
    ProxOptions f;
    f.rule = ProxRule::Fixed;
    f.fixedStep = 0.01;
    f.maxSteps = 3;
    const auto rf = attlipProx(x, w, f);
    QCOMPARE(rf.stepMean, 0.01);
    QCOMPARE(rf.stepMin, 0.01);
    const auto r0 = attlipProx(x, at::zeros({2, 8, 16}, kF64), f);
    QCOMPARE(r0.movement, 0.0);
    QCOMPARE(r0.residualRatio, 0.0);
  }

  void badInputThrows() {
    const auto w = attlipInitWeights(16, 2, 1);
    const auto x = gaussian({4, 16}, 1);
    ProxOptions o;
    o.eta = 0;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, attlipProx(x, w, o));
    o = {};
    o.beta = 1.5;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, attlipProx(x, w, o));
    o = {};
    o.rule = ProxRule::Fixed;
    o.fixedStep = 2.0;  // ≥ η
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, attlipProx(x, w, o));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, attlipProx(gaussian({4, 8}, 1), w));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, attlipInitWeights(10, 3, 0));
  }
};

QTEST_APPLESS_MAIN(TestAttLip)
#include "tst_attlip.moc"
