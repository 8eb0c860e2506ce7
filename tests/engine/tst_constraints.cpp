// Every constraint method, square/tall/wide, float32 and bfloat16, against the exact
// spectral map U f(S) V^T computed by SVD in float64; and the methods' invariants.
#include "spectral/spectral.h"
#include "support/spectra.h"

#include <ATen/ops/stack.h>
#include <ATen/ops/zeros.h>
#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <functional>

using namespace lwb;
using spectral::ConstraintMethod;
using spectral::ClipImpl;

Q_DECLARE_METATYPE(ConstraintMethod)
Q_DECLARE_METATYPE(ClipImpl)

namespace {

constexpr double kSigma1 = 3.0, kSigmaMax = 2.0, kSigmaMin = 0.2, kAlpha = 0.05;

// sigma1 = 3 isolated above a log-spaced tail 1.5 ... 0.05, so 20 power iterations converge
// (gap 0.5) and the tail straddles sigma_min.
at::Tensor testMatrix(int64_t m, int64_t n, uint64_t seed) {
  auto s = spectral::logSpacedSpectrum(std::min(m, n) - 1, 1.5, 0.05);
  s.insert(s.begin(), kSigma1);
  return spectral::matrixWithSpectrum(m, n, s, seed);
}

spectral::ConstraintParams paramsFor(ConstraintMethod method) {
  spectral::ConstraintParams p;
  p.method = method;
  p.sigmaMax = method == ConstraintMethod::Stiefel ? 1.0 : kSigmaMax;
  p.sigmaMin = kSigmaMin;
  p.alpha = kAlpha;
  p.lambda = method == ConstraintMethod::WeightDecay ? 0.1 : 0.5;
  p.lr = 0.5;
  return p;
}

std::function<double(double)> expectedMap(ConstraintMethod m) {
  switch (m) {
    case ConstraintMethod::None: return [](double s) { return s; };
    case ConstraintMethod::WeightDecay: return [](double s) { return s * (1 - 0.1 * 0.5); };
    case ConstraintMethod::SpectralWeightDecay:
      return [](double s) { return s == kSigma1 ? s * 0.5 : s; };
    case ConstraintMethod::SpectralNormalize: return [](double s) { return s * kSigmaMax / kSigma1; };
    case ConstraintMethod::SpectralHammer: return [](double s) { return s == kSigma1 ? kSigmaMax : s; };
    case ConstraintMethod::Stiefel: return [](double) { return 1.0; };
    case ConstraintMethod::SpectralSoftCap:
      return [](double s) { return spectral::softCapPolynomial(s, kAlpha); };
    case ConstraintMethod::SpectralHardCap: return [](double s) { return std::min(s, kSigmaMax); };
    case ConstraintMethod::SpectralClip:
    case ConstraintMethod::SvdClip: return [](double s) { return std::clamp(s, kSigmaMin, kSigmaMax); };
    case ConstraintMethod::SpectralRelu: return [](double s) { return std::max(s, kSigmaMin); };
    case ConstraintMethod::SpectralClippedWeightDecay:
      return [](double s) { return s <= kSigmaMax ? s : 0.5 * s + 0.5 * kSigmaMax; };
  }
  return {};
}

bool usesClipImpl(ConstraintMethod m) {
  return m == ConstraintMethod::SpectralHardCap || m == ConstraintMethod::SpectralClip ||
         m == ConstraintMethod::SpectralRelu || m == ConstraintMethod::SpectralClippedWeightDecay;
}

// The exact map evaluated on the float64 singular values, with sigma1 matched exactly.
std::function<double(double)> onTestSpectrum(std::function<double(double)> f) {
  return [f](double s) { return f(std::abs(s - kSigma1) < 1e-9 ? kSigma1 : s); };
}

}  // namespace

