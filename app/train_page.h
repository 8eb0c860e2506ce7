// The "Train" page: the run panel, the run list and the six dashboard plots, each in a
// dock the user can move, tabify, float or close, and the Run menu (start, pause, stop,
// remove) acting on the RunManager's current run. A QMainWindow used as a page, so it has
// its own docks and its own saved layout. It wires its children to the services it is
// given; the main window only sees the Page interface.
#pragma once

#include "app/page.h"

#include <QByteArray>
#include <QLatin1String>
#include <QList>
#include <QMainWindow>

#include <nlohmann/json_fwd.hpp>

class QDockWidget;

namespace lwb::app {

class Dashboard;
class RunList;
class RunPanel;

class TrainPage : public QMainWindow, public Page {
  Q_OBJECT

 public:
  static constexpr QLatin1String kId{"train"};
  // Bump when docks are added or renamed, so an old saved layout is not restored.
  static constexpr int kLayoutVersion = 1;

  explicit TrainPage(const PageServices& services, QWidget* parent = nullptr);

  QString id() const override { return kId; }
  QString title() const override { return tr("&Train"); }
  QKeySequence shortcut() const override { return QKeySequence(Qt::CTRL | Qt::Key_1); }
  QWidget* widget() override { return this; }
  QList<QDockWidget*> docks() const override { return docks_; }
  // Run setup and run list on the left, the plots in a 2 × 3 grid.
  void resetLayout() override;
  QList<QMenu*> menus() const override { return {runMenu_}; }
  QList<QAction*> toolBarActions() const override { return {startAction_, pauseAction_, stopAction_}; }
  // --preset ID [--set key=value]... [--start]
  bool applyOptions(const AppOptions& options, QString* error) override;
  void saveSettings(QSettings& settings) const override;
  void restoreSettings(const QSettings& settings) override;
  void beforeScreenshot() override;

  Dashboard* dashboard() const { return dashboard_; }
  RunPanel* runPanel() const { return runPanel_; }
  RunList* runList() const { return runList_; }
  QDockWidget* dock(const QString& id) const;
  QAction* pauseAction() const { return pauseAction_; }
  QAction* stopAction() const { return stopAction_; }

 protected:
  void showEvent(QShowEvent* event) override;

 private:
  // Loads a preset, applies "key=value" overrides and starts it; false (and *error) when
  // the preset is unknown, the form refuses the result or the run cannot start.
  bool startPreset(const QString& presetId, const QStringList& overrides, QString* error);
  void createPanels(const PageServices& services);
  void createActions();
  void connectRuns(const PageServices& services);
  void startRun(const nlohmann::json& config, const QString& label);
  void updateActions();
  // Dock sizes only take once the page has its real size.
  void applyDefaultSizes();
  QDockWidget* addDock(const QString& id, const QString& title, QWidget* content);

  RunManager* runs_ = nullptr;
  StatusPanel* status_ = nullptr;
  Dashboard* dashboard_ = nullptr;
  RunPanel* runPanel_ = nullptr;
  RunList* runList_ = nullptr;
  QList<QDockWidget*> docks_;
  QMenu* runMenu_ = nullptr;
  QAction* startAction_ = nullptr;
  QAction* pauseAction_ = nullptr;
  QAction* stopAction_ = nullptr;
  QAction* removeAction_ = nullptr;
  bool restored_ = false;
  bool shown_ = false;
};

}  // namespace lwb::app
