// The workbench window end to end (offscreen): tiny runs on generated modular-arithmetic
// data started from the UI, their plots filling, pause / resume / stop, several runs at
// once, a diverging run reported as such, closing the window mid-run, and the dock
// layout remembered between launches.
#include "app/app_options.h"
#include "app/pages/train/dashboard.h"
#include "app/main_window.h"
#include "app/quit_on_signal.h"
#include "app/pages/train/run_list.h"
#include "app/runs/run_manager.h"
#include "app/pages/train/run_panel.h"
#include "app/pages/sweeps/sweep_form.h"
#include "app/pages/sweeps/sweeps_page.h"
#include "app/status_panel.h"
#include "app/pages/train/train_page.h"
#include "support/scratch_home.h"
#include "support/tiny_run.h"
#include "widgets/activation_plot.h"
#include "widgets/lipschitz_bound_plot.h"
#include "widgets/loss_accuracy_plot.h"
#include "widgets/scalar_map_plot.h"
#include "widgets/spectrum_plot.h"
#include "widgets/weight_norm_plot.h"

#include <QAction>
#include <QDockWidget>
#include <QSettings>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QComboBox>
#include <QFile>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <csignal>
#include <memory>

using namespace lwb::app;
using nlohmann::json;

namespace {

using lwb::test::tinyConfig;

QString readStatus(const QString& runDir) {
  QFile f(runDir + QStringLiteral("/status"));
  return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()).section(QLatin1Char('\n'), 0, 0) : QString();
}

int64_t latestStep(const RunSession* s) { return s->history().latest() ? s->history().latest()->step : 0; }

// The step count once it has stopped changing for `quietMs` (a paused run), or -1.
int64_t settledStep(const RunSession* s, int quietMs, int timeoutMs) {
  QElapsedTimer t;
  t.start();
  int64_t last = latestStep(s);
  while (t.elapsed() < timeoutMs) {
    QTest::qWait(quietMs);
    const int64_t now = latestStep(s);
    if (now == last) return now;
    last = now;
  }
  return -1;
}

}  // namespace

class TestAppWindow : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase();
  void startTinyRunFromTheUiAndWatchIt();
  void severalRunsAtOnceEachInItsColour();
  void divergingRunIsReported();
  void startWarningShowsWhileTraining();
  void runThatCannotWriteItsDirectoryFails();
  void presetFromTheCommandLine();
  void aRunsSettingsForANewRun();
  void closingMidRunStopsTheWorkerCleanly();
  void terminationSignalStopsRunsWithCheckpoints();
  void quittingWhileASweepRunsAsksAndStopsIt();
  void presetChangesUndoAndTheFormOutlivesTheSession();
  void removingATrainingRunAsksFirst();
  void layoutIsRememberedBetweenLaunches();

 private:
  RunSession* startFromPanel(MainWindow& w, const json& config);
  lwb::test::ScratchHome home_;  // settings and runs, never the user's
};

void TestAppWindow::initTestCase() {
  QVERIFY(home_.isValid());
  QCoreApplication::setOrganizationName(QStringLiteral("LipschitzWorkbenchTest"));
  QCoreApplication::setApplicationName(QStringLiteral("tst_app_window"));
}

RunSession* TestAppWindow::startFromPanel(MainWindow& w, const json& config) {
  RunPanel* panel = w.page<TrainPage>()->runPanel();
  panel->form()->setConfig(config);
  if (!panel->canStart()) qWarning("form refused: %s", qPrintable(panel->form()->validationError()));
  const int before = w.runs()->sessions().size();
  QTest::mouseClick(panel->startButton(), Qt::LeftButton);
  return w.runs()->sessions().size() == before + 1 ? w.runs()->sessions().last() : nullptr;
}

