// ℓ2-attention, standard attention and their bounds (SEEDS-002-004 §H.4, C.5–C.6): Lambert W
// values, the bound's N-factor, tied keys, PGD estimate ≤ the bound, 004's Eq. 6 as printed
// below a closed-form Lipschitz ratio (it is not a bound), Thm 1's local bound by hand.
#include "attention/lambert_w.h"
#include "attention/l2_attention.h"
#include "attention/standard_attention.h"
#include "bounds/pgd_lipschitz.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/ops/cat.h>
#include <ATen/ops/eye.h>
#include <ATen/ops/randn.h>
#include <ATen/ops/randperm.h>
#include <ATen/ops/stack.h>
#include <ATen/ops/zeros.h>
#include <QtTest/QtTest>
#include "support/random_tensors.h"

#include <cmath>
#include <stdexcept>
#include <vector>

using namespace lwb;
using test::fro;
using test::gaussian;
using namespace lwb::attention;

namespace {

const auto kF64 = at::TensorOptions().dtype(at::kDouble);
constexpr double kE = 2.718281828459045235360287;

double spectral(const at::Tensor& m) { return at::linalg_svdvals(m).max().item<double>(); }

// The shift direction, a closed form independent of the bound code: P^h depends on token
// differences only and has rows summing to 1, so F(X + 𝟙δᵀ) = F(X) + 𝟙 δᵀ M with
// M = [A_1 W_V^1 … A_H W_V^H] W^O (A_h = W_Q^h W_Q^hᵀ/√d_h); the block is affine along it and
// its Lipschitz constant is at least ‖M‖₂ (exact SVD).
double shiftLowerBound(const L2AttentionWeights& w) {
  const double sqrtDh = std::sqrt(double(w.query.size(2)));
  std::vector<at::Tensor> blocks;
  for (int64_t h = 0; h < w.query.size(0); ++h)
    blocks.push_back(w.query[h].matmul(w.query[h].transpose(0, 1)).matmul(w.value[h]) / sqrtDh);
  return spectral(at::cat(blocks, 1).matmul(w.out));
}

}  // namespace

class TestL2Attention : public QObject {
  Q_OBJECT

  // One head, d = d_h, W_Q = q·I, W_V = W^O = I: A = q²/√d_h·I.
  static L2AttentionWeights builtHead(int64_t d, double q) {
    L2AttentionWeights w;
    w.query = at::eye(d, kF64).unsqueeze(0) * q;
    w.value = at::eye(d, kF64).unsqueeze(0);
    w.out = at::eye(d, kF64);
    return w;
  }
  static double shiftRatio(const L2AttentionWeights& w, const at::Tensor& x, const at::Tensor& delta) {
    return fro(l2Attention(x + delta, w) - l2Attention(x, w)) / fro(delta);
  }

