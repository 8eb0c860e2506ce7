// The Compare page's two plots side by side: any logged metric over the steps (with "Group
// seeds", one mean curve and a ± std envelope per group of runs that differ only by seed),
// and the Lipschitz bound against the validation loss (000 Figure 2), coloured by a method,
// an optimizer or any config key. The runs are the page's; this pane only draws them.
#pragma once

#include "app/pages/compare/run_record.h"

#include <QColor>
#include <QStringList>
#include <QWidget>

#include <vector>

class QCheckBox;
class QComboBox;
class QHBoxLayout;

namespace lwb::widgets {
class FrontierScatterPlot;
class MetricPlot;
struct ScatterPoint;
}  // namespace lwb::widgets

namespace lwb::app::pages {

class ComparePlots : public QWidget {
  Q_OBJECT

 public:
  // `runs` and `colors` (one per run) are the page's and outlive this pane.
  ComparePlots(const std::vector<RunRecord>* runs, const std::vector<QColor>* colors, QWidget* parent = nullptr);

  // The metric box's names, keeping the current one when it remains (else val_loss, else the
  // first), and the curves redrawn.
  void setMetricNames(const QStringList& names);
  void showMetric();
  // The frontier from the runs at these indexes (those the table's filter shows).
  void showFrontier(const std::vector<size_t>& shown);

  QString currentMetric() const;  // the metrics.jsonl key ("val_loss"); the box shows its title
  // What the box and the plot call a metric: "validation loss" for val_loss, the layer for
  // rms_norms.<layer>; a key this version does not know (a TensorBoard tag) as written.
  static QString metricTitle(const QString& key);
  void setMetric(const QString& name);
  void setColorBy(const QString& key);
  void setGroupSeeds(bool on);
  void setFrontierPerGroup(bool on);
  void replotNow();

  QComboBox* metricBox() const { return metricBox_; }
  widgets::MetricPlot* metricPlot() const { return metric_; }
  widgets::FrontierScatterPlot* scatterPlot() const { return scatter_; }

 Q_SIGNALS:
  // The colour key or the seed grouping changed: the page hands the shown runs again.
  void frontierOptionsChanged();

 private:
  QWidget* plotPane(QHBoxLayout* controls, QWidget* plot);
  QWidget* createMetricPane();
  QWidget* createScatterPane();
  void connectOptions();
  // The run's colour group under `key` (a colour-by item's data, never "auto").
  QString colorKeyOf(const RunRecord& r, const QString& key) const;
  // "auto": the first of method, optimizer and the form's settings (not the seed, which "Group
  // seeds" handles, nor logging) whose groups differ among these runs, the constraint's
  // settings first, then the optimizer's, the model's and the run's (a σmax sweep whose runs
  // also differ in steps is coloured by σmax); method when none differs.
  QString autoColorKey(const std::vector<const RunRecord*>& runs) const;
  // The scatter's group colours, set so they do not contradict the runs' colours on the curves
  // and in the table: `curveColor[i]` is the colour point i has there.
  void colorGroups(const std::vector<widgets::ScatterPoint>& points, const std::vector<QColor>& curveColor);
  void addMeanCurve(const std::vector<size_t>& members, const QString& name);
  void openOnLogAxisIfBlownUp(const std::vector<size_t>& shown, const QString& name);

  const std::vector<RunRecord>* runs_;
  const std::vector<QColor>* colors_;
  QStringList autoLogY_;  // metrics already switched to a log axis once (the box is the user's after)
  QComboBox* metricBox_ = nullptr;
  widgets::MetricPlot* metric_ = nullptr;
  widgets::FrontierScatterPlot* scatter_ = nullptr;
  QComboBox* colorBy_ = nullptr;
  QCheckBox* groupSeeds_ = nullptr;
  QCheckBox* perGroup_ = nullptr;
};

}  // namespace lwb::app::pages
