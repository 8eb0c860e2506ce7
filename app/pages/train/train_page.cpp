#include "app/pages/train/train_page.h"

#include "data/task_kinds.h"
#include "app/app_options.h"
#include "app/pages/train/dashboard.h"
#include "app/device_query.h"
#include "app/pages/train/run_list.h"
#include "app/runs/run_manager.h"
#include "app/pages/train/run_panel.h"
#include "app/pages/inspector/text_sample_panel.h"
#include "app/status_panel.h"
#include "run/run_layout.h"
#include "widgets/plot_view.h"

#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QSettings>
#include <QTimer>
#include <QUndoStack>

#include <algorithm>

namespace lwb::app {
namespace {

// Kept from before pages had their own settings, so saved layouts survive.
const QString kLayoutKey = QStringLiteral("trainPage/layout");

// The task of a run directory's config.json ("" while it is absent, unreadable or not JSON).
// A config is a few KB; one larger than 1 MiB is not read on the GUI thread.
QString taskOf(const QString& runDir) {
  QFile f(QDir(runDir).filePath(QString::fromLatin1(run::layout::kConfigFile)));
  if (runDir.isEmpty() || f.size() > (1 << 20) || !f.open(QIODevice::ReadOnly)) return {};
  return QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("task")).toString();
}

}  // namespace

TrainPage::TrainPage(const PageServices& services, QWidget* parent)
    : QMainWindow(parent), runs_(services.runs), status_(services.status), showPage_(services.showPage) {
  setObjectName(QStringLiteral("trainPage"));
  // Embedded as a page, not a top-level window.
  setWindowFlags(Qt::Widget);
  setDockNestingEnabled(true);
  setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowNestedDocks | QMainWindow::AllowTabbedDocks);
  createPanels(services);
  createActions();
  connectRuns(services);
  resetLayout();
  updateActions();
}

void TrainPage::createPanels(const PageServices& services) {
  // The dashboard first: it must have a run's plots before the run list makes it current.
  dashboard_ = new Dashboard(runs_, this);
  runPanel_ = new RunPanel(services.presets, this);
  runList_ = new RunList(runs_, this);
  connect(runList_, &RunList::settingsRequested, this, &TrainPage::useRunSettings);
  addDock(QStringLiteral("run_setup"), tr("Run setup"), runPanel_);
  addDock(QStringLiteral("runs"), tr("Runs"), runList_);
  for (const auto& panel : dashboard_->panels()) addDock(panel.id, panel.title, panel.plot);
  // Text from the run's newest checkpoint (issue 29 §4): the Inspector's panel and engine job.
  sample_ = new pages::TextSamplePanel(this);
  addDock(QStringLiteral("text_sample"), tr("Generate text"), sample_);
}