 private Q_SLOTS:
  void lambertW() {
    QVERIFY(std::abs(lambertW0(1.0) - 0.5671433) < 1e-6);
    QVERIFY(std::abs(lambertW0(kE) - 1.0) < 1e-12);
    QCOMPARE(lambertW0(0.0), 0.0);
    QVERIFY(std::abs(lambertW0(-1.0 / kE) + 1.0) < 1e-7);
    const std::pair<int, double> table[] = {{16, 1.383462}, {64, 2.307130}, {512, 3.880425}, {2048, 5.012246}};
    for (const auto& [n, w] : table) QVERIFY(std::abs(lambertW0((n - 1) / kE) - w) < 1e-6);
    // W e^W = x across the range, near the branch point included.
    for (double x : {-0.36, -0.3, -0.1, 1e-8, 0.5, 10.0, 1e3, 1e10, 1e300}) {
      const double w = lambertW0(x);
      QVERIFY2(std::abs(w * std::exp(w) - x) <= 1e-13 * std::max(1.0, std::abs(x)), qPrintable(QString::number(x)));
    }
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, lambertW0(-0.4));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, lambertW0(std::nan("")));
  }

  void eq6TokenFactor() {
    // (√N/8)(4W₀((N−1)/e) + 1) for d_h = 64 (C.5 values).
    const std::pair<int, double> table[] = {{16, 3.2669},  {32, 5.8825},   {64, 10.2285},  {128, 17.3142},
                                            {256, 28.6910}, {512, 46.7304}, {1024, 75.0379}, {2048, 119.0710}};
    for (const auto& [n, v] : table) QVERIFY(std::abs(l2BoundTokenFactor(n, 64) - v) < 1e-4);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, l2BoundTokenFactor(0, 64));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, l2BoundTokenFactor(4, 0));
  }

  void l2AttentionByHand() {
    // One head, d = d_h = 1, W_Q = q, W_V = v, W^O = o: F(X)_i = Σ_j P_ij x_j q² v o, P from
    // −q²(x_i − x_j)². X = (0, 1): P_00 = 1/(1 + e^{−q²}).
    L2AttentionWeights w;
    const double q = 0.7, v = 1.3, o = -0.4;
    w.query = at::full({1, 1, 1}, q, kF64);
    w.value = at::full({1, 1, 1}, v, kF64);
    w.out = at::full({1, 1}, o, kF64);
    const auto x = at::tensor({0.0, 1.0}, kF64).reshape({2, 1});
    const double p01 = 1 / (1 + std::exp(q * q));  // weight of x_1 = 1 seen from token 0
    const auto y = l2Attention(x, w);
    QVERIFY(std::abs(y[0][0].item<double>() - p01 * q * q * v * o) < 1e-14);
    QVERIFY(std::abs(y[1][0].item<double>() - (1 - p01) * q * q * v * o) < 1e-14);
    w.plainValue = true;  // Eq. 5: X W_V without A_h
    QVERIFY(std::abs(l2Attention(x, w)[0][0].item<double>() - p01 * v * o) < 1e-14);
    QVERIFY(!l2AttentionBound(w, 4).has_value());
  }

  void tiedKeysAndShapes() {
    const auto w = l2AttentionInit(16, 4, 3);
    QCOMPARE(w.query.sizes(), (at::IntArrayRef{4, 16, 4}));
    QCOMPARE(w.out.sizes(), (at::IntArrayRef{16, 16}));
    // Tied keys: the scores are symmetric, so swapping two tokens permutes the output rows.
    const auto x = gaussian({6, 16}, 4);
    const auto perm = at::randperm(6, at::TensorOptions().dtype(at::kLong));
    QVERIFY(fro(l2Attention(x.index_select(0, perm), w) - l2Attention(x, w).index_select(0, perm)) < 1e-12);
    // Same seed, same weights (for every N); batch = per example.
    QCOMPARE(fro(l2AttentionInit(16, 4, 3).query - w.query), 0.0);
    const auto xb = gaussian({2, 6, 16}, 5);
    QVERIFY(fro(l2Attention(xb, w)[1] - l2Attention(xb[1], w)) < 1e-13);
  }

  void pgdEstimateBelowTheBound() {
    const auto w = l2AttentionInit(16, 2, 7);
    for (int n : {8, 16, 32}) {
      const double bound = *l2AttentionBound(w, n);
      const auto x0 = gaussian({1, n, 16}, 8);
      bounds::PgdOptions o;
      o.iters = 15;
      o.restarts = 2;
      const auto r = bounds::pgdLipschitz([&](const at::Tensor& x) { return l2Attention(x, w); }, x0, o);
      QVERIFY2(r.best > 0.1 && r.best <= bound, qPrintable(QString("%1 %2").arg(r.best).arg(bound)));
    }
    // Both formulas by hand from the spectral norms: the bound with ‖W_Q^h‖₂², 004's Eq. 6 as
    // printed with ‖W_Q^h‖₂ once.
    double sound = 0, printed = 0;
    for (int h = 0; h < 2; ++h) {
      const double q = spectral(w.query[h]), v = spectral(w.value[h]);
      sound += std::pow(q * q * v, 2);
      printed += std::pow(q * v, 2);
    }
    const double c = l2BoundTokenFactor(16, 8) * spectral(w.out);
    QVERIFY(std::abs(*l2AttentionBound(w, 16) - c * std::sqrt(sound)) < 1e-12 * c * std::sqrt(sound));
    QVERIFY(std::abs(l2AttentionBoundAsPrinted(w, 16) - c * std::sqrt(printed)) < 1e-12 * c * std::sqrt(printed));
  }

  // Issue 32 §5: pgdEstimateBelowTheBound checks against a bound orders of magnitude above the
  // estimate. Here the weights are built so the estimate must come near the bound: one head,
  // d = d_h = 4, W_Q = q·I, W_V = W^O = I, N = 2 tokens. Shifting every token by one δ keeps
  // all distances, hence P, and moves each output row by δ·A = δ·q²/√d_h, so the constant is
  // at least q²/√d_h (shiftLowerBound, checked by hand below). The bound is
  // (√N/√d_h)(4W₀((N−1)/e) + 1)·q², so at q = 1 that is a third of it (0.334); PGD, started
  // from two equal tokens, must find at least the closed form (measured: 0.42 of the bound)
  // and stay below the bound.
  void pgdNearTheBoundOnABuiltHead() {
    const int64_t d = 4, n = 2;
    const auto w = builtHead(d, 1.0);
    const auto boundByHand = [&](double q) { return (std::sqrt(double(n)) / std::sqrt(double(d))) * (4 * lambertW0((n - 1) / kE) + 1) * q * q; };
    const auto x = gaussian({1, d}, 31).expand({n, d}).contiguous(), delta = gaussian({1, d}, 32).expand({n, d}).contiguous() * 1e-3;
    const double bound = *l2AttentionBound(w, n), shift = 1.0 / std::sqrt(double(d));
    QVERIFY(std::abs(bound - boundByHand(1.0)) <= 1e-12 * bound);
    QVERIFY2(std::abs(shiftRatio(w, x, delta) - shift) <= 1e-9 * shift, qPrintable(QString::number(shiftRatio(w, x, delta))));
    QVERIFY(std::abs(shiftLowerBound(w) - shift) <= 1e-12);
    QVERIFY(shift >= 0.33 * bound);
    bounds::PgdOptions o;
    o.iters = 40;
    o.restarts = 3;
    const auto r = bounds::pgdLipschitz([&](const at::Tensor& b) { return l2Attention(b, w); }, x.unsqueeze(0), o);
    qInfo("bound %.6g, shift direction %.6g (%.3f), PGD %.6g (%.3f)", bound, shift, shift / bound, r.best, r.best / bound);
    QVERIFY2(r.best <= bound, qPrintable(QString("%1 > %2").arg(r.best).arg(bound)));
    QVERIFY2(r.best >= shift * (1 - 1e-9), qPrintable(QString("%1 < %2").arg(r.best).arg(shift)));
  }

  // 004's Eq. 6 as printed charges ‖W_Q‖ once while Kim's A_h = W_Q W_Qᵀ/√d_h carries it
  // twice. On the built head with N = 4 distinct tokens the shift direction is an exact
  // Lipschitz ratio q²/√d_h (measured on the block, not taken from any bound code): at q = 7
  // it is 24.5, above Eq. 6 as printed (23.9), which is therefore not an upper bound; the
  // bound (c_N q²) stays above the ratio at every q, down to 0.1 and up to 30.
  void eq6AsPrintedIsBelowTheShiftDirection() {
    const int64_t d = 4, n = 4;
    const auto x = gaussian({n, d}, 33), delta = gaussian({1, d}, 34).expand({n, d}).contiguous() * 1e-3;
    const double c = (std::sqrt(double(n)) / std::sqrt(double(d))) * (4 * lambertW0((n - 1) / kE) + 1);
    for (double q : {0.1, 1.0, 7.0, 30.0}) {
      const auto w = builtHead(d, q);
      const double ratio = shiftRatio(w, x, delta), closed = q * q / std::sqrt(double(d));
      QVERIFY2(std::abs(ratio - closed) <= 1e-8 * closed, qPrintable(QString("q %1: %2 vs %3").arg(q).arg(ratio).arg(closed)));
      const double bound = *l2AttentionBound(w, n), printed = l2AttentionBoundAsPrinted(w, n);
      QVERIFY(std::abs(printed - c * q) <= 1e-12 * c * q);
      qInfo("q %-4g shift ratio %-10.6g bound %-10.6g Eq. 6 as printed %.6g", q, ratio, bound, printed);
      QVERIFY2(ratio <= bound, qPrintable(QString("q %1: ratio %2 > bound %3").arg(q).arg(ratio).arg(bound)));
    }
    // The paper's formula is below a ratio the block attains: 23.9 < 24.5 at q = 7.
    const auto big = builtHead(d, 7.0);
    QVERIFY(std::abs(l2AttentionBoundAsPrinted(big, n) - 23.8993) < 1e-4);
    QVERIFY2(l2AttentionBoundAsPrinted(big, n) < shiftRatio(big, x, delta),
             qPrintable(QString::number(l2AttentionBoundAsPrinted(big, n))));
  }

  // Random multi-head weights (d 8, H 2, N 6) with every W_Q^h scaled by s = 0.1 … 100: the
  // bound must stay above PGD's estimate and above the shift direction's exact ratio ‖M‖₂ at
  // every s, while Eq. 6 as printed falls below ‖M‖₂ once s is large (the ratio grows as s²,
  // it as s; measured: 1330 vs 1066 at s = 30, 4434 vs 11850 at s = 100).
  void boundAbovePgdOnScaledRandomHeads() {
    const int64_t n = 6;
    const auto base = l2AttentionInit(8, 2, 21);
    const auto x0 = gaussian({1, n, 8}, 22);
    for (double s : {0.1, 0.3, 1.0, 3.0, 10.0, 30.0, 100.0}) {
      L2AttentionWeights w = base;
      w.query = base.query * s;
      const double bound = *l2AttentionBound(w, n), printed = l2AttentionBoundAsPrinted(w, n);
      const double shift = shiftLowerBound(w);
      bounds::PgdOptions o;
      o.iters = 20;
      o.restarts = 2;
      o.seed = 23;
      const double pgd = bounds::pgdLipschitz([&](const at::Tensor& b) { return l2Attention(b, w); }, x0, o).best;
      qInfo("s %-4g PGD %-10.4g shift ‖M‖ %-10.4g bound %-10.4g Eq. 6 as printed %.4g", s, pgd, shift, bound, printed);
      QVERIFY2(pgd <= bound, qPrintable(QString("s %1: PGD %2 > bound %3").arg(s).arg(pgd).arg(bound)));
      QVERIFY2(shift <= bound, qPrintable(QString("s %1: shift %2 > bound %3").arg(s).arg(shift).arg(bound)));
      if (s >= 100) QVERIFY2(printed < shift, qPrintable(QString("s %1: printed %2 >= shift %3").arg(s).arg(printed).arg(shift)));
    }
  }

  // Both attentions against a loop over samples and heads written here (every product a 2-D
  // matmul of one head's matrices), values and the gradient in X, on B = 3, N = 7, d = 8, H = 2,
  // float64 and float32: the batched route (one GEMM for the heads' projections, one BLAS call
  // per (sample, head) product) must be the formula.
  void attentionsMatchThePerHeadLoop_data() {
    QTest::addColumn<int>("dtype");
    QTest::newRow("f64") << static_cast<int>(at::kDouble);
    QTest::newRow("f32") << static_cast<int>(at::kFloat);
  }
  void attentionsMatchThePerHeadLoop() {
    QFETCH(int, dtype);
    const auto type = static_cast<at::ScalarType>(dtype);
    const int64_t b = 3, n = 7, d = 8, heads = 2;
    const double dh = static_cast<double>(d / heads), tol = type == at::kFloat ? 1e-5 : 1e-12;
    auto sw = standardAttentionInit(d, heads, 11);
    auto lw = l2AttentionInit(d, heads, 12);
    const auto x0 = gaussian({b, n, d}, 13);
    // Reference in float64 from the same (rounded) inputs the route sees.
    auto ref = [&](const at::Tensor& x, bool l2, bool plain) {
      std::vector<at::Tensor> samples;
      for (int64_t i = 0; i < b; ++i) {
        std::vector<at::Tensor> hs;
        for (int64_t h = 0; h < heads; ++h) {
          const auto xi = x[i];
          if (!l2) {
            const auto q = xi.matmul(sw.query[h].to(at::kDouble)), k = xi.matmul(sw.key[h].to(at::kDouble));
            const auto p = (q.matmul(k.t()) / std::sqrt(dh)).softmax(-1);
            hs.push_back(p.matmul(xi.matmul(sw.value[h].to(at::kDouble))));
          } else {
            const auto wq = lw.query[h].to(at::kDouble), wv = lw.value[h].to(at::kDouble);
            const auto q = xi.matmul(wq);
            const auto diff = q.unsqueeze(1) - q.unsqueeze(0);  // [N, N, d_h]
            const auto p = (-diff.pow(2).sum(-1) / std::sqrt(dh)).softmax(-1);
            hs.push_back(p.matmul(plain ? xi.matmul(wv) : xi.matmul(wq).matmul(wq.t()).matmul(wv) / std::sqrt(dh)));
          }
        }
        samples.push_back(at::cat(hs, 1).matmul((l2 ? lw.out : sw.out).to(at::kDouble)));
      }
      return at::stack(samples);
    };
    for (const int kind : {0, 1, 2}) {  // standard, ℓ2, ℓ2 with the plain value (Eq. 5)
      lw.plainValue = kind == 2;
      const auto x = x0.to(type).clone().requires_grad_(true);  // clone: .to(float64) of float64 is x0 itself
      const auto castS = [&] { auto c = sw; c.query = c.query.to(type); c.key = c.key.to(type); c.value = c.value.to(type); c.out = c.out.to(type); return c; };
      const auto castL = [&] { auto c = lw; c.query = c.query.to(type); c.value = c.value.to(type); c.out = c.out.to(type); return c; };
      const auto y = kind == 0 ? standardAttention(x, castS()) : l2Attention(x, castL());
      const auto g = gaussian({b, n, d}, 14).to(type);
      (y * g).sum().backward();
      const auto xr = x.detach().to(at::kDouble).requires_grad_(true);
      const auto yr = ref(xr, kind != 0, kind == 2);
      (yr * g.to(at::kDouble)).sum().backward();
      const double scale = yr.abs().max().item<double>(), gscale = xr.grad().abs().max().item<double>();
      QVERIFY2(fro(y.detach().to(at::kDouble) - yr.detach()) / std::sqrt(static_cast<double>(yr.numel())) < tol * scale,
               ("values, kind " + std::to_string(kind)).c_str());
      QVERIFY2((x.grad().to(at::kDouble) - xr.grad()).abs().max().item<double>() < 10 * tol * gscale,
               ("gradient, kind " + std::to_string(kind)).c_str());
    }
  }

  void standardAttentionAndLocalBound() {
    const auto w = standardAttentionInit(8, 2, 9);
    // A constant sequence attends uniformly: every output row is x W_V W^O.
    const auto row = gaussian({1, 8}, 10);
    const auto x = row.expand({5, 8}).contiguous();
    const auto y = standardAttention(x, w);
    const auto expected = at::cat({row.matmul(w.value[0]), row.matmul(w.value[1])}, 1).matmul(w.out);
    for (int i = 0; i < 5; ++i) QVERIFY(fro(y[i] - expected[0]) < 1e-12);
    // Thm 1 as stated, by hand.
    const auto s = [](const at::Tensor& m) { return at::linalg_svdvals(m).max().item<double>(); };
    const int n = 5;
    const double x0 = 2.0, delta = 0.5;
    double sum = 0;
    for (int h = 0; h < 2; ++h) {
      const double lh = n * (n + 1) * std::pow(x0 + delta, 2) *
                        (s(w.value[h]) * s(w.query[h]) * s(w.key[h]) + s(w.value[h]));
      sum += lh * lh;
    }
    QVERIFY(std::abs(standardAttentionLocalBound(w, n, x0, delta) - s(w.out) * std::sqrt(sum)) <
            1e-10 * std::sqrt(sum));
  }
};

QTEST_APPLESS_MAIN(TestL2Attention)
#include "tst_l2_attention.moc"