void TestAppWindow::startTinyRunFromTheUiAndWatchIt() {
  MainWindow w;
  w.show();
  QVERIFY(QTest::qWaitForWindowExposed(&w));
  RunSession* s = startFromPanel(w, tinyConfig(1'000'000));
  QVERIFY(s);
  QVERIFY(QFileInfo(s->runDir()).absolutePath().startsWith(home_.path()));
  QTRY_COMPARE_WITH_TIMEOUT(s->state(), RunState::Running, 30000);

  // Every plot receives data.
  Dashboard* dash = w.page<TrainPage>()->dashboard();
  const QString trainLoss = lwb::widgets::LossAccuracyPlot::metricKey(lwb::widgets::LossAccuracyPlot::Metric::TrainLoss);
  QTRY_VERIFY_WITH_TIMEOUT(dash->lossPlot()->seriesSize(s->id(), trainLoss) >= 4, 30000);
  QTRY_VERIFY_WITH_TIMEOUT(!dash->spectrumPlot()->steps().empty(), 30000);
  QVERIFY(!dash->normPlot()->layers().isEmpty());
  QCOMPARE(dash->normPlot()->targetMax(), 2.0);
  QTRY_VERIFY_WITH_TIMEOUT(!dash->activationPlot()->blocks().isEmpty(), 30000);
  QVERIFY(!dash->scalarMapPlot()->curveNames().isEmpty());
  QVERIFY(dash->scalarMapPlot()->curveNames().first().contains(QLatin1String("soft cap")));
  QVERIFY(dash->boundPlot()->seriesSize(s->id(), QStringLiteral("lipschitz_bound")) > 0);
  QTRY_VERIFY(w.statusPanel()->progressBar()->format().contains(QLatin1String("steps/s")));

  // Pause: the step count settles and stays put.
  w.page<TrainPage>()->pauseAction()->trigger();
  QCOMPARE(s->state(), RunState::Paused);
  QCOMPARE(w.page<TrainPage>()->pauseAction()->text(), QStringLiteral("&Resume"));
  const int64_t paused = settledStep(s, 500, 20000);
  QVERIFY(paused > 0);
  QTest::qWait(500);
  QCOMPARE(latestStep(s), paused);

  // Resume: it moves again.
  w.page<TrainPage>()->pauseAction()->trigger();
  QCOMPARE(s->state(), RunState::Running);
  QTRY_VERIFY_WITH_TIMEOUT(latestStep(s) > paused, 30000);

  // Stop: a clean end, written to the run directory.
  w.page<TrainPage>()->stopAction()->trigger();
  QTRY_COMPARE_WITH_TIMEOUT(s->state(), RunState::Stopped, 30000);
  QTRY_VERIFY_WITH_TIMEOUT(!s->threadRunning(), 30000);
  QCOMPARE(readStatus(s->runDir()), QStringLiteral("stopped"));
  QVERIFY(w.statusPanel()->stateLabel()->text().contains(QLatin1String("stopped")));
  QVERIFY(!w.page<TrainPage>()->stopAction()->isEnabled());
}

void TestAppWindow::severalRunsAtOnceEachInItsColour() {
  MainWindow w;
  w.show();
  RunSession* a = startFromPanel(w, tinyConfig(1'000'000));
  json other = tinyConfig(1'000'000);
  other["constraint"] = {{"method", "spectral_hard_cap"}, {"sigma_max", 1.5}};
  RunSession* b = startFromPanel(w, other);
  QVERIFY(a && b);
  QVERIFY(a->color() != b->color());
  QCOMPARE(w.page<TrainPage>()->runList()->tree()->topLevelItemCount(), 2);
  Dashboard* dash = w.page<TrainPage>()->dashboard();
  const QString trainLoss = lwb::widgets::LossAccuracyPlot::metricKey(lwb::widgets::LossAccuracyPlot::Metric::TrainLoss);
  QTRY_VERIFY_WITH_TIMEOUT(dash->lossPlot()->seriesSize(a->id(), trainLoss) > 0 && dash->lossPlot()->seriesSize(b->id(), trainLoss) > 0,
                           60000);
  QCOMPARE(dash->lossPlot()->runStyle(b->id()).color, b->color());
  // The newest run is current: σmax lines follow it.
  QCOMPARE(dash->currentRun(), b);
  QTRY_COMPARE(dash->normPlot()->targetMax(), 1.5);
  w.page<TrainPage>()->runList()->setCurrentRun(a);
  QCOMPARE(dash->currentRun(), a);
  QVERIFY(a->history().hasConstraint());
  QVERIFY(a->history().constraint().method == lwb::spectral::ConstraintMethod::SpectralSoftCap);
  QCOMPARE(dash->normPlot()->targetMax(), 2.0);
  w.runs()->stopAll();
  // The end arrives through the mailbox, at the next throttle tick after the thread ends.
  QTRY_COMPARE_WITH_TIMEOUT(a->state(), RunState::Stopped, 30000);
  QTRY_COMPARE_WITH_TIMEOUT(b->state(), RunState::Stopped, 30000);
  QTRY_VERIFY_WITH_TIMEOUT(!w.runs()->anyThreadRunning(), 30000);
}

