// Checkpoints and resume: a run stopped and resumed from its newest checkpoint reproduces the
// uninterrupted run's metrics step for step on CPU (every optimizer, stateful constraints);
// keep-last-N; hostile or mismatched checkpoints are refused before any state changes; the
// bound of a saved model equals the trainer's; `lipschitz-cli train --resume` and `bound`.
#include "io/input_error.h"
#include "io/safetensors.h"
#include "io/tensor_convert.h"
#include "run/checkpoint.h"
#include "run/run_config.h"
#include "run/results_json.h"
#include "run/run_directory.h"
#include "run/run_directory_reader.h"
#include "run/saved_model.h"
#include "run/trainer.h"
#include "support/test_files.h"

#include <ATen/ops/equal.h>
#include <QProcess>
#include <QtTest/QtTest>

#include <cmath>

#include <filesystem>
#include <fstream>

using namespace lwb;
namespace fs = std::filesystem;

namespace {

// Rows as the run directory writes them, minus wall-clock fields.
class Rows final : public run::MetricsSink {
 public:
  std::map<int64_t, nlohmann::json> rows;
  run::TrainerControl* stopAfter = nullptr;
  int64_t stopStep = 0;
  void onStep(const run::StepMetrics& m) override {
    auto j = run::toJson(m);
    for (const char* k : {"steps_per_s", "eta_s", "constraint_s_per_step", "step_s_per_step"}) j.erase(k);
    rows[m.step] = j;
    if (stopAfter && m.step >= stopStep) stopAfter->stop.store(true);
  }
};

run::RunConfig config(const std::string& optimizer, const std::string& method) {
  nlohmann::json j{{"task", "modular_addition"}, {"modulus", 23}, {"train_fraction", 0.5}, {"steps", 40},
                   {"batch_size", 32}, {"seed", 11}, {"eval_every", 10}, {"log_every", 5}, {"spectra_every", 10},
                   {"threads", 2}, {"checkpoint_every", 10}, {"keep_checkpoints", 2},
                   {"model", {{"kind", "modular_mlp"}, {"embed_dim", 12}, {"width", 24}}},
                   {"optimizer", {{"kind", optimizer}, {"lr", optimizer == "adamw" ? 0.01 : 0.1}, {"weight_decay", 0.01}}},
                   {"constraint", {{"method", method}, {"sigma_max", 2.0}}}};
  return run::parseRunConfig(j);
}

}  // namespace

class TestCheckpoint : public QObject {
  Q_OBJECT
  QTemporaryDir tmp_;
  std::string path(const char* name) { return tmp_.filePath(QString::fromUtf8(name)).toStdString(); }

 private Q_SLOTS:
  // kill -9 during a checkpoint write left step_N.safetensors.tmp.<pid> for good (the older
  // checkpoints intact). Pruning removes it once that pid is gone; a live writer's stays.
  void pruningRemovesTempFilesOfDeadWriters() {
    const std::filesystem::path dir = path("tmp_files");
    std::filesystem::create_directories(dir);
    QProcess gone;  // a pid that existed and is now free
    gone.start(QStringLiteral("sleep"), {QStringLiteral("0.1")});
    QVERIFY(gone.waitForStarted());
    const qint64 deadPid = gone.processId();
    QVERIFY(gone.waitForFinished());
    QVERIFY(deadPid > 0);
    const auto touch = [&](const std::string& name) { std::ofstream(dir / name) << "x"; };
    touch("step_10.safetensors");
    touch("step_20.safetensors.tmp." + std::to_string(deadPid));
    touch("step_20.safetensors.tmp." + std::to_string(QCoreApplication::applicationPid()));  // alive: this process
    touch("notes.tmp.1");  // not ours
    run::pruneCheckpoints(dir, 5, 20);
    QVERIFY(!std::filesystem::exists(dir / ("step_20.safetensors.tmp." + std::to_string(deadPid))));
    QVERIFY(std::filesystem::exists(dir / ("step_20.safetensors.tmp." + std::to_string(QCoreApplication::applicationPid()))));
    QVERIFY(std::filesystem::exists(dir / "step_10.safetensors"));
    QVERIFY(std::filesystem::exists(dir / "notes.tmp.1"));
  }

