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
#include <QHash>
#include <QSize>

#include <functional>

#include <nlohmann/json_fwd.hpp>

namespace lwb::run {
struct RunConfig;
}

class QDockWidget;

namespace lwb::app {

class Dashboard;
class RunList;
class RunPanel;
namespace pages {
class TextSamplePanel;
}

class TrainPage : public QMainWindow, public Page {
  Q_OBJECT

 public:
  // Bump when docks are added or renamed, so an old saved layout is not restored. 2: layouts
  // saved by version 1 could be taken before the page was laid out (see hideEvent). 3: the
  // "Generate text" dock.
  static constexpr int kLayoutVersion = 3;
  // The smallest a shown dock may be for a restored layout to be kept: below this a plot
  // is an unreadable strip (the plots' own minimum is ~190 × 160), and the default layout
  // is used instead. The default layout gives every plot more from 1024 × 700 up.
  static constexpr QSize kMinDockSize{200, 120};

  explicit TrainPage(const PageServices& services, QWidget* parent = nullptr);

  QString title() const override { return tr("&Train"); }
  QWidget* widget() override { return this; }
  QList<QDockWidget*> docks() const override { return docks_; }
  // Run setup and run list on the left, the plots in a 2 × 3 grid.
  void resetLayout() override;
  QList<TourStop> tourStops() const override;
  QList<QMenu*> menus() const override { return {runMenu_}; }
  QUndoStack* undoStack() const override;
  QWidget* firstFocus() const override;
  QList<QAction*> toolBarActions() const override { return {startAction_, pauseAction_, stopAction_}; }
  // --preset ID [--set key=value]... [--start]
  bool applyOptions(const AppOptions& options, QString* error) override;
  // Writes the layout only as the page was last shown (a page never shown this session
  // leaves the saved one alone): a hidden QMainWindow's docks have no real sizes.
  void saveSettings(QSettings& settings) const override;
  // Restores a saved layout; once the page is first shown, a layout that leaves a shown
  // dock smaller than kMinDockSize is replaced by the default one.
  void restoreSettings(const QSettings& settings) override;
  // Every shown dock at least kMinDockSize (meaningful once the page is laid out).
  bool layoutIsUsable() const;
  void beforeScreenshot() override;

  Dashboard* dashboard() const { return dashboard_; }
  RunPanel* runPanel() const { return runPanel_; }
  RunList* runList() const { return runList_; }
  QDockWidget* dock(const QString& id) const;
  QAction* pauseAction() const { return pauseAction_; }
  QAction* stopAction() const { return stopAction_; }
  // Run ▸ Generate text…: enabled for a run of a text task (data::generatesText); shows the
  // "Generate text" dock sampling the run's newest checkpoint (issue 29 §4).
  QAction* sampleAction() const { return sampleAction_; }
  QAction* settingsAction() const { return settingsAction_; }
  // Loads RUN_DIR's settings into Run setup (the reason in the status bar when it cannot).
  void useRunSettings(const QString& runDir);
  pages::TextSamplePanel* samplePanel() const { return sample_; }

 protected:
  void showEvent(QShowEvent* event) override;
  void hideEvent(QHideEvent* event) override;

 private:
  // Loads a preset, applies "key=value" overrides and starts it; false (and *error) when
  // the preset is unknown, the form refuses the result or the run cannot start.
  bool startPreset(const QString& presetId, const QStringList& overrides, QString* error);
  void createPanels(const PageServices& services);
  void createActions();
  void connectRuns(const PageServices& services);
  // Starts a run; false with *error (also shown in the status bar) when it cannot start.
  bool startRun(const run::RunConfig& config, const QString& label, QString* error);
  void updateActions();
  void showTextSample();
  // The current run's task generates text (cached per run directory once it has a config).
  bool currentRunIsChars();
  void raiseOptionalPanels();
  // Dock sizes only take once the page has its real size.
  void applyDefaultSizes();
  // Below 1400 × 800 the default layout has two rows of two plots (compactLayout); View →
  // Reset layout decides again at the size then.
  bool smallWindow() const;
  void compactLayout();
  // After the first show: the default sizes, or the restored layout if it is usable.
  void settleLayout();
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
  QAction* sampleAction_ = nullptr;
  QAction* settingsAction_ = nullptr;  // the selected run's config.json into Run setup
  pages::TextSamplePanel* sample_ = nullptr;
  QHash<QString, bool> charsRuns_;
  std::function<void(const QString&)> showPage_;  // Start shows this page, from any page
  QByteArray shownLayout_;  // saveState() when the page was last hidden after being shown
  bool restored_ = false;
  bool settled_ = false;        // settleLayout() ran while the page was shown
  bool compact_ = false;        // the default layout is the small window's (compactLayout)
  bool settlePending_ = false;  // a settleLayout() is queued
  QString optionalRaisedFor_;  // the run whose optional panels were last brought to the front
};

}  // namespace lwb::app
