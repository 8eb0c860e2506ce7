// Following a run directory that another process is still writing: metrics.jsonl is read
// from the last byte offset, a torn last line waits until it is complete, new spectra
// snapshots are picked up, a rewritten file (a resumed run) starts over, and the end
// status is reported with its reason. A followed run keeps what a live one shows: each
// matrix's σ₁ and role.
#include "app/pages/train/dashboard.h"
#include "app/runs/mailbox.h"
#include "app/runs/run_follower.h"
#include "app/runs/run_manager.h"
#include "run/results_json.h"
#include "run/run_directory.h"
#include "support/scratch_home.h"
#include "support/test_files.h"
#include "support/train_page_host.h"
#include "widgets/loss_accuracy_plot.h"

#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

using namespace lwb;
using namespace lwb::app;
using nlohmann::json;

namespace {

std::string row(int step) {
  return json{{"step", step}, {"lr", 0.1}, {"train_loss", 3.0 - 0.01 * step}, {"train_acc", 0.1},
              {"rms_norms", {{"w1", 1.0}, {"w2", 2.0}}}, {"lipschitz_bound", 2.0}}
             .dump() +
         "\n";
}

json config() {
  return json{{"task", "modular_addition"}, {"steps", 100},
              {"optimizer", {{"kind", "muon"}, {"lr", 0.2}}},
              {"constraint", {{"method", "spectral_hard_cap"}, {"sigma_max", 2.0}}}};
}

// A run directory as a trainer starts it: config written, status "running".
struct LiveRun {
  QTemporaryDir tmp;
  QString dir = tmp.filePath(QStringLiteral("run"));
  run::RunDirectory writer{dir.toStdString()};
  LiveRun() {
    writer.writeConfig(config());
    writer.setStatus(run::RunStatus::Running);
  }
};

}  // namespace

class TestAppFollow : public QObject {
  Q_OBJECT

  lwb::test::ScratchHome home_;  // settings and runs, never the user's

 private Q_SLOTS:
  void tailsIncrementallyAndWaitsForTornLines();
  void rewrittenMetricsStartOver();
  void followsALiveDirectoryThroughTheDashboard();
  void refusesWhatIsNotARunDirectory();
  void followedRunKeepsSigma1AndRole();
  void followedRunShowsItsWorldSize();
};

void TestAppFollow::tailsIncrementallyAndWaitsForTornLines() {
  LiveRun live;
  const QString& dir = live.dir;
  run::RunDirectory& writer = live.writer;
  const QString metrics = dir + QStringLiteral("/metrics.jsonl");
  test::writeFile(metrics, row(1) + row(2) + row(3) + R"({"step": 4, "lr": 0.)", true);

  auto box = std::make_shared<Mailbox>();
  RunFollower follower(dir, box);
  QVERIFY(!follower.poll());
  RunDelta d = box->take();
  QCOMPARE(d.steps.size(), size_t{3});  // the torn 4th line is not read
  QCOMPARE(d.steps.back().step, int64_t{3});
  QCOMPARE(d.steps.back().norms.size(), size_t{2});
  QCOMPARE(*d.totalSteps, int64_t{100});
  QVERIFY(d.constraint->method == lwb::spectral::ConstraintMethod::SpectralHardCap);
  QCOMPARE(d.state, std::optional<RunState>(RunState::Following));

  QVERIFY(!follower.poll());
  QVERIFY(box->take().steps.empty());  // nothing new: nothing re-read

  // The writer finishes the line, then writes another and a spectra snapshot.
  test::writeFile(metrics, "1, \"train_loss\": 2.5}\n" + row(5), true);
  writer.appendSpectra(5, {{"w1", {3.0f, 2.0f, 1.0f}}, {"w2", {0.5f}}});
  QVERIFY(!follower.poll());
  d = box->take();
  QCOMPARE(d.steps.size(), size_t{2});
  QCOMPARE(d.steps[0].step, int64_t{4});
  QCOMPARE(d.steps[0].trainLoss, 2.5);
  QCOMPARE(d.spectra.size(), size_t{1});
  QCOMPARE(d.spectra[0].step, int64_t{5});
  QCOMPARE(d.spectra[0].after.at("w1"), (std::vector<float>{3.0f, 2.0f, 1.0f}));
  QVERIFY(d.spectra[0].before.empty());  // run directories record spectra after the constraint

  // A line that is complete but not JSON (hand-edited) is skipped, not fatal.
  test::writeFile(metrics, "garbage\n" + row(6), true);
  QVERIFY(!follower.poll());
  d = box->take();
  QCOMPARE(d.steps.size(), size_t{1});
  QCOMPARE(d.steps[0].step, int64_t{6});
  // …and said (a damaged file read as a run that logged nothing there).
  QCOMPARE(d.warnings.size(), size_t{1});
  QVERIFY2(d.warnings[0].find("is not a metrics row") != std::string::npos, d.warnings[0].c_str());

  // A last line without its newline: while the run goes on, the writer is at it (no word)…
  test::writeFile(metrics, R"({"step": 7, "train_lo)", true);
  QVERIFY(!follower.poll());
  QVERIFY(box->take().warnings.empty());

  writer.writeSummary(json{{"status", "diverged"}, {"steps", 6}, {"seconds", 1.5}, {"steps_per_s", 4.0},
                           {"val_loss", nullptr}, {"lipschitz_bound", 7.0}});
  writer.setStatus(run::RunStatus::Diverged, "non-finite training loss at step 6");
  QVERIFY(follower.poll());
  d = box->take();
  QVERIFY(d.end.has_value());
  QCOMPARE(d.end->status, run::RunStatus::Diverged);
  QCOMPARE(d.end->message, std::string("non-finite training loss at step 6"));
  QCOMPARE(d.end->steps, int64_t{6});
  QVERIFY(std::isnan(d.end->valLoss));
  QCOMPARE(d.end->lipschitzBound, 7.0);
  // …once it has ended, the line will never be completed: the rows it held are lost, said.
  QCOMPARE(d.warnings.size(), size_t{1});
  QVERIFY2(d.warnings[0].find("ends in a cut line") != std::string::npos, d.warnings[0].c_str());
}

