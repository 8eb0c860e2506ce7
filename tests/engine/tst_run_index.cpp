// The SQLite run index (engine/sweep/run_index.h): rows from run directories, refresh and
// removal, several writers at once (no lost rows, no "database is locked"), migration from
// schema 1, hostile files (not SQLite, foreign SQLite, newer schema, truncated) and rebuild.
#include "run/results_json.h"
#include "run/run_directory.h"
#include "run/run_directory_reader.h"
#include "support/sqlite_exec.h"
#include "support/test_files.h"
#include "sweep/run_index.h"

#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <sqlite3.h>

#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <thread>

using namespace lwb;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// A finished run directory written by the engine's own writer.
void writeRun(const fs::path& dir, const std::string& optimizer, double sigmaMax, double valLoss, double bound,
              run::RunStatus status = run::RunStatus::Finished) {
  run::RunDirectory d(dir.string());
  d.writeConfig({{"task", "mnist"}, {"steps", 100}, {"seed", 3}, {"model", {{"kind", "mlp"}}},
                 {"optimizer", {{"kind", optimizer}, {"lr", 0.05}, {"weight_decay", 0.0}}},
                 {"constraint", {{"method", "spectral_hammer"}, {"sigma_max", sigmaMax}}}});
  run::RunSummary s;
  s.status = status;
  s.steps = 100;
  s.valLoss = valLoss;
  s.valAcc = 0.9;
  s.lipschitzBound = bound;
  s.stepsPerSecond = 50;
  d.writeSummary(run::toJson(s));
  d.setStatus(status);
}

const std::string kAppIdPragma = "PRAGMA application_id=" + std::to_string(sweep::RunIndex::kApplicationId) + ";";

using test::sql;

}  // namespace

class TestRunIndex : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void scanReadsRunDirectoriesRefreshesAndRemoves() {
    QTemporaryDir tmp;
    const fs::path root = tmp.path().toStdString();
    writeRun(root / "a", "muon", 2.0, 0.31, 8.0);
    writeRun(root / "sub" / "b", "adamw", 4.0, 0.25, 64.0, run::RunStatus::Diverged);
    fs::create_directories(root / "not_a_run");
    sweep::RunIndex index(root / "index.sqlite");
    auto report = index.scan({root});
    QCOMPARE(report.added, 2);
    QCOMPARE(index.count(), int64_t{2});
    const auto a = index.row(sweep::indexPath(root / "a"));
    QVERIFY(a);
    QCOMPARE(a->id, std::string("a"));
    QCOMPARE(a->status, std::string("finished"));
    QCOMPARE(a->optimizer, std::string("muon"));
    QCOMPARE(a->method, std::string("spectral_hammer"));
    QCOMPARE(a->task, std::string("mnist"));
    QCOMPARE(a->sigmaMax, 2.0);
    QCOMPARE(a->lr, 0.05);
    QCOMPARE(a->seed, int64_t{3});
    QCOMPARE(a->valLoss, 0.31);
    QCOMPARE(a->lipschitzBound, 8.0);
    QCOMPARE(json::parse(a->config)["optimizer"]["kind"], json("muon"));
    QCOMPARE(index.row(sweep::indexPath(root / "sub" / "b"))->status, std::string("diverged"));

    // Unchanged runs are not read again; a changed summary is.
    report = index.scan({root});
    QCOMPARE(report.unchanged, 2);
    QCOMPARE(report.added + report.updated, 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    run::RunSummary s;
    s.steps = 100;
    s.valLoss = 0.11;
    test::writeFile(QString::fromStdString((root / "a" / "summary.json").string()), run::toJson(s).dump());
    report = index.scan({root});
    QCOMPARE(report.updated, 1);
    QCOMPARE(index.row(sweep::indexPath(root / "a"))->valLoss, 0.11);

    fs::remove_all(root / "sub");
    report = index.scan({root});
    QCOMPARE(report.removed, 1);
    QCOMPARE(index.count(), int64_t{1});
  }

