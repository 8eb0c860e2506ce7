// The main window is a coordinator: it hosts pages (the Train dashboard now; Clip Lab,
// Checkpoint Inspector and Compare later, issue 6) in a stack, owns the RunManager, and
// wires the run panel, run list, dashboard and status bar to it. It holds no plotting or
// training logic of its own.
#pragma once

#include "app/pages/workbench_pages.h"

#include <QMainWindow>
#include <QMap>
#include <QPointer>

class QAction;
class QActionGroup;
class QStackedWidget;

namespace lwb::app {

class RunManager;
class RunSession;
class StatusPanel;
class TrainPage;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  // Pages, by id ("train"; later "cliplab", "inspector", "compare"): a View-menu entry
  // with `shortcut`, and showPage() for the command line's --page.
  void addPage(const QString& id, const QString& title, QWidget* page, const QKeySequence& shortcut = {});
  bool showPage(const QString& id);
  QString currentPageId() const;
  QStringList pageIds() const { return pages_.keys(); }

  // Command-line entry points. Each returns false and sets *error for bad input.
  bool startPreset(const QString& presetId, const QStringList& overrides, QString* error);
  bool openRunDirectory(const QString& runDir, QString* error);
  // Renders the window to `path` after `seconds`, then closes (stopping runs) and exits
  // the event loop with 0 (saved) or 1 (not saved).
  void scheduleScreenshot(const QString& path, double seconds);
  bool saveScreenshot(const QString& path, QString* error);

  RunManager* runs() const { return runs_; }
  TrainPage* trainPage() const { return trainPage_; }
  StatusPanel* statusPanel() const { return status_; }
  // Clip Lab, Checkpoint Inspector and Compare (issue 6; app/pages/workbench_pages.h).
  const pages::WorkbenchPages& workbenchPages() const { return workbenchPages_; }
  QAction* startAction() const { return startAction_; }
  QAction* pauseAction() const { return pauseAction_; }
  QAction* stopAction() const { return stopAction_; }
  QAction* openAction() const { return openAction_; }
  // The exit code a screenshot run asked for (-1: none).
  int requestedExitCode() const { return exitCode_; }

 public Q_SLOTS:
  void startFromPanel();
  void togglePause();
  void stopCurrent();
  void openRunDialog();
  void chooseRunsFolder();

 Q_SIGNALS:
  // Emitted when a close has been accepted (after runs have stopped).
  void closing();

 protected:
  void closeEvent(QCloseEvent* event) override;

 private:
  void createActions();
  void createMenus();
  void connectRuns();
  void queryDevices();
  void setCurrentRun(RunSession* session);
  void updateActions();
  void restoreSettings();
  void saveSettings();
  void finishAndExit(int code);

  RunManager* runs_ = nullptr;
  TrainPage* trainPage_ = nullptr;
  StatusPanel* status_ = nullptr;
  QStackedWidget* stack_ = nullptr;
  QMap<QString, QWidget*> pages_;
  QActionGroup* pageActions_ = nullptr;
  pages::WorkbenchPages workbenchPages_;
  QPointer<RunSession> current_;
  QAction* startAction_ = nullptr;
  QAction* pauseAction_ = nullptr;
  QAction* stopAction_ = nullptr;
  QAction* openAction_ = nullptr;
  QAction* removeAction_ = nullptr;
  QAction* resetLayoutAction_ = nullptr;
  bool closeRequested_ = false;
  int exitCode_ = -1;  // >= 0: exit the event loop with it once closed
};

}  // namespace lwb::app
