// `lipschitz-cli inspect` on the real-format fixtures (made by PyTorch / NumPy, singular values
// known by construction, tests/fixtures/expected.json), its JSON contract, bad input, and the
// Gram-route singular values it uses against the exact SVD.
#include "common/torch_compat.h"
#include "io/safetensors.h"
#include "spectral/matrix_stats.h"
#include "spectral/synthetic.h"
#include "support/cli_run.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QtTest/QtTest>

#include <cmath>
#include <fstream>

using namespace lwb;

namespace {

using lwb::test::runCli;

QString fixture(const char* name) { return QStringLiteral(LWB_FIXTURES_DIR "/") + QString::fromUtf8(name); }

// A diagonal float32 matrix: its singular values are |d| (closed form).
io::RawTensor diagonal(const std::string& name, const std::vector<float>& d, int64_t cols) {
  std::vector<float> v(d.size() * static_cast<size_t>(cols), 0.0f);
  for (size_t i = 0; i < d.size(); ++i) v[i * static_cast<size_t>(cols) + i] = d[i];
  auto bytes = std::make_shared<std::vector<float>>(std::move(v));
  io::RawTensor t{name, io::DType::F32, {static_cast<int64_t>(d.size()), cols}, {}, bytes->size() * sizeof(float)};
  t.data = std::shared_ptr<const std::byte>(bytes, reinterpret_cast<const std::byte*>(bytes->data()));
  return t;
}

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

  // --history: checkpoints by step (not by name), a corrupt one reported and skipped;
  // --delta: Δσ₁ and ‖W_B − W_A‖/‖W_A‖ in closed form for diagonal matrices.
  void historyAndDelta() {
    QTemporaryDir dir;
    const QString run = dir.filePath(QStringLiteral("run"));
    QVERIFY(QDir().mkpath(run + QStringLiteral("/checkpoints")));
    const auto ckpt = [&](const char* name) { return (run + QStringLiteral("/checkpoints/") + QString::fromLatin1(name)).toStdString(); };
    io::writeSafetensors(ckpt("step_10.safetensors"), {diagonal("param.w", {4, 1, 0.5f}, 3), diagonal("optim.m.w", {9, 9, 9}, 3)});
    io::writeSafetensors(ckpt("step_2.safetensors"), {diagonal("param.w", {3, 1, 0.5f}, 3), diagonal("optim.m.w", {9, 9, 9}, 3)});
    std::ofstream(ckpt("step_5.safetensors")) << "torn";
    auto r = runCli({"inspect", run, "--history"});
    QVERIFY2(r.code == 0, r.err.constData());
    QVERIFY2(r.err.contains("step_5.safetensors"), r.err.constData());
    const QJsonObject h = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(h.value("steps").toArray(), (QJsonArray{2, 10}));
    QCOMPARE(h.value("skipped").toArray().size(), 1);
    QCOMPARE(h.value("skipped").toArray()[0].toObject().value("step").toInt(), 5);
    const QJsonArray layers = h.value("layers").toArray();
    QCOMPARE(layers.size(), 1);  // optimizer state is no layer
    const QJsonObject w = layers[0].toObject();
    QCOMPARE(w.value("name").toString(), QStringLiteral("w"));
    const QJsonArray sigma = w.value("sigma1").toArray();
    QCOMPARE(sigma.size(), 2);
    QVERIFY(std::abs(sigma[0].toDouble() - 3) < 1e-12 && std::abs(sigma[1].toDouble() - 4) < 1e-12);
    QVERIFY(w.value("alpha").isArray() && w.value("mp_sigma").isArray());

    r = runCli({"inspect", QString::fromStdString(ckpt("step_2.safetensors")), "--delta", QString::fromStdString(ckpt("step_10.safetensors"))});
    QVERIFY2(r.code == 0, r.err.constData());
    const QJsonObject d = QJsonDocument::fromJson(r.out).object().value("layers").toArray()[0].toObject();
    QVERIFY(std::abs(d.value("delta_sigma1").toDouble() - 1) < 1e-12);
    // ‖diag(1, 0, 0)‖ / ‖diag(3, 1, 0.5)‖ = 1 / √10.25
    QVERIFY(std::abs(d.value("relative_change").toDouble() - 1.0 / std::sqrt(10.25)) < 1e-12);
    QVERIFY(d.contains("delta_alpha"));
  }