  // `index --db runs.sqlite` (a bare name, the README's form) gave the index an empty base
  // folder, and every stored path lost its first character ("tmp/x/runs/a"); the same run
  // reached through a symbolic link was indexed a second time.
  void bareIndexNameAndLinkedRunsKeepOneTruePath() {
    QTemporaryDir tmp;
    const fs::path root = tmp.path().toStdString();
    writeRun(root / "runs" / "a", "muon", 2.0, 0.31, 8.0);
    fs::create_directories(root / "dbs");
    fs::create_directory_symlink(root / "runs", root / "link");
    const fs::path before = fs::current_path();
    fs::current_path(root / "dbs");
    {
      sweep::RunIndex index("c.sqlite");
      QCOMPARE(index.scan({root / "runs"}).added, 1);
      const auto rows = index.rows({});
      QCOMPARE(rows.size(), size_t{1});
      QCOMPARE(rows[0].path, sweep::indexPath(root / "runs" / "a"));
      QVERIFY(fs::is_directory(rows[0].path));
      const auto linked = index.scan({root / "link"});
      QCOMPARE(linked.added, 0);
      QCOMPARE(index.count(), int64_t{1});
    }
    fs::current_path(before);
    // The same file opened by another path: nothing dropped and read again.
    sweep::RunIndex again(root / "dbs" / "c.sqlite");
    const auto report = again.scan({root / "runs"});
    QCOMPARE(report.removed, 0);
    QCOMPARE(report.unchanged, 1);
    QCOMPARE(sweep::indexPath(root / "link" / "a"), sweep::indexPath(root / "runs" / "a"));
  }

  // A run whose writer was killed (SIGKILL, a crash, the app closed by a signal) keeps
  // "running" in its status file for good: the app followed it as alive ("ETA 0:37") and
  // the index listed it as running. No process holds its folder lock any more, so it now
  // reads as failed (interrupted) in the index and wherever liveStatus is read.
  void runWhoseWriterDiedReadsAsInterrupted() {
    QTemporaryDir tmp;
    const fs::path root = tmp.path().toStdString(), dir = root / "r";
    sweep::RunIndex index(root / "i.sqlite");
    {
      run::RunDirectory d(dir.string());
      d.writeConfig({{"task", "mnist"}, {"steps", 100}});
      d.setStatus(run::RunStatus::Running);
      QCOMPARE(run::runFolderWriter(dir.string()), run::WriterState::Writing);
      QCOMPARE(run::RunDirectoryReader(dir).liveStatus()->status, run::RunStatus::Running);
      index.scan({root});
      QCOMPARE(index.row(sweep::indexPath(dir))->status, std::string("running"));
    }
    QCOMPARE(run::runFolderWriter(dir.string()), run::WriterState::None);
    QCOMPARE(run::RunDirectoryReader(dir).status()->status, run::RunStatus::Running);  // the file is unchanged
    const auto live = run::RunDirectoryReader(dir).liveStatus();
    QCOMPARE(live->status, run::RunStatus::Failed);
    QVERIFY2(live->message.find("interrupted") != std::string::npos, live->message.c_str());
    index.scan({root});  // no file changed, yet the row is read again
    const auto row = index.row(sweep::indexPath(dir));
    QCOMPARE(row->status, std::string("failed"));
    QVERIFY2(row->message.find("no process is writing this run") != std::string::npos, row->message.c_str());
    QCOMPARE(run::runFolderWriter((root / "absent").string()), run::WriterState::Unknown);
  }

  void malformedRunIsReportedNotFatal() {
    QTemporaryDir tmp;
    const fs::path root = tmp.path().toStdString();
    writeRun(root / "good", "muon", 1.0, 0.5, 1.0);
    fs::create_directories(root / "bad");
    test::writeFile(QString::fromStdString((root / "bad" / "config.json").string()), "{not json");
    sweep::RunIndex index(root / "i.sqlite");
    const auto report = index.scan({root});
    QCOMPARE(report.added, 1);
    QCOMPARE(report.problems.size(), size_t{1});
    QVERIFY2(report.problems[0].find("bad") != std::string::npos, report.problems[0].c_str());
  }

  // A summary with values of the wrong type is indexed, those values empty, and says so; a
  // null (not measured) and a key of a newer version are not warned about.
  void wrongTypesInSummaryAreNamed() {
    QTemporaryDir tmp;
    const fs::path root = tmp.path().toStdString();
    writeRun(root / "typed", "muon", 1.0, 0.5, 1.0);
    writeRun(root / "clean", "muon", 1.0, 0.5, 1.0);
    const auto summaryOf = [&](const char* run) { return QString::fromStdString((root / run / "summary.json").string()); };
    const auto read = [](const QString& f) { return json::parse(std::ifstream(f.toStdString())); };
    json j = read(summaryOf("typed"));
    j["val_loss"] = "0.5";
    j["steps"] = 2.5;
    j["lipschitz_bound"] = nullptr;
    test::writeFile(summaryOf("typed"), j.dump());
    // "clean": every optional part the writer has (a chars run's levels, an AttLip run's
    // diagnostics), a null and a newer version's key.
    run::RunSummary full;
    full.steps = 100;
    full.valLoss = 0.5;
    full.attentionPgdEstimate = 0.99;
    full.attentionBound = 1;
    full.attentionMixingMovement = 0.1;
    full.attentionSelfMovement = 0.2;
    full.attlipEvalSteps = 20;
    full.attlipEvalConverged = true;
    full.attlipEvalResidual = 1e-7;
    full.valLossPaper = 1.5;
    full.valPaperBatches = 20;
    full.referenceLevels = {{"unigram", 3.3, "unigram"}};
    full.referenceLevelsPaper = {{"unigram", 3.2, "unigram"}};
    full.attentionCertificate = "converged";
    json c = run::toJson(full);
    c["val_acc"] = nullptr;
    c["a_newer_key"] = json::object();
    test::writeFile(summaryOf("clean"), c.dump());

    sweep::RunIndex index(root / "i.sqlite");
    const auto report = index.scan({root});
    QCOMPARE(report.added, 2);
    QVERIFY(report.problems.empty());
    QCOMPARE(report.warnings.size(), size_t{1});
    const std::string& w = report.warnings[0];
    QVERIFY2(w.find("typed") != std::string::npos && w.find("val_loss (string)") != std::string::npos &&
                 w.find("steps (number)") != std::string::npos && w.find("lipschitz_bound") == std::string::npos,
             w.c_str());
    const auto row = index.row((root / "typed").string());
    QVERIFY(row);
    QVERIFY(std::isnan(row->valLoss));
  }

