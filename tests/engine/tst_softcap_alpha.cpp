// alpha* of 000 App. B and the equilibrium of spectrally clipped weight decay (App. C.2),
// including the three-step training map of Theorem B.1 under worst-case updates.
#include "spectral/spectral.h"
#include "support/spectra.h"

#include <QtTest/QtTest>

#include <cmath>

using namespace lwb;

class TestSoftCapAlpha : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void solvesQuartic_data() {
    QTest::addColumn<double>("sigmaMax");
    QTest::addColumn<double>("lr");
    QTest::addColumn<double>("wd");
    for (const double s : {0.5, 1.0, 2.0, 8.0})
      for (const double lr : {1e-3, 0.05, 0.5})
        for (const double wd : {0.0, 0.1})
          QTest::addRow("smax=%g/lr=%g/wd=%g", s, lr, wd) << s << lr << wd;
  }

  void solvesQuartic() {
    QFETCH(double, sigmaMax);
    QFETCH(double, lr);
    QFETCH(double, wd);
    const double alpha = spectral::softCapAlphaStar(sigmaMax, lr, wd);
    const double k = spectral::softCapWorstCaseK(sigmaMax, lr, wd, lr);
    QCOMPARE(k, sigmaMax * (1 - wd * lr) + lr);
    if (k <= sigmaMax) {
      QCOMPARE(alpha, 0.0);
      return;
    }
    QVERIFY(alpha > 0);
    // Root of -k^9 a^4 + 3k^7 a^3 - 3k^5 a^2 + k - sigmaMax, i.e. p2(p1(k)) = sigmaMax.
    QVERIFY(std::abs(spectral::softCapQuartic(alpha, k, sigmaMax)) < 1e-12 * k);
    QVERIFY(std::abs(spectral::softCapPolynomial(k, alpha) - sigmaMax) < 1e-12 * k);
    // Smallest non-negative root: the quartic stays positive on [0, alpha*).
    for (int i = 0; i < 1000; ++i)
      QVERIFY(spectral::softCapQuartic(alpha * i / 1000.0, k, sigmaMax) > 0);
  }

  // Hand-computed: sigmaMax = 1, lr = 1/9 (k = 10/9): t = alpha k^2 solves
  // (1 - t)(1 + t (1 - t)^2) = 0.9; f(0.2) = 0.8 * 1.128 = 0.9024 > 0.9 and
  // f(0.21) = 0.79 * 1.131061 = 0.89354 < 0.9, so t lies in (0.2, 0.21).
  void handComputedCase() {
    const double alpha = spectral::softCapAlphaStar(1.0, 1.0 / 9.0);
    const double t = alpha * (10.0 / 9.0) * (10.0 / 9.0);
    QVERIFY(t > 0.2 && t < 0.21);
    QVERIFY(std::abs((1 - t) * (1 + t * (1 - t) * (1 - t)) - 0.9) < 1e-14);
  }

  // The cap's peak over [0, k], against a dense loop over sigma written here: at update /
  // sigmaMax = 0.3 the map still rises to k (peak = sigmaMax), at 0.5 and 0.83 (Muon lr 0.5 on
  // sigmaMax 1 and 0.6) it turns over inside [0, k] and leaves singular values above sigmaMax.
  void peakOverTheInterval() {
    for (const double ratio : {0.1, 0.3, 0.5, 0.83}) {
      const double sigmaMax = 0.6, u = ratio * sigmaMax, k = sigmaMax + u;
      const double alpha = spectral::softCapAlphaStar(sigmaMax, u);
      double peak = 0;
      for (int i = 0; i <= 200000; ++i) {
        const double s = k * i / 200000.0, y = s - alpha * s * s * s;
        peak = std::max(peak, y + alpha * y * y * y);
      }
      QVERIFY2(std::abs(spectral::softCapPeak(alpha, k) - peak) < 1e-9, qPrintable(QString::number(ratio)));
      if (ratio <= 0.3) QVERIFY(peak <= sigmaMax * (1 + 1e-12));
      else QVERIFY(peak > sigmaMax * 1.02);
    }
    QCOMPARE(spectral::softCapPeak(0.0, 1.5), 1.5);
  }

  void zeroWhenDecayAlreadyBounds() {
    // sigmaMax (1 - wd lr) + lr <= sigmaMax  <=>  sigmaMax >= 1 / wd.
    QCOMPARE(spectral::softCapAlphaStar(20.0, 0.1, 0.1), 0.0);
    QVERIFY(spectral::softCapAlphaStar(5.0, 0.1, 0.1) > 0);
    QCOMPARE(spectral::softCapAlphaStar(1.0, 0.0), 0.0);
  }

  void updateNormOverridesLr() {
    // App. F: update norm eta * 1.14502 * 1.05 needs a stronger cap.
    QVERIFY(spectral::softCapAlphaStar(1.0, 0.1, 0, 0.1 * 1.14502 * 1.05) > spectral::softCapAlphaStar(1.0, 0.1));
  }

  void rejectsBadInput() {
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, spectral::softCapAlphaStar(0.0, 0.1));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, spectral::softCapAlphaStar(1.0, -0.1));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, spectral::softCapAlphaStar(1.0, NAN));
  }

  // Theorem B.1: decay, worst-case Muon update (aligned with every singular vector pair,
  // ||Delta W|| = eta), soft cap with alpha*: sigma1 never exceeds sigmaMax, 1000 steps.
  void theoremB1KeepsBoundUnderWorstCaseUpdates_data() {
    QTest::addColumn<double>("sigmaMax");
    QTest::addColumn<double>("lr");
    QTest::addColumn<double>("wd");
    QTest::newRow("smax=1/lr=0.1") << 1.0 << 0.1 << 0.0;
    QTest::newRow("smax=2/lr=0.05/wd=0.1") << 2.0 << 0.05 << 0.1;
    QTest::newRow("smax=8/lr=0.3") << 8.0 << 0.3 << 0.0;
  }

  void theoremB1KeepsBoundUnderWorstCaseUpdates() {
    QFETCH(double, sigmaMax);
    QFETCH(double, lr);
    QFETCH(double, wd);
    auto w = spectral::matrixWithSpectrum(24, 40, spectral::logSpacedSpectrum(24, sigmaMax, 1e-3), 17);
    const double alpha = spectral::softCapAlphaStar(sigmaMax, lr, wd);
    double worst = 0;
    for (int step = 0; step < 1000; ++step) {
      w = spectral::weightDecay(w, wd, lr);
      const auto update = test::applySpectralMap(w, [](double) { return 1.0; }) * lr;  // eta U V^T
      w = spectral::spectralSoftCap(w + update, alpha);
      worst = std::max(worst, test::singularValues(w).front());
    }
    qInfo("max sigma1 over 1000 steps = %.12f (sigma_max %g)", worst, sigmaMax);
    QVERIFY(worst <= sigmaMax * (1 + 1e-9));
    // The bound is tight: the worst case drives sigma1 up to sigmaMax.
    QVERIFY(worst >= sigmaMax * (1 - 1e-6));
  }

  // Claim 4 / Prop. C.0.1: sigma -> clipped_wd(sigma + eta) converges to
  // beta + (1 - lambda) eta / lambda; project-then-update converges to beta + eta / lambda.
  void clippedWeightDecayEquilibrium() {
    const double beta = 1.0, lambda = 0.25, eta = 0.1;
    auto cwd = [&](double s) { return s <= beta ? s : (1 - lambda) * s + lambda * beta; };
    double a = 5.0, b = 0.0;
    for (int i = 0; i < 500; ++i) {
      a = cwd(a + eta);
      b = cwd(b) + eta;
    }
    QVERIFY(std::abs(a - spectral::clippedWeightDecayEquilibrium(beta, lambda, eta,
                                                                spectral::DecayOrder::UpdateThenProject)) < 1e-12);
    QVERIFY(std::abs(b - spectral::clippedWeightDecayEquilibrium(beta, lambda, eta,
                                                                spectral::DecayOrder::ProjectThenUpdate)) < 1e-12);
    QCOMPARE(spectral::clippedWeightDecayEquilibrium(1.0, 0.25, 0.1, spectral::DecayOrder::UpdateThenProject), 1.3);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             spectral::clippedWeightDecayEquilibrium(1, 0, 0.1, spectral::DecayOrder::UpdateThenProject));
  }

  // Matrix soft cap acts on singular values exactly as the scalar polynomial.
  void matrixSoftCapMatchesPolynomial() {
    const auto w = test::spectrumMatrix(30, 50, 2.0, 0.01, 3);
    const double alpha = spectral::softCapAlphaStar(2.0, 0.2);
    const auto got = spectral::spectralSoftCap(w, alpha);
    const auto want = test::applySpectralMap(w, [&](double s) { return spectral::softCapPolynomial(s, alpha); });
    QVERIFY(test::spectralDistance(got, want) < 1e-12);
  }
};

QTEST_APPLESS_MAIN(TestSoftCapAlpha)
#include "tst_softcap_alpha.moc"
