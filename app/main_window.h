// The main window is a coordinator: it owns the services pages are given (RunManager,
// status bar, device query, presets), registers the pages (app/pages/page_registry.h) in a
// stack, and builds the menu bar, the View menu, the tool bars and the page shortcuts from
// the Page interface. Command-line entry points reach pages through that interface too. It
// holds no plotting or training logic, and never reaches into a page's children.
#pragma once

#include "app/page.h"
#include "app/tour_overlay.h"

#include <QList>
#include <QMainWindow>
#include <QPointer>
#include <QSet>

class QActionGroup;
class QUndoGroup;
class QMessageBox;
class QStackedWidget;
class QToolBar;

namespace lwb::app {

struct AppOptions;
class DeviceQuery;
class RunManager;
class StatusPanel;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  const QList<Page*>& pages() const { return pages_; }
  // The page of type P (tests, benchmarks), or nullptr.
  template <class P>
  P* page() const {
    for (Page* p : pages_)
      if (auto* found = dynamic_cast<P*>(p)) return found;
    return nullptr;
  }
  bool showPage(const QString& id);
  Page* currentPage() const;
  QString currentPageId() const;
  // Help → Tour: shows the first page with tour stops (the Train page) under a
  // TourOverlay naming each panel, and remembers in the settings that it was seen. On the
  // first launch (no "tour/shown" setting) the window shows it by itself once shown,
  // unless the command line asked for a run, a page or a file.
  void showTour();
  TourOverlay* tourOverlay() const { return tour_; }  // nullptr when not shown
  QAction* resetLayoutAction() const { return resetLayoutAction_; }  // View → Reset layout
  QAction* tourAction() const { return tourAction_; }

  // The command line: --runs-dir and --open here, each page's own options (--preset,
  // --inspect, --compare, …), then --page and --screenshot. False (and *error) for input a
  // page refuses.
  bool applyOptions(const AppOptions& options, QString* error);

  RunManager* runs() const { return runs_; }
  StatusPanel* statusPanel() const { return status_; }
  // The exit code a screenshot run asked for (-1: none).
  int requestedExitCode() const { return exitCode_; }
  // SIGINT, SIGTERM or SIGHUP (app/quit_on_signal.h): close as "Stop and quit" would, without
  // asking — runs stop after their step and write checkpoints — and exit with 128 + signal.
  void quitOnSignal(int signal);

 Q_SIGNALS:
  // Emitted when a close has been accepted (after runs have stopped).
  void closing();

 protected:
  void closeEvent(QCloseEvent* event) override;
  void showEvent(QShowEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

 private:
  void createMenus();
  void addPage(Page* page);
  void addPanelsMenu(Page* page);
  void openRunDialog();
  void chooseRunsFolder();
  bool openRunDirectory(const QString& runDir, QString* error);
  // Renders the window to `path` after `seconds`, then closes (stopping runs) and exits
  // the event loop with 0 (saved) or 1 (not saved).
  void scheduleScreenshot(const QString& path, double seconds);
  bool saveScreenshot(const QString& path, QString* error);
  // Runs this session trains (not those it only follows), whose threads are still running.
  int trainingRunCount() const;
  // What the pages run besides training ("a sweep"), for the quit question.
  QStringList pagesRunningWork() const;
  // Quit while training: "Stop and quit" or Cancel, in a window-modal box (not blocking).
  void askToStopAndQuit();
  void restoreSettings();
  void saveSettings();
  // The Pages bar gets a row of its own when it and the Run bar do not fit side by side
  // (German at 1024 px hid "Sweeps" and "Attention Lab" behind the bar's » button).
  void fitToolBars();

  RunManager* runs_ = nullptr;
  StatusPanel* status_ = nullptr;
  DeviceQuery* devices_ = nullptr;
  QWidget* frameOf(Page* page) const;
  QStackedWidget* stack_ = nullptr;
  QList<Page*> pages_;
  QActionGroup* pageActions_ = nullptr;
  QUndoGroup* undoGroup_ = nullptr;  // every page's undo stack; the shown page's is active
  QMenu* viewMenu_ = nullptr;
  QAction* resetLayoutAction_ = nullptr;
  QAction* tourAction_ = nullptr;
  QToolBar* runBar_ = nullptr;
  QToolBar* pagesBar_ = nullptr;
  QPointer<TourOverlay> tour_;
  bool firstShowSeen_ = false;
  bool tourSuppressed_ = false;
  bool closeRequested_ = false;
  QSet<QString> focusedPages_;  // pages whose firstFocus() was given the focus once
  bool quitConfirmed_ = false;          // "Stop and quit" was chosen
  QPointer<QMessageBox> quitQuestion_;  // the open "Quit while training?" box
  int exitCode_ = -1;  // >= 0: exit the event loop with it once closed
};

}  // namespace lwb::app
