#include "app/main_window.h"

#include "app/app_icon.h"
#include "app/app_options.h"
#include "app/device_query.h"
#include "app/language.h"
#include "app/pages/page_registry.h"
#include "app/runs/run_manager.h"
#include "app/shortcuts_dialog.h"
#include "app/runs/run_session.h"
#include "app/status_panel.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QPixmap>
#include <QPushButton>
#include <QSettings>
#include <QScreen>
#include <QScrollArea>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTimer>
#include <QStyle>
#include <QToolBar>
#include <QUndoGroup>
#include <QUndoStack>

#include <cstdio>
#include <cstring>

namespace lwb::app {
namespace {

const QString kTourShownKey = QStringLiteral("tour/shown");

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
  setObjectName(QStringLiteral("mainWindow"));
  setWindowTitle(tr("Lipschitz Workbench"));
  setWindowIcon(appIcon());
  runs_ = new RunManager(this);
  devices_ = new DeviceQuery(this);
  status_ = new StatusPanel(statusBar(), runs_);
  stack_ = new QStackedWidget(this);
  setCentralWidget(stack_);
  pageActions_ = new QActionGroup(this);

  const PageServices services{runs_, status_, devices_, PresetCatalog::load(), [this](const QString& id) { showPage(id); }};
  for (Page* page : pages::createPages(services, stack_)) addPage(page);
  createMenus();

  connect(devices_, &DeviceQuery::ready, status_, [this] { status_->setDevices(devices_->devices()); });
  connect(runs_, &RunManager::allThreadsFinished, this, [this] {
    if (closeRequested_) close();
  });
  restoreSettings();
  devices_->start();
}

MainWindow::~MainWindow() {
  // Runs first: their last signals must not reach half-destroyed pages.
  delete runs_;
  runs_ = nullptr;
}

void MainWindow::addPage(Page* page) {
  pages_.push_back(page);
  // Each page in a scroll area: a page is as wide as its content needs (a row of buttons, a
  // German label), and without one the largest page's minimum (Compare, 1,477 px in German)
  // was the window's, so on a 1280×720 or 1024×768 projector the window reached past the
  // screen's edge on every page. Wider than that minimum, the page fills the window and no
  // scroll bar shows; narrower, the page scrolls instead of being cut off.
  auto* frame = new QScrollArea(stack_);
  frame->setObjectName(page->id() + QStringLiteral("PageFrame"));
  frame->setFrameShape(QFrame::NoFrame);
  frame->setWidgetResizable(true);
  frame->setWidget(page->widget());
  stack_->addWidget(frame);
  // One action per page, in the View menu and on the "Pages" tool bar alike, so shortcut,
  // check mark and button agree.
  auto* action = new QAction(page->title(), pageActions_);
  action->setCheckable(true);
  action->setData(page->id());
  if (!page->shortcut().isEmpty()) action->setShortcut(page->shortcut());
  connect(action, &QAction::triggered, this, [this, id = page->id()] { showPage(id); });
}

void MainWindow::createMenus() {
  auto* open = new QAction(tr("&Open run folder…"), this);
  open->setShortcut(QKeySequence::Open);
  open->setToolTip(tr("Open a run directory and follow it live (Ctrl+O)"));
  connect(open, &QAction::triggered, this, &MainWindow::openRunDialog);

  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(open);
  file->addAction(tr("Runs &folder…"), this, &MainWindow::chooseRunsFolder);
  file->addSeparator();
  file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

  // Edit: undo and redo of the shown page (Run setup's form changes, Compare's removals).
  undoGroup_ = new QUndoGroup(this);
  for (Page* page : pages_)
    if (QUndoStack* stack = page->undoStack()) undoGroup_->addStack(stack);
  QMenu* edit = menuBar()->addMenu(tr("&Edit"));
  edit->setObjectName(QStringLiteral("editMenu"));
  // Our own actions, not QUndoGroup's: with a prefix those set "&Undo" and the step's text side
  // by side ("&Rückgängig 1 Lauf … entfernen" in German), without one they lose the menu letter.
  const auto follow = [this](QAction* action, const QString& plain, const QString& withStep, auto canChanged, auto textChanged) {
    action->setText(plain);
    action->setEnabled(false);
    connect(undoGroup_, canChanged, action, &QAction::setEnabled);
    connect(undoGroup_, textChanged, action, [action, plain, withStep](const QString& step) {
      action->setText(step.isEmpty() ? plain : withStep.arg(step));
    });
  };
  auto* undo = new QAction(this);
  follow(undo, tr("&Undo"), tr("&Undo: %1"), &QUndoGroup::canUndoChanged, &QUndoGroup::undoTextChanged);
  connect(undo, &QAction::triggered, undoGroup_, &QUndoGroup::undo);
  undo->setShortcut(QKeySequence::Undo);
  undo->setObjectName(QStringLiteral("undoAction"));
  auto* redo = new QAction(this);
  follow(redo, tr("&Redo"), tr("&Redo: %1"), &QUndoGroup::canRedoChanged, &QUndoGroup::redoTextChanged);
  connect(redo, &QAction::triggered, undoGroup_, &QUndoGroup::redo);
  redo->setShortcuts({QKeySequence::Redo, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z)});
  redo->setObjectName(QStringLiteral("redoAction"));
  edit->addAction(undo);
  edit->addAction(redo);