void TestAppWindow::divergingRunIsReported() {
  MainWindow w;
  w.show();
  json cfg = tinyConfig(300);
  cfg["log_every"] = 1;
  cfg["optimizer"] = {{"kind", "sgd"}, {"lr", 10000}, {"momentum", 0.99}, {"nesterov", false}};
  cfg["constraint"] = {{"method", "none"}, {"embed_rms_max", 0}};
  RunSession* s = startFromPanel(w, cfg);
  QVERIFY(s);
  QTRY_COMPARE_WITH_TIMEOUT(s->state(), RunState::Diverged, 60000);
  QVERIFY(QString::fromStdString(s->end()->message).contains(QLatin1String("non-finite")));
  QTRY_VERIFY(!s->threadRunning());
  QCOMPARE(readStatus(s->runDir()), QStringLiteral("diverged"));
  const QString said = w.statusPanel()->stateLabel()->text();
  QVERIFY2(said.contains(QLatin1String("diverged")) && said.contains(QLatin1String("non-finite")), qPrintable(said));
  QVERIFY(w.page<TrainPage>()->runList()->tree()->topLevelItem(0)->text(1).contains(QLatin1String("diverged")));
}

// A soft cap that cannot hold σmax at this lr (Trainer::startWarnings): the status bar says
// so while the run trains, and the run list marks the run, not only the end message.
void TestAppWindow::startWarningShowsWhileTraining() {
  MainWindow w;
  w.show();
  json cfg = tinyConfig(1'000'000);
  cfg["optimizer"]["lr"] = 0.5;
  cfg["constraint"]["sigma_max"] = 0.6;
  RunSession* s = startFromPanel(w, cfg);
  QVERIFY(s);
  QTRY_COMPARE_WITH_TIMEOUT(s->state(), RunState::Running, 60000);
  QTRY_VERIFY(!s->warnings().isEmpty());
  QVERIFY2(s->warnings().front().contains(QLatin1String("cannot hold sigma_max 0.6")), qPrintable(s->warnings().front()));
  QTRY_VERIFY(w.statusPanel()->stateLabel()->text().contains(QLatin1String("cannot hold sigma_max 0.6")));
  QVERIFY(!s->end());
  QVERIFY(w.page<TrainPage>()->runList()->tree()->topLevelItem(0)->text(1).contains(QStringLiteral("⚠")));
  s->stop();
  QTRY_VERIFY_WITH_TIMEOUT(!s->threadRunning(), 60000);
  // A run the engine has no warning for shows none.
  RunSession* quiet = startFromPanel(w, tinyConfig(50));
  QVERIFY(quiet);
  QTRY_VERIFY_WITH_TIMEOUT(!quiet->threadRunning(), 60000);
  QVERIFY(quiet->warnings().isEmpty());
}

// A run directory that is not empty is never written into: the run fails with the reason,
// while another run beside it goes on undisturbed.
void TestAppWindow::runThatCannotWriteItsDirectoryFails() {
  MainWindow w;
  w.show();
  RunSession* good = startFromPanel(w, tinyConfig(1'000'000));
  QVERIFY(good);
  const QString taken = home_.filePath(QStringLiteral("taken"));
  QVERIFY(QDir().mkpath(taken));
  QFile keep(taken + QStringLiteral("/notes.txt"));
  QVERIFY(keep.open(QIODevice::WriteOnly));
  keep.write("mine\n");
  keep.close();
  RunSession* bad = w.runs()->addRun(QStringLiteral("taken"), taken);
  const std::string cfg = tinyConfig(100).dump();
  bad->startTraining(QByteArray::fromStdString(cfg));
  QTRY_COMPARE_WITH_TIMEOUT(bad->state(), RunState::Failed, 30000);
  QVERIFY2(QString::fromStdString(bad->end()->message).contains(QLatin1String("not empty")), bad->end()->message.c_str());
  QVERIFY(QFile::exists(taken + QStringLiteral("/notes.txt")));
  QVERIFY(!QFile::exists(taken + QStringLiteral("/metrics.jsonl")));
  // The dashboard keeps serving the healthy run for a while.
  const int64_t before = latestStep(good);
  QTRY_VERIFY_WITH_TIMEOUT(latestStep(good) > before + 20, 30000);
  good->stop();
  QTRY_COMPARE_WITH_TIMEOUT(good->state(), RunState::Stopped, 30000);
}