  void resumeReproducesTheUninterruptedRun_data() {
    QTest::addColumn<QString>("optimizer");
    QTest::addColumn<QString>("method");
    QTest::addColumn<int>("stopAt");
    QTest::newRow("muon soft cap, stop on a checkpoint step") << "muon" << "spectral_soft_cap" << 20;
    QTest::newRow("muon soft cap, stop between checkpoints") << "muon" << "spectral_soft_cap" << 25;
    QTest::newRow("adamw hard cap (power iteration)") << "adamw" << "spectral_hard_cap" << 15;
    QTest::newRow("sgd spectral normalize") << "sgd" << "spectral_normalize" << 30;
  }
  void resumeReproducesTheUninterruptedRun() {
    QFETCH(QString, optimizer);
    QFETCH(QString, method);
    QFETCH(int, stopAt);
    const auto cfg = config(optimizer.toStdString(), method.toStdString());
    const auto dir = path(QTest::currentDataTag());

    Rows whole;
    {
      run::Trainer t(cfg);
      t.addSink(&whole);
      run::TrainerControl control;
      QCOMPARE(t.run(control).status, run::RunStatus::Finished);
    }
    Rows first;
    run::TrainerControl control;
    {
      run::Trainer t(cfg);
      t.setCheckpointDir(dir);
      first.stopAfter = &control;
      first.stopStep = stopAt;
      t.addSink(&first);
      QCOMPARE(t.run(control).status, run::RunStatus::Stopped);
    }
    // The stop writes a checkpoint at the step reached; keep_checkpoints = 2 pruned older ones.
    const auto files = run::listCheckpoints(dir);
    QCOMPARE(files.size(), size_t{2});
    QCOMPARE(files.back().step, int64_t{stopAt});
    const auto ckpt = run::readCheckpoint(files.back().path);
    QCOMPARE(ckpt.step, int64_t{stopAt});

    Rows second;
    run::Trainer t(cfg);
    t.resume(ckpt);
    QCOMPARE(t.startStep(), int64_t{stopAt});
    t.addSink(&second);
    run::TrainerControl c2;
    QCOMPARE(t.run(c2).status, run::RunStatus::Finished);
    QCOMPARE(second.rows.begin()->first, int64_t{stopAt + 5});
    QCOMPARE(second.rows.rbegin()->first, cfg.steps);
    for (const auto& [step, row] : second.rows) {
      QVERIFY2(whole.rows.count(step), qPrintable(QString::number(step)));
      QVERIFY2(row == whole.rows[step], qPrintable(QString::fromStdString("step " + std::to_string(step) + ":\n" +
                                                                       row.dump() + "\n" + whole.rows[step].dump())));
    }
  }

  void checkpointRoundTripsEveryTensor() {
    const auto cfg = config("muon", "spectral_soft_cap");
    run::Trainer t(cfg);
    run::TrainerControl control;
    t.run(control);
    const auto saved = t.checkpoint(cfg.steps);
    QVERIFY(saved.tensors.count("rng.data") && saved.tensors.count("rng.default"));
    for (const char* k : {"param.embed", "param.layers.0", "param.head", "optim.momentum.layers.0", "optim.momentum.head"})
      QVERIFY2(saved.tensors.count(k), k);
    const auto file = path("roundtrip.safetensors");
    run::writeCheckpoint(file, saved);
    const auto back = run::readCheckpoint(file);
    QCOMPARE(back.step, cfg.steps);
    QCOMPARE(back.config, saved.config);
    QCOMPARE(back.tensors.size(), saved.tensors.size());
    for (const auto& [k, v] : saved.tensors) QVERIFY2(at::equal(back.tensors.at(k), v.cpu()), k.c_str());
  }

