#include "widgets/frontier_scatter_plot.h"

#include "widgets/frontier.h"
#include "widgets/palette.h"

#include "widgets/qcp.h"

#include <QSet>

#include <algorithm>
#include <cmath>

namespace lwb::widgets {

FrontierScatterPlot::FrontierScatterPlot(QWidget* parent) : PlotView(parent) {
  QCustomPlot* p = customPlot();
  p->xAxis->setLabel(tr("Lipschitz bound"));
  p->yAxis->setLabel(tr("validation loss"));
  frontier_ = p->addGraph();
  // The frontier rings are drawn above the points they ring.
  p->addLayer(QStringLiteral("frontier"), p->layer(QStringLiteral("main")), QCustomPlot::limAbove);
  frontier_->setLayer(QStringLiteral("frontier"));
  frontier_->setName(tr("frontier (best per bin)"));
  frontier_->setPen(QPen(referenceColor(), 1.2, Qt::DashLine));
  frontier_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(referenceColor(), 2), Qt::NoBrush, 13));
  placeLegend(LegendPlace::Right);
  setSupportsLogX(true);
  setLogX(true);
  connect(p, &QCustomPlot::plottableClick, this, [this](QCPAbstractPlottable* plottable, int dataIndex, QMouseEvent*) {
    const int i = pointAt(plottable, dataIndex);
    if (i >= 0) Q_EMIT pointClicked(i);
  });
}

void FrontierScatterPlot::setPoints(const std::vector<ScatterPoint>& points) {
  // Groups that no longer have points leave the plot and the legend (Compare's "colour by"
  // replaces every group at once).
  QSet<QString> present;
  for (const ScatterPoint& pt : points) present.insert(pt.group);
  for (const QString& group : QStringList(groupOrder_)) {
    if (present.contains(group)) continue;
    if (QCPGraph* g = groupGraphs_.take(group)) {
      forgetGraph(g);
      customPlot()->removeGraph(g);
    }
    dropFrontierGraphs(group);
    if (QCPErrorBars* bars = groupErrors_.take(group)) customPlot()->removePlottable(bars);
    groupOrder_.removeAll(group);
  }
  points_ = points;
  for (const ScatterPoint& pt : points_) groupColor(pt.group);
  dirty_ = true;
}

QColor FrontierScatterPlot::groupColor(const QString& group) {
  if (!groupOrder_.contains(group)) groupOrder_ << group;
  auto it = groupColors_.find(group);
  if (it == groupColors_.end()) it = groupColors_.insert(group, runColor(static_cast<int>(groupOrder_.indexOf(group))));
  return it.value();
}

void FrontierScatterPlot::setGroupColor(const QString& group, const QColor& color) {
  if (!groupOrder_.contains(group)) groupOrder_ << group;
  groupColors_[group] = color;
  dirty_ = true;
}

void FrontierScatterPlot::setAxisLabels(const QString& x, const QString& y) {
  customPlot()->xAxis->setLabel(x);
  customPlot()->yAxis->setLabel(y);
}

void FrontierScatterPlot::setBinsPerDecade(int bins) {
  binsPerDecade_ = std::max(1, bins);
  dirty_ = true;
}

void FrontierScatterPlot::setFrontierPerGroup(bool perGroup) {
  perGroup_ = perGroup;
  dirty_ = true;
}

QStringList FrontierScatterPlot::tasks() const {
  QStringList out;
  for (const ScatterPoint& pt : points_)
    if (!out.contains(pt.task)) out << pt.task;
  return out;
}

std::vector<std::size_t> FrontierScatterPlot::frontierOf(const QString* group, const QString& task) const {
  std::vector<double> xs, ys;
  std::vector<std::size_t> at;
  for (std::size_t i = 0; i < points_.size(); ++i) {
    if (points_[i].task != task || (group && points_[i].group != *group)) continue;
    xs.push_back(points_[i].x);
    ys.push_back(points_[i].y);
    at.push_back(i);
  }
  std::vector<std::size_t> out;
  for (std::size_t k : bestPerLogBin(xs, ys, binsPerDecade_)) out.push_back(at[k]);
  return out;
}

std::vector<std::size_t> FrontierScatterPlot::frontierIndices() const {
  std::vector<std::size_t> out;
  for (const QString& task : tasks())
    for (std::size_t i : frontierOf(nullptr, task)) out.push_back(i);
  return out;
}

std::vector<std::size_t> FrontierScatterPlot::frontierIndices(const QString& group) const {
  std::vector<std::size_t> out;
  for (const QString& task : tasks())
    for (std::size_t i : frontierOf(&group, task)) out.push_back(i);
  return out;
}

QCPGraph* FrontierScatterPlot::frontierGraph(const QString& group, const QString& task) {
  const QPair<QString, QString> key{group, task};
  if (QCPGraph* f = frontiers_.value(key)) return f;
  // The overall frontier of the first task is frontier_ (the legend's entry); every other
  // line is a graph of its own, so no line runs from one task's runs to another's.
  const bool frontierTaken = std::find(frontiers_.cbegin(), frontiers_.cend(), frontier_) != frontiers_.cend();
  QCPGraph* f = group.isEmpty() && !frontierTaken ? frontier_ : customPlot()->addGraph();
  if (f != frontier_) {
    f->setLayer(QStringLiteral("frontier"));
    f->removeFromLegend();
    markDecoration(f);
  }
  frontiers_.insert(key, f);
  return f;
}