  // Four connections (as four workers or the GUI would have) write at once: every row lands,
  // and nobody sees "database is locked".
  void concurrentWritersLoseNothing() {
    QTemporaryDir tmp;
    const fs::path file = fs::path(tmp.path().toStdString()) / "index.sqlite";
    constexpr int kWriters = 4, kRows = 150;
    std::atomic<int> failures{0};
    std::string firstError;
    std::mutex errorMutex;
    std::vector<std::thread> writers;
    for (int w = 0; w < kWriters; ++w)
      writers.emplace_back([&, w] {
        try {
          sweep::RunIndex index(file);  // concurrent creation and migration too
          for (int i = 0; i < kRows; ++i) {
            sweep::IndexRow r;
            r.path = "/runs/w" + std::to_string(w) + "/" + std::to_string(i);
            r.id = std::to_string(i);
            r.status = "finished";
            r.valLoss = w + i / 1000.0;
            index.upsert(r);
            if (i % 50 == 0) (void)index.rows({"", false});  // readers interleaved with writers
          }
        } catch (const std::exception& e) {
          ++failures;
          std::lock_guard<std::mutex> lock(errorMutex);
          firstError = e.what();
        }
      });
    for (auto& t : writers) t.join();
    QVERIFY2(failures == 0, firstError.c_str());
    sweep::RunIndex index(file);
    QCOMPARE(index.count(), int64_t{kWriters * kRows});
    QCOMPARE(index.schemaVersion(), sweep::RunIndex::kSchemaVersion);
  }

  void upsertKeepsSweepAndSchedulerColumns() {
    QTemporaryDir tmp;
    const fs::path root = tmp.path().toStdString();
    sweep::RunIndex index(root / "i.sqlite");
    sweep::IndexRow pending;
    pending.path = sweep::indexPath(root / "0001");
    pending.id = "0001";
    pending.status = run::toString(run::RunStatus::Pending);
    pending.sweep = root.string();
    pending.point = 1;
    index.upsert(pending);
    index.setSchedulerState(pending.path, "17_1", "RUNNING");
    writeRun(root / "0001", "adamw", 3.0, 0.4, 27.0);
    QVERIFY(index.refresh(root / "0001"));
    const auto r = index.row(pending.path);
    QCOMPARE(r->status, std::string("finished"));
    QCOMPARE(r->sweep, root.string());
    QCOMPARE(r->point, int64_t{1});
    QCOMPARE(r->slurmJob, std::string("17_1"));
    QCOMPARE(r->schedulerState, std::string("RUNNING"));
    QVERIFY(!index.refresh(root / "0001"));  // unchanged: not read again
  }

  void migratesSchemaOne() {
    QTemporaryDir tmp;
    const fs::path file = fs::path(tmp.path().toStdString()) / "old.sqlite";
    sql(file,
        "CREATE TABLE runs (path TEXT PRIMARY KEY NOT NULL, id TEXT NOT NULL, status TEXT NOT NULL, message TEXT,"
        " task TEXT, model TEXT, optimizer TEXT, method TEXT, sigma_max REAL, lr REAL, weight_decay REAL,"
        " seed INTEGER, steps INTEGER, step_done INTEGER, val_loss REAL, val_acc REAL, lipschitz_bound REAL,"
        " max_act_entry REAL, steps_per_s REAL, seconds REAL, config TEXT, sweep TEXT, point INTEGER,"
        " signature TEXT);"
        "INSERT INTO runs (path, id, status, val_loss) VALUES ('/r/x', 'x', 'finished', 0.5);"
        "PRAGMA user_version=1;" + kAppIdPragma);
    sweep::RunIndex index(file);
    QCOMPARE(index.schemaVersion(), 2);
    const auto r = index.row("/r/x");
    QVERIFY(r);
    QCOMPARE(r->valLoss, 0.5);
    QCOMPARE(r->slurmJob, std::string());
    QVERIFY(std::isnan(r->lipschitzBound));
  }

