// End-to-end tiny runs for every model/task (seconds each), determinism, divergence,
// pause/stop, config errors, and `lipschitz-cli train` writing its run directory.
#include "data/chars_dataset.h"
#include "io/input_error.h"
#include "run/run_config.h"
#include "run/run_directory.h"
#include "run/run_directory_reader.h"
#include "run/trainer.h"

#include <ATen/core/grad_mode.h>
#include <ATen/ops/cross_entropy_loss.h>
#include <ATen/ops/empty.h>

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <cmath>
#include <fstream>

#include <unistd.h>
#include <thread>
#include <utility>

using namespace lwb;

namespace {

class Recorder final : public run::MetricsSink {
 public:
  std::vector<run::StepMetrics> steps;
  int spectra = 0;
  run::RunSummary summary;
  void onStep(const run::StepMetrics& m) override { steps.push_back(m); }
  void onSpectra(int64_t, const run::SpectraSnapshot& s, const run::SpectraSnapshot&) override { spectra += s.empty() ? 0 : 1; }
  void onFinished(const run::RunSummary& s) override { summary = s; }
};

run::RunConfig base(const std::string& task, const std::string& model) {
  nlohmann::json j{{"task", task}, {"steps", 60}, {"batch_size", 32}, {"seed", 3}, {"eval_every", 30},
                   {"log_every", 10}, {"spectra_every", 30}, {"threads", 2}, {"model", {{"kind", model}}}};
  return run::parseRunConfig(j);
}

// Runs `t` to its end, recording into `r` when given.
run::RunSummary runToEnd(run::Trainer& t, Recorder* r) {
  if (r) t.addSink(r);
  run::TrainerControl control;
  return t.run(control);
}

}  // namespace

class TestTrainer : public QObject {
  Q_OBJECT

  QTemporaryDir dir_;
  std::string textPath_;
  std::string cifarFolder_;

  run::RunConfig charsConfig() {
    auto c = base("chars", "lipschitz_gpt");
    c.dataPath = textPath_;
    c.model.dModel = 16;
    c.model.blocks = 1;
    c.model.heads = 2;
    c.model.seqLen = 16;
    c.model.mlpRatio = 2;
    c.optimizer.lr = 0.1;
    c.constraint.method = *spectral::parseConstraintMethod("spectral_soft_cap");
    c.constraint.sigmaMax = 2.0;
    return c;
  }

 private Q_SLOTS:
  void initTestCase() {
    QVERIFY(dir_.isValid());
    textPath_ = dir_.filePath("text.txt").toStdString();
    std::ofstream out(textPath_);
    for (int i = 0; i < 400; ++i) out << "abcd efgh ";  // a learnable periodic text
    // A CIFAR-10 binary batch of 200 records whose class is visible in the red plane.
    cifarFolder_ = dir_.filePath("cifar").toStdString();
    QDir().mkpath(QString::fromStdString(cifarFolder_));
    std::ofstream bin(cifarFolder_ + "/data_batch_1.bin", std::ios::binary);
    for (int r = 0; r < 200; ++r) {
      const char label = static_cast<char>(r % 10);
      bin.put(label);
      for (int i = 0; i < 3072; ++i) bin.put(static_cast<char>(i < 1024 ? label * 25 : (r * 7 + i) % 256));
    }
  }

  void charsGptLearnsAndBoundHolds() {
    run::Trainer t(charsConfig());
    Recorder r;
    t.addSink(&r);
    run::TrainerControl control;
    const auto s = t.run(control);
    QCOMPARE(s.status, run::RunStatus::Finished);
    QCOMPARE(s.steps, int64_t{60});
    QCOMPARE(r.steps.size(), size_t{6});
    QCOMPARE(r.spectra, 2);
    QVERIFY2(r.steps.back().trainLoss < 0.5 * std::log(9.0), qPrintable(QString::number(r.steps.back().trainLoss)));
    QVERIFY(r.steps.back().valLoss.has_value() && r.steps.back().activations.has_value());
    // Every constrained matrix stays at or under sigma_max = 2 (RMS->RMS), soft cap + Muon.
    for (const auto& m : r.steps)
      for (const auto& n : m.norms)
        if (n.role != "embedding") QVERIFY2(n.rmsNorm <= 2.0 * (1 + 1e-4), n.name.c_str());
    QVERIFY(r.steps.back().lipschitzBound.value() > 0);
    QVERIFY(r.steps.back().alpha > 0);
  }