  // Checkpoints are ordered by the N of step_N: a copy of step 68 named step_5000 in a
  // 300-step run was resumed from silently, taken as the newest by bound / sample /
  // robustness, and made keep_checkpoints delete a real checkpoint. Now readCheckpoint names
  // the mismatch and pruning counts only the run's own steps.
  void aCheckpointWhoseNameLiesIsNotTrusted() {
    const auto cfg = config("muon", "spectral_soft_cap");
    run::Trainer t(cfg);
    const std::filesystem::path dir = path("lying_names");
    std::filesystem::create_directories(dir);
    run::writeCheckpoint(dir / "step_5000.safetensors", t.checkpoint(68));
    const QString why = test::inputErrorOf([&] { run::readCheckpoint(dir / "step_5000.safetensors"); });
    QVERIFY2(why.contains("holds step 68, not 5000 as its name says"), qPrintable(why));
    run::writeCheckpoint(dir / "step_68.safetensors", t.checkpoint(68));
    QCOMPARE(run::readCheckpoint(dir / "step_68.safetensors").step, int64_t{68});
    run::writeCheckpoint(dir / "copy.safetensors", t.checkpoint(68));  // another name: not a listed checkpoint
    QCOMPARE(run::readCheckpoint(dir / "copy.safetensors").step, int64_t{68});
    for (int64_t step : {100, 200, 300}) run::writeCheckpoint(dir / run::checkpointFileName(step), t.checkpoint(step));
    run::pruneCheckpoints(dir, 2, 300);  // just wrote step 300, keep 2: 200 and 300
    QVERIFY(std::filesystem::exists(dir / "step_300.safetensors"));
    QVERIFY(std::filesystem::exists(dir / "step_200.safetensors"));
    QVERIFY(!std::filesystem::exists(dir / "step_100.safetensors"));
    QVERIFY(std::filesystem::exists(dir / "step_5000.safetensors"));  // not the run's: left alone
  }

  void savedModelBoundEqualsTheTrainers() {
    const auto cfg = config("muon", "spectral_soft_cap");
    Rows rows;
    run::Trainer t(cfg);
    t.addSink(&rows);
    run::TrainerControl control;
    t.run(control);
    auto saved = run::loadSavedModel(t.checkpoint(cfg.steps), "mem");
    const auto b = run::boundOf(*saved.model);
    QVERIFY(b.trace.has_value());
    // The saved model's bound is a certificate (float64 SVD, bounds::sigmaMaxUpper); the
    // trainer's comes from its float32 spectra: equal to float32 rounding.
    const double trainer = rows.rows.rbegin()->second["lipschitz_bound"].get<double>();
    QVERIFY2(std::abs(b.trace->bound - trainer) <= 1e-5 * trainer, qPrintable(QString::number(b.trace->bound - trainer)));
  }

  // Every task's checkpoint gives its bound back without its dataset: the masked-character
  // task's vocabulary ([MASK] included) is the embedding's rows, the ICL task's token size
  // follows from its settings (both once refused: "the task's sizes come from its dataset").
  void savedModelBoundForTheMaskedAndIclTasks_data() {
    QTest::addColumn<QString>("preset");
    QTest::addColumn<bool>("hasBound");
    QTest::newRow("chars_masked (AttLip)") << "masked_chars_attlip_cpu" << true;
    QTest::newRow("chars_masked (l2)") << "masked_chars_l2_cpu" << true;
    QTest::newRow("icl_least_squares") << "icl_muon_cpu" << false;
  }
  void savedModelBoundForTheMaskedAndIclTasks() {
    QFETCH(QString, preset);
    QFETCH(bool, hasBound);
    auto cfg = run::loadRunConfig(LWB_SOURCE_DIR "/resources/presets/" + preset.toStdString() + ".json");
    cfg.steps = 2;
    cfg.evalEvery = 2;
    cfg.evalBatches = 1;
    cfg.logEvery = 1;
    cfg.spectraEvery = 0;
    cfg.threads = 1;
    Rows rows;
    run::Trainer t(cfg);
    t.skipCharEvaluation();
    t.addSink(&rows);
    run::TrainerControl control;
    t.run(control);
    auto saved = run::loadSavedModel(t.checkpoint(cfg.steps), "mem");
    const auto b = run::boundOf(*saved.model);
    QCOMPARE(b.trace.has_value(), hasBound);
    if (!hasBound) return;
    const double trainer = rows.rows.rbegin()->second["lipschitz_bound"].get<double>();
    QVERIFY2(std::abs(b.trace->bound - trainer) <= 1e-5 * trainer, qPrintable(QString("%1 vs %2").arg(b.trace->bound).arg(trainer)));
  }