void TrainPage::createActions() {
  startAction_ = new QAction(tr("&Start run"), this);
  startAction_->setShortcuts({QKeySequence(Qt::Key_F5), QKeySequence(Qt::CTRL | Qt::Key_Return)});
  startAction_->setToolTip(tr("Start training the run panel's configuration (F5)"));
  connect(startAction_, &QAction::triggered, runPanel_, &RunPanel::requestStart);

  pauseAction_ = new QAction(tr("&Pause"), this);
  pauseAction_->setShortcut(QKeySequence(Qt::Key_F6));
  pauseAction_->setToolTip(tr("Pause or resume the selected run (F6)"));
  connect(pauseAction_, &QAction::triggered, this, [this] {
    RunSession* s = runs_->currentRun();
    if (!s) return;
    if (s->state() == RunState::Paused) s->resume();
    else s->pause();
  });

  stopAction_ = new QAction(tr("S&top"), this);
  stopAction_->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F5));
  stopAction_->setToolTip(tr("Stop the selected run after its current step (Shift+F5)"));
  connect(stopAction_, &QAction::triggered, this, [this] {
    if (RunSession* s = runs_->currentRun()) s->stop();
  });

  removeAction_ = new QAction(tr("&Remove from list"), this);
  removeAction_->setObjectName(QStringLiteral("removeRunAction"));
  connect(removeAction_, &QAction::triggered, this, [this] {
    RunSession* s = runs_->currentRun();
    if (!s) return;
    if (!s->threadRunning() || s->isFollowing()) {
      runs_->removeRun(s);  // ended or only followed: its folder keeps everything
      return;
    }
    // Removing a run that trains stops it: asked first (window-modal, not blocking the runs).
    auto* box = new QMessageBox(QMessageBox::Question, tr("Remove a training run?"),
                                tr("%1 is still training. Stop it (it writes a resumable checkpoint) and remove it from the list? "
                                   "Its run folder is kept.")
                                    .arg(s->label()),
                                QMessageBox::Cancel, this);
    box->setObjectName(QStringLiteral("removeTrainingRunBox"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton* remove = box->addButton(tr("Stop and remove"), QMessageBox::AcceptRole);
    remove->setObjectName(QStringLiteral("stopAndRemoveButton"));
    box->setDefaultButton(QMessageBox::Cancel);
    box->setWindowModality(Qt::WindowModal);
    QPointer<RunSession> session(s);
    connect(remove, &QPushButton::clicked, this, [this, session] {
      if (session) runs_->removeRun(session);
    });
    box->open();
  });

  settingsAction_ = new QAction(tr("&Use the selected run's settings"), this);
  settingsAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_U));
  settingsAction_->setToolTip(tr("Load the selected run's config.json into Run setup, to start a new run with the same settings"));
  connect(settingsAction_, &QAction::triggered, this, [this] {
    if (const RunSession* s = runs_->currentRun()) useRunSettings(s->runDir());
  });

  sampleAction_ = new QAction(tr("&Generate text…"), this);
  sampleAction_->setToolTip(tr("Sample text from the selected character-level run's newest checkpoint (prompt, length, temperature)"));
  connect(sampleAction_, &QAction::triggered, this, &TrainPage::showTextSample);

  runMenu_ = new QMenu(tr("&Run"), this);
  runMenu_->addAction(startAction_);
  runMenu_->addAction(pauseAction_);
  runMenu_->addAction(stopAction_);
  runMenu_->addSeparator();
  runMenu_->addAction(sampleAction_);
  runMenu_->addAction(settingsAction_);
  runMenu_->addSeparator();
  runMenu_->addAction(removeAction_);
}

// Run setup's preset and run-settings changes (a text field's own Ctrl+Z still works inside
// the field).
QUndoStack* TrainPage::undoStack() const { return runPanel_->undoStack(); }

void TrainPage::useRunSettings(const QString& runDir) {
  const QString error = runPanel_->loadRunSettings(runDir);
  if (!error.isEmpty()) {
    status_->showMessage(error);
    return;
  }
  QDockWidget* d = dock(QStringLiteral("run_setup"));
  d->show();
  d->raise();
}

bool TrainPage::currentRunIsChars() {
  const RunSession* s = runs_->currentRun();
  if (!s || s->runDir().isEmpty()) return false;
  auto it = charsRuns_.find(s->runDir());
  if (it == charsRuns_.end()) {
    const QString task = taskOf(s->runDir());
    if (task.isEmpty()) return false;  // no config yet: asked again on the next update
    it = charsRuns_.insert(s->runDir(), data::generatesText(task.toStdString()));
  }
  return it.value();
}

void TrainPage::showTextSample() {
  const RunSession* s = runs_->currentRun();
  if (!s || !currentRunIsChars()) return;
  // The run directory: the sampler takes its newest checkpoint when Generate is pressed, so a
  // running run's latest checkpoint is used.
  sample_->setCheckpoint(s->runDir());
  QDockWidget* d = dock(QStringLiteral("text_sample"));
  d->show();
  d->raise();
  sample_->promptEdit()->setFocus();
}

void TrainPage::connectRuns(const PageServices& services) {
  connect(runPanel_, &RunPanel::startRequested, this, [this](const run::RunConfig& config, const QString& label) {
    QString error;
    if (!startRun(config, label, &error)) QMessageBox::warning(this, tr("Cannot start the run"), error);
  });
  connect(runPanel_, &RunPanel::canStartChanged, this, &TrainPage::updateActions);
  connect(runs_, &RunManager::currentRunChanged, this, &TrainPage::updateActions);
  connect(runs_, &RunManager::sessionStateChanged, this, [this](RunSession* s) {
    if (s == runs_->currentRun()) updateActions();
  });
  connect(runs_, &RunManager::deltasReady, this, &TrainPage::updateActions);
  connect(dashboard_, &Dashboard::refreshed, this, &TrainPage::raiseOptionalPanels);
  connect(runs_, &RunManager::currentRunChanged, this, &TrainPage::raiseOptionalPanels);
  DeviceQuery* devices = services.devices;
  connect(devices, &DeviceQuery::ready, this, [this, devices] { runPanel_->setDevices(devices->devices()); });
}