  void everyTaskRuns_data() {
    QTest::addColumn<QString>("task");
    QTest::addColumn<QString>("model");
    QTest::newRow("modular_addition") << "modular_addition" << "modular_mlp";
    QTest::newRow("modular_multiplication") << "modular_multiplication" << "modular_mlp";
    QTest::newRow("mnist") << "mnist" << "mlp";
    QTest::newRow("cifar10") << "cifar10" << "mlp";
  }
  void everyTaskRuns() {
    QFETCH(QString, task);
    QFETCH(QString, model);
    auto c = base(task.toStdString(), model.toStdString());
    c.modulus = 11;
    c.model.embedDim = 8;
    c.model.width = 16;
    c.model.widths = {32};
    c.mnistTrainCount = 8000;
    // The bundled MNIST split, named as the presets name it: the trainer resolves it.
    if (task == QLatin1String("mnist")) c.dataPath = "@data/mnist";
    if (task == QLatin1String("cifar10")) c.dataPath = cifarFolder_;
    c.constraint.method = *spectral::parseConstraintMethod("spectral_hard_cap");
    run::Trainer t(c);
    Recorder r;
    t.addSink(&r);
    run::TrainerControl control;
    const auto s = t.run(control);
    QCOMPARE(s.status, run::RunStatus::Finished);
    QVERIFY(r.steps.back().trainLoss < r.steps.front().trainLoss);
    QVERIFY(std::isfinite(s.lipschitzBound) && s.lipschitzBound > 0);
    QVERIFY(s.valAcc >= 0 && s.valAcc <= 1);
  }

  void deterministicOnCpu() {
    std::vector<double> losses[2];
    for (auto& l : losses) {
      run::Trainer t(charsConfig());
      Recorder r;
      t.addSink(&r);
      run::TrainerControl control;
      t.run(control);
      for (const auto& m : r.steps) l.push_back(m.trainLoss);
    }
    QVERIFY(losses[0] == losses[1]);
  }

  // A soft cap whose lr is large against sigma_max cannot hold sigma_max (the cap's polynomial
  // turns over inside [0, k]): the run says so before the first step and in its summary, and
  // the measured norms indeed end above sigma_max; at a small lr no warning.
  void softCapTurnoverIsReported() {
    auto c = charsConfig();
    c.steps = 20;
    c.optimizer.kind = optim::OptimizerKind::Muon;
    c.constraint.sigmaMax = 0.6;
    c.optimizer.lr = 0.5;
    {
      run::Trainer t(c);
      QCOMPARE(t.startWarnings().size(), size_t{1});
      QVERIFY2(t.startWarnings()[0].find("cannot hold sigma_max 0.6") != std::string::npos, t.startWarnings()[0].c_str());
      Recorder r;
      const auto s = runToEnd(t, &r);
      QVERIFY2(s.message.find("soft cap cannot hold") != std::string::npos, s.message.c_str());
      // The warning is not a false alarm: a constrained matrix was logged above sigma_max.
      double top = 0;
      for (const auto& m : r.steps)
        for (const auto& n : m.norms)
          if (n.role != "embedding") top = std::max(top, n.rmsNorm);
      QVERIFY2(top > 0.6 * 1.01, qPrintable(QString::number(top)));
    }
    c.optimizer.lr = 0.1;  // 0.17 sigma_max
    run::Trainer quiet(c);
    QVERIFY(quiet.startWarnings().empty());
  }

  void divergenceStopsCleanly() {
    auto c = charsConfig();
    c.optimizer.kind = optim::OptimizerKind::Sgd;
    c.optimizer.lr = 1e12;
    c.constraint.method = *spectral::parseConstraintMethod("none");
    run::Trainer t(c);
    Recorder r;
    t.addSink(&r);
    run::TrainerControl control;
    const auto s = t.run(control);
    QCOMPARE(s.status, run::RunStatus::Diverged);
    QVERIFY(s.steps < 60);
  }

  void stopAndPause() {
    run::Trainer t(charsConfig());
    run::TrainerControl control;
    control.pause = true;
    run::RunSummary s;
    std::thread worker([&] { s = t.run(control); });
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    control.stop = true;  // stop while paused: no step was taken
    worker.join();
    QCOMPARE(s.status, run::RunStatus::Stopped);
    QCOMPARE(s.steps, int64_t{0});
  }