  void mismatchedOrHostileCheckpointsAreRefused_data() {
    QTest::addColumn<QString>("edit");
    QTest::addColumn<QString>("fragment");
    QTest::newRow("other width") << "width" << "has shape";
    QTest::newRow("missing weight") << "drop-param" << "missing tensor 'param.";
    QTest::newRow("foreign tensor") << "extra" << "does not belong";
    QTest::newRow("NaN weight") << "nan" << "NaN or infinite";
    QTest::newRow("bad generator state") << "rng" << "generator state";
    QTest::newRow("step past the end") << "step" << "outside this run";
  }
  void mismatchedOrHostileCheckpointsAreRefused() {
    QFETCH(QString, edit);
    QFETCH(QString, fragment);
    auto cfg = config("muon", "spectral_soft_cap");
    run::Trainer t(cfg);
    run::TrainerControl control;
    t.run(control);
    auto ckpt = t.checkpoint(20);
    for (auto& [k, v] : ckpt.tensors) v = v.clone();
    if (edit == "width") cfg.model.width = 25;
    if (edit == "drop-param") ckpt.tensors.erase("param.embed");
    if (edit == "extra") ckpt.tensors["param.ghost"] = ckpt.tensors["param.embed"];
    if (edit == "nan") ckpt.tensors["param.embed"].fill_(std::nan(""));
    if (edit == "rng") ckpt.tensors["rng.data"] = ckpt.tensors["rng.data"].narrow(0, 0, 7).clone();
    if (edit == "step") ckpt.step = cfg.steps;
    run::Trainer fresh(cfg);
    const auto before = fresh.checkpoint(0).tensors.at("param.embed").clone();
    const QString msg = test::inputErrorOf([&] { fresh.resume(ckpt); });
    QVERIFY2(msg.contains(fragment), qPrintable(msg));
    QVERIFY(at::equal(fresh.checkpoint(0).tensors.at("param.embed"), before));  // untouched
    QCOMPARE(fresh.startStep(), int64_t{0});
  }

  void foreignSafetensorsIsNotACheckpoint() {
    const auto file = path("foreign.safetensors");
    io::writeSafetensors(file, {io::fromTensor("w", at::ones({2, 2}))}, {});
    const QString msg = test::inputErrorOf([&] { run::readCheckpoint(file); });
    QVERIFY2(msg.contains("not a Lipschitz Workbench checkpoint"), qPrintable(msg));
  }

  void runDirectoryContinuesAfterTheCheckpointStep() {
    const auto dir = path("rundir");
    {
      run::RunDirectory d(dir);
      d.writeConfig({{"steps", 10}});
      for (int s = 1; s <= 6; ++s) d.appendMetrics({{"step", s}});
      d.appendSpectra(2, {{"a", {3.f, 1.f}}});
      d.appendSpectra(4, {{"a", {2.f, 1.f}}, {"b", {5.f}}});
      d.appendSpectra(6, {{"a", {1.f, 1.f}}});
    }
    // Another tool's note (no numeric step) is kept; a torn line from a crash is dropped.
    std::ofstream(dir + "/metrics.jsonl", std::ios::app) << "{\"step\": \"note\"}\n{\"step\": 7, \"to";
    {
      run::RunDirectory d(dir, run::RunDirectory::ContinueAfter{4});
      d.appendMetrics({{"step", 5}});
    }
    const run::RunDirectoryReader reader(dir);
    const auto rows = reader.metrics();
    QCOMPARE(rows.size(), size_t{6});
    QCOMPARE(rows[4]["step"].get<std::string>(), std::string("note"));
    QCOMPARE(rows.back()["step"].get<int>(), 5);
    const auto spectra = reader.spectraSince(-1);
    QCOMPARE(spectra.size(), size_t{2});
    QCOMPARE(spectra.back().step, int64_t{4});
    QCOMPARE(spectra.back().after.at("b"), std::vector<float>{5.f});
    QCOMPARE(fs::file_size(dir + "/spectra.bin"), uintmax_t{5 * 4});
    QVERIFY(test::inputErrorOf([&] { run::RunDirectory(path("nothing-here"), run::RunDirectory::ContinueAfter{1}); })
                .contains("not a run directory"));
  }

