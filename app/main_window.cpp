#include "app/main_window.h"

#include "app/app_icon.h"
#include "app/dashboard.h"
#include "app/pages/workbench_pages.h"
#include "app/run_list.h"
#include "app/run_manager.h"
#include "app/run_panel.h"
#include "app/status_panel.h"
#include "app/train_page.h"
#include "common/device_info.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPixmap>
#include <QPushButton>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTimer>
#include <QToolBar>
#include <QtConcurrent/QtConcurrentRun>

namespace lwb::app {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  setObjectName(QStringLiteral("mainWindow"));
  setWindowTitle(tr("Lipschitz Workbench"));
  setWindowIcon(appIcon());
  runs_ = new RunManager(this);
  stack_ = new QStackedWidget(this);
  setCentralWidget(stack_);
  status_ = new StatusPanel(statusBar());

  createActions();
  createMenus();
  trainPage_ = new TrainPage(PresetCatalog::load(), stack_);
  addPage(QStringLiteral("train"), tr("&Train"), trainPage_, QKeySequence(Qt::CTRL | Qt::Key_1));
  workbenchPages_ = pages::addWorkbenchPages(*this, [this] {
    QStringList dirs;
    for (const RunSession* s : runs_->sessions()) dirs << s->runDir();
    return dirs;
  });
  connectRuns();
  restoreSettings();
  updateActions();
  queryDevices();
}

MainWindow::~MainWindow() {
  // Runs first: their last signals must not reach half-destroyed pages.
  delete runs_;
  runs_ = nullptr;
}

void MainWindow::createActions() {
  startAction_ = new QAction(tr("&Start run"), this);
  startAction_->setShortcuts({QKeySequence(Qt::Key_F5), QKeySequence(Qt::CTRL | Qt::Key_Return)});
  startAction_->setToolTip(tr("Start training the run panel's configuration (F5)"));
  connect(startAction_, &QAction::triggered, this, &MainWindow::startFromPanel);

  pauseAction_ = new QAction(tr("&Pause"), this);
  pauseAction_->setShortcut(QKeySequence(Qt::Key_F6));
  pauseAction_->setToolTip(tr("Pause or resume the selected run (F6)"));
  connect(pauseAction_, &QAction::triggered, this, &MainWindow::togglePause);

  stopAction_ = new QAction(tr("S&top"), this);
  stopAction_->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F5));
  stopAction_->setToolTip(tr("Stop the selected run after its current step (Shift+F5)"));
  connect(stopAction_, &QAction::triggered, this, &MainWindow::stopCurrent);

  openAction_ = new QAction(tr("&Open run folder…"), this);
  openAction_->setShortcut(QKeySequence::Open);
  openAction_->setToolTip(tr("Open a run directory and follow it live (Ctrl+O)"));
  connect(openAction_, &QAction::triggered, this, &MainWindow::openRunDialog);

  removeAction_ = new QAction(tr("&Remove from list"), this);
  connect(removeAction_, &QAction::triggered, this, [this] {
    if (current_) runs_->removeRun(current_);
  });
  resetLayoutAction_ = new QAction(tr("Reset &layout"), this);
  pageActions_ = new QActionGroup(this);
}

void MainWindow::createMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(openAction_);
  file->addAction(tr("Runs &folder…"), this, &MainWindow::chooseRunsFolder);
  file->addSeparator();
  file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

  QMenu* run = menuBar()->addMenu(tr("&Run"));
  run->addAction(startAction_);
  run->addAction(pauseAction_);
  run->addAction(stopAction_);
  run->addSeparator();
  run->addAction(removeAction_);

  QMenu* view = menuBar()->addMenu(tr("&View"));
  view->setObjectName(QStringLiteral("viewMenu"));

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(tr("&About"), this, [this] {
    QMessageBox::about(this, tr("About Lipschitz Workbench"),
                       tr("<b>Lipschitz Workbench</b> %1<br>Training neural networks with enforced Lipschitz bounds, "
                          "and seeing why it works.<br>Headless runs: <tt>lipschitz-cli train</tt>.")
                           .arg(QApplication::applicationVersion()));
  });

  QToolBar* bar = addToolBar(tr("Run"));
  bar->setObjectName(QStringLiteral("runToolBar"));
  bar->setToolButtonStyle(Qt::ToolButtonTextOnly);
  bar->addAction(startAction_);
  bar->addAction(pauseAction_);
  bar->addAction(stopAction_);
  bar->addSeparator();
  bar->addAction(openAction_);
}