  void configErrorsNameTheKey() {
    auto c = base("chars", "mlp");
    c.dataPath = textPath_;
    try {
      run::Trainer t(c);
      QFAIL("mlp on chars accepted");
    } catch (const InputError& e) {
      QVERIFY2(QString::fromUtf8(e.what()).contains(QStringLiteral("model.kind")), e.what());
    }
    auto missing = base("chars", "lipschitz_gpt");
    QVERIFY_THROWS_EXCEPTION(InputError, run::Trainer{missing});  // no data_path
  }

  // Issue 25: val_loss_paper reads 000's window (20 batches of stride-1 windows from the
  // validation split's start), val_loss_full every non-overlapping window at the last step;
  // both against windows built here by hand from the text. The summary carries the n-gram
  // levels; a split too short for 20 batches uses what fits and says so.
  void charsPaperWindowAndFullSplit() {
    auto c = charsConfig();
    c.batchSize = 8;   // 384 stride-1 windows: the paper's 20 batches fit
    c.evalBatches = 1;  // val_loss reads 8 of the 24 windows; val_loss_full must read all
    run::Trainer t(c);
    Recorder r;
    const auto s = runToEnd(t, &r);
    QCOMPARE(s.status, run::RunStatus::Finished);
    const auto& mid = r.steps[2];  // step 30: an evaluation, not the last
    QCOMPARE(mid.step, int64_t{30});
    QVERIFY(mid.valLossPaper.has_value() && !mid.valLossFull.has_value());
    const auto& last = r.steps.back();
    QVERIFY(last.valLossPaper.has_value() && last.valLossFull.has_value());

    const data::CharsDataset text(textPath_, c.model.seqLen);
    const auto val = text.text(data::Split::Val);
    const auto handMade = [&](int64_t windows, int64_t stride) {
      const int64_t T = c.model.seqLen;
      at::Tensor in = at::empty({windows, T}, at::kLong), target = at::empty({windows, T}, at::kLong);
      for (int64_t w = 0; w < windows; ++w)
        for (int64_t i = 0; i < T; ++i) {
          in[w][i] = static_cast<int64_t>(val[static_cast<size_t>(w * stride + i)]);
          target[w][i] = static_cast<int64_t>(val[static_cast<size_t>(w * stride + i + 1)]);
        }
      at::NoGradGuard noGrad;
      const auto logits = t.model().forward(in);
      return at::cross_entropy_loss(logits.reshape({-1, logits.size(-1)}), target.reshape({-1})).item<double>();
    };
    const double paper = handMade(20 * 8, 1), full = handMade((400 - 1) / 16, 16);
    QVERIFY2(std::abs(*last.valLossPaper - paper) < 1e-5 * paper, qPrintable(QStringLiteral("%1 vs %2").arg(*last.valLossPaper).arg(paper)));
    QVERIFY2(std::abs(*last.valLossFull - full) < 1e-5 * full, qPrintable(QStringLiteral("%1 vs %2").arg(*last.valLossFull).arg(full)));
    QVERIFY(std::abs(*last.valLoss - full) > 1e-6);  // 8 windows are not the split

    QCOMPARE(s.valLossPaper.value(), *last.valLossPaper);
    QCOMPARE(s.valLossFull.value(), *last.valLossFull);
    QCOMPARE(s.valPaperBatches, int64_t{20});
    QCOMPARE(s.referenceLevels.size(), size_t{4});
    QCOMPARE(s.referenceLevelsPaper.size(), size_t{4});
    QVERIFY2(s.message.empty(), s.message.c_str());

    // Batch 32: 384 windows hold 12 full batches; the run uses them and says so.
    run::Trainer shortRun(charsConfig());
    const auto s2 = runToEnd(shortRun, nullptr);
    QCOMPARE(s2.valPaperBatches, int64_t{12});
    QVERIFY(std::isfinite(s2.valLossPaper.value()));
    QVERIFY2(s2.message.find("val_loss_paper uses 12 of the paper's 20 batches") != std::string::npos, s2.message.c_str());
    QCOMPARE(shortRun.referenceNotes().size(), size_t{2});  // the levels line and that note
  }

