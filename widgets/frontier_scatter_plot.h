// Scatter of one point per run, log-x (Compare: Lipschitz bound vs validation loss, the
// paper's Figure 2), one colour per group (constraint method), and the frontier — the best
// y in each log-spaced x bin (frontier.h) — highlighted by rings joined by a line.
#pragma once

#include "widgets/plot_view.h"

#include <QColor>
#include <QMap>

class QCPErrorBars;

namespace lwb::widgets {

struct ScatterPoint {
  QString group;  // e.g. the constraint method id
  QString label;  // e.g. the run name (hover)
  double x = 0, y = 0;
  double yStd = 0;  // > 0: drawn as an error bar (a mean over seeds ± one standard deviation)
  // Frontier lines join only points of one task: an MNIST bound of 23 and a chars bound of
  // 1e7 are no trade-off of one another (issue 32). Empty: all one task.
  QString task = {};
};

class FrontierScatterPlot : public PlotView {
  Q_OBJECT

 public:
  explicit FrontierScatterPlot(QWidget* parent = nullptr);

  void setPoints(const std::vector<ScatterPoint>& points);
  const std::vector<ScatterPoint>& points() const { return points_; }
  // Groups without a colour get palette colours in first-seen order.
  void setGroupColor(const QString& group, const QColor& color);
  QColor colorOfGroup(const QString& group) const { return groupColors_.value(group); }
  void setAxisLabels(const QString& x, const QString& y);

  void setBinsPerDecade(int bins);          // default 4
  // One frontier per group (the paper's panels: best loss per bound bin for each
  // optimizer/method), each in its group's colour; off (default): one over all points.
  void setFrontierPerGroup(bool perGroup);
  // Indices into points() of the highlighted frontier (per group: of `group`): for each task
  // in first-seen order, that task's frontier ordered by x.
  std::vector<std::size_t> frontierIndices() const;
  std::vector<std::size_t> frontierIndices(const QString& group) const;
  // The tasks of points(), in first-seen order: one frontier line each.
  QStringList tasks() const;

 Q_SIGNALS:
  void pointClicked(int index);

 protected:
  void syncData() override;
  QString hoverLabel(QCPAbstractPlottable* plottable, int dataIndex) const override;
  CsvTable csvTable() const override;

 private:
  QColor groupColor(const QString& group);
  // Best point per bound bin among points of `task` (and of `group`, unless null).
  std::vector<std::size_t> frontierOf(const QString* group, const QString& task) const;
  // The frontier line of (group, task); group empty: the overall one.
  QCPGraph* frontierGraph(const QString& group, const QString& task);
  void dropFrontierGraphs(const QString& group);

  std::vector<ScatterPoint> points_;
  QMap<QString, QColor> groupColors_;
  QStringList groupOrder_;
  int binsPerDecade_ = 4;
  bool dirty_ = false;
  bool perGroup_ = false;
  QMap<QString, QCPGraph*> groupGraphs_;
  QMap<QPair<QString, QString>, QCPGraph*> frontiers_;  // (group or "" for all, task) -> line
  QMap<QString, QCPErrorBars*> groupErrors_;
  QCPGraph* frontier_ = nullptr;
  int pointAt(QCPAbstractPlottable* plottable, int dataIndex) const;
};

}  // namespace lwb::widgets
