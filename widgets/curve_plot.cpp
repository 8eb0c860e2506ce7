#include "widgets/curve_plot.h"

#include "widgets/palette.h"
#include "widgets/qcp.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace lwb::widgets {

CurvePlot::CurvePlot(QWidget* parent) : PlotView(parent) { placeLegend(LegendPlace::Below); }

void CurvePlot::setAxisLabels(const QString& x, const QString& y) {
  customPlot()->xAxis->setLabel(x);
  customPlot()->yAxis->setLabel(y);
}

void CurvePlot::setLogXAvailable(bool on) { setSupportsLogX(on); }

void CurvePlot::setCurve(const QString& name, std::vector<double> xs, std::vector<double> ys, const Style& style) {
  QCPGraph* g = curves_.value(name);
  if (!g) {
    g = customPlot()->addGraph();
    curves_.insert(name, g);
    order_ << name;
  }
  const QColor color = style.color.isValid() ? style.color : runColor(static_cast<int>(order_.indexOf(name)));
  g->setName(name);
  QPen pen(color, style.width, style.pen == Qt::NoPen ? Qt::SolidLine : style.pen);
  g->setPen(pen);
  g->setLineStyle(style.pen == Qt::NoPen ? QCPGraph::lsNone : QCPGraph::lsLine);
  g->setScatterStyle(style.markers || style.pen == Qt::NoPen ? QCPScatterStyle(QCPScatterStyle::ssCircle, color, color, 5)
                                                             : QCPScatterStyle());
  // Line graphs want ascending x; sort the pairs (the data keeps its meaning).
  std::vector<size_t> idx(std::min(xs.size(), ys.size()));
  std::iota(idx.begin(), idx.end(), 0);
  std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return xs[a] < xs[b]; });
  std::vector<double> sx, sy;
  sx.reserve(idx.size());
  sy.reserve(idx.size());
  for (size_t i : idx) {
    sx.push_back(xs[i]);
    sy.push_back(ys[i]);
  }
  setGraphData(g, std::move(sx), std::move(sy));
}

void CurvePlot::removeCurve(const QString& name) {
  QCPGraph* g = curves_.take(name);
  if (!g) return;
  order_.removeAll(name);
  forgetGraph(g);
  customPlot()->removeGraph(g);
}

void CurvePlot::clearCurves() {
  for (const QString& name : QStringList(order_)) removeCurve(name);
}

std::pair<std::vector<double>, std::vector<double>> CurvePlot::curveData(const QString& name) const {
  const QCPGraph* g = curves_.value(name);
  const XYData* d = g ? graphSource(g) : nullptr;
  if (!d) return {};
  return {d->xs, d->ys};
}

void CurvePlot::setReferenceLines(const QVector<Reference>& lines) {
  for (auto* item : refItems_) customPlot()->removeItem(item);
  refItems_.clear();
  refs_ = lines;
  QVector<QPair<double, QString>> ticks;
  for (const Reference& r : lines) {
    if (!std::isfinite(r.value)) continue;
    auto* line = new QCPItemStraightLine(customPlot());
    line->point1->setCoords(0, r.value);
    line->point2->setCoords(1, r.value);
    line->setPen(QPen(r.color.isValid() ? r.color : referenceColor(), 1.2, Qt::DashLine));
    refItems_ << line;
    ticks.append({r.value, r.label});
  }
  setReferenceTicks(customPlot()->yAxis, ticks);
}

void CurvePlot::fitView() {
  PlotView::fitView();
  // Reference lines are items, which rescaleAxes ignores: widen y so they stay in view.
  QCPAxis* y = customPlot()->yAxis;
  QCPRange r = y->range();
  bool changed = false;
  for (const Reference& ref : refs_) {
    if (!std::isfinite(ref.value) || (y->scaleType() == QCPAxis::stLogarithmic && ref.value <= 0)) continue;
    if (ref.value < r.lower) r.lower = ref.value, changed = true;
    if (ref.value > r.upper) r.upper = ref.value, changed = true;
  }
  if (changed) {
    y->setRange(r);
    padAxes({y}, 0.04);
  }
}

}  // namespace lwb::widgets