// --preset ID [--set ...] --start, routed by the window to the Train page.
// Issue 26 review: an opened run's settings were nowhere in Run setup. "Use the selected run's
// settings" loads its config.json (the preset box names the run); a bad file is refused with
// the reason in the status bar and the form left as it was.
void TestAppWindow::aRunsSettingsForANewRun() {
  MainWindow w;
  TrainPage* page = w.page<TrainPage>();
  RunPanel* panel = page->runPanel();
  QTemporaryDir dir;
  const QDir root(dir.path());
  QVERIFY(root.mkpath(QStringLiteral("masked")));
  const QString run = root.filePath(QStringLiteral("masked"));
  {
    QFile f(QDir(run).filePath(QStringLiteral("config.json")));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"task": "chars_masked", "data_path": "@data/tinyshakespeare/input.txt", "steps": 123,
                "model": {"kind": "attlip", "attention": "l2", "d_model": 32, "heads": 2}})");
  }
  const QString before = panel->form()->fieldText(QStringLiteral("task"));
  page->useRunSettings(run);
  QCOMPARE(panel->form()->fieldText(QStringLiteral("steps")), QStringLiteral("123"));
  QCOMPARE(panel->form()->fieldText(QStringLiteral("model.attention")), QStringLiteral("l2"));
  QVERIFY2(panel->canStart(), qPrintable(panel->validationError()));
  auto* box = panel->findChild<QComboBox*>(QStringLiteral("presetBox"));
  QCOMPARE(box->currentText(), QStringLiteral("(settings of masked)"));
  QCOMPARE(panel->runLabel(), QStringLiteral("chars_masked"));  // not a preset id
  // Choosing the entry again restores the run's settings after an edit.
  QVERIFY(panel->form()->setFieldText(QStringLiteral("steps"), QStringLiteral("7")));
  Q_EMIT box->activated(box->currentIndex());
  QCOMPARE(panel->form()->fieldText(QStringLiteral("steps")), QStringLiteral("123"));
  // Refusals name the file and keep the form.
  auto* state = w.findChild<QLabel*>(QStringLiteral("runStateLabel"));
  QVERIFY(state);
  page->useRunSettings(root.filePath(QStringLiteral("absent")));
  QVERIFY2(state->text().contains(QLatin1String("absent")) && state->text().startsWith(QLatin1String("Cannot use")), qPrintable(state->text()));
  QCOMPARE(panel->form()->fieldText(QStringLiteral("steps")), QStringLiteral("123"));
  QVERIFY(root.mkpath(QStringLiteral("array")));
  {
    QFile f(root.filePath(QStringLiteral("array/config.json")));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("[1, 2]");
  }
  page->useRunSettings(root.filePath(QStringLiteral("array")));
  QVERIFY2(state->text().contains(QLatin1String("not a JSON object")), qPrintable(state->text()));
  QVERIFY(root.mkpath(QStringLiteral("dir/config.json")));  // a folder named like the file
  page->useRunSettings(root.filePath(QStringLiteral("dir")));
  QVERIFY2(state->text().contains(QLatin1String("config.json")), qPrintable(state->text()));
  QVERIFY(!before.isEmpty());
}

void TestAppWindow::presetFromTheCommandLine() {
  MainWindow w;
  w.show();
  const auto options = [](const QString& preset, const QStringList& overrides) {
    AppOptions o;
    o.preset = preset;
    o.overrides = overrides;
    o.start = true;
    return o;
  };
  QString error;
  QVERIFY(!w.applyOptions(options(QStringLiteral("no_such_preset"), {}), &error));
  QVERIFY(error.contains(QLatin1String("unknown preset")) && error.contains(QLatin1String("chars_small_cpu")));
  // Without --start too, the valid ids are listed (issue 32).
  AppOptions load = options(QStringLiteral("no_such_preset"), {});
  load.start = false;
  QVERIFY(!w.applyOptions(load, &error));
  QVERIFY2(error.contains(QLatin1String("unknown preset")) && error.contains(QLatin1String("chars_small_cpu")), qPrintable(error));
  QVERIFY(!w.applyOptions(options(QStringLiteral("modular_addition_grokking"), {QStringLiteral("optimizer.lr=-3")}), &error));
  QVERIFY2(error.contains(QLatin1String("optimizer.lr")), qPrintable(error));
  QVERIFY(w.runs()->sessions().isEmpty());
  QVERIFY2(w.applyOptions(options(QStringLiteral("modular_addition_grokking"),
                                  {QStringLiteral("steps=20"), QStringLiteral("modulus=23"), QStringLiteral("model.embed_dim=23"),
                                   QStringLiteral("model.width=32"), QStringLiteral("batch_size=64")}),
                          &error),
           qPrintable(error));
  RunSession* s = w.runs()->sessions().value(0);
  QVERIFY(s);
  QCOMPARE(s->label(), QStringLiteral("modular_addition_grokking"));
  QTRY_COMPARE_WITH_TIMEOUT(s->state(), RunState::Finished, 60000);
  QCOMPARE(s->end()->steps, int64_t{20});
  QTRY_VERIFY(w.statusPanel()->stateLabel()->text().contains(QLatin1String("finished")));
  QCOMPARE(w.statusPanel()->progressBar()->value(), 1000);
}