void MainWindow::addPage(const QString& id, const QString& title, QWidget* page, const QKeySequence& shortcut) {
  pages_.insert(id, page);
  stack_->addWidget(page);
  auto* action = new QAction(title, pageActions_);
  action->setCheckable(true);
  action->setData(id);
  if (!shortcut.isEmpty()) action->setShortcut(shortcut);
  connect(action, &QAction::triggered, this, [this, id] { showPage(id); });
  QMenu* view = menuBar()->findChild<QMenu*>(QStringLiteral("viewMenu"));
  view->addAction(action);
  if (auto* pageWindow = qobject_cast<QMainWindow*>(page)) {
    // The page's docks can be shown again from the View menu after being closed.
    QMenu* docks = view->addMenu(tr("%1 panels").arg(QString(title).remove(QLatin1Char('&'))));
    for (auto* dock : pageWindow->findChildren<QDockWidget*>(QString(), Qt::FindDirectChildrenOnly))
      docks->addAction(dock->toggleViewAction());
    if (page == trainPage_) {
      docks->addSeparator();
      docks->addAction(resetLayoutAction_);
      connect(resetLayoutAction_, &QAction::triggered, trainPage_, &TrainPage::resetLayout);
    }
  }
  if (pages_.size() == 1) showPage(id);
}

bool MainWindow::showPage(const QString& id) {
  QWidget* page = pages_.value(id);
  if (!page) return false;
  stack_->setCurrentWidget(page);
  for (QAction* a : pageActions_->actions()) a->setChecked(a->data().toString() == id);
  return true;
}

QString MainWindow::currentPageId() const { return pages_.key(stack_->currentWidget()); }

void MainWindow::connectRuns() {
  Dashboard* dash = trainPage_->dashboard();
  RunList* list = trainPage_->runList();
  RunPanel* panel = trainPage_->runPanel();

  connect(runs_, &RunManager::sessionAdded, this, [this, dash, list](RunSession* s) {
    dash->addRun(s);
    list->addRun(s);
    list->setCurrentRun(s);  // the newest run is the one to watch
    setCurrentRun(s);
  });
  connect(runs_, &RunManager::sessionRemoved, this, [dash, list](RunSession* s) {
    dash->removeRun(s);
    list->removeRun(s);
  });
  connect(runs_, &RunManager::sessionStateChanged, this, [this, list](RunSession* s) {
    list->refresh(s);
    if (s == current_) {
      status_->refresh();
      updateActions();
    }
  });
  connect(runs_, &RunManager::deltasReady, this, [this, dash, list](const QList<SessionDelta>& batch) {
    dash->apply(batch);
    for (const auto& sd : batch) list->refresh(sd.session);
    status_->refresh();
    updateActions();
  });
  connect(runs_, &RunManager::allThreadsFinished, this, [this] {
    if (closeRequested_) close();
  });
  connect(list, &RunList::currentRunChanged, this, &MainWindow::setCurrentRun);
  connect(list, &RunList::pauseRequested, this, [](RunSession* s) { s->pause(); });
  connect(list, &RunList::resumeRequested, this, [](RunSession* s) { s->resume(); });
  connect(list, &RunList::stopRequested, this, [](RunSession* s) { s->stop(); });
  connect(list, &RunList::removeRequested, this, [this](RunSession* s) { runs_->removeRun(s); });
  connect(panel, &RunPanel::startRequested, this, [this](const nlohmann::json& config, const QString& label) {
    QString error;
    if (!runs_->startRun(config, label, &error)) {
      status_->stateLabel()->setText(tr("Cannot start: %1").arg(error));
      QMessageBox::warning(this, tr("Cannot start the run"), error);
    }
  });
  connect(panel->form(), &RunForm::validityChanged, this, &MainWindow::updateActions);
}

void MainWindow::setCurrentRun(RunSession* s) {
  current_ = s;
  trainPage_->dashboard()->setCurrentRun(s);
  status_->showRun(s);
  updateActions();
}

void MainWindow::updateActions() {
  startAction_->setEnabled(trainPage_->runPanel()->canStart());
  const RunState st = current_ ? current_->state() : RunState::Finished;
  const bool training = current_ && !current_->isFollowing();
  pauseAction_->setEnabled(training && (st == RunState::Running || st == RunState::Paused));
  pauseAction_->setText(st == RunState::Paused ? tr("&Resume") : tr("&Pause"));
  stopAction_->setEnabled(current_ && isActive(st) && st != RunState::Stopping);
  stopAction_->setText(current_ && current_->isFollowing() ? tr("S&top following") : tr("S&top"));
  removeAction_->setEnabled(current_ != nullptr);
}

void MainWindow::startFromPanel() { trainPage_->runPanel()->requestStart(); }

void MainWindow::togglePause() {
  if (!current_) return;
  if (current_->state() == RunState::Paused) current_->resume();
  else current_->pause();
}

void MainWindow::stopCurrent() {
  if (current_) current_->stop();
}

void MainWindow::openRunDialog() {
  const QString dir = QFileDialog::getExistingDirectory(this, tr("Open a run directory"), runs_->runsFolder());
  if (dir.isEmpty()) return;
  QString error;
  if (!openRunDirectory(dir, &error)) QMessageBox::warning(this, tr("Cannot open the run"), error);
}

void MainWindow::chooseRunsFolder() {
  const QString dir = QFileDialog::getExistingDirectory(this, tr("Folder for new run directories"), runs_->runsFolder());
  if (dir.isEmpty()) return;
  runs_->setRunsFolder(dir);
  QSettings().setValue(QStringLiteral("runs/folder"), dir);
}