  for (Page* page : pages_)
    for (QMenu* menu : page->menus()) menuBar()->addMenu(menu);

  viewMenu_ = menuBar()->addMenu(tr("&View"));
  viewMenu_->setObjectName(QStringLiteral("viewMenu"));
  const QList<QAction*> pageActions = pageActions_->actions();  // in pages_' order
  for (qsizetype i = 0; i < pages_.size(); ++i) {
    viewMenu_->addAction(pageActions[i]);
    addPanelsMenu(pages_[i]);
  }
  viewMenu_->addSeparator();
  resetLayoutAction_ = viewMenu_->addAction(tr("Reset la&yout"), this, [this] {
    if (Page* page = currentPage()) page->resetLayout();
  });
  resetLayoutAction_->setObjectName(QStringLiteral("resetLayoutAction"));
  resetLayoutAction_->setToolTip(tr("Put the shown page's panels back where they start"));
  viewMenu_->addMenu(createLanguageMenu(this));

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  tourAction_ = help->addAction(tr("&Tour: what am I looking at?"), this, &MainWindow::showTour);
  tourAction_->setObjectName(QStringLiteral("tourAction"));
  QAction* keys = help->addAction(tr("&Keyboard shortcuts"), this, [this] {
    // Built when opened: it lists the actions as they are now. Not modal: it can stay open.
    auto* dialog = new ShortcutsDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
  });
  keys->setShortcut(QKeySequence::HelpContents);  // F1
  keys->setObjectName(QStringLiteral("shortcutsAction"));
  help->addAction(tr("&About"), this, [this] {
    QMessageBox::about(this, tr("About Lipschitz Workbench"),
                       tr("<b>Lipschitz Workbench</b> %1<br>Training neural networks with enforced Lipschitz bounds, "
                          "and seeing why it works.<br>Headless runs: <tt>lipschitz-cli train</tt>.")
                               .arg(QApplication::applicationVersion()) +
                           // Tooltips and descriptions cite the papers by these numbers ("000 §4").
                           tr("<p>Papers cited by number in tooltips and descriptions:<br>"
                              "<b>000</b> Training Transformers with Enforced Lipschitz Bounds<br>"
                              "<b>001</b> F. L. Cesista, Fast, Numerically Stable, and Auto-Differentiable Spectral Clipping "
                              "via Newton–Schulz Iteration (2025)<br>"
                              "<b>002</b> R. Bir, M. Mok et al., Replacing Normalization in Deep Transformers with Lipschitz "
                              "and Manifold Geometry (Manifold Muon)<br>"
                              "<b>004</b> Globally 1-Lipschitz Attention without Sequence-Length Dependence (AttLip)</p>"));
  });

  runBar_ = addToolBar(tr("Run"));
  runBar_->setObjectName(QStringLiteral("runToolBar"));
  runBar_->setToolButtonStyle(Qt::ToolButtonTextOnly);
  for (Page* page : pages_) runBar_->addActions(page->toolBarActions());
  runBar_->addSeparator();
  runBar_->addAction(open);

  pagesBar_ = addToolBar(tr("Pages"));
  pagesBar_->setObjectName(QStringLiteral("pagesToolBar"));
  pagesBar_->setToolButtonStyle(Qt::ToolButtonTextOnly);
  pagesBar_->addActions(pageActions_->actions());
}

void MainWindow::fitToolBars() {
  if (!runBar_ || !pagesBar_) return;
  // Only the start-up arrangement is managed: bars the user moved stay where they were put.
  const bool sideBySide = toolBarArea(runBar_) == Qt::TopToolBarArea &&
                          toolBarArea(pagesBar_) == Qt::TopToolBarArea && !runBar_->isFloating() &&
                          !pagesBar_->isFloating() && !runBar_->isHidden() && !pagesBar_->isHidden();
  if (!sideBySide) return;
  // A bar's size hint is its full width, also while the layout squeezes it behind ».
  const int spacing = 2 * style()->pixelMetric(QStyle::PM_ToolBarItemSpacing) + 8;
  const bool fits = runBar_->sizeHint().width() + pagesBar_->sizeHint().width() + spacing <= width();
  const bool broken = toolBarBreak(pagesBar_);
  if (!fits && !broken)
    insertToolBarBreak(pagesBar_);
  else if (fits && broken)
    removeToolBarBreak(pagesBar_);
}

