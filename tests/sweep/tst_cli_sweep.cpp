// `lipschitz-cli sweep` on the local backend and `lipschitz-cli index`: every point runs and
// is indexed; re-running skips finished points; Ctrl-C mid-way stops every run (status
// `stopped`) and the next run finishes them without duplicating any; failed points are kept
// unless --retry-failed; --dry-run prints the Slurm batch script; bad input exits 2 with one
// line naming what is wrong; a run index another process keeps locked never stops a sweep.
#include "sweep_cli.h"
#include "sweep/sweep_directory.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest/QtTest>

#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <signal.h>
#include <sqlite3.h>

using namespace lwb;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const json kGrid = {{"optimizer.lr", {0.05, 0.1}}, {"constraint.sigma_max", {1.0, 2.0}}};

std::vector<sweep::IndexRow> indexRows(const QString& sweepDir) {
  sweep::RunIndex index((sweepDir + "/index.sqlite").toStdString());
  return index.rows();
}

// Holds a run index's write lock as another process would (a sqlite3 shell left inside a
// transaction, a colleague's `lipschitz-cli index`) until release().
class IndexLock {
 public:
  explicit IndexLock(const QString& file) {
    if (sqlite3_open(file.toUtf8().constData(), &db_) == SQLITE_OK)
      held_ = sqlite3_exec(db_, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) == SQLITE_OK;
  }
  ~IndexLock() {
    release();
    sqlite3_close(db_);
  }
  bool held() const { return held_; }
  void release() {
    if (held_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    held_ = false;
  }

 private:
  sqlite3* db_ = nullptr;
  bool held_ = false;
};

// Reads a running `sweep --json`'s events as they come.
struct EventReader {
  QProcess& p;
  QByteArray buffer = {};
  std::vector<json> events = {};
  void poll() {
    buffer += p.readAllStandardOutput();
    for (int nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      auto j = json::parse(buffer.left(nl).toStdString(), nullptr, false);
      if (j.is_object()) events.push_back(j);
      buffer.remove(0, nl + 1);
    }
  }
  bool noted(const char* words) {
    poll();
    return std::any_of(events.begin(), events.end(), [&](const json& e) {
      return e.value("event", "") == "note" && e.value("text", "").find(words) != std::string::npos;
    });
  }
};

// The pids whose parent is `parent` (from /proc/<pid>/stat: "pid (comm) state ppid ...").
std::vector<pid_t> childrenOf(qint64 parent) {
  std::vector<pid_t> out;
  for (const auto& e : fs::directory_iterator("/proc")) {
    std::ifstream in(e.path() / "stat");
    std::string stat;
    if (!std::getline(in, stat)) continue;
    const auto close = stat.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream rest(stat.substr(close + 1));
    std::string state;
    long long ppid = 0;
    if (rest >> state >> ppid && ppid == parent) out.push_back(static_cast<pid_t>(std::stoll(e.path().filename().string())));
  }
  return out;
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
    // Without --json: the progress line has no "ETA ?" when nothing is left, and the summary
    // names the folder as the first run did (absolute; it was "sw" first, then "/tmp/…/sw").
    r = test::runCli({"sweep", "--spec", spec, "--out", out});
    QVERIFY2(r.code == 0 && r.err.contains("4/4 done") && !r.err.contains("ETA"), r.err.constData());
    QVERIFY2(r.err.contains(QString("runs in %1\n").arg(QDir(out).absolutePath()).toUtf8()), r.err.constData());
    QVERIFY2(r.err.contains("sweep: 4 of 4 done\n") && !r.err.contains("{\""), r.err.constData());  // words, not the JSON event

    // Nothing left to run: no batch script (its empty ids=() dies under set -u).
    r = test::runCli({"sweep", "--spec", spec, "--out", out, "--dry-run", "--backend", "slurm"});
    QVERIFY2(r.code == 0 && r.out.contains("nothing to submit") && !r.out.contains("#SBATCH"), r.out.constData());

    // Another spec into the same folder is refused.
    const QString other = test::writeSpec(tmp.path(), {{"optimizer.lr", {0.3}}}, 30);
    r = test::runCli({"sweep", "--spec", other, "--out", out});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("holds a different sweep"), r.err.constData());
    // So is its dry run, which printed a plan (and a batch script whose ids pointed at the
    // old configs) the real run refuses.
    r = test::runCli({"sweep", "--spec", other, "--out", out, "--dry-run", "--backend", "slurm"});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("holds a different sweep") && !r.out.contains("#SBATCH"), (r.err + r.out).constData());

    // A grid with one more learning rate extends the sweep (it was refused as "a different
    // sweep"): the spec now expands to 6 points in another order (σmax is the outer axis, so
    // the old 0002 is the new spec's fourth point), the 4 the folder holds keep their ids and
    // runs, and only the 2 new ones run.
    const auto readAll = [](const QString& path) {
      QFile f(path);
      return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    };
    const QByteArray firstSummary = readAll(out + "/runs/0002/summary.json");
    QVERIFY(!firstSummary.isEmpty());
    const QString extended = test::writeSpec(tmp.path(), {{"optimizer.lr", {0.05, 0.1, 0.2}}, {"constraint.sigma_max", {1.0, 2.0}}}, 30);
    r = test::runCli({"sweep", "--spec", extended, "--out", out, "--dry-run", "--json"});
    QVERIFY2(r.code == 0, (r.err + r.out).constData());
    const json plan = r.events().back();
    QCOMPARE(plan["to_run"], json({"0004", "0005"}));
    QCOMPARE(plan["extension"], json({{"kept", 4}, {"added", 2}}));
    r = test::runCli({"sweep", "--spec", extended, "--out", out, "--json"});
    QVERIFY2(r.code == 0, r.err.constData());
    const auto ext = r.events();
    QVERIFY2(std::any_of(ext.begin(), ext.end(), [](const json& e) {
               return e["event"] == "note" && e.value("text", "").find("4 points kept (ids and runs), 2 new") != std::string::npos;
             }),
             r.out.constData());
    QCOMPARE(ext.back()["done"], json(6));
    QCOMPARE(test::countEntries(out + "/runs"), 6);
    QVERIFY(!QFile::exists(out + "/attempts"));
    QCOMPARE(readAll(out + "/runs/0002/summary.json"), firstSummary);  // not run again
    const auto points = sweep::SweepDirectory::readPoints(out.toStdString());
    QCOMPARE(points.size(), size_t{6});
    QCOMPARE(points[2].id, std::string("0002"));
    QCOMPARE(points[2].assignment, json({{"optimizer.lr", 0.05}, {"constraint.sigma_max", 2.0}}));
    QCOMPARE(points[5].id, std::string("0005"));
    QCOMPARE(points[5].assignment, json({{"optimizer.lr", 0.2}, {"constraint.sigma_max", 2.0}}));
    QCOMPARE(points[5].config["optimizer"]["lr"], json(0.2));
    QCOMPARE(indexRows(out).size(), size_t{6});
    // Unchanged since: the plan reports no extension (it read "4 kept, 0 new" once).
    r = test::runCli({"sweep", "--spec", extended, "--out", out, "--dry-run", "--json"});
    QVERIFY2(r.code == 0 && !r.events().back().contains("extension"), (r.err + r.out).constData());
    // The first spec now lacks points the folder holds: refused, naming one.
    QVERIFY(QDir().mkpath(tmp.path() + "/short"));
    r = test::runCli({"sweep", "--spec", test::writeSpec(tmp.path() + "/short", kGrid, 30), "--out", out});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("holds a different sweep (its point 0004, constraint.sigma_max=1.0 optimizer.lr=0.2, is not in this spec"), r.err.constData());
  }

  // A list of grids may expand to the same point twice: the grids are a union, so it is one
  // point (two copies once ran the same deterministic run twice), and the same spec again
  // resumes the sweep. A changed step count is refused as a changed config, not as a missing
  // point.
  void repeatedPointsResumeAndChangedConfigIsNamed() {
    QTemporaryDir tmp;
    test::writeFile(tmp.path() + "/base.json", test::tinyConfig(5).dump());
    const auto writeSpec = [&](int64_t steps) {
      test::writeFile(tmp.path() + "/spec.json",
                      json{{"base", "base.json"}, {"steps", steps},
                           {"grid", json::array({{{"optimizer.lr", {0.05, 0.1}}}, {{"optimizer.lr", {0.1, 0.2}}}})}}.dump());
      return tmp.path() + "/spec.json";
    };
    const QString out = tmp.path() + "/sweep";
    auto r = test::runCli({"sweep", "--spec", writeSpec(5), "--out", out, "--json"});
    QVERIFY2(r.code == 0, r.err.constData());
    QCOMPARE(r.events().back()["done"], json(3));  // lr 0.05, 0.1, 0.2
    r = test::runCli({"sweep", "--spec", writeSpec(5), "--out", out, "--json"});
    QVERIFY2(r.code == 0, r.err.constData());
    QCOMPARE(r.events().back()["done"], json(3));
    QVERIFY(!QFile::exists(out + "/attempts"));
    // A folder of an earlier version holds the repeated point twice (0003, a copy of 0001): it
    // resumes, the copy kept as the folder has it (it was refused as "has another config").
    {
      QFile in(out + "/points.json");
      QVERIFY(in.open(QIODevice::ReadOnly));
      json points = json::parse(in.readAll().toStdString());
      QCOMPARE(points[1]["assignment"], json({{"optimizer.lr", 0.1}}));
      json copy = points[1];
      copy["id"] = "0003";
      copy["index"] = 3;
      points.push_back(copy);
      test::writeFile(out + "/points.json", points.dump());
      QVERIFY(QFile::copy(out + "/configs/0001.json", out + "/configs/0003.json"));
    }
    r = test::runCli({"sweep", "--spec", writeSpec(5), "--out", out, "--json"});
    QVERIFY2(r.code == 0, r.err.constData());
    QCOMPARE(r.events().back()["done"], json(4));
    r = test::runCli({"sweep", "--spec", writeSpec(6), "--out", out});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("has another config in this spec"), r.err.constData());
  }

  // Ctrl-C while points run: all stop cleanly (each with a checkpoint); the same command
  // finishes exactly the unfinished points, each once, resuming the stopped ones from their
  // checkpoints (they once started again from step 0, their attempt moved aside).
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
    QCOMPARE(test::countEntries(out + "/attempts"), 0);  // resumed in place, nothing retired
    int resumed = 0;
    for (const json& e : r.events())
      if (e.value("event", "") == "note" && e.value("text", "").rfind("resuming ", 0) == 0) ++resumed;
    QCOMPARE(resumed, stopped);
    const auto rows = indexRows(out);
    QCOMPARE(rows.size(), size_t{4});  // no duplicate rows for restarted points
    for (const auto& row : rows) QCOMPARE(row.status, std::string("finished"));
  }

  // The sweep process killed outright (SIGKILL: no chance to stop its children): the kernel
  // sends each child SIGTERM (PR_SET_PDEATHSIG), so they stop cleanly instead of training on
  // as orphans (each with a checkpoint), and the same command finishes the sweep with each
  // point once, resumed in place.
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
    QCOMPARE(test::countEntries(out + "/attempts"), 0);
    QVERIFY2(r.err.contains("resuming 0000 from its checkpoint") && r.err.contains("resuming 0001"), r.err.constData());
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
    // The recovery command the sweep prints for a locked index (index SWEEP --db
    // SWEEP/index.sqlite), and an index of a folder above it: the retired attempt is no row,
    // and the point's row names its sweep and point.
    for (const QString& db : {out + "/index.sqlite", tmp.path() + "/above.sqlite"}) {
      r = test::runCli({"index", db.startsWith(out) ? out : tmp.path(), "--db", db});
      QVERIFY2(r.code == 0, r.err.constData());
      sweep::RunIndex index(db.toStdString());
      const auto rows = index.rows();
      QCOMPARE(rows.size(), size_t{1});
      QCOMPARE(rows[0].sweep, sweep::indexPath(out.toStdString()));
      QCOMPARE(rows[0].point, int64_t{0});
    }
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
    QVERIFY(!r.out.contains("--ntasks") && !r.out.contains("srun "));
  }

  // A newcomer's trial: `lipschitz-cli --threads 1 sweep …` ran every point with --threads 2
  // (the cores shared out), doubling the load on a shared machine. A count the user set is
  // passed on, the plan and the start say how the machine will be loaded, and each point's
  // log starts with the command it ran.
  void pinnedThreadsReachEveryPoint() {
    QTemporaryDir tmp;
    const QString spec = test::writeSpec(tmp.path(), nlohmann::json::object({{"optimizer.lr", {0.1}}}), 20);
    const QString out = tmp.path() + "/sweep";
    auto r = test::runCli({"--threads", "1", "sweep", "--spec", spec, "--out", out, "--jobs", "2", "--dry-run"});
    QVERIFY2(r.code == 0, r.err.constData());
    QVERIFY2(r.out.contains("1 point, 1 to run, 0 done\n"), r.out.constData());  // no "0 failed (kept; …)"
    QVERIFY2(r.out.contains("2 runs at a time, 1 thread each (the count you set)"), r.out.constData());
    r = test::runCli({"--threads", "1", "sweep", "--spec", spec, "--out", out});
    QVERIFY2(r.code == 0, r.err.constData());
    QVERIFY2(r.err.contains("1 thread each (the count you set)"), r.err.constData());
    QFile logFile(out + "/logs/0000.log");
    QVERIFY(logFile.open(QIODevice::ReadOnly));
    const QString log = QString::fromUtf8(logFile.readAll());
    QVERIFY2(log.startsWith("# command: ") && log.section('\n', 0, 0).contains(" --threads 1 train --config "), qPrintable(log));
  }

  // Issue 28: --ntasks N gives each point N processes: one Slurm step of N tasks started by
  // srun (not N array elements), and train --nproc N locally, where the point trains as usual.
  void pointsWithSeveralTasks() {
    QTemporaryDir tmp;
    const QString spec = test::writeSpec(tmp.path(), kGrid, 30), out = tmp.path() + "/sweep";
    const auto dry = test::runCli({"sweep", "--spec", spec, "--out", out, "--backend", "slurm", "--ntasks", "2", "--dry-run"});
    QVERIFY2(dry.code == 0, dry.err.constData());
    QVERIFY2(dry.out.contains("#SBATCH --ntasks=2\n"), dry.out.constData());
    QVERIFY(dry.out.contains("#SBATCH --array=0-3\n"));
    QVERIFY(dry.out.contains("exec srun "));
    const QString one = test::writeSpec(tmp.path(), nlohmann::json::object({{"optimizer.lr", {0.1}}}), 20);
    const auto r = test::runCli({"sweep", "--spec", one, "--out", out, "--ntasks", "2", "--json"});
    QVERIFY2(r.code == 0, (r.err + r.out).constData());
    QCOMPARE(r.events().back()["done"], nlohmann::json(1));
    QFile log(out + "/logs/0000.log");
    QVERIFY(log.open(QIODevice::ReadOnly));
    QVERIFY(!log.readAll().contains("lipschitz-cli:"));  // no rank complained
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
    QTest::newRow("slurm arg with a line break") << QStringList{"sweep", "--spec", "@GOOD", "--out", "X", "--backend", "slurm",
                                                                "--dry-run", "--slurm-arg=--x\n#SBATCH --evil"}
                                                 << "--slurm-arg '--x\\n#SBATCH --evil': expected one sbatch option";
    QTest::newRow("grid value twice") << QStringList{"sweep", "--spec", "@DUPVALUE", "--out", "X"} << "grid.optimizer.lr: value 0.1 appears more than once";
    QTest::newRow("seed twice") << QStringList{"sweep", "--spec", "@DUPSEED", "--out", "X"} << "seeds: a seed appears more than once";
    QTest::newRow("bad backend") << QStringList{"sweep", "--spec", "@GOOD", "--out", "X", "--backend", "pbs"} << "backend";
    QTest::newRow("index hostile db") << QStringList{"index", "@ROOT", "--db", "@HOSTILE"} << "not a SQLite database";
    QTest::newRow("index missing root") << QStringList{"index", "/nonexistent/runs", "--db", "@NEWDB"}
                                        << "/nonexistent/runs: no such folder";
    QTest::newRow("index a file") << QStringList{"index", "@GOOD", "--db", "@NEWDB"} << "good.json: is a file, not a folder of runs";
    QTest::newRow("index empty db name") << QStringList{"index", "@ROOT", "--db", ""} << "--db: must not be empty";
    // A folder that is not a sweep: its runs/<id> would count as the points' results whatever
    // they ran, and a run directory would get a sweep's files mixed into it.
    QTest::newRow("out is a run directory") << QStringList{"sweep", "--spec", "@GOOD", "--out", "@RUNDIR"}
                                            << "holds 'config.json' and no sweep (no points.json)";
    QTest::newRow("dry run into a file") << QStringList{"sweep", "--spec", "@GOOD", "--out", "@GOOD", "--dry-run"}
                                         << "exists and is not a folder";
    QTest::newRow("dry run into a run directory") << QStringList{"sweep", "--spec", "@GOOD", "--out", "@RUNDIR", "--dry-run"}
                                                  << "holds 'config.json' and no sweep (no points.json)";
    QTest::newRow("out holds foreign runs") << QStringList{"sweep", "--spec", "@GOOD", "--out", "@FOREIGN"}
                                            << "has runs/ but no sweep (no points.json)";
    // ENOTDIR named the folder to be made; the file in the way is the reason (a newcomer's trial).
    QTest::newRow("out under a file") << QStringList{"sweep", "--spec", "@GOOD", "--out", "@GOOD/sub"}
                                      << "good.json is a file, not a folder)";
  }
  void badInputExitsTwoWithOneLine() {
    QFETCH(QStringList, args);
    QFETCH(QString, expected);
    QTemporaryDir tmp;
    test::writeFile(tmp.path() + "/base.json", test::tinyConfig(10).dump());
    test::writeFile(tmp.path() + "/bad.json", R"({"base": "base.json", "grid": {"optimizer.lrr": [1]}})");
    test::writeFile(tmp.path() + "/good.json", R"({"base": "base.json", "grid": {"optimizer.lr": [0.1]}})");
    test::writeFile(tmp.path() + "/dupvalue.json", R"({"base": "base.json", "grid": {"optimizer.lr": [0.1, 0.2, 0.1]}})");
    test::writeFile(tmp.path() + "/dupseed.json", R"({"base": "base.json", "grid": {"optimizer.lr": [0.1]}, "seeds": [0, 1, 0]})");
    test::writeFile(tmp.path() + "/hostile.sqlite", std::string(3000, '\x7f'));
    QVERIFY(QDir().mkpath(tmp.path() + "/rundir") && QDir().mkpath(tmp.path() + "/foreign/runs/0000"));
    test::writeFile(tmp.path() + "/rundir/config.json", test::tinyConfig(10).dump());
    test::writeFile(tmp.path() + "/foreign/runs/0000/config.json", test::tinyConfig(5).dump());
    for (QString& a : args) {
      a.replace("@RUNDIR", tmp.path() + "/rundir").replace("@FOREIGN", tmp.path() + "/foreign");
      a.replace("@BADKEY", tmp.path() + "/bad.json").replace("@GOOD", tmp.path() + "/good.json");
      a.replace("@DUPVALUE", tmp.path() + "/dupvalue.json").replace("@DUPSEED", tmp.path() + "/dupseed.json");
      a.replace("@ROOT", tmp.path()).replace("@HOSTILE", tmp.path() + "/hostile.sqlite");
      a.replace("@NEWDB", tmp.path() + "/new.sqlite");
      if (a == "X") a = tmp.path() + "/out";
    }
    const auto r = test::runCli(args);
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains(expected.toUtf8()), r.err.constData());
    QCOMPARE(r.err.count('\n'), 1);
    // A bad root is refused before the index file is made (an empty new.sqlite was left behind).
    QVERIFY2(!QFileInfo::exists(tmp.path() + "/new.sqlite"), qPrintable(QTest::currentDataTag()));
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

  // Issue 33: another process holds index.sqlite's write lock for longer than a write waits
  // (the sweep used to stop after 30 s). The sweep says so once, runs every point anyway,
  // waits at the end, and writes the queued rows as soon as the lock is released.
  void lockedIndexQueuesRowsUntilReleased() {
    QTemporaryDir tmp;
    const QString spec = test::writeSpec(tmp.path(), {{"optimizer.lr", {0.05, 0.1}}}, 30), out = tmp.path() + "/sweep";
    QVERIFY(QDir().mkpath(out));
    { sweep::RunIndex create((out + "/index.sqlite").toStdString()); }  // a current index, as a first run leaves
    IndexLock lock(out + "/index.sqlite");
    QVERIFY(lock.held());
    QProcess p;
    p.start(QStringLiteral(LWB_CLI_PATH), {"sweep", "--spec", spec, "--out", out, "--jobs", "2", "--json", "--index-wait", "120"});
    QVERIFY(p.waitForStarted());
    EventReader reader{p};
    QTRY_VERIFY_WITH_TIMEOUT(reader.noted("locked"), 30000);
    // Every point runs to the end while the lock is held...
    const auto allFinished = [&] {
      const auto s = test::pointStatuses(out);
      return s.size() == 2 && std::all_of(s.begin(), s.end(), [](const auto& kv) { return kv.second == "finished"; });
    };
    QTRY_VERIFY_WITH_TIMEOUT(allFinished(), 120000);
    // ...and the sweep waits for the lock instead of giving up (longer than one write's wait).
    QTest::qWait(3000);
    QCOMPARE(p.state(), QProcess::Running);
    lock.release();
    QVERIFY(p.waitForFinished(60000));
    reader.poll();
    QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
    QVERIFY(reader.noted("free again"));
    QCOMPARE(reader.events.back()["event"], json("summary"));
    QCOMPARE(reader.events.back()["done"], json(2));
    QCOMPARE(reader.events.back()["index_current"], json(true));
    const auto rows = indexRows(out);
    QCOMPARE(rows.size(), size_t{2});
    for (const auto& row : rows) QCOMPARE(row.status, std::string("finished"));
  }

  // The lock is never released: every run still finishes; after --index-wait the sweep exits 1
  // saying how to bring the index up to date, and that command then does.
  void lockedIndexNeverReleasedSaysHowToUpdate() {
    QTemporaryDir tmp;
    const QString spec = test::writeSpec(tmp.path(), {{"optimizer.lr", {0.05}}}, 30), out = tmp.path() + "/sweep";
    QVERIFY(QDir().mkpath(out));
    { sweep::RunIndex create((out + "/index.sqlite").toStdString()); }
    std::optional<IndexLock> lock(std::in_place, out + "/index.sqlite");
    QVERIFY(lock->held());
    QElapsedTimer t;
    t.start();
    auto r = test::runCli({"sweep", "--spec", spec, "--out", out, "--json", "--index-wait", "2"});
    QCOMPARE(r.code, 1);
    QVERIFY2(t.elapsed() < 60000, "a locked index held the sweep far past --index-wait");
    QCOMPARE(test::pointStatuses(out)["0000"], std::string("finished"));
    const auto events = r.events();
    QCOMPARE(events.back()["event"], json("summary"));
    QCOMPARE(events.back()["done"], json(1));
    QCOMPARE(events.back()["index_current"], json(false));
    QVERIFY2(r.out.contains("lipschitz-cli index"), r.out.constData());
    lock.reset();
    r = test::runCli({"index", out, "--db", out + "/index.sqlite"});
    QVERIFY2(r.code == 0, r.err.constData());
    const auto rows = indexRows(out);
    QCOMPARE(rows.size(), size_t{1});
    QCOMPARE(rows[0].status, std::string("finished"));
  }

  // Issue 33 item 10: a point whose process is killed by a signal (the OOM killer) is failed
  // with a message that says so, not with an empty one.
  void childKilledBySignalSaysSo() {
    QTemporaryDir tmp;
    const QString spec = test::writeSpec(tmp.path(), {{"optimizer.lr", {0.05}}}, 100000), out = tmp.path() + "/sweep";
    QProcess p;
    p.start(QStringLiteral(LWB_CLI_PATH), {"sweep", "--spec", spec, "--out", out, "--json"});
    QVERIFY(p.waitForStarted());
    const auto logged = [&] {
      QFile f(out + "/runs/0000/metrics.jsonl");
      return f.open(QIODevice::ReadOnly) && f.readAll().count('\n') >= 2;
    };
    QTRY_VERIFY_WITH_TIMEOUT(logged(), 120000);
    const auto children = childrenOf(p.processId());
    QCOMPARE(children.size(), size_t{1});
    ::kill(children[0], SIGKILL);
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitCode(), 1);
    EventReader reader{p};
    reader.poll();
    const auto point = std::find_if(reader.events.begin(), reader.events.end(), [](const json& e) { return e["event"] == "point"; });
    QVERIFY(point != reader.events.end());
    QCOMPARE((*point)["status"], json("failed"));
    const std::string message = (*point)["message"];
    QVERIFY2(message.find("killed by signal 9") != std::string::npos, message.c_str());
    const auto rows = indexRows(out);
    QCOMPARE(rows.size(), size_t{1});
    QCOMPARE(rows[0].status, std::string("failed"));
    QVERIFY2(rows[0].message.find("killed by signal 9") != std::string::npos, rows[0].message.c_str());
  }

  // Issue 33 item 10: an --out path that is not UTF-8 runs the whole sweep and reports it (the
  // summary used to throw a raw exception after every point had run).
  void nonUtf8SweepFolder() {
    QTemporaryDir tmp;
    const QString spec = test::writeSpec(tmp.path(), {{"optimizer.lr", {0.05}}}, 20);
    const QByteArray out = QFile::encodeName(tmp.path()) + "/caf\xe9";
    for (const char* json : {"--json", ""}) {
      QProcess p;  // through sh: a QString argument cannot carry the byte 0xE9 alone
      p.start("/bin/sh", {"-c", R"sh(exec "$0" sweep --spec "$1" --out "$2/$(printf 'caf\351')" $3)sh",
                          QStringLiteral(LWB_CLI_PATH), spec, tmp.path(), json});
      QVERIFY(p.waitForFinished(120000));
      const QByteArray err = p.readAllStandardError();
      QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, err.constData());
      QVERIFY2(!err.contains("exception"), err.constData());
      QVERIFY(fs::exists(fs::path(out.toStdString()) / "runs" / "0000" / "summary.json"));
    }
    fs::remove_all(out.toStdString());  // QTemporaryDir cannot name it (QString paths are UTF-8)
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
    // A second damaged file goes beside the first backup, never over it.
    test::writeFile(db, std::string(5000, 'y'));
    QFile::remove(db + "-wal");
    QFile::remove(db + "-shm");
    r = test::runCli({"index", out + "/runs", "--db", db, "--rebuild"});
    QVERIFY2(r.code == 0, r.err.constData());
    QCOMPARE(json::parse(r.out.toStdString())["moved_aside"], json((db + ".bak.2").toStdString()));
    QFile first(db + ".bak");
    QVERIFY(first.open(QIODevice::ReadOnly));
    QCOMPARE(first.readAll(), QByteArray(5000, 'x'));

    // Another process holds the write lock (a sweep writing its rows): `index` says that it
    // waits, a second in, instead of sitting silent for up to 30 s, then adds the rows.
    const QString locked = tmp.path() + "/locked.sqlite";
    { sweep::RunIndex create(locked.toStdString()); }
    IndexLock lock(locked);
    QVERIFY(lock.held());
    QProcess p;
    p.start(QStringLiteral(LWB_CLI_PATH), {"index", out + "/runs", "--db", locked});
    QVERIFY(p.waitForStarted());
    QByteArray err;
    QTRY_VERIFY_WITH_TIMEOUT((err += p.readAllStandardError()).contains("is locked by another process"), 20000);
    QVERIFY2(err.contains("waiting up to 30 s"), err.constData());
    QCOMPARE(p.state(), QProcess::Running);
    lock.release();
    QVERIFY(p.waitForFinished(60000));
    QVERIFY2(p.exitCode() == 0, (err + p.readAllStandardError()).constData());
    QCOMPARE(json::parse(p.readAllStandardOutput().toStdString())["added"], json(2));
  }
};

QTEST_GUILESS_MAIN(TestCliSweep)
#include "tst_cli_sweep.moc"
