// `lipschitz-cli sweep` on the local backend and `lipschitz-cli index`: every point runs and
// is indexed; re-running skips finished points; Ctrl-C mid-way stops every run (status
// `stopped`) and the next run finishes them without duplicating any; failed points are kept
// unless --retry-failed; --dry-run prints the Slurm batch script; bad input exits 2 with one
// line naming what is wrong.
#include "sweep_cli.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest/QtTest>

#include <memory>
#include <signal.h>

using namespace lwb;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const json kGrid = {{"optimizer.lr", {0.05, 0.1}}, {"constraint.sigma_max", {1.0, 2.0}}};

std::vector<sweep::IndexRow> indexRows(const QString& sweepDir) {
  sweep::RunIndex index((sweepDir + "/index.sqlite").toStdString());
  return index.rows();
}

}  // namespace

class TestCliSweep : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void localSweepRunsIndexesAndSkipsFinished() {
    QTemporaryDir tmp;
    const QString spec = test::writeSpec(tmp.path(), kGrid, 30), out = tmp.path() + "/sweep";
    auto r = test::runCli({"sweep", "--spec", spec, "--out", out, "--jobs", "2", "--json"});
    QVERIFY2(r.code == 0, r.err.constData());
    const auto events = r.events();
    QVERIFY(std::any_of(events.begin(), events.end(), [](const json& e) { return e["event"] == "progress"; }));
    QCOMPARE(events.back()["event"], json("summary"));
    QCOMPARE(events.back()["done"], json(4));
    const auto statuses = test::pointStatuses(out);
    QCOMPARE(statuses.size(), size_t{4});
    for (const auto& [id, s] : statuses) QCOMPARE(s, std::string("finished"));
    for (const char* f : {"spec.json", "points.json", "configs/0003.json", "logs/0000.log", "index.sqlite"})
      QVERIFY2(QFile::exists(out + "/" + f), f);
    const auto rows = indexRows(out);
    QCOMPARE(rows.size(), size_t{4});
    for (size_t i = 0; i < rows.size(); ++i) {
      QCOMPARE(rows[i].status, std::string("finished"));
      QCOMPARE(rows[i].point, static_cast<int64_t>(i));
      QCOMPARE(rows[i].sweep, sweep::indexPath(out.toStdString()));
      QVERIFY(rows[i].lipschitzBound > 0);
      QCOMPARE(rows[i].steps, int64_t{30});
    }
    QCOMPARE(rows[3].lr, 0.1);
    QCOMPARE(rows[3].sigmaMax, 2.0);

    // The same command again: nothing runs, nothing is duplicated.
    r = test::runCli({"sweep", "--spec", spec, "--out", out, "--json"});
    QVERIFY2(r.code == 0, r.err.constData());
    QCOMPARE(r.events().back()["done"], json(4));
    QCOMPARE(test::countEntries(out + "/runs"), 4);
    QVERIFY(!QFile::exists(out + "/attempts"));
    QCOMPARE(indexRows(out).size(), size_t{4});

