// The Slurm backend end to end on a real single-node Slurm (the ctest fixture
// tests/sweep/slurm_fixture.sh starts munged, slurmctld and slurmd on localhost and stops
// them afterwards): one job array, every task trains its point, the index holds each
// point's array task and scheduler state, logs land in the sweep directory, and running the
// command again submits nothing. No Slurm here is a failure, never a skip.
#include "sweep_cli.h"
#include "support/safetensors_f32.h"

#include "dist/world.h"

#include <QDeadlineTimer>
#include <QTemporaryDir>
#include <QtTest/QtTest>

using namespace lwb;
using nlohmann::json;

class TestSlurmSweep : public QObject {
  Q_OBJECT

  QProcessEnvironment env_ = QProcessEnvironment::systemEnvironment();

 private Q_SLOTS:
  void initTestCase() {
    const QString fixture = qEnvironmentVariable("LWB_SLURM_FIXTURE_DIR");
    QVERIFY2(!fixture.isEmpty(), "LWB_SLURM_FIXTURE_DIR is not set (run through ctest: fixture 'slurm')");
    const QString conf = fixture + "/slurm.conf";
    QVERIFY2(QFile::exists(conf), qPrintable("no " + conf + ": the Slurm fixture did not start (see the "
                                             "slurm_start test's output)"));
    env_.insert("SLURM_CONF", conf);
    QProcess sinfo;
    sinfo.setProcessEnvironment(env_);
    sinfo.start("sinfo", {"-h", "-o", "%t"});
    QVERIFY(sinfo.waitForFinished(20000));
    QVERIFY2(sinfo.exitCode() == 0, sinfo.readAllStandardError().constData());
  }

  void jobArrayEndToEnd() {
    QTemporaryDir tmp;
    const QString spec = test::writeSpec(tmp.path(), {{"optimizer.lr", {0.05, 0.1, 0.2}}}, 30),
                  out = tmp.path() + "/sweep";
    auto r = test::runCli({"sweep", "--spec", spec, "--out", out, "--backend", "slurm", "--jobs", "2", "--poll", "0.5",
                           "--json", "--slurm-arg=--time=00:05:00"},
                          env_, 180000);
    QVERIFY2(r.code == 0, (r.err + r.out).constData());
    const auto events = r.events();
    const json summary = events.back();
    QCOMPARE(summary["event"], json("summary"));
    QCOMPARE(summary["done"], json(3));
    // Progress has an ETA once points have finished (it was always "?" on Slurm): the last
    // progress event, all done, says 0 s.
    json lastProgress;
    for (const json& e : events)
      if (e.value("event", "") == "progress") lastProgress = e;
    QVERIFY2(lastProgress["eta_s"].is_number(), lastProgress.dump().c_str());
    QCOMPARE(lastProgress["eta_s"].get<double>(), 0.0);
    const std::string job = summary["slurm_job"].get<std::string>();
    QVERIFY(!job.empty());
    const auto statuses = test::pointStatuses(out);
    QCOMPARE(statuses.size(), size_t{3});
    for (const auto& [id, s] : statuses) QCOMPARE(s, std::string("finished"));

    sweep::RunIndex index((out + "/index.sqlite").toStdString());
    const auto rows = index.rows();
    QCOMPARE(rows.size(), size_t{3});
    for (size_t i = 0; i < rows.size(); ++i) {
      QCOMPARE(rows[i].status, std::string("finished"));
      QCOMPARE(rows[i].slurmJob, job + "_" + std::to_string(i));
      QVERIFY2(!rows[i].schedulerState.empty() && rows[i].schedulerState != "PENDING" &&
                   rows[i].schedulerState != "RUNNING",
               rows[i].schedulerState.c_str());
    }
    // Logs in the sweep directory: Slurm's own per task, and the point's console output.
    QVERIFY(QFile::exists(out + "/logs/slurm-" + QString::fromStdString(job) + "_0.out"));
    QFile log(out + "/logs/0001.log");
    QVERIFY(log.open(QIODevice::ReadOnly));
    QVERIFY(log.readAll().contains(QByteArray("slurm job ") + QByteArray::fromStdString(job) + "_1"));
    QVERIFY(QFile::exists(out + "/slurm/array-1.sbatch"));

    // Again: everything finished, nothing submitted.
    r = test::runCli({"sweep", "--spec", spec, "--out", out, "--backend", "slurm", "--poll", "0.5", "--json"}, env_);
    QVERIFY2(r.code == 0, r.err.constData());
    QVERIFY(!r.events().back().contains("slurm_job") || r.events().back()["slurm_job"] == json(""));
    QVERIFY(!QFile::exists(out + "/slurm/array-2.sbatch"));
  }