void TestAppWindow::closingMidRunStopsTheWorkerCleanly() {
  auto w = std::make_unique<MainWindow>();
  w->show();
  RunSession* s = startFromPanel(*w, tinyConfig(1'000'000));
  QVERIFY(s);
  QTRY_VERIFY_WITH_TIMEOUT(latestStep(s) > 0, 30000);
  const QString runDir = s->runDir();
  QSignalSpy closing(w.get(), &MainWindow::closing);
  // Quitting while a run trains asks first (issue 32); Cancel keeps window and run.
  const auto question = [&w] { return w->findChild<QMessageBox*>(QStringLiteral("quitWhileTrainingBox")); };
  w->close();
  QTRY_VERIFY(question() && question()->isVisible());
  QVERIFY2(question()->text().contains(QLatin1String("Runs still training: 1.")), qPrintable(question()->text()));
  question()->findChild<QPushButton*>(QStringLiteral("cancelQuitButton"))->click();
  QTRY_VERIFY(!question());
  QVERIFY(w->isVisible());
  QCOMPARE(closing.count(), 0);
  const int64_t before = latestStep(s);
  QTRY_VERIFY_WITH_TIMEOUT(latestStep(s) > before, 30000);  // still training
  // "Stop and quit" asks the run to stop; the window closes once the thread is done.
  w->close();
  QTRY_VERIFY(question() && question()->isVisible());
  question()->findChild<QPushButton*>(QStringLiteral("stopAndQuitButton"))->click();
  QTRY_COMPARE_WITH_TIMEOUT(closing.count(), 1, 30000);
  QVERIFY(!w->isVisible());
  QVERIFY(!w->runs()->anyThreadRunning());
  w.reset();  // no hang, no crash
  QCOMPARE(readStatus(runDir), QStringLiteral("stopped"));
  // Nothing is lost: the stop wrote a resumable checkpoint.
  QVERIFY(!QDir(runDir + QStringLiteral("/checkpoints")).entryList({QStringLiteral("step_*.safetensors")}).isEmpty());
}

// SIGTERM (kill, a logout) or Ctrl+C once killed the app at once: a run it trained kept no
// checkpoint and a status file that said "running" for good. Now the signal closes the
// window as "Stop and quit" does, without asking, and the exit status says which signal.
void TestAppWindow::terminationSignalStopsRunsWithCheckpoints() {
  auto w = std::make_unique<MainWindow>();
  w->show();
  QuitOnSignal handler([&w](int signal) { w->quitOnSignal(signal); });
  RunSession* s = startFromPanel(*w, tinyConfig(1'000'000));
  QVERIFY(s);
  QTRY_VERIFY_WITH_TIMEOUT(latestStep(s) > 0, 30000);
  const QString runDir = s->runDir();
  QSignalSpy closing(w.get(), &MainWindow::closing);
  QCOMPARE(::raise(SIGTERM), 0);  // delivered to this process; the handler turns it into a close
  QTRY_COMPARE_WITH_TIMEOUT(closing.count(), 1, 30000);
  QVERIFY(!w->findChild<QMessageBox*>(QStringLiteral("quitWhileTrainingBox")));  // nobody is asked
  QCOMPARE(w->requestedExitCode(), 128 + SIGTERM);
  QVERIFY(!w->runs()->anyThreadRunning());
  w.reset();
  QCOMPARE(readStatus(runDir), QStringLiteral("stopped"));
  QVERIFY(!QDir(runDir + QStringLiteral("/checkpoints")).entryList({QStringLiteral("step_*.safetensors")}).isEmpty());
}