  void hostileFilesGiveClearErrors_data() {
    QTest::addColumn<QByteArray>("kind");
    QTest::addColumn<QString>("expected");
    QTest::newRow("random bytes") << QByteArray("random") << "not a SQLite database";
    QTest::newRow("text file") << QByteArray("text") << "not a SQLite database";
    QTest::newRow("foreign SQLite") << QByteArray("foreign") << "not a Lipschitz Workbench run index";
    QTest::newRow("newer schema") << QByteArray("newer") << "newer Lipschitz Workbench";
    QTest::newRow("truncated index") << QByteArray("truncated") << "run index";
    QTest::newRow("folder") << QByteArray("folder") << "is a folder";
  }
  void hostileFilesGiveClearErrors() {
    QFETCH(QByteArray, kind);
    QFETCH(QString, expected);
    QTemporaryDir tmp;
    const fs::path file = fs::path(tmp.path().toStdString()) / "index.sqlite";
    const QString qfile = QString::fromStdString(file.string());
    if (kind == "random") {
      std::string bytes(8192, '\0');
      for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>((i * 2654435761u) >> 13);
      test::writeFile(qfile, bytes);
    } else if (kind == "text") {
      test::writeFile(qfile, "runs,id,status\n1,2,3\n");
    } else if (kind == "foreign") {
      sql(file, "CREATE TABLE photos (id INTEGER, name TEXT); INSERT INTO photos VALUES (1, 'x');");
    } else if (kind == "newer") {
      sql(file, kAppIdPragma + "PRAGMA user_version=99; CREATE TABLE runs (path TEXT);");
    } else if (kind == "truncated") {
      {
        sweep::RunIndex index(file);
        std::vector<sweep::IndexRow> rows;
        for (int i = 0; i < 3000; ++i) {
          sweep::IndexRow r;
          r.path = "/runs/" + std::to_string(i);
          r.id = std::to_string(i);
          r.status = "finished";
          r.config = std::string(200, 'x');
          rows.push_back(r);
        }
        index.upsert(rows);
      }  // closing checkpoints the WAL into the file
      fs::resize_file(file, fs::file_size(file) / 3);
    } else if (kind == "folder") {
      fs::create_directories(file);
    }
    const QString msg = test::inputErrorOf([&] {
      sweep::RunIndex index(file);
      (void)index.rows();
      (void)index.count();
    });
    QVERIFY2(msg.contains(expected), qPrintable(msg));
    if (kind != "folder") {
      QVERIFY2(msg.contains(qfile), qPrintable(msg));
      QVERIFY2(msg.contains(QStringLiteral("--rebuild")) || kind == "truncated", qPrintable(msg));
    }
  }

  // --rebuild: our own (broken) file is deleted, a foreign one moved aside, and the rows come
  // back from the run directories.
  void rebuildFromRunDirectories() {
    QTemporaryDir tmp;
    const fs::path root = tmp.path().toStdString();
    writeRun(root / "runs" / "a", "muon", 2.0, 0.3, 8.0);
    writeRun(root / "runs" / "b", "adamw", 2.0, 0.2, 8.0);
    const fs::path file = root / "index.sqlite";
    sql(file, "CREATE TABLE notes (t TEXT); INSERT INTO notes VALUES ('mine');");
    QVERIFY(test::inputErrorOf([&] { sweep::RunIndex i(file); }).contains("not a Lipschitz Workbench run index"));
    const std::string aside = sweep::RunIndex::discard(file);
    QCOMPARE(aside, file.string() + ".bak");
    QVERIFY(fs::exists(aside));
    {
      sweep::RunIndex index(file);
      QCOMPARE(index.scan({root / "runs"}).added, 2);
    }
    test::writeFile(QString::fromStdString(file.string()), std::string(4096, 'z'));
    QVERIFY(test::inputErrorOf([&] { sweep::RunIndex i(file); }).contains("not a SQLite database"));
    sweep::RunIndex::discard(file);
    sweep::RunIndex index(file);
    QCOMPARE(index.scan({root / "runs"}).added, 2);
    QCOMPARE(index.count(), int64_t{2});
  }
};

QTEST_GUILESS_MAIN(TestRunIndex)
#include "tst_run_index.moc"