  void cliResumesAndBounds() {
    const QString cli = QStringLiteral(LWB_CLI_PATH);
    const QString cfgFile = tmp_.filePath(QStringLiteral("cfg.json"));
    auto j = run::toJson(config("muon", "spectral_soft_cap"));
    j["keep_checkpoints"] = 5;
    test::writeFile(cfgFile, j.dump());
    auto runCli = [&](const QStringList& args, int expect) {
      QProcess p;
      p.start(cli, args);
      if (!p.waitForFinished(120000)) return QByteArray("<timeout>");
      const auto err = p.readAllStandardError();
      if (p.exitCode() != expect) return QByteArray("<exit ") + QByteArray::number(p.exitCode()) + "> " + err;
      return expect == 0 ? p.readAllStandardOutput() : err;
    };
    const QString a = tmp_.filePath(QStringLiteral("cli-a")), b = tmp_.filePath(QStringLiteral("cli-b"));
    QVERIFY(!runCli({"train", "--config", cfgFile, "--out", a}, 0).startsWith('<'));
    QVERIFY(!runCli({"train", "--config", cfgFile, "--out", b}, 0).startsWith('<'));
    // Simulate a crash after step 30's checkpoint: later checkpoints gone, rows 31..40 present.
    fs::remove(b.toStdString() + "/checkpoints/step_40.safetensors");
    QVERIFY(run::RunDirectoryReader(b.toStdString()).newestCheckpoint()->filename() == "step_30.safetensors");
    QVERIFY(!runCli({"train", "--resume", b}, 0).startsWith('<'));
    auto strip = [](std::vector<nlohmann::json> rows) {
      for (auto& r : rows)
        for (const char* k : {"steps_per_s", "eta_s", "constraint_s_per_step", "step_s_per_step"}) r.erase(k);
      return rows;
    };
    const auto ra = strip(run::RunDirectoryReader(a.toStdString()).metrics());
    const auto rb = strip(run::RunDirectoryReader(b.toStdString()).metrics());
    QCOMPARE(rb.size(), ra.size());
    QVERIFY(ra == rb);
    QVERIFY(runCli({"train", "--resume", b}, 2).contains("already completed"));
    QVERIFY(runCli({"train", "--resume", b, "--out", a}, 2).contains("cannot be combined"));
    QVERIFY(runCli({"train", "--resume", tmp_.filePath(QStringLiteral("cfg.json"))}, 2).contains("not a run directory (a file)"));
    QVERIFY(runCli({"train", "--resume", tmp_.filePath(QStringLiteral("nowhere"))}, 2).contains("no such run directory"));

    const auto bound = nlohmann::json::parse(runCli({"bound", a}, 0).toStdString());
    QCOMPARE(bound["step"].get<int>(), 40);
    const double trainerBound = ra.back()["lipschitz_bound"].get<double>();  // float32 spectra vs float64 SVD
    QVERIFY(std::abs(bound["lipschitz_bound"].get<double>() - trainerBound) <= 1e-5 * trainerBound);
    QVERIFY(bound["trace"].size() >= 2);
    QVERIFY(runCli({"bound", tmp_.filePath(QStringLiteral("nope"))}, 2).contains("no such file"));
    // Other weight files: say what bound reads, not how they failed to parse as one (issue 32:
    // "header length 578712552184433488 exceeds the limit").
    for (const char* name : {"x.pt", "x.npz", "hf.safetensors"}) {
      const QString file = tmp_.filePath(QString::fromLatin1(name));
      std::ofstream(file.toStdString(), std::ios::binary) << "PK\x03\x04 not a workbench checkpoint at all";
      const QByteArray err = runCli({"bound", file}, 2);
      QVERIFY2(err.contains("bound reads the workbench's own checkpoints") && err.count('\n') == 1, err.constData());
    }
  }
};

QTEST_GUILESS_MAIN(TestCheckpoint)
#include "tst_checkpoint.moc"
