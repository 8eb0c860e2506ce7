// `lipschitz-cli inspect` on the real-format fixtures (made by PyTorch / NumPy, singular values
// known by construction, tests/fixtures/expected.json), its JSON contract, bad input, and the
// Gram-route singular values it uses against the exact SVD.
#include "common/torch_compat.h"
#include "spectral/matrix_stats.h"
#include "spectral/synthetic.h"
#include "support/cli_run.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest/QtTest>

#include <cmath>

using namespace lwb;

namespace {

using lwb::test::runCli;

QString fixture(const char* name) { return QStringLiteral(LWB_FIXTURES_DIR "/") + QString::fromUtf8(name); }

QJsonObject expectedFiles() {
  QFile f(fixture("expected.json"));
  if (!f.open(QIODevice::ReadOnly)) return {};
  return QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("files")).toObject();
}

}  // namespace

class TestCliInspect : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  // Relative error of sigma_i <= 1e-4 for sigma_i / sigma_1 >= 1e-6 (matrix_stats.h).
  void gramSingularValuesMatchTheSvd_data() {
    QTest::addColumn<int>("rows");
    QTest::addColumn<int>("cols");
    QTest::addColumn<double>("ratio");  // sigma_min / sigma_1
    QTest::newRow("tall 300x40") << 300 << 40 << 1e-3;
    QTest::newRow("wide 40x300") << 40 << 300 << 1e-3;
    QTest::newRow("square 64, 1e-6 range") << 64 << 64 << 1e-6;
    QTest::newRow("wide 8x500, sigma1 1000") << 8 << 500 << 1e-5;
  }
  void gramSingularValuesMatchTheSvd() {
    QFETCH(int, rows);
    QFETCH(int, cols);
    QFETCH(double, ratio);
    const int64_t k = std::min(rows, cols);
    const auto spectrum = spectral::logSpacedSpectrum(k, rows == 8 ? 1000.0 : 3.0, (rows == 8 ? 1000.0 : 3.0) * ratio);
    const auto w = spectral::matrixWithSpectrum(rows, cols, spectrum, 7).to(at::kFloat).to(at::kDouble);
    const auto exact = compat::svdvals(w).contiguous();
    const auto got = spectral::singularValuesViaGram(w);
    QCOMPARE(static_cast<int64_t>(got.size()), k);
    for (int64_t i = 0; i < k; ++i) {
      const double e = exact.data_ptr<double>()[i];
      QVERIFY2(std::abs(got[i] - e) <= 1e-4 * e, qPrintable(QStringLiteral("sigma_%1: %2 vs %3").arg(i).arg(got[i]).arg(e)));
    }
  }

  void statsByHand() {
    // diag(3, 4) in a 2 x 3 matrix: sigma = (4, 3), ||W||_F = 5, stable rank 25/16,
    // RMS->RMS norm 4 sqrt(3/2).
    auto w = at::zeros({2, 3}, at::kDouble);
    w.select(0, 0).select(0, 0).fill_(3.0);
    w.select(0, 1).select(0, 1).fill_(4.0);
    const auto s = spectral::matrixStats(w);
    QCOMPARE(s.sigma1, 4.0);
    QCOMPARE(s.frobenius, 5.0);
    QCOMPARE(s.stableRank, 25.0 / 16.0);
    QCOMPARE(s.rmsNorm, 4.0 * std::sqrt(1.5));
    QCOMPARE(s.singularValues, (std::vector<double>{4.0, 3.0}));
    QCOMPARE(spectral::matrixStats(at::zeros({3, 2})).stableRank, 0.0);
  }

  void inspectsEveryFixture_data() {
    QTest::addColumn<QString>("file");
    const auto files = expectedFiles();
    QVERIFY(!files.isEmpty());
    for (auto it = files.begin(); it != files.end(); ++it) QTest::newRow(qPrintable(it.key())) << it.key();
  }
  void inspectsEveryFixture() {
    QFETCH(QString, file);
    const auto expected = expectedFiles().value(file).toObject();
    const auto r = runCli({"inspect", "--full", fixture(file.toUtf8().constData())});
    QVERIFY2(r.code == 0, r.err.constData());
    const auto out = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(out.value("format").toString(), expected.value("format").toString());
    const auto want = expected.value("tensors").toObject();
    const auto tensors = out.value("tensors").toArray();
    QCOMPARE(tensors.size(), want.size());
    for (const auto& v : tensors) {
      const auto t = v.toObject();
      const auto name = t.value("name").toString();
      const auto w = want.value(name).toObject();
      QVERIFY2(!w.isEmpty(), qPrintable(name));
      QCOMPARE(t.value("shape").toArray(), w.value("shape").toArray());
      QCOMPARE(t.value("dtype").toString(), w.value("dtype").toString());
      const auto shape = t.value("shape").toArray();
      const bool matrix = shape.size() == 2 && t.value("dtype").toString() != "bool";
      QCOMPARE(t.contains("sigma1"), matrix);
      if (!matrix || !w.contains("singular_values")) continue;
      const auto sv = w.value("singular_values").toArray();
      const double tol = w.value("tolerance").toDouble();
      const auto got = t.value("singular_values").toArray();
      QCOMPARE(got.size(), sv.size());
      for (qsizetype i = 0; i < sv.size(); ++i)
        QVERIFY2(std::abs(got[i].toDouble() - sv[i].toDouble()) <= tol,
                 qPrintable(QStringLiteral("%1 sigma_%2: %3 vs %4").arg(name).arg(i).arg(got[i].toDouble()).arg(sv[i].toDouble())));
      const double s1 = sv[0].toDouble(), dOut = shape[0].toDouble(), dIn = shape[1].toDouble();
      QVERIFY(std::abs(t.value("sigma1").toDouble() - s1) <= tol);
      QVERIFY(std::abs(t.value("rms_norm").toDouble() - s1 * std::sqrt(dIn / dOut)) <= tol * std::sqrt(dIn / dOut));
      double sumSq = 0;
      for (const auto& x : sv) sumSq += x.toDouble() * x.toDouble();
      QVERIFY(std::abs(t.value("frobenius").toDouble() - std::sqrt(sumSq)) <= 10 * tol);
      QVERIFY(std::abs(t.value("stable_rank").toDouble() - sumSq / (s1 * s1)) <= 1e-2 * sumSq / (s1 * s1));
    }
  }

  void withoutFullThereAreNoSingularValueLists() {
    const auto r = runCli({"inspect", fixture("weights.npz")});
    QCOMPARE(r.code, 0);
    for (const auto& v : QJsonDocument::fromJson(r.out).object().value("tensors").toArray())
      QVERIFY(!v.toObject().contains("singular_values"));
  }

  void badInputIsOneLineAndExitTwo_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("fragment");
    QTest::newRow("missing file") << QStringList{"inspect", "/nonexistent/w.safetensors"} << "w.safetensors";
    QTest::newRow("directory") << QStringList{"inspect", QStringLiteral(LWB_FIXTURES_DIR)} << "a folder, but no model.safetensors.index.json";
    QTest::newRow("not a tensor file") << QStringList{"inspect", fixture("make_fixtures.py")} << "make_fixtures.py";
    QTest::newRow("no file argument") << QStringList{"inspect"} << "file";
  }
  void badInputIsOneLineAndExitTwo() {
    QFETCH(QStringList, args);
    QFETCH(QString, fragment);
    const auto r = runCli(args);
    QCOMPARE(r.code, 2);
    QVERIFY2(QString::fromUtf8(r.err).contains(fragment, Qt::CaseInsensitive), r.err.constData());
    QCOMPARE(r.err.count('\n'), 1);
    QVERIFY(r.out.isEmpty());
  }
};

QTEST_GUILESS_MAIN(TestCliInspect)
#include "tst_cli_inspect.moc"