bool TrainPage::startRun(const run::RunConfig& config, const QString& label, QString* error) {
  const int processes = runPanel_->processes();
  if (!(processes > 1 ? runs_->startRunInProcesses(config, label, processes, error) : runs_->startRun(config, label, error))) {
    status_->showMessage(tr("Cannot start: %1").arg(*error));
    return false;
  }
  // F5 works from every page: the new run (now current, so selected in the run list) is
  // watched here.
  if (showPage_) showPage_(id());
  return true;
}

void TrainPage::raiseOptionalPanels() {
  // Once per current run: a Manifold Muon run shows its Stiefel band, an ICL run (activation
  // RMS per module) its activation RMS panel.
  const RunSession* s = runs_->currentRun();
  if (!s || s->id() == optionalRaisedFor_) return;
  const run::StepMetrics* latest = s->history().latest();
  if (!latest) return;
  optionalRaisedFor_ = s->id();
  const auto open = [this](const char* id) {
    QDockWidget* d = dock(QString::fromLatin1(id));
    d->show();
    d->raise();
  };
  if (!latest->stiefel.empty()) {
    dock(QStringLiteral("tangency"))->show();
    open("stiefel");
  }
  // The ICL task's levels come from its config (no key); chars' n-gram levels carry their
  // summary key and are no sign of an ICL run.
  const auto& levels = s->history().referenceLevels();
  if (!levels.empty() && levels.front().key.empty()) open("activation_rms");
  if (latest->attlipMovement) open("attention");  // an AttLip run reports its solver
}

void TrainPage::updateActions() {
  const RunSession* current = runs_->currentRun();
  startAction_->setEnabled(runPanel_->canStart());
  const RunState st = current ? current->state() : RunState::Finished;
  pauseAction_->setEnabled(current && current->canPause() && (st == RunState::Running || st == RunState::Paused));
  pauseAction_->setText(st == RunState::Paused ? tr("&Resume") : tr("&Pause"));
  stopAction_->setEnabled(current && isActive(st) && st != RunState::Stopping);
  stopAction_->setText(current && current->isFollowing() ? tr("S&top following") : tr("S&top"));
  removeAction_->setEnabled(current != nullptr);
  settingsAction_->setEnabled(current && !current->runDir().isEmpty());
  sampleAction_->setEnabled(currentRunIsChars());
}

bool TrainPage::startPreset(const QString& presetId, const QStringList& overrides, QString* error) {
  if (!runPanel_->selectPreset(presetId)) {
    *error = tr("--preset: unknown preset '%1' (known: %2)").arg(presetId, runPanel_->catalog().ids().join(QStringLiteral(", ")));
    return false;
  }
  if (const QString e = runPanel_->applyOverrides(overrides); !e.isEmpty()) {
    *error = tr("preset %1: %2").arg(presetId, e);
    return false;
  }
  if (!runPanel_->canStart()) {
    *error = tr("preset %1: %2").arg(presetId, runPanel_->validationError());
    return false;
  }
  // A start from the command line reports the reason on stderr and exits 2: no dialog may
  // hold up a scripted run.
  QString why;
  if (!startRun(runPanel_->runConfig(), runPanel_->runLabel(), &why)) {
    *error = tr("preset %1: the run could not be started: %2").arg(presetId, why);
    return false;
  }
  return true;
}

bool TrainPage::applyOptions(const AppOptions& options, QString* error) {
  runPanel_->setProcesses(options.processes);
  if (options.preset.isEmpty()) return true;
  if (options.start) return startPreset(options.preset, options.overrides, error);
  if (!runPanel_->selectPreset(options.preset)) {
    *error = tr("--preset: unknown preset '%1' (known: %2)").arg(options.preset, runPanel_->catalog().ids().join(QStringLiteral(", ")));
    return false;
  }
  if (const QString e = runPanel_->applyOverrides(options.overrides); !e.isEmpty() && !options.overrides.isEmpty()) {
    *error = e;
    return false;
  }
  return true;
}