void FrontierScatterPlot::dropFrontierGraphs(const QString& group) {
  for (auto it = frontiers_.begin(); it != frontiers_.end();) {
    if (it.key().first != group) {
      ++it;
      continue;
    }
    if (it.value() != frontier_) {
      forgetGraph(it.value());
      customPlot()->removeGraph(it.value());
    } else {
      setGraphData(frontier_, {}, {});
    }
    it = frontiers_.erase(it);
  }
}

void FrontierScatterPlot::syncData() {
  if (!dirty_) return;
  for (const QString& group : groupOrder_) {
    QCPGraph* g = groupGraphs_.value(group);
    if (!g) {
      g = customPlot()->addGraph();
      g->setLineStyle(QCPGraph::lsNone);
      g->setName(group);
      groupGraphs_.insert(group, g);
    }
    const QColor c = groupColor(group);
    g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, QPen(c.darker(130)), QBrush(c), 8));
    // Sorted by x as the graph keeps them, so error bar i belongs to data point i.
    std::vector<const ScatterPoint*> mine;
    for (const ScatterPoint& pt : points_)
      if (pt.group == group) mine.push_back(&pt);
    std::stable_sort(mine.begin(), mine.end(), [](const ScatterPoint* a, const ScatterPoint* b) { return a->x < b->x; });
    std::vector<double> xs, ys, errors;
    bool anyError = false;
    for (const ScatterPoint* pt : mine) {
      xs.push_back(pt->x);
      ys.push_back(pt->y);
      errors.push_back(pt->yStd);
      anyError = anyError || pt->yStd > 0;
    }
    QCPErrorBars* bars = groupErrors_.value(group);
    if (anyError && !bars) {
      bars = new QCPErrorBars(customPlot()->xAxis, customPlot()->yAxis);
      bars->removeFromLegend();
      groupErrors_.insert(group, bars);
      markDecoration(bars);
    }
    if (bars) {
      bars->setPen(QPen(c, 1));
      bars->setData(QVector<double>(errors.begin(), errors.end()));
      bars->setDataPlottable(anyError ? g : nullptr);
      bars->setVisible(anyError);
    }
    setGraphData(g, std::move(xs), std::move(ys));
  }
  // Frontier lines: per group or over all points, and always per task.
  const QStringList taskList = tasks();
  for (auto it = frontiers_.begin(); it != frontiers_.end(); ++it) {
    setGraphData(it.value(), {}, {});
    it.value()->setVisible(false);
  }
  const auto draw = [this](QCPGraph* f, const std::vector<std::size_t>& indices) {
    std::vector<double> fx, fy;
    for (std::size_t i : indices) {
      fx.push_back(points_[i].x);
      fy.push_back(points_[i].y);
    }
    setGraphData(f, std::move(fx), std::move(fy));
    f->setVisible(true);
  };
  for (const QString& task : taskList) {
    if (!perGroup_) {
      QCPGraph* f = frontierGraph(QString(), task);
      f->setPen(frontier_->pen());
      f->setScatterStyle(frontier_->scatterStyle());
      draw(f, frontierOf(nullptr, task));
      continue;
    }
    for (const QString& group : groupOrder_) {
      const QColor c = groupColor(group);
      QCPGraph* f = frontierGraph(group, task);
      f->setPen(QPen(c, 2));
      f->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(c.darker(140), 1.5), Qt::NoBrush, 12));
      draw(f, frontierOf(&group, task));
    }
  }
  if (perGroup_) frontier_->removeFromLegend();
  else if (!customPlot()->legend->hasItemWithPlottable(frontier_)) frontier_->addToLegend();
  dirty_ = false;
}

int FrontierScatterPlot::pointAt(QCPAbstractPlottable* plottable, int dataIndex) const {
  // Graphs sort their data by x: find the point by its coordinates (and group).
  QCPPlottableInterface1D* d = plottable->interface1D();
  if (!d || dataIndex < 0 || dataIndex >= d->dataCount()) return -1;
  const double x = d->dataMainKey(dataIndex), y = d->dataMainValue(dataIndex);
  const QString group = groupGraphs_.key(static_cast<QCPGraph*>(plottable));
  for (std::size_t i = 0; i < points_.size(); ++i)
    if (points_[i].x == x && points_[i].y == y && (plottable == frontier_ || points_[i].group == group))
      return static_cast<int>(i);
  return -1;
}

QString FrontierScatterPlot::hoverLabel(QCPAbstractPlottable* plottable, int dataIndex) const {
  const int i = pointAt(plottable, dataIndex);
  if (i < 0) return QString();
  const ScatterPoint& pt = points_[static_cast<std::size_t>(i)];
  return plottable == frontier_ ? pt.group + QStringLiteral(" · ") + pt.label : pt.label;
}

CsvTable FrontierScatterPlot::csvTable() const {
  CsvTable table;
  table.header << QStringLiteral("group") << QStringLiteral("label") << customPlot()->xAxis->label() << customPlot()->yAxis->label()
               << QStringLiteral("frontier");
  const std::vector<std::size_t> f = frontierIndices();
  for (std::size_t i = 0; i < points_.size(); ++i) {
    const ScatterPoint& pt = points_[i];
    const bool onFrontier = std::find(f.begin(), f.end(), i) != f.end();
    table.rows << QStringList{pt.group, pt.label, csvNumber(pt.x), csvNumber(pt.y),
                              onFrontier ? QStringLiteral("1") : QStringLiteral("0")};
  }
  return table;
}

}  // namespace lwb::widgets