bool MainWindow::startPreset(const QString& presetId, const QStringList& overrides, QString* error) {
  RunPanel* panel = trainPage_->runPanel();
  if (!panel->selectPreset(presetId)) {
    *error = tr("--preset: unknown preset '%1' (known: %2)").arg(presetId, panel->catalog().ids().join(QStringLiteral(", ")));
    return false;
  }
  if (const QString e = panel->applyOverrides(overrides); !e.isEmpty()) {
    *error = tr("preset %1: %2").arg(presetId, e);
    return false;
  }
  if (!panel->canStart()) {
    *error = tr("preset %1: %2").arg(presetId, panel->form()->validationError());
    return false;
  }
  const int before = runs_->sessions().size();
  panel->requestStart();
  if (runs_->sessions().size() == before) {
    *error = tr("preset %1: the run could not be started (runs folder %2)").arg(presetId, runs_->runsFolder());
    return false;
  }
  return true;
}

bool MainWindow::openRunDirectory(const QString& runDir, QString* error) { return runs_->followRun(runDir, error) != nullptr; }

bool MainWindow::saveScreenshot(const QString& path, QString* error) {
  runs_->flush();
  trainPage_->dashboard()->replotNow();
  const QFileInfo fi(path);
  if (!fi.absoluteDir().exists() && !QDir().mkpath(fi.absolutePath())) {
    *error = tr("%1: cannot create the folder").arg(path);
    return false;
  }
  const QPixmap pm = grab();
  if (pm.isNull() || !pm.save(path, "PNG")) {
    *error = tr("%1: cannot write the PNG").arg(path);
    return false;
  }
  return true;
}

void MainWindow::scheduleScreenshot(const QString& path, double seconds) {
  QTimer::singleShot(static_cast<int>(seconds * 1000), this, [this, path] {
    QString error;
    const bool ok = saveScreenshot(path, &error);
    if (!ok) qWarning("%s", qPrintable(error));
    finishAndExit(ok ? 0 : 1);
  });
}

void MainWindow::finishAndExit(int code) {
  exitCode_ = code;
  close();
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (runs_ && runs_->anyThreadRunning() && !closeRequested_) {
    // Stop every run after its current step (checkpoint + "stopped" status written), and
    // close when the last thread has finished; the GUI stays responsive meanwhile.
    closeRequested_ = true;
    runs_->stopAll();
    status_->stateLabel()->setText(tr("Stopping runs before closing…"));
    event->ignore();
    return;
  }
  saveSettings();
  Q_EMIT closing();
  event->accept();
  if (exitCode_ >= 0) QCoreApplication::exit(exitCode_);
}

void MainWindow::restoreSettings() {
  QSettings s;
  if (qEnvironmentVariableIsEmpty("LWB_RUNS_DIR")) {
    const QString folder = s.value(QStringLiteral("runs/folder")).toString();
    if (!folder.isEmpty()) runs_->setRunsFolder(folder);
  }
  if (!restoreGeometry(s.value(QStringLiteral("mainWindow/geometry")).toByteArray())) resize(1600, 1000);
  trainPage_->restoreLayout(s.value(QStringLiteral("trainPage/layout")).toByteArray());
  showPage(s.value(QStringLiteral("mainWindow/page"), QStringLiteral("train")).toString());
}

void MainWindow::saveSettings() {
  QSettings s;
  s.setValue(QStringLiteral("mainWindow/geometry"), saveGeometry());
  s.setValue(QStringLiteral("trainPage/layout"), trainPage_->saveLayout());
  s.setValue(QStringLiteral("mainWindow/page"), currentPageId());
}

void MainWindow::queryDevices() {
  // With CUDA the first query creates a context (seconds): never on the GUI thread.
  auto* watcher = new QFutureWatcher<std::vector<DeviceInfo>>(this);
  connect(watcher, &QFutureWatcher<std::vector<DeviceInfo>>::finished, this, [this, watcher] {
    const std::vector<DeviceInfo> devices = watcher->result();
    watcher->deleteLater();
    std::vector<DeviceChoice> choices;
    for (const DeviceInfo& d : devices) {
      const bool cuda = d.id.rfind("cuda", 0) == 0;
      // The config names "cuda" (LibTorch's current device), so one GPU entry is offered.
      if (cuda && std::any_of(choices.begin(), choices.end(), [](const DeviceChoice& c) { return c.configValue == QLatin1String("cuda"); }))
        continue;
      QString label = QString::fromStdString(d.name);
      if (cuda && d.freeBytes >= 0)
        label += tr(" — %1 free of %2").arg(QString::fromStdString(formatBytes(d.freeBytes)), QString::fromStdString(formatBytes(d.totalBytes)));
      choices.push_back({cuda ? QStringLiteral("cuda") : QStringLiteral("cpu"), label});
    }
    trainPage_->runPanel()->form()->setDevices(choices);
    status_->setDevices(devices);
  });
  watcher->setFuture(QtConcurrent::run([] { return availableDevices(); }));
}

}  // namespace lwb::app