void MainWindow::resizeEvent(QResizeEvent* event) {
  QMainWindow::resizeEvent(event);
  fitToolBars();
}

void MainWindow::addPanelsMenu(Page* page) {
  const QList<QDockWidget*> docks = page->docks();
  if (docks.isEmpty()) return;
  // The page's docks can be shown again from here after being closed.
  QMenu* menu = viewMenu_->addMenu(tr("%1 panels").arg(QString(page->title()).remove(QLatin1Char('&'))));
  for (QDockWidget* dock : docks) menu->addAction(dock->toggleViewAction());
}

bool MainWindow::showPage(const QString& id) {
  for (Page* page : pages_) {
    if (page->id() != id) continue;
    // A hidden scroll area resizes its page only once shown, after the page's own show
    // handling (the Train page settles its dock layout then): give the page the window's
    // size first, as it had before it sat in a scroll area.
    if (auto* area = qobject_cast<QScrollArea*>(frameOf(page)); area && area->widget())
      area->widget()->resize(stack_->size().expandedTo(area->widget()->minimumSizeHint()));
    stack_->setCurrentWidget(frameOf(page));
    if (QWidget* first = page->firstFocus(); first && !focusedPages_.contains(id)) {
      focusedPages_.insert(id);
      first->setFocus(Qt::OtherFocusReason);
    }
    for (QAction* a : pageActions_->actions()) a->setChecked(a->data().toString() == id);
    if (resetLayoutAction_) resetLayoutAction_->setEnabled(!page->docks().isEmpty());
    if (undoGroup_) undoGroup_->setActiveStack(page->undoStack());
    return true;
  }
  return false;
}

QWidget* MainWindow::frameOf(Page* page) const {
  // The page's scroll area (addPage): its widget's parent is the area's viewport.
  for (QWidget* w = page->widget(); w; w = w->parentWidget())
    if (w->parentWidget() == stack_) return w;
  return page->widget();
}

Page* MainWindow::currentPage() const {
  for (Page* page : pages_)
    if (frameOf(page) == stack_->currentWidget()) return page;
  return nullptr;
}

QString MainWindow::currentPageId() const {
  const Page* page = currentPage();
  return page ? page->id() : QString();
}

void MainWindow::showTour() {
  for (Page* page : pages_) {
    const QList<TourStop> stops = page->tourStops();
    if (stops.isEmpty()) continue;
    showPage(page->id());
    if (!tour_) tour_ = new TourOverlay(stops, stack_);
    QSettings().setValue(kTourShownKey, true);
    return;
  }
}

void MainWindow::showEvent(QShowEvent* event) {
  QMainWindow::showEvent(event);
  fitToolBars();
  if (firstShowSeen_) return;
  firstShowSeen_ = true;
  // Queued: main() applies the command line after show(), and a command line that asks for
  // something (a run, a page, a file) is not a first look around; the tour then waits for
  // the next plain launch.
  QTimer::singleShot(0, this, [this] {
    if (!tourSuppressed_ && !QSettings().value(kTourShownKey, false).toBool()) showTour();
  });
}

bool MainWindow::applyOptions(const AppOptions& options, QString* error) {
  tourSuppressed_ = !options.preset.isEmpty() || !options.openRunDirs.isEmpty() || !options.page.isEmpty() ||
                    !options.inspectFile.isEmpty() || !options.compareDirs.isEmpty();
  if (!options.runsDir.isEmpty()) runs_->setRunsFolder(options.runsDir);
  for (const QString& dir : options.openRunDirs)
    if (!openRunDirectory(dir, error)) return false;
  // Pages load files and run folders on workers and show their progress themselves.
  for (Page* page : pages_)
    if (!page->applyOptions(options, error)) return false;
  if (!options.page.isEmpty()) showPage(options.page);
  if (!options.screenshot.isEmpty()) scheduleScreenshot(options.screenshot, options.screenshotAfter);
  return true;
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

bool MainWindow::openRunDirectory(const QString& runDir, QString* error) { return runs_->followRun(runDir, error) != nullptr; }

bool MainWindow::saveScreenshot(const QString& path, QString* error) {
  runs_->flush();
  for (Page* page : pages_) page->beforeScreenshot();
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
    exitCode_ = ok ? 0 : 1;
    close();
  });
}

int MainWindow::trainingRunCount() const {
  int n = 0;
  for (const RunSession* s : runs_->sessions())
    if (s->threadRunning() && !s->isFollowing()) ++n;
  return n;
}