// A running sweep (the Sweeps page's `lipschitz-cli sweep` child) did not count as work: the
// window quit without a question, and the page's destructor then waited up to 30 s for it.
void TestAppWindow::quittingWhileASweepRunsAsksAndStopsIt() {
  QTemporaryDir tmp;
  auto w = std::make_unique<MainWindow>();
  w->show();
  auto* sweeps = w->page<pages::SweepsPage>();
  QVERIFY(sweeps);
  sweeps->form()->setPreset(QStringLiteral("mnist_adamw_wd"));
  sweeps->form()->addGridRow(QStringLiteral("optimizer.lr"), QStringLiteral("0.01"));
  sweeps->form()->setSteps(1'000'000);
  sweeps->form()->setOutputFolder(tmp.path() + QStringLiteral("/sweep"));
  sweeps->form()->setJobs(1);
  QString error;
  QVERIFY2(sweeps->launch(&error), qPrintable(error));
  QCOMPARE(sweeps->runningWork(), QStringLiteral("a sweep"));
  QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(tmp.path() + QStringLiteral("/sweep/runs/0000/metrics.jsonl")), 60000);
  QSignalSpy closing(w.get(), &MainWindow::closing);
  const auto question = [&w] { return w->findChild<QMessageBox*>(QStringLiteral("quitWhileTrainingBox")); };
  w->close();
  QTRY_VERIFY(question() && question()->isVisible());
  QVERIFY2(question()->text().contains(QLatin1String("Also running: a sweep.")), qPrintable(question()->text()));
  question()->findChild<QPushButton*>(QStringLiteral("stopAndQuitButton"))->click();
  QTRY_COMPARE_WITH_TIMEOUT(closing.count(), 1, 60000);
  QVERIFY(!sweeps->isRunning());  // stopped before the window closed, not in a destructor
  QCOMPARE(readStatus(tmp.path() + QStringLiteral("/sweep/runs/0000")), QStringLiteral("stopped"));
}

// Arrowing through the preset box replaced the whole form at each step, and the edits were
// gone with no undo; quitting lost an edited form too. Each replacement is now one step of
// Edit → Undo, and the form is there again at the next launch.
void TestAppWindow::presetChangesUndoAndTheFormOutlivesTheSession() {
  {
    MainWindow w;
    w.show();
    RunPanel* panel = w.page<TrainPage>()->runPanel();
    auto* box = panel->findChild<QComboBox*>(QStringLiteral("presetBox"));
    auto* undo = w.findChild<QAction*>(QStringLiteral("undoAction"));
    auto* redo = w.findChild<QAction*>(QStringLiteral("redoAction"));
    QVERIFY(box && undo && redo);
    QVERIFY(!undo->isEnabled());
    box->setCurrentIndex(box->findData(QStringLiteral("mnist_adamw_wd")));
    Q_EMIT box->activated(box->currentIndex());
    QVERIFY(panel->form()->setFieldText(QStringLiteral("steps"), QStringLiteral("77")));
    box->setFocus();
    QTest::keyClick(box, Qt::Key_Down);  // the arrow chooses the next preset at once
    QVERIFY(box->currentData().toString() != QLatin1String("mnist_adamw_wd"));
    QVERIFY(panel->form()->fieldText(QStringLiteral("steps")) != QLatin1String("77"));
    QVERIFY(undo->isEnabled());
    // "&Undo: <the step>", not the prefix and the step side by side (German read "&Rückgängig 1 Lauf …").
    QVERIFY2(undo->text().startsWith(QLatin1String("&Undo: ")) && undo->text().size() > 7, qPrintable(undo->text()));
    QCOMPARE(redo->text(), QStringLiteral("&Redo"));
    undo->trigger();
    QVERIFY2(redo->text().startsWith(QLatin1String("&Redo: ")), qPrintable(redo->text()));
    QCOMPARE(box->currentData().toString(), QStringLiteral("mnist_adamw_wd"));
    QCOMPARE(panel->form()->fieldText(QStringLiteral("steps")), QStringLiteral("77"));  // the edit is back
    redo->trigger();
    QVERIFY(panel->form()->fieldText(QStringLiteral("steps")) != QLatin1String("77"));
    undo->trigger();
    QCOMPARE(panel->form()->fieldText(QStringLiteral("steps")), QStringLiteral("77"));
    QVERIFY(QKeySequence::keyBindings(QKeySequence::Undo).contains(undo->shortcut()));
    // Edit → Undo follows the page shown: on Compare it is Compare's (empty) history, so
    // Ctrl+Z there cannot change the Train page's form unseen.
    QVERIFY(w.showPage(QStringLiteral("compare")));
    QVERIFY(!undo->isEnabled());
    QVERIFY(w.showPage(QStringLiteral("train")));
    QVERIFY(undo->isEnabled());
    w.close();
  }
  {
    MainWindow again;
    RunPanel* panel = again.page<TrainPage>()->runPanel();
    QCOMPARE(panel->findChild<QComboBox*>(QStringLiteral("presetBox"))->currentData().toString(), QStringLiteral("mnist_adamw_wd"));
    QCOMPARE(panel->form()->fieldText(QStringLiteral("steps")), QStringLiteral("77"));
  }
  // A saved form this version cannot read leaves the first-launch preset.
  QSettings().setValue(QStringLiteral("runSetup/config"), QStringLiteral("{not json"));
  {
    MainWindow third;
    QCOMPARE(third.page<TrainPage>()->runPanel()->findChild<QComboBox*>(QStringLiteral("presetBox"))->currentData().toString(),
             QStringLiteral("chars_small_cpu"));
  }
  QSettings().remove(QStringLiteral("runSetup"));
}

