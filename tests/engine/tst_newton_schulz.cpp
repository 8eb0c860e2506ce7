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
    for (const auto c : {NsCoefficients::Jordan5, NsCoefficients::You6, NsCoefficients::Polish})
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

  void batchedEqualsPerMatrix() {
    const auto a = test::spectrumMatrix(32, 48, 3.0, 0.1, 1).to(at::kFloat);
    const auto b = test::spectrumMatrix(32, 48, 30.0, 0.3, 2).to(at::kFloat);
    const auto stacked = spectral::msign(at::stack({a, b}), NewtonSchulzConfig::accurate());
    QCOMPARE(stacked.sizes().vec(), (std::vector<int64_t>{2, 32, 48}));
    QVERIFY(test::spectralDistance(stacked[0], spectral::msign(a, NewtonSchulzConfig::accurate())) < 1e-5);
    QVERIFY(test::spectralDistance(stacked[1], spectral::msign(b, NewtonSchulzConfig::accurate())) < 1e-5);
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