void TestAppFollow::rewrittenMetricsStartOver() {
  QTemporaryDir tmp;
  const QString metrics = tmp.filePath(QStringLiteral("metrics.jsonl"));
  test::writeFile(metrics, row(1) + row(2) + row(3));
  auto box = std::make_shared<Mailbox>();
  RunFollower follower(tmp.path(), box);
  follower.poll();
  QCOMPARE(box->take().steps.size(), size_t{3});
  // A resumed run keeps rows up to its checkpoint and writes the file anew (new inode).
  run::writeFileAtomically(metrics.toStdString(), row(1) + row(2) + row(10) + row(11));
  follower.poll();
  const RunDelta d = box->take();
  QVERIFY(d.reset);
  QCOMPARE(d.steps.size(), size_t{4});
  QCOMPARE(d.steps.back().step, int64_t{11});
}

void TestAppFollow::followsALiveDirectoryThroughTheDashboard() {
  LiveRun live;
  const QString& dir = live.dir;
  run::RunDirectory& writer = live.writer;

  test::TrainPageHost host;
  Dashboard& dash = *host.page->dashboard();
  QString error;
  RunSession* s = host.runs->followRun(dir, &error);
  QVERIFY2(s, qPrintable(error));
  QCOMPARE(s->state(), RunState::Following);
  QVERIFY(s->isFollowing());

  const QString trainLoss = widgets::LossAccuracyPlot::metricKey(widgets::LossAccuracyPlot::Metric::TrainLoss);
  for (int step = 1; step <= 20; ++step) writer.appendMetrics(json::parse(row(step)));
  QTRY_COMPARE_WITH_TIMEOUT(dash.lossPlot()->seriesSize(s->id(), trainLoss), size_t{20}, 10000);
  writer.appendSpectra(20, {{"w1", {2.5f, 1.0f}}, {"w2", {1.5f}}});
  for (int step = 21; step <= 30; ++step) writer.appendMetrics(json::parse(row(step)));
  QTRY_COMPARE_WITH_TIMEOUT(dash.lossPlot()->seriesSize(s->id(), trainLoss), size_t{30}, 10000);
  QTRY_COMPARE_WITH_TIMEOUT(s->history().spectra().size(), size_t{1}, 10000);
  QCOMPARE(s->progress(), 0.3);
  // w1's RMS norm at step 20 is 1.0 and its σ₁ 2.5: spectra are shown in RMS units.
  QCOMPARE(s->history().rmsScale("w1"), 1.0 / 2.5);

  // A character run's summary carries its n-gram levels (issue 25): the loss plot draws them
  // as labelled lines, as it draws the ICL task's, once the summary is there.
  QVERIFY(dash.lossPlot()->referenceLevels().isEmpty());
  writer.writeSummary(json{{"status", "finished"}, {"steps", 30}, {"val_loss", 1.25}, {"val_loss_paper", 1.1},
                           {"reference_levels", {{"unigram", 3.3}, {"bigram", 2.5}, {"5gram", 1.7}}}});
  writer.setStatus(run::RunStatus::Finished);
  QTRY_COMPARE_WITH_TIMEOUT(s->state(), RunState::Finished, 10000);
  QCOMPARE(s->end()->valLoss, 1.25);
  QCOMPARE(s->end()->valLossPaper.value(), 1.1);
  QCOMPARE(s->history().referenceLevels().size(), size_t{3});
  QTRY_COMPARE_WITH_TIMEOUT(dash.lossPlot()->referenceLevels().size(), 3, 10000);
  QStringList labels;
  for (const auto& [value, label] : dash.lossPlot()->referenceLevels()) labels << QStringLiteral("%1=%2").arg(label).arg(value);
  labels.sort();
  QCOMPARE(labels.join(QLatin1Char(' ')), QStringLiteral("5-gram=1.7 bigram=2.5 unigram=3.3"));
  QTRY_VERIFY_WITH_TIMEOUT(!s->threadRunning(), 10000);  // the follower stops by itself
}

