// The Slurm backend end to end on a real single-node Slurm (the ctest fixture
// tests/sweep/slurm_fixture.sh starts munged, slurmctld and slurmd on localhost and stops
// them afterwards): one job array, every task trains its point, the index holds each
// point's array task and scheduler state, logs land in the sweep directory, and running the
// command again submits nothing. No Slurm here is a failure, never a skip.
#include "sweep_cli.h"

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
};

QTEST_GUILESS_MAIN(TestSlurmSweep)
#include "tst_slurm_sweep.moc"