class TestConstraints : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void namesRoundTrip() {
    for (const auto i : {ClipImpl::Nested, ClipImpl::AbdDense, ClipImpl::AbdBlock, ClipImpl::Svd})
      QVERIFY(spectral::parseClipImpl(spectral::toString(i)) == i);
  }

  void matchesExactSpectralMap_data() {
    QTest::addColumn<ConstraintMethod>("method");
    QTest::addColumn<ClipImpl>("impl");
    QTest::addColumn<int>("m");
    QTest::addColumn<int>("n");
    QTest::addColumn<bool>("bf16");
    for (const auto& traits : spectral::constraintMethods()) {
      const ConstraintMethod method = traits.id;
      const std::vector<ClipImpl> impls = usesClipImpl(method)
          ? std::vector<ClipImpl>{ClipImpl::Nested, ClipImpl::AbdDense, ClipImpl::AbdBlock, ClipImpl::Svd}
          : std::vector<ClipImpl>{ClipImpl::AbdBlock};
      for (const auto impl : impls)
        for (const auto& [m, n] : {std::pair{48, 48}, std::pair{64, 32}, std::pair{32, 64}})
          for (const bool bf16 : {false, true})
            QTest::addRow("%s/%s/%dx%d/%s", std::string(spectral::toString(method)).c_str(),
                          std::string(spectral::toString(impl)).c_str(), m, n, bf16 ? "bf16" : "f32")
                << method << impl << m << n << bf16;
    }
  }

  void matchesExactSpectralMap() {
    QFETCH(ConstraintMethod, method);
    QFETCH(ClipImpl, impl);
    QFETCH(int, m);
    QFETCH(int, n);
    QFETCH(bool, bf16);
    const auto w = testMatrix(m, n, 100 + m + 3 * n);
    auto p = paramsFor(method);
    p.impl = impl;
    const auto out = spectral::applyConstraint(w.to(bf16 ? at::kBFloat16 : at::kFloat), p);
    QVERIFY(out.sizes() == w.sizes());
    QCOMPARE(out.scalar_type(), bf16 ? at::kBFloat16 : at::kFloat);
    const auto expected = test::applySpectralMap(w, onTestSpectrum(expectedMap(method)));
    // Distance in spectral norm relative to sigma1 = 3. float32: NS and power iteration
    // errors ~1e-4; bfloat16 (eps 7.8e-3): rounding of W itself is already ~1e-2 relative.
    const double err = test::spectralDistance(out, expected) / kSigma1;
    const double tol = bf16 ? 4e-2 : 2e-3;
    QVERIFY2(err < tol, qPrintable(QStringLiteral("relative spectral error %1").arg(err)));
  }

  // 001 §3.1: spectral_clip_[s,s](W) = s msign(W).
  void clipWithEqualBoundsIsScaledMsign_data() {
    QTest::addColumn<ClipImpl>("impl");
    for (const auto i : {ClipImpl::Nested, ClipImpl::AbdDense, ClipImpl::AbdBlock, ClipImpl::Svd})
      QTest::newRow(std::string(spectral::toString(i)).c_str()) << i;
  }
  void clipWithEqualBoundsIsScaledMsign() {
    QFETCH(ClipImpl, impl);
    const auto w = test::spectrumMatrix(40, 72, 4.0, 0.05, 21).to(at::kFloat);
    spectral::ClipOptions opt;
    opt.impl = impl;
    const auto clipped = spectral::spectralClip(w, 0.7, 0.7, opt);
    const auto ref = spectral::msign(w, spectral::NewtonSchulzConfig::accurate()) * 0.7;
    const auto s = test::singularValues(clipped);
    QVERIFY(test::spectralDistance(clipped, ref) < 2e-3);
    QVERIFY(std::abs(s.front() - 0.7) < 2e-3 && std::abs(s.back() - 0.7) < 2e-3);
  }

  // A caller's msign(W) (ClipOptions::sign, the Clip Lab's reuse) gives the result the method
  // computes itself, for wide and tall W; a sign of another shape is refused.
  void givenSignEqualsComputed() {
    for (const auto& [m, n] : {std::pair{40, 72}, std::pair{72, 40}}) {
      const auto w = test::spectrumMatrix(m, n, 4.0, 0.05, 23).to(at::kFloat);
      for (const auto impl : {ClipImpl::Nested, ClipImpl::AbdBlock}) {
        spectral::ClipOptions plain;
        plain.impl = impl;
        spectral::ClipOptions given = plain;
        given.sign = spectral::msign(w, plain.ns);
        QVERIFY(test::spectralDistance(spectral::spectralHardCap(w, 1.0, given), spectral::spectralHardCap(w, 1.0, plain)) < 1e-5);
        QVERIFY(test::spectralDistance(spectral::spectralClip(w, 0.3, 1.0, given), spectral::spectralClip(w, 0.3, 1.0, plain)) < 1e-5);
        QVERIFY(test::spectralDistance(spectral::spectralRelu(w, 0.3, given), spectral::spectralRelu(w, 0.3, plain)) < 1e-5);
      }
      spectral::ClipOptions wrong;
      wrong.impl = ClipImpl::Nested;
      wrong.sign = at::zeros({m, n + 1});
      QVERIFY_THROWS_EXCEPTION(c10::Error, spectral::spectralHardCap(w, 1.0, wrong));
    }
  }

  // Which methods start from msign(W), by hand from spectral_clip.cpp.
  void startsFromSignByMethod() {
    using M = spectral::ConstraintMethod;
    const auto starts = [](M m, ClipImpl impl, double sigmaMin) {
      spectral::ConstraintParams p;
      p.method = m;
      p.impl = impl;
      p.sigmaMin = sigmaMin;
      return spectral::startsFromSign(p);
    };
    for (const M m : {M::SpectralHardCap, M::SpectralClip, M::SpectralRelu, M::SpectralClippedWeightDecay})
      QVERIFY(starts(m, ClipImpl::Nested, 0.3) && !starts(m, ClipImpl::Svd, 0.3));
    QVERIFY(!starts(M::SpectralHardCap, ClipImpl::AbdBlock, 0.3));
    QVERIFY(!starts(M::SpectralClippedWeightDecay, ClipImpl::AbdDense, 0.3));
    QVERIFY(starts(M::SpectralClip, ClipImpl::AbdBlock, 0.3) && !starts(M::SpectralClip, ClipImpl::AbdBlock, 0.0));
    QVERIFY(starts(M::SpectralRelu, ClipImpl::AbdDense, 0.3));
    QVERIFY(!starts(M::Stiefel, ClipImpl::Nested, 0) && !starts(M::SpectralSoftCap, ClipImpl::Nested, 0) && !starts(M::SvdClip, ClipImpl::Nested, 0.3));
  }

  void reluFloor() {
    const auto w = test::spectrumMatrix(64, 64, 2.0, 1e-3, 5).to(at::kFloat);
    for (const auto impl : {ClipImpl::Nested, ClipImpl::AbdDense, ClipImpl::AbdBlock}) {
      spectral::ClipOptions opt;
      opt.impl = impl;
      const auto s = test::singularValues(spectral::spectralRelu(w, 0.5, opt));
      QVERIFY2(s.back() > 0.5 * (1 - 2e-3), qPrintable(QString::number(s.back())));
      QVERIFY(std::abs(s.front() - 2.0) < 2e-3);  // values above the floor are kept
    }
  }

  void normalizeIsExact() {
    const auto w = testMatrix(32, 48, 3);
    spectral::PowerIterationState st;
    const auto s = test::singularValues(spectral::spectralNormalize(w, 2.0, st, 40));
    QVERIFY(std::abs(s.front() - 2.0) < 1e-12);
    // Below the bound nothing changes.
    const auto small = w * 0.5;
    QVERIFY(test::spectralDistance(spectral::spectralNormalize(small, 2.0, st, 40), small) < 1e-12);
  }

  void hammerSetsSigma1OnceConverged() {
    const auto w = testMatrix(48, 32, 8);
    spectral::PowerIterationState st;
    const auto s = test::singularValues(spectral::spectralHammer(w, 2.0, st, 60));
    QVERIFY(std::abs(s.front() - 2.0) < 1e-10);
    QVERIFY(std::abs(s[1] - 1.5) < 1e-10);
  }

  void stiefelSetsAllToOne() {
    const auto w = test::spectrumMatrix(48, 96, 50.0, 0.01, 4).to(at::kFloat);
    const auto s = test::singularValues(spectral::stiefel(w));
    QVERIFY2(std::abs(s.front() - 1.0) < 1e-3 && std::abs(s.back() - 1.0) < 1e-3,
             qPrintable(QStringLiteral("%1 .. %2").arg(s.front()).arg(s.back())));
  }

  // --norm rms: the threshold bounds sigma1 sqrt(d_in/d_out) for W of shape (d_out, d_in).
  void rmsThresholds() {
    const auto w = test::spectrumMatrix(64, 256, 5.0, 0.1, 6).to(at::kFloat);
    spectral::ConstraintParams p;
    p.method = ConstraintMethod::SpectralHardCap;
    p.sigmaMax = 1.0;
    p.norm = spectral::ThresholdNorm::Rms;
    QCOMPARE(spectral::rmsScale(w), 2.0);
    const auto s = test::singularValues(spectral::applyConstraint(w, p));
    QVERIFY(std::abs(s.front() - 0.5) < 1e-3);
  }

  void batchedHardCap() {
    const auto a = test::spectrumMatrix(24, 40, 5.0, 0.1, 1);
    const auto b = test::spectrumMatrix(24, 40, 0.5, 0.1, 2);
    for (const auto impl : {ClipImpl::Nested, ClipImpl::AbdDense, ClipImpl::AbdBlock, ClipImpl::Svd}) {
      spectral::ClipOptions opt;
      opt.impl = impl;
      const auto out = spectral::spectralHardCap(at::stack({a, b}).to(at::kFloat), 1.0, opt);
      QVERIFY(std::abs(test::singularValues(out[0]).front() - 1.0) < 2e-3);
      QVERIFY(std::abs(test::singularValues(out[1]).front() - 0.5) < 2e-3);
    }
  }

  void badParametersThrow() {
    const auto w = test::spectrumMatrix(8, 8, 2.0, 0.1, 1);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, spectral::spectralClip(w, 2.0, 1.0));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, spectral::spectralSoftCap(w, -1.0));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, spectral::spectralClippedWeightDecay(w, 1.5, 1.0));
    spectral::ConstraintParams p;
    p.method = ConstraintMethod::SpectralHardCap;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, spectral::applyConstraint(w[0], p));
  }
};

QTEST_APPLESS_MAIN(TestConstraints)
#include "tst_constraints.moc"