// Run → Remove from list stopped a training run at once, with no question.
void TestAppWindow::removingATrainingRunAsksFirst() {
  auto w = std::make_unique<MainWindow>();
  w->show();
  RunSession* s = startFromPanel(*w, tinyConfig(1'000'000));
  QVERIFY(s);
  QTRY_VERIFY_WITH_TIMEOUT(latestStep(s) > 0, 30000);
  const QString runDir = s->runDir();
  auto* remove = w->findChild<QAction*>(QStringLiteral("removeRunAction"));
  QVERIFY(remove);
  const auto box = [&w] { return w->findChild<QMessageBox*>(QStringLiteral("removeTrainingRunBox")); };
  remove->trigger();
  QTRY_VERIFY(box() && box()->isVisible());
  box()->button(QMessageBox::Cancel)->click();
  QTRY_VERIFY(!box());
  QCOMPARE(w->runs()->sessions().size(), 1);
  const int64_t before = latestStep(s);
  QTRY_VERIFY_WITH_TIMEOUT(latestStep(s) > before, 30000);  // still training
  remove->trigger();
  QTRY_VERIFY(box() && box()->isVisible());
  box()->findChild<QPushButton*>(QStringLiteral("stopAndRemoveButton"))->click();
  QTRY_VERIFY(w->runs()->sessions().isEmpty());
  QTRY_COMPARE_WITH_TIMEOUT(readStatus(runDir), QStringLiteral("stopped"), 30000);
}

void TestAppWindow::layoutIsRememberedBetweenLaunches() {
  // A desktop's window (the offscreen screen is 800×800, where the window now starts at the
  // screen's size and a squeezed layout would be replaced by the default one).
  {
    MainWindow w;
    w.resize(1600, 1000);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QDockWidget* acts = w.page<TrainPage>()->dock(QStringLiteral("activations"));
    QVERIFY(acts && acts->isVisible());
    acts->close();
    w.page<TrainPage>()->addDockWidget(Qt::LeftDockWidgetArea, w.page<TrainPage>()->dock(QStringLiteral("scalar_map")));
    w.close();
  }
  MainWindow again;
  QCOMPARE(again.size(), QSize(1600, 1000));  // the saved geometry, not the screen's size
  again.show();
  QVERIFY(QTest::qWaitForWindowExposed(&again));
  QVERIFY(!again.page<TrainPage>()->dock(QStringLiteral("activations"))->isVisible());
  TrainPage* page = again.page<TrainPage>();
  QCOMPARE(page->dockWidgetArea(page->dock(QStringLiteral("scalar_map"))), Qt::LeftDockWidgetArea);
  page->resetLayout();
  QVERIFY(page->dock(QStringLiteral("activations"))->isVisible());
  QCOMPARE(page->dockWidgetArea(page->dock(QStringLiteral("scalar_map"))), Qt::RightDockWidgetArea);
}

QTEST_MAIN(TestAppWindow)
#include "tst_app_window.moc"