  void cliTrainWritesRunDirectory() {
    const QString cfg = dir_.filePath(QStringLiteral("cfg.json"));
    {
      std::ofstream out(cfg.toStdString());
      out << run::toJson(charsConfig()).dump();
    }
    const QString out = dir_.filePath(QStringLiteral("run1"));
    QProcess p;
    p.start(QStringLiteral(LWB_CLI_PATH), {"train", "--config", cfg, "--set", "steps=20", "--set", "log_every=5",
                                           "--out", out, "--json"});
    QVERIFY(p.waitForFinished(120000));
    QCOMPARE(p.exitCode(), 0);
    const auto lines = p.readAllStandardOutput().trimmed().split('\n');
    QCOMPARE(lines.size(), 5);  // 4 logged steps + the summary
    const auto summary = QJsonDocument::fromJson(lines.last()).object();
    for (const char* k : {"val_loss", "val_acc", "lipschitz_bound", "max_act_entry", "max_act_rms", "seconds", "steps_per_s",
                          "val_loss_paper", "val_loss_full"})
      QVERIFY2(summary.contains(QLatin1String(k)) && summary[QLatin1String(k)].isDouble(), k);
    // Task chars: the n-gram levels, and on stderr the levels and what the short split cut.
    const auto levels = summary[QLatin1String("reference_levels")].toObject();
    for (const char* k : {"unigram", "bigram", "trigram", "5gram"}) QVERIFY2(levels[QLatin1String(k)].isDouble(), k);
    QCOMPARE(summary[QLatin1String("val_loss_paper_batches")].toInt(), 12);
    const QString err = QString::fromUtf8(p.readAllStandardError());
    QVERIFY2(err.contains(QLatin1String("reference levels (Witten-Bell")) &&
                 err.contains(QLatin1String("lipschitz-cli: warning: val_loss_paper uses 12 of the paper's 20 batches")),
             qPrintable(err));
    for (const char* f : {"config.json", "metrics.jsonl", "spectra.bin", "spectra.json", "summary.json", "status"})
      QVERIFY2(QFileInfo::exists(out + QLatin1Char('/') + QLatin1String(f)), f);
    QCOMPARE(run::RunDirectoryReader(out.toStdString()).metrics().size(), size_t{4});
    // config.json records the version CMake's project() declares.
    std::ifstream config((out + QStringLiteral("/config.json")).toStdString());
    const auto versions = nlohmann::json::parse(config).at("versions");
    QCOMPARE(versions.at("lipschitz_workbench").get<std::string>(), std::string(LWB_PROJECT_VERSION));
    std::ifstream status((out + QStringLiteral("/status")).toStdString());
    std::string word;
    status >> word;
    QCOMPARE(QString::fromStdString(word), QStringLiteral("finished"));
    // A second run into the same (non-empty) folder is refused with exit code 2.
    QProcess again;
    again.start(QStringLiteral(LWB_CLI_PATH), {"train", "--config", cfg, "--out", out});
    QVERIFY(again.waitForFinished(60000));
    QCOMPARE(again.exitCode(), 2);
    QVERIFY(again.readAllStandardError().contains("not empty"));
  }

