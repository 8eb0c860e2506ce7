// The OpenBLAS core switch (common/blas_core.h): a user's OPENBLAS_CORETYPE wins, and a
// switched core computes correct products on this CPU.
#include "common/blas_core.h"

#include <ATen/ops/matmul.h>
#include <ATen/ops/randn.h>
#include <QtTest/QtTest>

#include <cstdlib>

using namespace lwb;

class TestBlasCore : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() {
    if (blasCoreName().empty()) QSKIP("this process's BLAS is not OpenBLAS");
  }

  void usersCoreTypeWins() {
    const QByteArray saved = qgetenv("OPENBLAS_CORETYPE");
    qputenv("OPENBLAS_CORETYPE", "Haswell");
    const BlasCore c = preferAvx512BlasKernels();
    QVERIFY(!c.changed);
    QCOMPARE(c.after, c.before);
    QCOMPARE(blasCoreName(), c.before);
    if (saved.isNull()) qunsetenv("OPENBLAS_CORETYPE");
    else qputenv("OPENBLAS_CORETYPE", saved);
  }

  // Unset the variable (as on a user's machine) and let the switch decide; whatever core it
  // lands on must multiply correctly. On an AVX-512 CPU under an AVX2 fallback core this runs
  // the SkylakeX kernels.
  void switchedCoreMultipliesCorrectly() {
    const QByteArray saved = qgetenv("OPENBLAS_CORETYPE");
    qunsetenv("OPENBLAS_CORETYPE");
    const BlasCore c = preferAvx512BlasKernels();
    QCOMPARE(blasCoreName(), c.after);
    if (c.changed) {
      QCOMPARE(c.after, std::string("SkylakeX"));
      QCOMPARE(qgetenv("OPENBLAS_CORETYPE"), QByteArray("SkylakeX"));
    }
    qInfo("OpenBLAS core: %s -> %s", c.before.c_str(), c.after.c_str());
    at::manual_seed(3);
    for (const auto dtype : {at::kFloat, at::kDouble}) {
      const auto a = at::randn({130, 257}, at::TensorOptions().dtype(dtype));
      const auto b = at::randn({257, 67}, at::TensorOptions().dtype(dtype));
      const auto want = a.to(at::kDouble).matmul(b.to(at::kDouble));
      const double err = (a.matmul(b).to(at::kDouble) - want).norm().item<double>() / want.norm().item<double>();
      QVERIFY2(err < (dtype == at::kFloat ? 1e-6 : 1e-14), qPrintable(QString::number(err)));
    }
    if (saved.isNull()) qunsetenv("OPENBLAS_CORETYPE");
    else qputenv("OPENBLAS_CORETYPE", saved);
  }
};

QTEST_APPLESS_MAIN(TestBlasCore)
#include "tst_blas_core.moc"
