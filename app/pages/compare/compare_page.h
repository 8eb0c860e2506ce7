// Compare: pick runs (this session's, or run folders on disk), overlay any logged metric,
// tabulate the final figures with each run's method and parameters, and plot the Lipschitz
// bound against the validation loss (000 Figure 2: log-x bound, one colour per method, the
// best loss per bound bin highlighted). Table exports as CSV; plots as PNG/PDF.
#pragma once

#include "app/pages/compare/run_record.h"

#include <QColor>
#include <QWidget>

#include <functional>
#include <vector>

class QComboBox;
class QLabel;
class QTableView;

namespace lwb::widgets {
class FrontierScatterPlot;
class MetricPlot;
}  // namespace lwb::widgets

namespace lwb::app::pages {

class CompareTableModel;

class ComparePage : public QWidget {
  Q_OBJECT

 public:
  explicit ComparePage(QWidget* parent = nullptr);

  // Reads the folders on a worker (each a run directory, or a folder of them); folders
  // already shown are read again. Bad folders are named in the message line.
  void addRunDirectories(const QStringList& dirs);
  // Where "Add this session's runs" gets its folders (the main window's run list).
  void setSessionRuns(std::function<QStringList()> provider);
  void reload();
  void removeRun(int index);
  void clearRuns();
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
  widgets::MetricPlot* metricPlot() const { return metric_; }
  widgets::FrontierScatterPlot* scatterPlot() const { return scatter_; }
  QComboBox* metricBox() const { return metricBox_; }

 Q_SIGNALS:
  void runsChanged();  // after a batch of folders was read (or runs removed)

 private:
  void merge(std::vector<RunRecord> loaded, const QStringList& errors);
  void rebuild();
  void showMetric();
  void chooseFolder(bool scanChildren);
  void exportDialog();
  void savePlotsDialog();

  std::vector<RunRecord> runs_;
  std::vector<QColor> colors_;
  std::function<QStringList()> sessionRuns_;
  int pending_ = 0;
  CompareTableModel* model_ = nullptr;
  QTableView* table_ = nullptr;
  QComboBox* metricBox_ = nullptr;
  QLabel* message_ = nullptr;
  widgets::MetricPlot* metric_ = nullptr;
  widgets::FrontierScatterPlot* scatter_ = nullptr;
};

}  // namespace lwb::app::pages