  // "@data/..." resolves next to the program (an installed package: bin/ + share/) and
  // from any working directory; a bundled name found nowhere is refused, naming it.
  void cliFindsBundledDataWhereverItRuns() {
    const QString prefix = dir_.filePath(QStringLiteral("prefix"));
    const QString data = prefix + QStringLiteral("/share/lipschitz-workbench/data");
    QVERIFY(QDir().mkpath(prefix + QStringLiteral("/bin")) && QDir().mkpath(data));
    const QString cli = prefix + QStringLiteral("/bin/lipschitz-cli");
    QVERIFY(QFile::copy(QStringLiteral(LWB_CLI_PATH), cli));
    // lipschitz-cli execs the engine program installed beside it (engine/cli/front_main.cpp).
    QVERIFY(QFile::copy(QFileInfo(QStringLiteral(LWB_CLI_PATH)).dir().filePath(QStringLiteral("lipschitz-cli-engine")),
                        prefix + QStringLiteral("/bin/lipschitz-cli-engine")));
    QVERIFY(QFile::copy(QString::fromStdString(textPath_), data + QStringLiteral("/only_installed.txt")));
    auto c = charsConfig();
    c.dataPath = "@data/only_installed.txt";
    const QString cfg = dir_.filePath(QStringLiteral("installed.json"));
    std::ofstream(cfg.toStdString()) << run::toJson(c).dump();
    const auto train = [&](const QString& program, const QString& config, const QString& out) {
      QProcess p;
      p.setWorkingDirectory(dir_.path());  // not the source tree
      QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
      env.remove(QStringLiteral("LWB_DATA_DIR"));
      p.setProcessEnvironment(env);
      p.start(program, {"train", "--config", config, "--set", "steps=2", "--out", dir_.filePath(out)});
      p.waitForFinished(120000);
      return std::pair{p.exitCode(), QString::fromUtf8(p.readAllStandardError())};
    };
    const auto installed = train(cli, cfg, QStringLiteral("installed_run"));
    QVERIFY2(installed.first == 0, qPrintable(installed.second));
    // The build's own CLI has no share/ beside it: that name is found nowhere.
    const auto missing = train(QStringLiteral(LWB_CLI_PATH), cfg, QStringLiteral("missing_run"));
    QCOMPARE(missing.first, 2);
    QVERIFY2(missing.second.contains(QLatin1String("'@data/only_installed.txt' not found")), qPrintable(missing.second));
    // A shipped preset, as it is, from a folder far from the repository.
    const auto preset = train(QStringLiteral(LWB_CLI_PATH), QStringLiteral(LWB_SOURCE_DIR "/resources/presets/chars_small_cpu.json"),
                              QStringLiteral("preset_run"));
    QVERIFY2(preset.first == 0, qPrintable(preset.second));
  }

  // Issue 32: `bound` on a GPT run: the sound multi-head bound is named as such, App. D's
  // single-head value stands beside it, and the bound is rebuilt here from the printed
  // trace by the residual rule L <- (1 - a) L + a L L_block, a = 1/(2N), then the head.
  void cliBoundOnAGptRun() {
    const QString out = dir_.filePath(QStringLiteral("gpt_bound_run"));
    QProcess train;
    train.start(QStringLiteral(LWB_CLI_PATH), {"--threads", "1", "train", "--config",
                                               QStringLiteral(LWB_SOURCE_DIR "/resources/presets/chars_small_cpu.json"),
                                               "--set", "steps=3", "--set", "eval_every=3", "--out", out});
    QVERIFY(train.waitForFinished(180000));
    QVERIFY2(train.exitCode() == 0, train.readAllStandardError().constData());
    QProcess bound;
    bound.start(QStringLiteral(LWB_CLI_PATH), {"--threads", "1", "bound", out});
    QVERIFY(bound.waitForFinished(120000));
    QVERIFY2(bound.exitCode() == 0, bound.readAllStandardError().constData());
    const auto j = nlohmann::json::parse(bound.readAllStandardOutput().toStdString());
    QCOMPARE(j["model"].get<std::string>(), std::string("lipschitz_gpt"));
    QVERIFY2(j["bound_kind"].get<std::string>().rfind("sound multi-head bound", 0) == 0, j.dump().c_str());
    QVERIFY(j.contains("lipschitz_bound_app_d"));
    const double appD = j["lipschitz_bound_app_d"].get<double>(), sound = j["lipschitz_bound"].get<double>();
    QVERIFY(appD > 0 && std::isfinite(appD) && sound > 0 && std::isfinite(sound));
    // The same App. D value the trainer logged for the last step (float32 spectra there).
    const auto rows = run::RunDirectoryReader(out.toStdString()).metrics();
    QVERIFY(!rows.empty() && rows.back().contains("lipschitz_bound_app_d"));
    const double logged = rows.back()["lipschitz_bound_app_d"].get<double>();
    QVERIFY2(std::abs(appD - logged) <= 1e-4 * logged, qPrintable(QStringLiteral("%1 vs %2").arg(appD).arg(logged)));
    // chars_small_cpu: the input convolution composes, then 1 block, so 2 residual
    // connections, a = 1/2; then the head composes.
    const double a = 0.5;
    double l = 1.0;
    const auto& trace = j["trace"];
    QCOMPARE(trace.size(), size_t{4});  // input_conv, block0.attn, block0.mlp, head
    QCOMPARE(trace[0]["name"].get<std::string>(), std::string("input_conv"));
    for (size_t i = 0; i < trace.size(); ++i) {
      const double block = trace[i]["block"].get<double>();
      const std::string name = trace[i]["name"].get<std::string>();
      l = name == "head" || name == "input_conv" ? l * block : (1 - a) * l + a * l * block;
      QVERIFY2(std::abs(l - trace[i]["lipschitz"].get<double>()) <= 1e-9 * l, trace[i].dump().c_str());
    }
    QVERIFY2(std::abs(l - sound) <= 1e-9 * sound, qPrintable(QStringLiteral("%1 vs %2").arg(l).arg(sound)));
  }

