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
    for (QCPGraph* g : {groupGraphs_.take(group), groupFrontiers_.take(group)})
      if (g) {
        forgetGraph(g);
        customPlot()->removeGraph(g);
      }
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

std::vector<std::size_t> FrontierScatterPlot::frontierIndices() const {
  std::vector<double> xs, ys;
  for (const ScatterPoint& pt : points_) {
    xs.push_back(pt.x);
    ys.push_back(pt.y);
  }
  return bestPerLogBin(xs, ys, binsPerDecade_);
}

std::vector<std::size_t> FrontierScatterPlot::frontierIndices(const QString& group) const {
  std::vector<double> xs, ys;
  std::vector<std::size_t> at;
  for (std::size_t i = 0; i < points_.size(); ++i) {
    if (points_[i].group != group) continue;
    xs.push_back(points_[i].x);
    ys.push_back(points_[i].y);
    at.push_back(i);
  }
  std::vector<std::size_t> out;
  for (std::size_t k : bestPerLogBin(xs, ys, binsPerDecade_)) out.push_back(at[k]);
  return out;
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
    // Per-group frontier: a line through the group's best point per bound bin.
    QCPGraph* f = groupFrontiers_.value(group);
    if (perGroup_ && !f) {
      f = customPlot()->addGraph();
      f->setLayer(QStringLiteral("frontier"));
      markDecoration(f);
      groupFrontiers_.insert(group, f);
    }
    if (f) {
      f->setPen(QPen(c, 2));
      f->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(c.darker(140), 1.5), Qt::NoBrush, 12));
      std::vector<double> gx, gy;
      if (perGroup_)
        for (std::size_t i : frontierIndices(group)) {
          gx.push_back(points_[i].x);
          gy.push_back(points_[i].y);
        }
      setGraphData(f, std::move(gx), std::move(gy));
      f->setVisible(perGroup_);
    }
  }
  std::vector<double> fx, fy;
  if (!perGroup_)
    for (std::size_t i : frontierIndices()) {
      fx.push_back(points_[i].x);
      fy.push_back(points_[i].y);
    }
  setGraphData(frontier_, std::move(fx), std::move(fy));
  frontier_->setVisible(!perGroup_);
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
