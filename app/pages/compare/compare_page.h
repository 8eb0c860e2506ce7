// Compare: pick runs (this session's, or run folders on disk), overlay any logged metric,
// tabulate the final figures with each run's method and parameters, and plot the Lipschitz
// bound against the validation loss (000 Figure 2: log-x bound, one colour per method, the
// best loss per bound bin highlighted). Table exports as CSV; plots as PNG/PDF. The plots are
// compare_plots.h, the reading compare_loading.h; this file holds the runs, the table and
// the actions.
#pragma once

#include "app/page.h"
#include "app/pages/compare/run_record.h"

#include <QColor>
#include <QLatin1String>
#include <QWidget>

#include <vector>

class QComboBox;
class QLineEdit;
class QHBoxLayout;
class QLayout;
class QLabel;
class QSortFilterProxyModel;
class QTableView;
class QTimer;
class QUndoStack;

namespace lwb::widgets {
class FrontierScatterPlot;
class MetricPlot;
}  // namespace lwb::widgets

namespace lwb::app::pages {

class ComparePlots;
class CompareTableModel;

class ComparePage : public QWidget, public Page {
  Q_OBJECT

 public:

  // `sessionRuns`: where "Add this session's runs" gets its folders (none: it adds nothing).
  explicit ComparePage(RunManager* sessionRuns = nullptr, QWidget* parent = nullptr);

  QString title() const override { return tr("&Compare runs"); }
  QWidget* widget() override { return this; }
  // Removing runs from the comparison is undoable (Edit → Undo, Ctrl+Z): a run read from a
  // large index or a slow share is not re-read on a slip of the Delete key.
  QUndoStack* undoStack() const override { return undo_; }
  // --compare RUN_DIR...
  bool applyOptions(const AppOptions& options, QString* error) override;

  // Reads the folders on a worker (each a run directory, or a folder of them); folders
  // already shown are read again. Bad folders are named in the message line.
  void addRunDirectories(const QStringList& dirs);
  // Every run of a run index file (or of the index.sqlite in a folder).
  void openIndex(const QString& file);
  // Table filter: a regular expression on one column (-1: any column).
  bool setFilter(const QString& regex, int column = -1);
  // "method", "optimizer/method", "optimizer" or a dotted config key.
  void setColorBy(const QString& key);
  void setGroupSeeds(bool on);
  void setFrontierPerGroup(bool on);
  int visibleRunCount() const;
  void removeRun(int index);  // one undo step, as "Remove selected" (Delete) is
  bool isLoading() const { return pending_ > 0; }

  const std::vector<RunRecord>& runs() const { return runs_; }
  QString errorText() const;
  QString currentMetric() const;
  void setMetric(const QString& name);

  bool exportTableCsv(const QString& path, QString* error = nullptr) const;
  // `path` ends in .png or .pdf: writes <stem>-metric.<ext> and <stem>-frontier.<ext>.
  bool savePlots(const QString& path, QString* error = nullptr);
  void replotNow();

  CompareTableModel* tableModel() const { return model_; }
  QTableView* table() const { return table_; }
  widgets::MetricPlot* metricPlot() const;
  widgets::FrontierScatterPlot* scatterPlot() const;
  QComboBox* metricBox() const;
  // Seed 002 Fig. 2 (lr_robustness_demo.h): starts the six runs in this session and shows
  // them here, re-read every few seconds until they end. False (and `error`) when the
  // presets are missing or a run cannot start.
  bool startLrRobustnessDemo(QString* error = nullptr);
  QStringList demoRunDirs() const { return demoDirs_; }
  // TensorBoard runs are followed live (issue 29 §3): every interval (default 2 s) a worker
  // reads the records appended to their event files since the last read.
  void setFollowInterval(int ms);
  bool isFollowingTensorBoard() const;

 Q_SIGNALS:
  void runsChanged();  // after a batch of folders was read (or runs removed)
  void tensorBoardFollowed();  // a follow read brought new records (or errors)

 private:
  QLayout* createButtonBar();
  QWidget* createTable();
  void addSessionRuns();
  void reload();
  void removeSelected();
  friend class RemoveRunsCommand;
  // The runs with these folders out of the comparison, each with the row it had (for undo);
  // and back in at those rows (a folder read again meanwhile is not doubled).
  std::vector<std::pair<size_t, RunRecord>> takeRuns(const QStringList& dirs);
  void putBackRuns(const std::vector<std::pair<size_t, RunRecord>>& taken);
  void merge(std::vector<RunRecord> loaded, const QStringList& errors);
  void rebuild();
  void chooseFolder(bool scanChildren);
  void exportDialog();
  void savePlotsDialog();
  QWidget* createFilterRow();
  void updateScatter();
  void loadSelectedSeries();

  void refreshDemo();
  void followTensorBoard();

  QStringList demoDirs_;
  QTimer* demoTimer_ = nullptr;
  QTimer* followTimer_ = nullptr;
  int followIntervalMs_ = 2000;
  bool following_ = false;
  std::vector<RunRecord> runs_;
  std::vector<QColor> colors_;
  RunManager* sessionRuns_ = nullptr;
  int pending_ = 0;
  CompareTableModel* model_ = nullptr;
  QSortFilterProxyModel* proxy_ = nullptr;
  QTableView* table_ = nullptr;
  QLabel* message_ = nullptr;
  ComparePlots* plots_ = nullptr;
  QComboBox* filterColumn_ = nullptr;
  QLineEdit* filter_ = nullptr;
  QUndoStack* undo_ = nullptr;
};

}  // namespace lwb::app::pages