  // weights_stored: GPT-2's Conv1D layout (c_attn (d, 3d), c_fc (d, 4d), wider than tall) is
  // read (in, out), so rms_norm = σ₁·√(rows/cols); nanoGPT / CLIP give the same names to
  // nn.Linear, stored (3d, d) and (4d, d), and stay (out, in): σ₁·√(cols/rows). Diagonal
  // matrices, σ₁ = 2.
  void weightsStoredFollowsConv1dShapes_data() {
    QTest::addColumn<int>("attnRows");
    QTest::addColumn<int>("attnCols");
    QTest::addColumn<int>("fcRows");
    QTest::addColumn<int>("fcCols");
    QTest::addColumn<QString>("stored");
    QTest::newRow("GPT-2 Conv1D") << 4 << 12 << 4 << 16 << QStringLiteral("in_out");
    QTest::newRow("nanoGPT Linear") << 12 << 4 << 16 << 4 << QStringLiteral("out_in");
    QTest::newRow("mixed: read as Linear") << 4 << 12 << 16 << 4 << QStringLiteral("out_in");
  }
  void weightsStoredFollowsConv1dShapes() {
    QFETCH(int, attnRows);
    QFETCH(int, attnCols);
    QFETCH(int, fcRows);
    QFETCH(int, fcCols);
    QFETCH(QString, stored);
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("model.safetensors"));
    // rows × cols with 2 on the diagonal: σ₁ = 2 whichever side is longer.
    const auto matrix = [](const std::string& name, int rows, int cols) {
      auto bytes = std::make_shared<std::vector<float>>(static_cast<size_t>(rows) * static_cast<size_t>(cols), 0.0f);
      for (int i = 0; i < std::min(rows, cols); ++i) (*bytes)[static_cast<size_t>(i) * static_cast<size_t>(cols) + static_cast<size_t>(i)] = 2.0f;
      io::RawTensor t{name, io::DType::F32, {rows, cols}, {}, bytes->size() * sizeof(float)};
      t.data = std::shared_ptr<const std::byte>(bytes, reinterpret_cast<const std::byte*>(bytes->data()));
      return t;
    };
    io::writeSafetensors(file.toStdString(), {matrix("h.0.attn.c_attn.weight", attnRows, attnCols),
                                              matrix("h.0.mlp.c_fc.weight", fcRows, fcCols)});
    const auto r = runCli({"inspect", file});
    QVERIFY2(r.code == 0, r.err.constData());
    const QJsonObject o = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(o.value("weights_stored").toString(), stored);
    for (const auto& v : o.value("tensors").toArray()) {
      const QJsonArray shape = v.toObject().value("shape").toArray();
      const double rows = shape[0].toDouble(), cols = shape[1].toDouble();
      const double expected = 2.0 * std::sqrt(stored == QLatin1String("in_out") ? rows / cols : cols / rows);
      QVERIFY2(std::abs(v.toObject().value("rms_norm").toDouble() - expected) < 1e-6,
               qPrintable(v.toObject().value("name").toString()));
    }
  }

  void badInputIsOneLineAndExitTwo_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("fragment");
    QTest::newRow("missing file") << QStringList{"inspect", "/nonexistent/w.safetensors"} << "w.safetensors";
    QTest::newRow("directory") << QStringList{"inspect", QStringLiteral(LWB_FIXTURES_DIR)} << "a folder, but no model.safetensors.index.json";
    QTest::newRow("not a tensor file") << QStringList{"inspect", fixture("make_fixtures.py")} << "make_fixtures.py";
    QTest::newRow("no file argument") << QStringList{"inspect"} << "file";
    QTest::newRow("history of a folder without checkpoints") << QStringList{"inspect", QStringLiteral(LWB_FIXTURES_DIR), "--history"} << "no checkpoints folder";
    QTest::newRow("history of a file") << QStringList{"inspect", fixture("weights.npz"), "--history"} << "not a folder";
    QTest::newRow("history and delta") << QStringList{"inspect", fixture("weights.npz"), "--history", "--delta", fixture("weights.npz")} << "exclude each other";
    QTest::newRow("delta to a missing file") << QStringList{"inspect", fixture("weights.npz"), "--delta", "/nonexistent/b.safetensors"} << "b.safetensors";
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
