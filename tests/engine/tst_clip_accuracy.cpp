// The spectral toolkit's accuracy target (issue: foundation §2): with default settings in
// float32, on 256x512 matrices whose singular values span 1e-2 ... sigma1, every hard-cap /
// clip implementation gives sigma1(out) <= 1.01 sigma_max and no singular value more than
// 0.02 sigma_max from the exact clip. bfloat16 figures are measured and bounded separately.
#include "spectral/spectral.h"
#include "support/spectra.h"

#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>

using namespace lwb;
using spectral::ClipImpl;

Q_DECLARE_METATYPE(ClipImpl)

namespace {

constexpr double kSigmaMax = 1.0;
constexpr double kSigmaMin = 0.25;  // lower bound for spectral_clip

struct Figures {
  double sigma1 = 0;   // sigma1 of the output / sigma_max
  double maxErr = 0;   // max |sigma_i - exact_i| / sigma_max
};

Figures measure(const at::Tensor& w64, ClipImpl impl, at::ScalarType dtype, bool clip) {
  spectral::ClipOptions opt;
  opt.impl = impl;
  const auto w = w64.to(dtype);
  const auto out = clip ? spectral::spectralClip(w, kSigmaMin, kSigmaMax, opt)
                        : spectral::spectralHardCap(w, kSigmaMax, opt);
  // Reference: the exact clip of the matrix the method actually sees (in bfloat16 the
  // rounding of W alone moves small singular values by ~eps * sigma1).
  const auto exact = test::singularValues(
      spectral::svdClip(w.to(at::kDouble), clip ? kSigmaMin : 0.0, kSigmaMax));
  const auto got = test::singularValues(out);
  return {got.front() / kSigmaMax, test::maxAbsDiff(got, exact) / kSigmaMax};
}

void addRows(at::ScalarType dtype, const char* dtypeName) {
  for (const bool clip : {false, true})
    for (const auto impl : {ClipImpl::Nested, ClipImpl::AbdDense, ClipImpl::AbdBlock, ClipImpl::Svd})
      for (const double s1 : {2.0, 10.0, 100.0, 1000.0})
        QTest::addRow("%s/%s/%s/sigma1=%g", clip ? "clip" : "hardcap",
                      std::string(spectral::toString(impl)).c_str(), dtypeName, s1)
            << impl << s1 << clip << static_cast<int>(dtype);
}

}  // namespace

class TestClipAccuracy : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void float32Target_data() {
    QTest::addColumn<ClipImpl>("impl");
    QTest::addColumn<double>("sigma1");
    QTest::addColumn<bool>("clip");
    QTest::addColumn<int>("dtype");
    addRows(at::kFloat, "float32");
  }

  void float32Target() {
    QFETCH(ClipImpl, impl);
    QFETCH(double, sigma1);
    QFETCH(bool, clip);
    const auto w = test::spectrumMatrix(256, 512, sigma1, 1e-2, 42);
    const auto f = measure(w, impl, at::kFloat, clip);
    qInfo("sigma1_out/sigma_max = %.5f   max_err/sigma_max = %.2e", f.sigma1, f.maxErr);
    QVERIFY2(f.sigma1 <= 1.01, qPrintable(QString::number(f.sigma1)));
    QVERIFY2(f.maxErr <= 0.02, qPrintable(QString::number(f.maxErr)));
  }

  // bfloat16 (8-bit mantissa, eps = 2^-8) cannot meet the float32 target for large sigma1:
  // every Newton–Schulz implementation forms |x| = x sign(x) with x ~ sigma1 / sigma_max, so a
  // sign error of eps becomes eps * sigma1 in the result (nested: 1/2 (W + ...) must cancel
  // sigma1 down to sigma_max; ABD: P~ W must cancel likewise). The measured figures are in
  // docs/BENCHMARKS.md; asserted here: the SVD reference loses only output rounding, and
  // every NS implementation's error stays within 5 eps sigma1 + 0.01 (sigma_max units).
  void bfloat16Figures_data() {
    QTest::addColumn<ClipImpl>("impl");
    QTest::addColumn<double>("sigma1");
    QTest::addColumn<bool>("clip");
    QTest::addColumn<int>("dtype");
    addRows(at::kBFloat16, "bfloat16");
  }

  void bfloat16Figures() {
    QFETCH(ClipImpl, impl);
    QFETCH(double, sigma1);
    QFETCH(bool, clip);
    const auto w = test::spectrumMatrix(256, 512, sigma1, 1e-2, 42);
    const auto f = measure(w, impl, at::kBFloat16, clip);
    qInfo("sigma1_out/sigma_max = %.5f   max_err/sigma_max = %.2e", f.sigma1, f.maxErr);
    constexpr double eps = 1.0 / 256.0;
    const double bound = impl == ClipImpl::Svd ? 0.005 : 5 * eps * sigma1 / kSigmaMax + 0.01;
    QVERIFY2(f.maxErr <= bound, qPrintable(QStringLiteral("%1 > %2").arg(f.maxErr).arg(bound)));
    if (impl == ClipImpl::Svd) QVERIFY(f.sigma1 <= 1.01);
  }

  // Reported, not hidden: the nested hard cap in bfloat16 at sigma1 = 1000 leaves sigma1
  // several times above the cap (measured 4.9 sigma_max). If this starts to pass, the
  // implementation changed and docs/BENCHMARKS.md must be updated.
  void nestedHardCapFailsAtLargeSigma1InBfloat16() {
    const auto w = test::spectrumMatrix(256, 512, 1000.0, 1e-2, 42);
    const auto f = measure(w, ClipImpl::Nested, at::kBFloat16, false);
    QVERIFY2(f.sigma1 > 1.5, qPrintable(QString::number(f.sigma1)));
    // The same input in float32 meets the target.
    QVERIFY(measure(w, ClipImpl::Nested, at::kFloat, false).sigma1 <= 1.01);
  }
};

QTEST_APPLESS_MAIN(TestClipAccuracy)
#include "tst_clip_accuracy.moc"