  // Issue 32: an unreadable run folder was "no checkpoints"; now it is permission denied.
  // Root reads everything, so as root the CLI runs as nobody (setpriv).
  void cliSaysPermissionDenied() {
    QTemporaryDir base;
    QVERIFY(QFile::setPermissions(base.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner |
                                                   QFileDevice::ReadOther | QFileDevice::ExeOther | QFileDevice::ReadGroup |
                                                   QFileDevice::ExeGroup));
    const QString locked = base.filePath(QStringLiteral("locked_run"));
    QVERIFY(QDir().mkpath(locked + QStringLiteral("/checkpoints")));
    QVERIFY(QFile::setPermissions(locked, QFileDevice::Permissions()));
    for (const char* cmd : {"bound", "robustness"}) {
      QProcess p;
      QStringList args{QStringLiteral(LWB_CLI_PATH), QString::fromLatin1(cmd), locked};
      if (::geteuid() == 0)
        args = QStringList{QStringLiteral("--reuid=65534"), QStringLiteral("--regid=65534"), QStringLiteral("--clear-groups")} + args;
      p.start(::geteuid() == 0 ? QStringLiteral("setpriv") : args.takeFirst(), args);
      QVERIFY(p.waitForFinished(60000));
      const QByteArray err = p.readAllStandardError();
      QCOMPARE(p.exitCode(), 2);
      QVERIFY2(err.contains("permission denied") && err.count('\n') == 1, err.constData());
    }
    QFile::setPermissions(locked, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
  }

  void cliTrainBadInput() {
    for (const QStringList& args : {QStringList{"train", "--config", dir_.filePath("nope.json"), "--out", dir_.filePath("x")},
                                    QStringList{"train", "--config", QString::fromStdString(textPath_), "--out", dir_.filePath("y")}}) {
      QProcess p;
      p.start(QStringLiteral(LWB_CLI_PATH), args);
      QVERIFY(p.waitForFinished(60000));
      QCOMPARE(p.exitCode(), 2);
      QCOMPARE(p.readAllStandardError().count('\n'), 1);
    }
    // A typo in --set is the flag's, not the preset file's (issue 32); a bad file still
    // names the file.
    const QString preset = QStringLiteral(LWB_SOURCE_DIR "/resources/presets/chars_small_cpu.json");
    const auto err = [](const QStringList& args) {
      QProcess p;
      p.start(QStringLiteral(LWB_CLI_PATH), args);
      p.waitForFinished(60000);
      return std::pair{p.exitCode(), QString::fromUtf8(p.readAllStandardError())};
    };
    const auto typo = err({"train", "--config", preset, "--set", "steps=3", "--set", "optimizer.lrr=0.1", "--out", dir_.filePath("t")});
    QCOMPARE(typo.first, 2);
    QVERIFY2(typo.second.contains(QLatin1String("--set optimizer.lrr=0.1: unknown key 'optimizer.lrr'")), qPrintable(typo.second));
    QVERIFY2(!typo.second.contains(QLatin1String("chars_small_cpu.json")), qPrintable(typo.second));
    const QString bad = dir_.filePath(QStringLiteral("bad_key.json"));
    std::ofstream(bad.toStdString()) << R"({"stepz": 3})";
    const auto file = err({"train", "--config", bad, "--set", "steps=3", "--out", dir_.filePath("u")});
    QCOMPARE(file.first, 2);
    QVERIFY2(file.second.contains(QLatin1String("bad_key.json: unknown key 'stepz'")), qPrintable(file.second));
  }
};

QTEST_APPLESS_MAIN(TestTrainer)
#include "tst_trainer.moc"
