// msign by Newton–Schulz against the exact SVD polar factor.
#include "spectral/spectral.h"
#include "support/spectra.h"

#include <ATen/ops/randn.h>
#include <ATen/ops/stack.h>
#include <ATen/ops/zeros.h>
#include <QtTest/QtTest>

#include <algorithm>

using namespace lwb;
using spectral::NewtonSchulzConfig;
using spectral::NsCoefficients;

class TestNewtonSchulz : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void scheduleLengthsAndNames() {
    QCOMPARE(spectral::nsSchedule(NewtonSchulzConfig::muon()).size(), size_t{5});
    const auto you = spectral::nsSchedule({NsCoefficients::You6, 8, 2});
    QCOMPARE(you.size(), size_t{10});
    QCOMPARE(you[0].a, 3955 / 1024.0);
    QCOMPARE(you[7].c, 682 / 1024.0);     // last tuple repeats beyond six
    QCOMPARE(you[9].a, 15.0 / 8.0);       // polishing tail
    for (const auto c : {NsCoefficients::Jordan5, NsCoefficients::You6, NsCoefficients::Polish, NsCoefficients::PolarExpress})
      QVERIFY(spectral::parseNsCoefficients(spectral::toString(c)) == c);
    QVERIFY(!spectral::parseNsCoefficients("jordan"));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, spectral::nsSchedule({NsCoefficients::Jordan5, -1, 0}));
  }

  // The polishing tail converges: p(1) = 1, p'(1) = 0 (the fixed point is attracting).
  void polishTupleFixesOne() {
    const auto t = spectral::nsSchedule({NsCoefficients::Polish, 1, 0}).front();
    QCOMPARE(t.a + t.b + t.c, 1.0);
    QCOMPARE(t.a + 3 * t.b + 5 * t.c, 0.0);
  }

  void accurateMsignMatchesPolarFactor_data() {
    QTest::addColumn<int>("m");
    QTest::addColumn<int>("n");
    QTest::addColumn<bool>("bf16");
    QTest::addColumn<double>("tol");
    for (const auto& [m, n] : {std::pair{64, 64}, std::pair{96, 48}, std::pair{48, 96}}) {
      QTest::addRow("%dx%d/float32", m, n) << m << n << false << 1e-3;
      // bfloat16 (eps 7.8e-3): 14 rounded products leave ~0.04-0.075 in spectral norm,
      // ~15x the cost of merely storing U V^T in bfloat16 (measured 4e-3).
      QTest::addRow("%dx%d/bfloat16", m, n) << m << n << true << 0.1;
    }
  }

  void accurateMsignMatchesPolarFactor() {
    QFETCH(int, m);
    QFETCH(int, n);
    QFETCH(bool, bf16);
    QFETCH(double, tol);
    // Condition number 100: every singular value converges with the accurate schedule.
    const auto w = test::spectrumMatrix(m, n, 5.0, 0.05, 7);
    const auto o = spectral::msign(w.to(bf16 ? at::kBFloat16 : at::kFloat), NewtonSchulzConfig::accurate());
    QVERIFY(o.sizes() == w.sizes());
    QCOMPARE(o.scalar_type(), bf16 ? at::kBFloat16 : at::kFloat);
    const auto exact = test::applySpectralMap(w, [](double) { return 1.0; });
    const double dist = test::spectralDistance(o, exact);
    qInfo("||msign - U V^T||_2 = %.2e", dist);
    QVERIFY2(dist < tol, qPrintable(QString::number(dist)));
  }

  // Muon's jordan5 x 5 does not converge to 1: it lands singular values in ~[0.68, 1.13].
  void jordanBand() {
    const auto w = test::spectrumMatrix(128, 256, 10.0, 0.1, 3);
    const auto s = test::singularValues(spectral::msign(w.to(at::kFloat), NewtonSchulzConfig::muon()));
    QVERIFY2(*std::min_element(s.begin(), s.end()) > 0.6, qPrintable(QString::number(s.back())));
    QVERIFY2(s.front() < 1.25, qPrintable(QString::number(s.front())));
  }

  // Polar Express (SEEDS-002-004 §A.4): the registry holds the published tuples with the
  // 1.01 safety factors (first seven divided, the last exact) and repeats the last.
  void polarExpressTuples() {
    const auto& set = spectral::nsCoefficientSet(NsCoefficients::PolarExpress);
    QCOMPARE(set.key, std::string_view("polar_express"));
    QCOMPARE(set.tuples.size(), size_t{8});
    QCOMPARE(set.normSafety, 1.01);
    QCOMPARE(set.defaultSteps, 10);
    QCOMPARE(set.tuples[0].a, 8.28721201814563 / 1.01);
    QCOMPARE(set.tuples[0].b, -23.595886519098837 / (1.01 * 1.01 * 1.01));
    QCOMPARE(set.tuples[6].c, 0.3750001645474248 / (1.01 * 1.01 * 1.01 * 1.01 * 1.01));
    const auto sched = spectral::nsSchedule({NsCoefficients::PolarExpress, 10, 0});
    QCOMPARE(sched[9].a, 1.875);
    QCOMPARE(sched[9].b, -1.25);
    QCOMPARE(sched[7].c, 0.375);
    // The scalar map never leaves [0, 1.0001] on (0, 1]: no inflation beyond rounding.
    QVERIFY(spectral::nsMaxInflation({NsCoefficients::PolarExpress, 10, 0}) < 1.0001);
  }

  // The retraction test of SEEDS §H.1: W on the Stiefel manifold (msign of a Gaussian, by
  // SVD), a step -0.1 A with A = msign(Gaussian); Polar Express x 10 in float32 lands every
  // singular value within 1e-5 of 1 (measured ~4e-7) and matches the exact polar factor.
  // Jordan x 5 on the same input stays far off (~0.3): it cannot serve as a retraction.
  void polarExpressRetractsToStiefel() {
    const auto w = test::applySpectralMap(at::randn({128, 64}, at::kDouble), [](double) { return 1.0; });
    const auto a = test::applySpectralMap(at::randn({128, 64}, at::kDouble), [](double) { return 1.0; });
    const auto step = (w - 0.1 * a).to(at::kFloat);
    const auto pe = spectral::msign(step, {NsCoefficients::PolarExpress, 10, 0});
    const auto s = test::singularValues(pe);
    const double dev = std::max(std::abs(s.front() - 1.0), std::abs(s.back() - 1.0));
    qInfo("polar_express x10: max|sigma - 1| = %.2e", dev);
    QVERIFY2(dev <= 1e-5, qPrintable(QString::number(dev)));
    const auto exact = test::applySpectralMap(step.to(at::kDouble), [](double) { return 1.0; });
    QVERIFY(test::spectralDistance(pe, exact) < 1e-5);
    // Condition number 1e3 still converges (SEEDS §A.4: [checked]).
    const auto hard = test::spectrumMatrix(64, 128, 1.0, 1e-3, 5).to(at::kFloat);
    const auto sh = test::singularValues(spectral::msign(hard, {NsCoefficients::PolarExpress, 10, 0}));
    QVERIFY2(std::abs(sh.back() - 1.0) < 1e-3 && std::abs(sh.front() - 1.0) < 1e-5, qPrintable(QString::number(sh.back())));
    const auto sj = test::singularValues(spectral::msign(step, NewtonSchulzConfig::muon()));
    QVERIFY(std::max(std::abs(sj.front() - 1.0), std::abs(sj.back() - 1.0)) > 0.05);
  }

  void batchedEqualsPerMatrix() {
    const auto a = test::spectrumMatrix(32, 48, 3.0, 0.1, 1).to(at::kFloat);
    const auto b = test::spectrumMatrix(32, 48, 30.0, 0.3, 2).to(at::kFloat);
    const auto stacked = spectral::msign(at::stack({a, b}), NewtonSchulzConfig::accurate());
    QCOMPARE(stacked.sizes().vec(), (std::vector<int64_t>{2, 32, 48}));
    QVERIFY(test::spectralDistance(stacked[0], spectral::msign(a, NewtonSchulzConfig::accurate())) < 1e-5);
    QVERIFY(test::spectralDistance(stacked[1], spectral::msign(b, NewtonSchulzConfig::accurate())) < 1e-5);
  }

  // newtonSchulzIterate takes a direct BLAS route on CPU float32/float64 (issue 30 §2): every
  // step, one or a stack, against X ← aX + (bA + cA²)X written here with float64 matmuls.
  void iterateMatchesTheStepFormula_data() {
    QTest::addColumn<int>("dtype");
    QTest::addColumn<bool>("stacked");
    QTest::addColumn<int>("cols");
    QTest::newRow("f64 one matrix") << static_cast<int>(at::kDouble) << false << 40;
    QTest::newRow("f64 stack of 3") << static_cast<int>(at::kDouble) << true << 40;
    QTest::newRow("f32 stack of 3") << static_cast<int>(at::kFloat) << true << 40;
    QTest::newRow("f64 wide (n > 4m)") << static_cast<int>(at::kDouble) << false << 100;
    QTest::newRow("f32 wide stack of 3") << static_cast<int>(at::kFloat) << true << 100;
  }
  void iterateMatchesTheStepFormula() {
    QFETCH(int, dtype);
    QFETCH(bool, stacked);
    QFETCH(int, cols);
    const auto type = static_cast<at::ScalarType>(dtype);
    const std::vector<spectral::NsTuple> schedule{{3.4445, -4.7750, 2.0315}, {1.875, -1.25, 0.375}, {2.0, -1.5, 0.5}};
    auto x = at::randn(stacked ? at::IntArrayRef{3, 24, cols} : at::IntArrayRef{24, cols}, at::kDouble);
    x = x / x.square().sum({-2, -1}, true).sqrt();
    auto ref = x.clone();
    for (const auto& t : schedule) {
      const auto a = ref.matmul(ref.mT());
      ref = t.a * ref + (t.b * a + t.c * a.matmul(a)).matmul(ref);
    }
    const auto out = spectral::newtonSchulzIterate(x.to(type).contiguous(), schedule);
    QCOMPARE(out.sizes().vec(), ref.sizes().vec());
    const double err = (out.to(at::kDouble) - ref).abs().max().item<double>();
    QVERIFY2(err < (type == at::kFloat ? 1e-5 : 1e-12), std::to_string(err).c_str());
  }

  // msign with its Frobenius norm given (Muon's call) folds 1/‖W‖ into the first step. Against
  // the five jordan5 steps written here in float64 on W/‖W‖, for a Gaussian W and one with
  // singular values from 1e4 down to 1 (Muon's momenta are far from well conditioned), square-ish
  // and wide: float32 within 5e-5 of the largest entry. (A Gram-space iteration, M_k polynomial
  // in X₀X₀ᵀ, was tried for wide matrices and measured 1e-4–3e-3 here: it squares the
  // condition number; docs/BENCHMARKS.md "Issue 30 §2, second pass".)
  void msignWithKnownNormMatchesTheFormula() {
    for (const int64_t cols : {40, 300})
      for (const bool illConditioned : {false, true}) {
        const auto w = illConditioned ? test::spectrumMatrix(32, cols, 1e4, 1.0, 7) : at::randn({32, cols}, at::kDouble) * 0.01;
        const double fro = w.square().sum().sqrt().item<double>();
        const auto cfg = NewtonSchulzConfig::muon();
        const double safety = spectral::nsCoefficientSet(cfg.coefficients).normSafety;
        auto ref = w / (fro * safety + 1e-30);
        for (const auto& t : spectral::nsSchedule(cfg)) {
          const auto a = ref.matmul(ref.mT());
          ref = t.a * ref + (t.b * a + t.c * a.matmul(a)).matmul(ref);
        }
        const auto out = spectral::msign(w.to(at::kFloat), cfg, fro);
        const double err = (out.to(at::kDouble) - ref).abs().max().item<double>() / ref.abs().max().item<double>();
        QVERIFY2(err < 5e-5, (std::to_string(cols) + (illConditioned ? " ill-conditioned: " : ": ") + std::to_string(err)).c_str());
      }
  }

  void zeroMatrixStaysZero() {
    const auto o = spectral::msign(at::zeros({8, 12}), NewtonSchulzConfig::accurate());
    QVERIFY(o.isfinite().all().item<bool>());
    QCOMPARE(o.abs().max().item<float>(), 0.0f);
  }

  void rejectsVectors() {
    QVERIFY_THROWS_EXCEPTION(c10::Error, spectral::msign(at::randn({5})));
  }
};

QTEST_APPLESS_MAIN(TestNewtonSchulz)
#include "tst_newton_schulz.moc"