    // Another spec into the same folder is refused.
    const QString other = test::writeSpec(tmp.path(), {{"optimizer.lr", {0.3}}}, 30);
    r = test::runCli({"sweep", "--spec", other, "--out", out});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("holds a different sweep"), r.err.constData());
  }

  // Ctrl-C while points run: all stop cleanly; the same command finishes exactly the
  // unfinished points, each once.
  void interruptMidwayThenResume() {
    QTemporaryDir tmp;
    const QString spec = test::writeSpec(tmp.path(), kGrid, 800), out = tmp.path() + "/sweep";
    QProcess p;
    p.start(QStringLiteral(LWB_CLI_PATH), {"sweep", "--spec", spec, "--out", out, "--jobs", "2", "--json"});
    QVERIFY(p.waitForStarted());
    // Wait until both first points have logged steps.
    QElapsedTimer t;
    t.start();
    const auto logged = [&](const char* id) {
      QFile f(out + "/runs/" + id + "/metrics.jsonl");
      return f.open(QIODevice::ReadOnly) && f.readAll().count('\n') >= 2;
    };
    while (!(logged("0000") && logged("0001")) && t.elapsed() < 120000) QThread::msleep(50);
    QVERIFY2(logged("0000") && logged("0001"), "the first two points never logged a step");
    ::kill(static_cast<pid_t>(p.processId()), SIGINT);
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitCode(), 130);
    auto statuses = test::pointStatuses(out);
    int stopped = 0;
    for (const auto& [id, s] : statuses) {
      QVERIFY2(s == "stopped" || s == "finished", (id + ": " + s).c_str());
      stopped += s == "stopped";
    }
    QVERIFY(stopped >= 1);
    QVERIFY(statuses.size() <= 2);  // nothing started after the stop
    for (const auto& row : indexRows(out)) QVERIFY(row.status != "running");

    // Resume with fewer steps per run? No: the spec is the same; only what is left runs.
    const auto r = test::runCli({"sweep", "--spec", spec, "--out", out, "--jobs", "2", "--json"});
    QVERIFY2(r.code == 0, r.err.constData());
    statuses = test::pointStatuses(out);
    QCOMPARE(statuses.size(), size_t{4});
    for (const auto& [id, s] : statuses) QCOMPARE(s, std::string("finished"));
    QCOMPARE(test::countEntries(out + "/runs"), 4);
    QCOMPARE(test::countEntries(out + "/attempts"), stopped);  // the stopped attempts, kept aside
    const auto rows = indexRows(out);
    QCOMPARE(rows.size(), size_t{4});  // no duplicate rows for restarted points
    for (const auto& row : rows) QCOMPARE(row.status, std::string("finished"));
  }

  // The sweep process killed outright (SIGKILL: no chance to stop its children): the kernel
  // sends each child SIGTERM (PR_SET_PDEATHSIG), so they stop cleanly instead of training on
  // as orphans, and the same command finishes the sweep with each point once.
  void killedSweepLeavesNoOrphans() {
    QTemporaryDir tmp;
    const QString spec = test::writeSpec(tmp.path(), {{"optimizer.lr", {0.05, 0.1}}}, 800), out = tmp.path() + "/sweep";
    QProcess p;
    p.start(QStringLiteral(LWB_CLI_PATH), {"sweep", "--spec", spec, "--out", out, "--jobs", "2"});
    QVERIFY(p.waitForStarted());
    const auto logged = [&](const char* id) {
      QFile f(out + "/runs/" + id + "/metrics.jsonl");
      return f.open(QIODevice::ReadOnly) && f.readAll().count('\n') >= 2;
    };
    QTRY_VERIFY_WITH_TIMEOUT(logged("0000") && logged("0001"), 120000);
    p.kill();  // SIGKILL
    QVERIFY(p.waitForFinished(10000));
    QTRY_VERIFY_WITH_TIMEOUT(test::pointStatuses(out)["0000"] == "stopped" && test::pointStatuses(out)["0001"] == "stopped",
                             60000);
    const auto r = test::runCli({"sweep", "--spec", spec, "--out", out, "--jobs", "2"});
    QVERIFY2(r.code == 0, r.err.constData());
    for (const auto& [id, s] : test::pointStatuses(out)) QCOMPARE(s, std::string("finished"));
    QCOMPARE(test::countEntries(out + "/runs"), 2);
    QCOMPARE(test::countEntries(out + "/attempts"), 2);
    QCOMPARE(indexRows(out).size(), size_t{2});
  }

  void failedPointsAreKeptUnlessRetried() {
    QTemporaryDir tmp;
    test::writeFile(tmp.path() + "/base.json",
                    json{{"task", "mnist"}, {"steps", 5}, {"model", {{"kind", "mlp"}, {"widths", {8}}}}}.dump());
    test::writeFile(tmp.path() + "/spec.json",
                    json{{"base", "base.json"}, {"grid", {{"data_path", {"/nonexistent/mnist"}}}}}.dump());
    const QString spec = tmp.path() + "/spec.json", out = tmp.path() + "/sweep";
    auto r = test::runCli({"sweep", "--spec", spec, "--out", out});
    QCOMPARE(r.code, 1);
    QCOMPARE(test::pointStatuses(out)["0000"], std::string("failed"));
    QVERIFY2(r.err.contains("/nonexistent/mnist"), r.err.constData());  // why, from the point's log
    const auto rows = indexRows(out);
    QCOMPARE(rows.size(), size_t{1});
    QCOMPARE(rows[0].status, std::string("failed"));
    QVERIFY2(rows[0].message.find("/nonexistent/mnist") != std::string::npos, rows[0].message.c_str());

    r = test::runCli({"sweep", "--spec", spec, "--out", out, "--json"});
    QCOMPARE(r.code, 1);
    QVERIFY(!QFile::exists(out + "/attempts"));  // kept, not run again
    r = test::runCli({"sweep", "--spec", spec, "--out", out, "--retry-failed"});
    QCOMPARE(r.code, 1);
    QCOMPARE(test::countEntries(out + "/attempts"), 1);
    QCOMPARE(indexRows(out).size(), size_t{1});
  }

  void dryRunPrintsTheSlurmBatchScript() {
    QTemporaryDir tmp;
    const QString spec = test::writeSpec(tmp.path(), kGrid, 30), out = tmp.path() + "/sweep";
    const auto r = test::runCli({"sweep", "--spec", spec, "--out", out, "--backend", "slurm", "--jobs", "2",
                                 "--dry-run", "--slurm-arg=--partition=gpu", "--slurm-arg=--time=00:10:00"});
    QVERIFY2(r.code == 0, r.err.constData());
    QVERIFY2(r.out.contains("#SBATCH --array=0-3%2\n"), r.out.constData());
    QVERIFY(r.out.contains("#SBATCH --partition=gpu\n"));
    QVERIFY(r.out.contains("#SBATCH --time=00:10:00\n"));
    QVERIFY(r.out.contains("ids=(0000 0001 0002 0003)"));
    QVERIFY(r.out.contains(" train --config \"$sweep/configs/$id.json\" --out \"$sweep/runs/$id\""));
    QVERIFY(r.out.contains("0003  constraint.sigma_max=2.0 optimizer.lr=0.1"));
    QVERIFY(!QFile::exists(out));  // runs nothing, writes nothing
  }

  void badInputExitsTwoWithOneLine_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("expected");
    QTest::newRow("missing spec") << QStringList{"sweep", "--spec", "/nonexistent/s.json", "--out", "X"}
                                  << "/nonexistent/s.json: no such file";  // the shared JSON reader (issue 33)
    QTest::newRow("unknown key") << QStringList{"sweep", "--spec", "@BADKEY", "--out", "X"} << "grid.optimizer.lrr";
    QTest::newRow("slurm arg on local") << QStringList{"sweep", "--spec", "@GOOD", "--out", "X", "--slurm-arg=--qos=x"}
                                        << "--slurm-arg and --detach apply to --backend slurm only";
    QTest::newRow("bad slurm arg") << QStringList{"sweep", "--spec", "@GOOD", "--out", "X", "--backend", "slurm",
                                                  "--dry-run", "--slurm-arg=partition"}
                                   << "--slurm-arg 'partition'";
    QTest::newRow("bad backend") << QStringList{"sweep", "--spec", "@GOOD", "--out", "X", "--backend", "pbs"} << "backend";
    QTest::newRow("index hostile db") << QStringList{"index", "@ROOT", "--db", "@HOSTILE"} << "not a SQLite database";
    QTest::newRow("index missing root") << QStringList{"index", "/nonexistent/runs", "--db", "@NEWDB"}
                                        << "/nonexistent/runs: no such folder";
  }
  void badInputExitsTwoWithOneLine() {
    QFETCH(QStringList, args);
    QFETCH(QString, expected);
    QTemporaryDir tmp;
    test::writeFile(tmp.path() + "/base.json", test::tinyConfig(10).dump());
    test::writeFile(tmp.path() + "/bad.json", R"({"base": "base.json", "grid": {"optimizer.lrr": [1]}})");
    test::writeFile(tmp.path() + "/good.json", R"({"base": "base.json", "grid": {"optimizer.lr": [0.1]}})");
    test::writeFile(tmp.path() + "/hostile.sqlite", std::string(3000, '\x7f'));
    for (QString& a : args) {
      a.replace("@BADKEY", tmp.path() + "/bad.json").replace("@GOOD", tmp.path() + "/good.json");
      a.replace("@ROOT", tmp.path()).replace("@HOSTILE", tmp.path() + "/hostile.sqlite");
      a.replace("@NEWDB", tmp.path() + "/new.sqlite");
      if (a == "X") a = tmp.path() + "/out";
    }
    const auto r = test::runCli(args);
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains(expected.toUtf8()), r.err.constData());
    QCOMPARE(r.err.count('\n'), 1);
  }

  // Several processes index into one file at once (as workers and the GUI would): every row
  // lands, none fails with "database is locked".
  void concurrentIndexProcesses() {
    QTemporaryDir tmp;
    constexpr int kProcesses = 4, kRuns = 60;
    for (int p = 0; p < kProcesses; ++p)
      for (int i = 0; i < kRuns; ++i) {
        const QString dir = QStringLiteral("%1/root%2/run%3").arg(tmp.path()).arg(p).arg(i);
        QVERIFY(QDir().mkpath(dir));
        test::writeFile(dir + "/config.json", test::tinyConfig(10).dump());
        test::writeFile(dir + "/summary.json", R"({"status": "finished", "steps": 10, "val_loss": 0.5})");
        test::writeFile(dir + "/status", "finished\n");
      }
    const QString db = tmp.path() + "/shared.sqlite";
    std::vector<std::unique_ptr<QProcess>> procs;
    for (int p = 0; p < kProcesses; ++p) {
      procs.push_back(std::make_unique<QProcess>());
      procs.back()->start(QStringLiteral(LWB_CLI_PATH), {"index", QStringLiteral("%1/root%2").arg(tmp.path()).arg(p), "--db", db});
    }
    for (auto& p : procs) {
      QVERIFY(p->waitForFinished(120000));
      QVERIFY2(p->exitCode() == 0, p->readAllStandardError().constData());
    }
    sweep::RunIndex index(db.toStdString());
    QCOMPARE(index.count(), int64_t{kProcesses * kRuns});
  }

  // Runs synced back from elsewhere are picked up by `index`; --rebuild recovers a damaged file.
  void indexCommandAddsAndRebuilds() {
    QTemporaryDir tmp;
    const QString spec = test::writeSpec(tmp.path(), {{"optimizer.lr", {0.05, 0.1}}}, 20), out = tmp.path() + "/sweep";
    QCOMPARE(test::runCli({"sweep", "--spec", spec, "--out", out}).code, 0);
    const QString db = tmp.path() + "/all.sqlite";
    auto r = test::runCli({"index", out + "/runs", "--db", db});
    QVERIFY2(r.code == 0, r.err.constData());
    json j = json::parse(r.out.toStdString());
    QCOMPARE(j["added"], json(2));
    QCOMPARE(j["runs"], json(2));
    r = test::runCli({"index", out + "/runs", "--db", db});
    QCOMPARE(json::parse(r.out.toStdString())["unchanged"], json(2));
    test::writeFile(db, std::string(5000, 'x'));
    QFile::remove(db + "-wal");
    QFile::remove(db + "-shm");
    QCOMPARE(test::runCli({"index", out + "/runs", "--db", db}).code, 2);
    r = test::runCli({"index", out + "/runs", "--db", db, "--rebuild"});
    QVERIFY2(r.code == 0, r.err.constData());
    j = json::parse(r.out.toStdString());
    QCOMPARE(j["runs"], json(2));
    QCOMPARE(j["moved_aside"], json((db + ".bak").toStdString()));
  }
};

QTEST_GUILESS_MAIN(TestCliSweep)
#include "tst_cli_sweep.moc"
