// x xᵀ through BLAS syrk against the GEMM product, for every layout the engine passes
// (row-major, a transposed view, a strided slice), and the matmul fallbacks.
#include "spectral/newton_schulz.h"
#include "spectral/symmetric_product.h"
#include "support/spectra.h"

#include <ATen/core/grad_mode.h>
#include <ATen/ops/allclose.h>
#include <ATen/ops/equal.h>
#include <ATen/ops/randn.h>
#include <ATen/ops/stack.h>
#include <QtTest/QtTest>

using namespace lwb;

namespace {

double relativeError(const at::Tensor& got, const at::Tensor& want) {
  return (got.to(at::kDouble) - want.to(at::kDouble)).norm().item<double>() / want.to(at::kDouble).norm().item<double>();
}

bool exactlySymmetric(const at::Tensor& c) { return at::equal(c, c.mT().contiguous()); }

}  // namespace

class TestSymmetricProduct : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void gramMatchesGemm_data() {
    QTest::addColumn<bool>("isDouble");
    QTest::addColumn<QString>("layout");
    for (const bool d : {false, true})
      for (const char* layout : {"rows", "transposed", "strided"})
        QTest::newRow(qPrintable(QStringLiteral("%1 %2").arg(d ? "float64" : "float32", layout))) << d << QString(layout);
  }

  void gramMatchesGemm() {
    QFETCH(bool, isDouble);
    QFETCH(QString, layout);
    at::manual_seed(7);
    const auto dtype = isDouble ? at::kDouble : at::kFloat;
    at::Tensor x = at::randn({37, 90}, at::TensorOptions().dtype(dtype));
    if (layout == QLatin1String("transposed")) x = at::randn({90, 37}, x.options()).t();  // column-major view
    if (layout == QLatin1String("strided")) x = at::randn({37, 180}, x.options()).slice(1, 0, 180, 2);
    if (!spectral::usesBlasSyrk(x)) QSKIP("this process's BLAS has no ?syrk: the matmul fallback is covered below");
    const at::Tensor want = x.to(at::kDouble).matmul(x.to(at::kDouble).t());
    const at::Tensor got = spectral::gramOfRows(x);
    QCOMPARE(got.scalar_type(), dtype);
    QCOMPARE(got.sizes().vec(), (std::vector<int64_t>{37, 37}));
    // float32: 90-term dot products, error ~ sqrt(90) * 6e-8 relative; float64 ~1e-16.
    QVERIFY2(relativeError(got, want) < (isDouble ? 1e-14 : 1e-6), qPrintable(QString::number(relativeError(got, want))));
    QVERIFY(exactlySymmetric(got));
  }

  void addGramAccumulatesAndLeavesInputAlone() {
    at::manual_seed(8);
    const auto x = at::randn({24, 24});
    const auto s0 = x.matmul(x.t());  // symmetric
    const auto s = s0.clone();
    const at::Tensor got = spectral::addGramOfRows(s, s, -4.775, 2.0315);  // b A + c A², the NS polynomial
    const at::Tensor want = s.to(at::kDouble) * -4.775 + s.to(at::kDouble).matmul(s.to(at::kDouble)) * 2.0315;
    QVERIFY(relativeError(got, want) < 1e-6);
    QVERIFY(exactlySymmetric(got));
    QVERIFY(at::equal(s, s0));  // the accumulator is copied, not overwritten
  }

  void fallbacksAgree() {
    at::manual_seed(9);
    const auto x = at::randn({16, 40});
    QVERIFY(!spectral::usesBlasSyrk(x.to(at::kBFloat16)));
    QVERIFY(!spectral::usesBlasSyrk(at::stack({x, x})));
    QVERIFY(!spectral::usesBlasSyrk(x.clone().requires_grad_()));
    {
      at::NoGradGuard noGrad;  // constraint steps on parameters: nothing is recorded
      QCOMPARE(spectral::usesBlasSyrk(x.clone().requires_grad_()), spectral::usesBlasSyrk(x));
    }
    QVERIFY(!spectral::usesBlasSyrk(at::randn({0, 4})));
    const auto want = x.matmul(x.t());
    QVERIFY(relativeError(spectral::gramOfRows(x.to(at::kBFloat16)), want) < 1e-2);
    const auto batched = spectral::gramOfRows(at::stack({x, 2 * x}));
    QVERIFY(relativeError(batched[1], 4 * want) < 1e-6);
    const auto g = x.clone().requires_grad_();
    const auto viaGrad = spectral::addGramOfRows(want, g, 1.0, 1.0);
    QVERIFY(viaGrad.requires_grad());  // autograd keeps working: the matmul route
    QVERIFY(relativeError(viaGrad.detach(), 2 * want) < 1e-6);
  }

  // The syrk route inside Newton–Schulz is as accurate as the batched GEMM route: both within
  // msign's float32 target (1e-3 in spectral norm, tst_newton_schulz) of the exact U Vᵀ.
  void msignSameEitherRoute() {
    const auto w = test::spectrumMatrix(64, 128, 5.0, 0.05, 3);
    const auto a = w.to(at::kFloat);
    const auto cfg = spectral::NewtonSchulzConfig::accurate();
    const auto viaSyrk = spectral::msign(a, cfg);
    const auto viaGemm = spectral::msign(at::stack({a}), cfg)[0];
    const auto exact = test::applySpectralMap(w, [](double) { return 1.0; });
    const double dSyrk = test::spectralDistance(viaSyrk, exact), dGemm = test::spectralDistance(viaGemm, exact);
    qInfo("||msign - U V^T||_2: syrk route %.2e, gemm route %.2e, between %.2e", dSyrk, dGemm,
          test::spectralDistance(viaSyrk, viaGemm));
    QVERIFY(dSyrk < 1e-3);
    QVERIFY(dGemm < 1e-3);
    QVERIFY(dSyrk <= 2 * dGemm + 1e-6);  // no worse than the GEMM route
  }
};

QTEST_APPLESS_MAIN(TestSymmetricProduct)
#include "tst_symmetric_product.moc"