// A run that `train --nproc` or srun started elsewhere: config.json's world_size is the
// session's process count, which the status bar shows (issue 28).
void TestAppFollow::followedRunShowsItsWorldSize() {
  for (int ranks : {1, 3}) {
    QTemporaryDir tmp;
    const QString dir = tmp.filePath(QStringLiteral("run"));
    run::RunDirectory writer{dir.toStdString()};
    json c = config();
    c["world_size"] = ranks;
    writer.writeConfig(c);
    writer.setStatus(run::RunStatus::Running);
    RunManager runs;
    QString error;
    RunSession* s = runs.followRun(dir, &error);
    QVERIFY2(s, qPrintable(error));
    writer.appendMetrics(json::parse(row(1)));
    QTRY_VERIFY_WITH_TIMEOUT(s->history().latest() != nullptr, 10000);
    QCOMPARE(s->processes(), ranks);
    s->stop();
    QTRY_VERIFY_WITH_TIMEOUT(!s->threadRunning(), 10000);
  }
}

void TestAppFollow::refusesWhatIsNotARunDirectory() {
  RunManager runs;
  QString error;
  QVERIFY(!runs.followRun(QStringLiteral("/no/such/folder"), &error));
  QVERIFY(error.contains(QLatin1String("no such folder")));
  QTemporaryDir empty;
  QVERIFY(!runs.followRun(empty.path(), &error));
  QVERIFY(error.contains(QLatin1String("not a run directory")));
  QVERIFY(runs.sessions().isEmpty());
}

void TestAppFollow::followedRunKeepsSigma1AndRole() {
  LiveRun followed;
  const QString& dir = followed.dir;
  // A row as the trainer reports it; the run directory records it through the engine's codec.
  run::StepMetrics live;
  live.step = 10;
  live.lr = 0.2;
  live.trainLoss = 1.5;
  live.trainAcc = 0.25;
  live.norms = {{"layers.0", "hidden", 1.0, 4.0}, {"head", "head", 0.5, 0.25}};
  live.lipschitzBound = 0.5;
  live.boundTrace = {0.5, {{"layers.0", 1.0, 1.0, 1.0}, {"head", 0.5, 0.5, 0.5}}};
  followed.writer.appendMetrics(run::toJson(live));

  auto box = std::make_shared<Mailbox>();
  RunFollower follower(dir, box);
  QVERIFY(!follower.poll());
  RunDelta d = box->take();
  QCOMPARE(d.steps.size(), size_t{1});
  QVERIFY(d.steps[0] == live);  // σ₁, role and parameter order included

  // So the RMS scale of the spectra is known before any spectra snapshot arrives.
  RunSession session(QStringLiteral("run-1"), QStringLiteral("followed"), Qt::red, dir);
  session.mailbox()->postStep(d.steps[0]);
  session.takeDelta();
  QCOMPARE(session.history().rmsScale("layers.0"), 0.25);
  QCOMPARE(session.history().latest()->norms[1].role, std::string("head"));
}

QTEST_MAIN(TestAppFollow)
#include "tst_app_follow.moc"