QStringList MainWindow::pagesRunningWork() const {
  QStringList work;
  for (const Page* page : pages_)
    if (const QString w = page->runningWork(); !w.isEmpty()) work << w;
  return work;
}

void MainWindow::quitOnSignal(int signal) {
  std::fprintf(stderr, "lipschitz-workbench: %s: stopping the runs after their current step (each writes a "
                       "checkpoint), then quitting; send it again to quit at once\n", strsignal(signal));
  quitConfirmed_ = true;
  if (exitCode_ < 0) exitCode_ = 128 + signal;
  if (quitQuestion_) quitQuestion_->close();
  close();
}

void MainWindow::askToStopAndQuit() {
  if (quitQuestion_) {
    quitQuestion_->raise();
    return;
  }
  // Window-modal and opened, not exec()'d: the GUI thread keeps serving the runs meanwhile.
  const int training = trainingRunCount();
  const QStringList work = pagesRunningWork();
  QString what;
  if (training > 0) what = tr("Runs still training: %1.").arg(training);
  if (!work.isEmpty()) what += (what.isEmpty() ? QString() : QStringLiteral(" ")) + tr("Also running: %1.").arg(work.join(QStringLiteral(", ")));
  auto* box = new QMessageBox(QMessageBox::Question, tr("Quit while training?"),
                              what + QLatin1Char(' ') + tr("Stop them (each run writes a resumable checkpoint) and quit?"),
                              QMessageBox::NoButton, this);
  box->setObjectName(QStringLiteral("quitWhileTrainingBox"));
  box->setWindowModality(Qt::WindowModal);
  box->setAttribute(Qt::WA_DeleteOnClose);
  QPushButton* stop = box->addButton(tr("Stop and quit"), QMessageBox::AcceptRole);
  stop->setObjectName(QStringLiteral("stopAndQuitButton"));
  box->addButton(QMessageBox::Cancel)->setObjectName(QStringLiteral("cancelQuitButton"));
  box->setDefaultButton(QMessageBox::Cancel);
  connect(stop, &QPushButton::clicked, this, [this] {
    quitConfirmed_ = true;
    close();
  });
  quitQuestion_ = box;
  box->open();
}

void MainWindow::closeEvent(QCloseEvent* event) {
  // A user quitting while a run trains is asked first; a scripted close (--screenshot, whose
  // exit code is set) never waits on a dialog.
  const bool pageWork = !pagesRunningWork().isEmpty();
  if (runs_ && (trainingRunCount() > 0 || pageWork) && !quitConfirmed_ && !closeRequested_ && exitCode_ < 0) {
    event->ignore();
    askToStopAndQuit();
    return;
  }
  if (closeRequested_ && (pageWork || (runs_ && runs_->anyThreadRunning()))) {
    event->ignore();  // still stopping: the close comes when the last of it has ended
    return;
  }
  if (((runs_ && runs_->anyThreadRunning()) || pageWork) && !closeRequested_) {
    // Stop every run after its current step (checkpoint + "stopped" status written) and the
    // pages' work (a sweep: its runs likewise), and close when all of it has ended; the GUI
    // stays responsive meanwhile.
    closeRequested_ = true;
    if (runs_) runs_->stopAll();
    for (Page* page : pages_) page->stopRunningWork();
    status_->showMessage(tr("Stopping runs before closing…"));
    if (pageWork) {
      auto* wait = new QTimer(this);
      connect(wait, &QTimer::timeout, this, [this] {
        if (pagesRunningWork().isEmpty() && !(runs_ && runs_->anyThreadRunning())) close();
      });
      wait->start(200);
    }
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
  if (!restoreGeometry(s.value(QStringLiteral("mainWindow/geometry")).toByteArray())) {
    // 1600×1000 where the screen has room (the screenshots' size), else the screen's
    // available area less room for the frame: a projector's 1280×720 or 1024×768 window
    // fits, maximised.
    const QSize preferred(1600, 1000);
    const QSize available = screen() ? screen()->availableGeometry().size() : preferred;
    if (available.width() >= preferred.width() && available.height() >= preferred.height()) {
      resize(preferred);
    } else {
      resize(preferred.boundedTo(available - QSize(16, 48)));
    }
  }
  for (Page* page : pages_) page->restoreSettings(s);
  if (!showPage(s.value(QStringLiteral("mainWindow/page")).toString())) showPage(pages_.front()->id());
}

void MainWindow::saveSettings() {
  QSettings s;
  s.setValue(QStringLiteral("mainWindow/geometry"), saveGeometry());
  for (Page* page : pages_) page->saveSettings(s);
  s.setValue(QStringLiteral("mainWindow/page"), currentPageId());
}

}  // namespace lwb::app
