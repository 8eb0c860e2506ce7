// lipschitz-cli spectral / softcap-alpha / demo through the real executable: JSON output,
// numbers, and every bad-input path (exit 2, one line on stderr, no crash).
#include "io/npy.h"
#include "spectral/spectral.h"
#include "support/spectra.h"

#include <ATen/Context.h>
#include <ATen/ops/full.h>
#include <ATen/ops/zeros.h>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonArray>
#include <QProcess>
#include <QDir>
#include <QtTest/QtTest>

#include <cmath>
#include <fstream>

using namespace lwb;

namespace {

struct Result {
  int code = -1;
  QByteArray out, err;
  QJsonObject json() const { return QJsonDocument::fromJson(out).object(); }
};

Result runCli(const QStringList& args) {
  QProcess p;
  p.start(QStringLiteral(LWB_CLI_PATH), args);
  if (!p.waitForFinished(120000)) return {};
  return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2, p.readAllStandardOutput(),
          p.readAllStandardError()};
}

}  // namespace

class TestCliSpectral : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  QString good_;  // 48 x 80 float32 matrix, sigma1 = 10

  QString path(const char* name) const { return dir_.filePath(QString::fromLatin1(name)); }
  void writeBytes(const QString& file, const std::string& bytes) const {
    std::ofstream(file.toStdString(), std::ios::binary) << bytes;
  }

 private Q_SLOTS:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    good_ = path("w.npy");
    QVERIFY(QDir().mkpath(path("empty_presets")));
    io::writeNpy(good_.toStdString(), test::spectrumMatrix(48, 80, 10.0, 0.01, 5).to(at::kFloat));
    // Bad files for the error paths.
    io::writeNpy(path("rank3.npy").toStdString(), at::zeros({2, 3, 4}));
    io::writeNpy(path("rank1.npy").toStdString(), at::zeros({5}));
    io::writeNpy(path("nan.npy").toStdString(), at::full({3, 3}, NAN));
    io::writeNpy(path("inf.npy").toStdString(), at::full({3, 3}, INFINITY));
    io::writeNpy(path("f32max.npy").toStdString(), at::full({4, 3}, 3e38, at::kFloat));
    {
      // Finite as float64, inf as float32: LAPACK's float32 SVD of it never returned.
      // (writeNpy writes float32: the header's descr and the data are put in by hand.)
      std::string f8 = io::encodeNpy(at::zeros({4, 3}));
      f8.resize(f8.size() - 12 * sizeof(float));
      f8.replace(f8.find("<f4"), 3, "<f8");
      for (int i = 0; i < 12; ++i) {
        const double v = 1e39;
        f8.append(reinterpret_cast<const char*>(&v), sizeof v);
      }
      writeBytes(path("big64.npy"), f8);
    }
    io::writeNpy(path("empty.npy").toStdString(), at::zeros({0, 3}));
    const std::string f = io::encodeNpy(at::zeros({4, 4}));
    writeBytes(path("truncated.npy"), f.substr(0, f.size() - 7));
    std::string i4 = f;
    i4.replace(i4.find("<f4"), 3, "<i4");
    writeBytes(path("int32.npy"), i4);
    std::string fortran = f;
    fortran.replace(fortran.find("False"), 5, "True ");
    writeBytes(path("fortran.npy"), fortran);
    writeBytes(path("text.npy"), "just some text\n");
  }

  void hardCapJson() {
    const auto r = runCli({"spectral", "--op", "spectral_hard_cap", "--in", good_, "--out", path("o.npy"),
                           "--sigma-max", "1"});
    QCOMPARE(r.code, 0);
    QVERIFY(r.err.isEmpty());
    const auto j = r.json();
    QCOMPARE(j.value("op").toString(), QStringLiteral("spectral_hard_cap"));
    QCOMPARE(j.value("shape").toArray(), QJsonArray({48, 80}));
    QVERIFY(std::abs(j.value("sigma1_before").toDouble() - 10.0) < 1e-4);
    QVERIFY(std::abs(j.value("sigma1_after").toDouble() - 1.0) < 2e-3);
    QVERIFY(j.value("seconds").toDouble() >= 0.0);
    // The written file holds the capped matrix.
    const auto s = test::singularValues(io::readNpy(path("o.npy").toStdString()));
    QVERIFY(std::abs(s.front() - j.value("sigma1_after").toDouble()) < 1e-9);
  }

  void everyOpRuns_data() {
    QTest::addColumn<QString>("op");
    for (const auto& m : spectral::constraintMethods())
      QTest::newRow(std::string(m.key).c_str()) << QString::fromLatin1(m.key.data());
  }
  void everyOpRuns() {
    QFETCH(QString, op);
    const auto r = runCli({"spectral", "--op", op, "--in", good_, "--out", path("e.npy"), "--sigma-max", "2",
                           "--sigma-min", "0.1", "--alpha", "0.01", "--lambda", "0.1", "--lr", "0.5"});
    QVERIFY2(r.code == 0, r.err.constData());
    QCOMPARE(r.json().value("op").toString(), op);
  }

  void rmsNormAndBfloat16() {
    const auto r = runCli({"spectral", "--op", "spectral_hard_cap", "--in", good_, "--out", path("r.npy"),
                           "--sigma-max", "1", "--norm", "rms", "--dtype", "bfloat16", "--impl", "nested"});
    QCOMPARE(r.code, 0);
    // W is (d_out = 48, d_in = 80): RMS norm = sigma1 sqrt(80 / 48).
    const auto j = r.json();
    QVERIFY(std::abs(j.value("rms_norm_before").toDouble() - 10.0 * std::sqrt(80.0 / 48.0)) < 1e-3);
    QVERIFY2(std::abs(j.value("rms_norm_after").toDouble() - 1.0) < 0.02, r.out.constData());
  }

  void softCapAlphaStarFromLr() {
    const auto r = runCli({"spectral", "--op", "spectral_soft_cap", "--in", good_, "--out", path("s.npy"),
                           "--sigma-max", "1", "--lr", "0.1"});
    QCOMPARE(r.code, 0);
    QVERIFY(std::abs(r.json().value("alpha").toDouble() - spectral::softCapAlphaStar(1.0, 0.1)) < 1e-12);
  }

  // Issue 32: far above σmax the soft cap's polynomial turns over and σ₁ explodes; the
  // CLI says so (stderr warning and a JSON field) instead of exit 0 and no word.
  void softCapTurnoverIsReported() {
    const QString far = path("far.npy"), near = path("near.npy");
    io::writeNpy(far.toStdString(), test::spectrumMatrix(48, 80, 31.75, 0.01, 7).to(at::kFloat));
    io::writeNpy(near.toStdString(), test::spectrumMatrix(48, 80, 2.1, 0.01, 7).to(at::kFloat));
    const auto r = runCli({"spectral", "--op", "spectral_soft_cap", "--in", far, "--out", path("far_out.npy"),
                           "--sigma-max", "2", "--lr", "0.1"});
    QCOMPARE(r.code, 0);
    const auto j = r.json();
    const double alpha = j.value("alpha").toDouble();
    QVERIFY(alpha > 0);
    // The scalar map written out here: p1(x) = x - a x^3, p2(x) = x + a x^3, |p2(p1(31.75))|.
    const double p1 = 31.75 - alpha * 31.75 * 31.75 * 31.75, p2 = std::abs(p1 + alpha * p1 * p1 * p1);
    QVERIFY2(std::abs(j.value("sigma1_after").toDouble() / p2 - 1.0) < 1e-3, r.out.constData());
    QVERIFY(j.value("sigma1_after").toDouble() > 1e3);
    QCOMPARE(j.value("soft_cap_beyond_turnover").toBool(), true);
    QVERIFY(std::abs(j.value("soft_cap_turnover").toDouble() - 1.0 / std::sqrt(3.0 * alpha)) < 1e-9);
    QVERIFY2(r.err.contains("turnover") && r.err.count('\n') == 1, r.err.constData());
    // Within reach (σ₁ = σmax + lr, the case α* is made for): no word, and σ₁ lands on σmax.
    const auto ok = runCli({"spectral", "--op", "spectral_soft_cap", "--in", near, "--out", path("near_out.npy"),
                            "--sigma-max", "2", "--lr", "0.1"});
    QCOMPARE(ok.code, 0);
    QVERIFY2(ok.err.isEmpty(), ok.err.constData());
    QCOMPARE(ok.json().value("soft_cap_beyond_turnover").toBool(), false);
    QVERIFY2(std::abs(ok.json().value("sigma1_after").toDouble() - 2.0) < 1e-3, ok.out.constData());
  }

  void softcapAlphaCommand() {
    const auto r = runCli({"softcap-alpha", "--sigma-max", "2", "--lr", "0.1", "--wd", "0.1"});
    QCOMPARE(r.code, 0);
    const auto j = r.json();
    QVERIFY(std::abs(j.value("alpha").toDouble() - spectral::softCapAlphaStar(2.0, 0.1, 0.1)) < 1e-15);
    QVERIFY(std::abs(j.value("k").toDouble() - 2.08) < 1e-12);
    QVERIFY(std::abs(j.value("capped_k").toDouble() - 2.0) < 1e-12);
    QVERIFY(std::abs(j.value("residual").toDouble()) < 1e-12);
    const auto zero = runCli({"softcap-alpha", "--sigma-max", "20", "--lr", "0.1", "--wd", "0.1"});
    QCOMPARE(zero.json().value("alpha").toDouble(), 0.0);
  }

  void demoPrintsTable() {
    const auto r = runCli({"demo", "--rows", "64", "--cols", "96", "--json"});
    QCOMPARE(r.code, 0);
    const auto results = r.json().value("results").toArray();
    QCOMPARE(results.size(), 4);
    for (const auto& row : results) QVERIFY(row.toObject().value("sigma1_after").toDouble() <= 1.01);
  }

  void helpExitsZero() {
    for (const QStringList& a : {QStringList{"--help"}, QStringList{"spectral", "--help"},
                                 QStringList{"softcap-alpha", "--help"}}) {
      const auto r = runCli(a);
      QCOMPARE(r.code, 0);
      QVERIFY(r.out.contains("--"));
    }
  }

  // The version's one source is CMake's PROJECT_VERSION (engine/common/version.h).
  void versionPrintsProjectVersion() {
    const auto r = runCli({"--version"});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.out.trimmed(), QByteArray("lipschitz-cli " LWB_PROJECT_VERSION));
    QVERIFY(r.err.isEmpty());
  }

  void badInput_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("needle");
    auto sp = [&](const QString& in, QStringList extra = {}) {
      return QStringList{"spectral", "--op", "spectral_hard_cap", "--in", in, "--out", path("bad_out.npy")} + extra;
    };
    QTest::newRow("no subcommand") << QStringList{} << "subcommand";
    QTest::newRow("unknown subcommand") << QStringList{"frobnicate"} << "frobnicate";
    QTest::newRow("unknown flag") << sp(good_, {"--bogus", "1"}) << "unknown option --bogus for spectral";
    // A misspelt flag is named with the nearest one (CLI11 blamed its value first).
    QTest::newRow("misspelt flag") << QStringList{"train", "--confg", good_, "--out", path("x")}
                                   << "unknown option --confg for train (did you mean --config?)";
    QTest::newRow("misspelt program flag") << QStringList{"--thread", "2", "demo"} << "unknown option --thread (did you mean --threads?)";
    QTest::newRow("missing --op") << QStringList{"spectral", "--in", good_, "--out", path("x.npy")} << "--op";
    // A missing argument is named with what it is ("target is required" named a variable).
    QTest::newRow("bound without target") << QStringList{"bound"} << "bound: missing target (run directory";
    QTest::newRow("unknown op") << QStringList{"spectral", "--op", "spectral_cap", "--in", good_, "--out", path("x.npy")} << "unknown --op";
    QTest::newRow("missing file") << sp(path("nope.npy")) << "no such file";
    QTest::newRow("directory") << sp(dir_.path()) << "directory";
    QTest::newRow("not npy") << sp(path("text.npy")) << "magic";
    QTest::newRow("int32") << sp(path("int32.npy")) << "dtype";
    QTest::newRow("fortran") << sp(path("fortran.npy")) << "Fortran";
    QTest::newRow("truncated") << sp(path("truncated.npy")) << "size mismatch";
    QTest::newRow("rank 3") << sp(path("rank3.npy")) << "rank 3";
    QTest::newRow("rank 1") << sp(path("rank1.npy")) << "rank 1";
    QTest::newRow("empty") << sp(path("empty.npy")) << "empty";
    QTest::newRow("nan") << sp(path("nan.npy")) << "NaN";
    QTest::newRow("inf") << sp(path("inf.npy")) << "infinite";
    QTest::newRow("float64 past float32") << sp(path("big64.npy"), {"--impl", "svd"}) << "values too large for float32 arithmetic";
    QTest::newRow("float32 near its max") << sp(path("f32max.npy")) << "values too large for float32 arithmetic";
    QTest::newRow("bad dtype flag") << sp(good_, {"--dtype", "float16"}) << "--dtype";
    QTest::newRow("bad impl") << sp(good_, {"--impl", "fast"}) << "--impl";
    QTest::newRow("bad coeffs") << sp(good_, {"--coeffs", "newton"}) << "--coeffs";
    QTest::newRow("bad norm") << sp(good_, {"--norm", "l2"}) << "--norm";
    QTest::newRow("negative sigma") << sp(good_, {"--sigma-max", "-1"}) << "sigma-max";
    QTest::newRow("nan sigma") << sp(good_, {"--sigma-max", "nan"}) << "sigma-max";
    QTest::newRow("not a number") << sp(good_, {"--sigma-max", "big"}) << "sigma-max";
    QTest::newRow("min above max") << sp(good_, {"--sigma-min", "2", "--sigma-max", "1"}) << "sigma-min";
    QTest::newRow("negative steps") << sp(good_, {"--steps", "-3"}) << "steps";
    QTest::newRow("too many steps") << sp(good_, {"--steps", "5000"}) << "steps";
    QTest::newRow("out dir missing") << QStringList{"spectral", "--op", "none", "--in", good_, "--out", path("no/such/o.npy")} << "does not exist";
    QTest::newRow("soft cap without alpha") << QStringList{"spectral", "--op", "spectral_soft_cap", "--in", good_, "--out", path("x.npy")} << "--alpha";
    QTest::newRow("clipped decay lambda > 1") << QStringList{"spectral", "--op", "spectral_clipped_weight_decay", "--in", good_, "--out", path("x.npy"), "--lambda", "3"} << "lambda";
    QTest::newRow("bad device") << sp(good_, {"--device", "tpu"}) << "--device";
    QTest::newRow("alpha missing lr") << QStringList{"softcap-alpha", "--sigma-max", "1"} << "--lr";
    QTest::newRow("alpha zero sigma") << QStringList{"softcap-alpha", "--sigma-max", "0", "--lr", "0.1"} << "sigma-max";
    QTest::newRow("bad threads") << QStringList{"--threads", "-2", "softcap-alpha", "--sigma-max", "1", "--lr", "0.1"} << "threads";
    // demo and bench (issue 32: their bad input was untested).
    QTest::newRow("demo rows 1") << QStringList{"demo", "--rows", "1"} << "--rows";
    QTest::newRow("demo cols huge") << QStringList{"demo", "--cols", "100000"} << "--cols";
    QTest::newRow("demo sigma-max 0") << QStringList{"demo", "--sigma-max", "0"} << "--sigma-max";
    QTest::newRow("demo sigma1 nan") << QStringList{"demo", "--sigma1", "nan"} << "--sigma1";
    QTest::newRow("demo sigma1 inf") << QStringList{"demo", "--sigma1", "inf"} << "--sigma1 must be in (0.01, 1e6]";
    QTest::newRow("demo sigma-max huge") << QStringList{"demo", "--sigma1", "10", "--sigma-max", "1e300"} << "--sigma-max in (0, 1e6]";
    // Decoupled decay 1 − λ·η ≤ 0 flips the weights: refused wherever λ and η are both read.
    QTest::newRow("alpha decay past 1") << QStringList{"softcap-alpha", "--sigma-max", "2", "--lr", "0.1", "--wd", "100"} << "decay factor";
    QTest::newRow("weight decay past 1") << QStringList{"spectral", "--op", "weight_decay", "--in", good_, "--out", path("x.npy"), "--lambda", "100", "--lr", "0.1"} << "--lambda: times --lr must be < 1";
    QTest::newRow("soft cap decay past 1") << QStringList{"spectral", "--op", "spectral_soft_cap", "--in", good_, "--out", path("x.npy"), "--lambda", "10", "--lr", "0.1"} << "decay factor 1 − λ·η is 0";
    QTest::newRow("demo rows text") << QStringList{"demo", "--rows", "many"} << "rows";
    QTest::newRow("bench no presets dir") << QStringList{"bench", "--presets", path("no_such_dir")} << "no_such_dir does not exist";
    QTest::newRow("bench presets a file") << QStringList{"bench", "--presets", good_} << "is not a directory";
    // Hostile values once taken silently (a helper's review, 2026-11-27).
    QTest::newRow("bench empty presets dir") << QStringList{"bench", "--presets", dir_.path() + "/empty_presets"} << "holds no .json configs";
    QTest::newRow("bench max-seconds nan") << QStringList{"bench", "--max-seconds", "nan", good_} << "--max-seconds: must be a finite number";
    QTest::newRow("sample seed -1") << QStringList{"sample", path("nope"), "--seed", "-1"} << "--seed: must be an integer >= 0";
    QTest::newRow("inspect empty delta") << QStringList{"inspect", good_, "--delta", ""} << "--delta: must not be empty";
    QTest::newRow("robustness empty eps") << QStringList{"robustness", path("nope"), "--eps", ""} << "--eps: must not be empty";
    QTest::newRow("out is a folder") << QStringList{"spectral", "--op", "none", "--in", good_, "--out", dir_.path()} << "is a folder, not a file name";
    QTest::newRow("out is the input") << QStringList{"spectral", "--op", "none", "--in", good_, "--out", good_} << "is the input file";
    QTest::newRow("steps twice") << QStringList{"train", "--config", good_, "--out", path("steps_twice"), "--steps", "2", "--set", "steps=4"} << "--steps and --set steps=4 both set steps";
    QTest::newRow("resume missing run") << QStringList{"train", "--resume", path("no_such_run")} << "no_such_run: no such run directory";
    QTest::newRow("bench steps 1") << QStringList{"bench", "--steps", "1", path("cfg.json")} << "steps";
    QTest::newRow("bench negative seconds") << QStringList{"bench", "--max-seconds", "-1", path("cfg.json")} << "max-seconds";
    QTest::newRow("bench missing config") << QStringList{"bench", path("nope.json")} << "nope.json";
    QTest::newRow("bench config not json") << QStringList{"bench", path("text.npy")} << "text.npy";
  }

  void badInput() {
    QFETCH(QStringList, args);
    QFETCH(QString, needle);
    const auto r = runCli(args);
    QCOMPARE(r.code, 2);
    QVERIFY(r.out.isEmpty());
    const QString err = QString::fromUtf8(r.err);
    QVERIFY2(err.endsWith(QLatin1Char('\n')) && err.count(QLatin1Char('\n')) == 1, qPrintable(err));
    QVERIFY2(err.contains(needle), qPrintable(err));
    QVERIFY(!QFile::exists(path("bad_out.npy")));  // nothing written on failure
  }

  // A bench run that diverges timed only its steps so far: the JSON names the status and stderr
  // says so (issue 30: a kernel bug once made MNIST diverge at step 10 while bench printed a
  // steps/s like a finished run's).
  void benchSaysWhenARunDiverged() {
    std::ofstream(path("diverges.json").toStdString())
        << R"({"task": "mnist", "data_path": "@data/mnist", "batch_size": 125, "mnist_train_count": 2000,
               "model": {"kind": "mlp", "widths": [64]},
               "optimizer": {"kind": "adamw", "lr": 9000, "weight_decay": 0.1, "bias_correction": false},
               "constraint": {"method": "none"}})";
    const auto r = runCli({"--threads", "1", "bench", "--json", "--steps", "50", path("diverges.json")});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.json().value("status").toString(), QString("diverged"));
    QVERIFY2(r.err.contains("diverges diverged at step") && r.err.contains("cover those steps only"), r.err.constData());
    std::ofstream(path("finishes.json").toStdString())
        << R"({"task": "mnist", "data_path": "@data/mnist", "batch_size": 125, "mnist_train_count": 2000,
               "model": {"kind": "mlp", "widths": [64]}, "optimizer": {"kind": "adamw", "lr": 0.001}})";
    const auto ok = runCli({"--threads", "1", "bench", "--json", "--steps", "3", path("finishes.json")});
    QCOMPARE(ok.json().value("status").toString(), QString("finished"));
    QVERIFY2(!ok.err.contains("cover those steps only"), ok.err.constData());
  }

  void cudaRefusedWithoutCuda() {
    if (at::hasCUDA()) QSKIP("this LibTorch has CUDA");
    const auto r = runCli({"spectral", "--op", "none", "--in", good_, "--out", path("c.npy"), "--device", "cuda"});
    QCOMPARE(r.code, 2);
    QVERIFY(r.err.contains("CUDA"));
  }
};

QTEST_GUILESS_MAIN(TestCliSpectral)
#include "tst_cli_spectral.moc"