  // A task that fails before its run folder exists (here a missing data folder; on a cluster
  // a module not found, a lost node) was shown as pending and the sweep exited 0; the only
  // trace was in logs/<id>.log. Now the point is failed with the log's last line, and the
  // sweep exits 1, as the local backend does.
  void taskFailingBeforeItsFolderIsFailed() {
    QTemporaryDir tmp;
    test::writeFile(tmp.path() + "/base.json",
                    json{{"task", "mnist"}, {"steps", 5}, {"model", {{"kind", "mlp"}, {"widths", {8}}}}}.dump());
    test::writeFile(tmp.path() + "/spec.json",
                    json{{"base", "base.json"}, {"grid", {{"data_path", {"/nonexistent/mnist"}}}}}.dump());
    const QString out = tmp.path() + "/sweep";
    const auto r = test::runCli({"sweep", "--spec", tmp.path() + "/spec.json", "--out", out, "--backend", "slurm", "--poll",
                                 "0.5", "--json"},
                                env_, 180000);
    QVERIFY2(r.code == 1, (r.err + r.out).constData());
    const json summary = r.events().back();
    QCOMPARE(summary["failed"], json(1));
    QCOMPARE(summary["pending"], json(0));
    QCOMPARE(test::pointStatuses(out)["0000"], std::string("failed"));
    sweep::RunIndex index((out + "/index.sqlite").toStdString());
    const auto rows = index.rows();
    QCOMPARE(rows.size(), size_t{1});
    QCOMPARE(rows[0].status, std::string("failed"));
    QVERIFY2(rows[0].message.find("/nonexistent/mnist") != std::string::npos, rows[0].message.c_str());
  }

  // An array cancelled while its tasks are still pending (here held with --hold, then
  // scancel from outside): without accounting, each task read "ENDED" and the points just
  // stayed pending. Now the controller's record gives the state (CANCELLED) and the sweep
  // says per point that it left the queue before it started and will be submitted again.
  void cancelledWhilePendingReadsCancelled() {
    QTemporaryDir tmp;
    const QString spec = test::writeSpec(tmp.path(), {{"optimizer.lr", {0.05, 0.1}}}, 5), out = tmp.path() + "/sweep";
    QProcess sweep;
    sweep.setProcessEnvironment(env_);
    sweep.start(QStringLiteral(LWB_CLI_PATH), {"sweep", "--spec", spec, "--out", out, "--backend", "slurm", "--poll", "0.3",
                                               "--json", "--slurm-arg=--hold"});
    QByteArray seen;
    std::string job;
    QDeadlineTimer deadline(60000);
    while (job.empty() && !deadline.hasExpired()) {
      sweep.waitForReadyRead(1000);  // a slow start prints nothing for a while: keep waiting
      seen += sweep.readAllStandardOutput();
      for (const QByteArray& line : seen.split('\n')) {
        const auto j = json::parse(line.toStdString(), nullptr, false);
        const std::string text = j.is_object() ? j.value("text", "") : "";
        if (text.rfind("submitted Slurm job array ", 0) == 0) job = text.substr(26, text.find(' ', 26) - 26);
      }
    }
    QVERIFY2(!job.empty(), (seen + sweep.readAllStandardError()).constData());
    QProcess scancel;
    scancel.setProcessEnvironment(env_);
    scancel.start("scancel", {QString::fromStdString(job)});
    QVERIFY(scancel.waitForFinished(20000));
    QCOMPARE(scancel.exitCode(), 0);
    QVERIFY2(sweep.waitForFinished(60000), "the sweep did not end after its array was cancelled");
    seen += sweep.readAllStandardOutput();
    const test::CliResult r{sweep.exitCode(), seen, sweep.readAllStandardError()};
    int leftNotes = 0;
    for (const json& e : r.events())
      if (e.value("event", "") == "note" && e.value("text", "").find("left the queue before it started (CANCELLED)") != std::string::npos)
        ++leftNotes;
    QVERIFY2(leftNotes == 2, (r.out + r.err).constData());
    QCOMPARE(r.events().back()["pending"], json(2));
    sweep::RunIndex index((out + "/index.sqlite").toStdString());
    const auto rows = index.rows();
    QCOMPARE(rows.size(), size_t{2});
    for (const auto& row : rows) QCOMPARE(row.schedulerState, std::string("CANCELLED"));
  }

  // Issue 28 on the real Slurm: `srun -n 2 lipschitz-cli train` (no --nproc: each task reads
  // SLURM_PROCID / SLURM_NTASKS / SLURM_JOB_NODELIST) finishes and trains the model the local
  // single process trains, up to summation order (tst_cli_train_dist states the tolerance).
  void srunTwoTasksEqualLocal() {
    QTemporaryDir tmp;
    const QString preset = QStringLiteral(LWB_SOURCE_DIR "/resources/presets/mnist_muon_softcap.json");
    auto args = [&](const QString& out) {
      return QStringList{"--threads", "1", "train", "--config", preset, "--steps", "20", "--out", out};
    };
    auto r = test::runCli(args(tmp.path() + "/local"), env_);
    QVERIFY2(r.code == 0, r.err.constData());
    QProcess srun;
    auto env = env_;
    env.insert("MASTER_PORT", QString::number(dist::freeLocalPort()));  // not the default 29500 of a shared machine
    srun.setProcessEnvironment(env);
    srun.start("srun", QStringList{"-n", "2", "--time=00:05:00", LWB_CLI_PATH} + args(tmp.path() + "/srun"));
    QVERIFY(srun.waitForFinished(180000));
    QVERIFY2(srun.exitCode() == 0, srun.readAllStandardError().constData());
    const auto a = test::readSafetensors(tmp.path() + "/local/checkpoints/step_20.safetensors");
    const auto b = test::readSafetensors(tmp.path() + "/srun/checkpoints/step_20.safetensors");
    QVERIFY(!a.empty());
    const double worst = test::maxAbsDifference(a, b);
    qInfo("srun -n 2 vs one process: max |w - w'| = %.3g", worst);
    QVERIFY(worst <= 1e-4);
  }
};

QTEST_GUILESS_MAIN(TestSlurmSweep)
#include "tst_slurm_sweep.moc"