QWidget* TrainPage::firstFocus() const { return runPanel_->presetBox(); }

void TrainPage::saveSettings(QSettings& settings) const {
  const QByteArray state = isVisible() && settled_ ? saveState(kLayoutVersion) : shownLayout_;
  if (!state.isEmpty()) settings.setValue(kLayoutKey, state);
  runPanel_->saveSettings(settings);
}

void TrainPage::restoreSettings(const QSettings& settings) {
  const QByteArray state = settings.value(kLayoutKey).toByteArray();
  restored_ = !state.isEmpty() && restoreState(state, kLayoutVersion);
  runPanel_->restoreSettings(settings);
}

bool TrainPage::layoutIsUsable() const {
  return std::all_of(docks_.begin(), docks_.end(), [](const QDockWidget* d) {
    return !d->isVisible() || (d->width() >= kMinDockSize.width() && d->height() >= kMinDockSize.height());
  });
}

QList<TourStop> TrainPage::tourStops() const {
  QList<TourStop> stops{
      {dock(QStringLiteral("run_setup"))->windowTitle(),
       tr("The run's configuration: a preset, or every field by hand. The engine checks each value as you type; "
          "Start run (F5) trains it on its own thread.")},
      {dock(QStringLiteral("runs"))->windowTitle(),
       tr("This session's runs, each in its own colour, with state, step and speed. The selected run is the one "
          "the single-run plots and the status bar follow.")}};
  for (const Dashboard::Panel& p : dashboard_->panels()) stops.push_back({p.title, p.what});
  stops.push_back({dock(QStringLiteral("text_sample"))->windowTitle(),
                   tr("Hidden until Run ▸ Generate text… (character runs): text from the run's newest checkpoint, at a "
                      "temperature you choose.")});
  return stops;
}

void TrainPage::beforeScreenshot() { dashboard_->replotNow(); }

QDockWidget* TrainPage::addDock(const QString& id, const QString& title, QWidget* content) {
  auto* dock = new QDockWidget(title, this);
  dock->setObjectName(id + QStringLiteral("_dock"));  // saveState() keys on it
  dock->setWidget(content);
  dock->setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
  docks_.push_back(dock);
  return dock;
}

QDockWidget* TrainPage::dock(const QString& id) const {
  for (QDockWidget* d : docks_)
    if (d->objectName() == id + QStringLiteral("_dock")) return d;
  return nullptr;
}

void TrainPage::resetLayout() {
  for (QDockWidget* d : docks_) {
    d->setFloating(false);  // before removing: a removed dock ignores it and floats on
    removeDockWidget(d);
  }
  QDockWidget* setup = dock(QStringLiteral("run_setup"));
  QDockWidget* runs = dock(QStringLiteral("runs"));
  QDockWidget* loss = dock(QStringLiteral("loss"));
  QDockWidget* norms = dock(QStringLiteral("norms"));
  QDockWidget* bound = dock(QStringLiteral("bound"));
  QDockWidget* spectrum = dock(QStringLiteral("spectrum"));
  QDockWidget* acts = dock(QStringLiteral("activations"));
  QDockWidget* map = dock(QStringLiteral("scalar_map"));
  addDockWidget(Qt::LeftDockWidgetArea, setup);
  addDockWidget(Qt::LeftDockWidgetArea, runs);
  splitDockWidget(setup, runs, Qt::Vertical);
  addDockWidget(Qt::RightDockWidgetArea, loss);
  splitDockWidget(loss, spectrum, Qt::Horizontal);
  splitDockWidget(loss, norms, Qt::Vertical);
  splitDockWidget(norms, bound, Qt::Vertical);
  splitDockWidget(spectrum, acts, Qt::Vertical);
  splitDockWidget(acts, map, Qt::Vertical);
  // The optional panels (Manifold Muon's Stiefel band and tangency, activation RMS per module,
  // the attention solver) share tabs with the bound and the activation panels and stay closed
  // until a run that reports them becomes current (raiseOptionalPanels opens them).
  const QList<QDockWidget*> optionalPanels{dock(QStringLiteral("stiefel")), dock(QStringLiteral("tangency")),
                                    dock(QStringLiteral("activation_rms")), dock(QStringLiteral("attention"))};
  tabifyDockWidget(bound, optionalPanels[0]);
  tabifyDockWidget(bound, optionalPanels[1]);
  tabifyDockWidget(acts, optionalPanels[2]);
  tabifyDockWidget(bound, optionalPanels[3]);
  // "Generate text" waits for its action, tabbed with the scalar map.
  QDockWidget* sample = dock(QStringLiteral("text_sample"));
  tabifyDockWidget(map, sample);
  for (QDockWidget* d : docks_) d->setVisible(!optionalPanels.contains(d) && d != sample);
  bound->raise();
  acts->raise();
  optionalRaisedFor_.clear();
  compact_ = false;
  if (isVisible()) {
    if (smallWindow()) compactLayout();
    applyDefaultSizes();
  }
}

bool TrainPage::smallWindow() const { return width() < 1400 || height() < 800; }

void TrainPage::compactLayout() {
  // A projector's 1280×720: six plots in a 2 × 3 grid beside Run setup left some 27 px wide
  // or 13 px tall. Two rows of two instead, the weight norms in a tab behind the loss and the
  // constraint map behind the singular values (a click away, and View lists them).
  QDockWidget* loss = dock(QStringLiteral("loss"));
  QDockWidget* spectrum = dock(QStringLiteral("spectrum"));
  tabifyDockWidget(loss, dock(QStringLiteral("norms")));
  tabifyDockWidget(spectrum, dock(QStringLiteral("scalar_map")));
  loss->raise();
  spectrum->raise();
  compact_ = true;
}

void TrainPage::applyDefaultSizes() {
  // The form needs ~330 px; the rest is split evenly between the two plot columns.
  const int plots = std::max(600, width() - 340);
  resizeDocks({dock(QStringLiteral("run_setup")), dock(QStringLiteral("loss")), dock(QStringLiteral("spectrum"))},
              {340, plots / 2, plots / 2}, Qt::Horizontal);
  resizeDocks({dock(QStringLiteral("run_setup")), dock(QStringLiteral("runs"))}, {std::max(300, height() - 220), 200},
              Qt::Vertical);
  if (compact_) {
    const int row = std::max(150, height() / 2);
    resizeDocks({dock(QStringLiteral("loss")), dock(QStringLiteral("bound"))}, {row, row}, Qt::Vertical);
    resizeDocks({dock(QStringLiteral("spectrum")), dock(QStringLiteral("activations"))}, {row, row}, Qt::Vertical);
    return;
  }
  const int row = std::max(150, height() / 3);
  resizeDocks({dock(QStringLiteral("loss")), dock(QStringLiteral("norms")), dock(QStringLiteral("bound"))}, {row, row, row},
              Qt::Vertical);
  resizeDocks({dock(QStringLiteral("spectrum")), dock(QStringLiteral("activations")), dock(QStringLiteral("scalar_map"))},
              {row, row, row}, Qt::Vertical);
}

void TrainPage::showEvent(QShowEvent* event) {
  QMainWindow::showEvent(event);
  if (settled_ || settlePending_) return;
  settlePending_ = true;
  // After the event loop has laid the window out, so width() and height() are final.
  QTimer::singleShot(0, this, &TrainPage::settleLayout);
}

void TrainPage::settleLayout() {
  settlePending_ = false;
  // Hidden again before the event loop ran (`--page cliplab` shows the window on this page
  // and switches away at once): sizes taken now are not real, so wait for the next show.
  if (!isVisible()) return;
  settled_ = true;
  if (!restored_) {
    if (smallWindow()) compactLayout();
    applyDefaultSizes();
  }
  else if (!layoutIsUsable()) resetLayout();  // e.g. a layout saved while the page was hidden
}

void TrainPage::hideEvent(QHideEvent* event) {
  // Only a layout that was laid out at the page's real size is worth remembering: one taken
  // before settleLayout() ran holds the docks' unshown sizes (Run setup at half the width).
  if (settled_) shownLayout_ = saveState(kLayoutVersion);
  QMainWindow::hideEvent(event);
}

}  // namespace lwb::app
