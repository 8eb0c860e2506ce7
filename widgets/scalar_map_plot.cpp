#include "widgets/scalar_map_plot.h"

#include "widgets/palette.h"

#include "widgets/qcp.h"

#include <algorithm>
#include <cmath>

namespace lwb::widgets {

namespace {
double curveWidth(qsizetype index) { return std::max(1.2, 3.2 - 0.8 * static_cast<double>(index)); }
// σᵢ markers: open circles in the curve's colour.
QCPScatterStyle markerStyle(const QColor& color) {
  return QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(color, 1.5), QBrush(Qt::white), 7);
}
}  // namespace

ScalarMapPlot::ScalarMapPlot(QWidget* parent) : PlotView(parent) {
  QCustomPlot* p = customPlot();
  p->xAxis->setLabel(tr("σ"));
  p->yAxis->setLabel(tr("f(σ)"));
  identity_ = p->addGraph();
  markDecoration(identity_);
  identity_->setName(tr("y = x"));
  identity_->setPen(QPen(QColor(150, 150, 150), 1, Qt::DotLine));
  identity_->addToLegend();  // a reference, but one the reader must be able to name
  sigmaMaxLine_ = new QCPItemStraightLine(p);
  sigmaMinLine_ = new QCPItemStraightLine(p);
  for (auto* line : {sigmaMaxLine_, sigmaMinLine_}) {
    line->setPen(QPen(referenceColor(), 1.2, Qt::DashLine));
    line->setVisible(false);
  }
  placeLegendRightWhenWide();
  // The map's values are signed in general (odd polynomials): no log toggle.
  setLogYToggleVisible(false);
}

QColor ScalarMapPlot::curveColor(const QString& name) const {
  auto it = curves_.find(name);
  if (it != curves_.end()) return it->second.graph->pen().color();
  return runColor(static_cast<int>(order_.size()));
}

void ScalarMapPlot::setCurve(const QString& name, const std::vector<double>& xs, const std::vector<double>& ys,
                             const QColor& color) {
  auto it = curves_.find(name);
  if (it == curves_.end()) {
    Curve c;
    c.graph = customPlot()->addGraph();
    c.graph->setName(name);
    // Later curves thinner, so a curve that coincides with an earlier one (hard cap and
    // clip above σmin) still shows both colours.
    c.graph->setPen(QPen(color.isValid() ? color : runColor(static_cast<int>(order_.size())), curveWidth(order_.size())));
    it = curves_.emplace(name, c).first;
    order_ << name;
  } else if (color.isValid()) {
    it->second.graph->setPen(QPen(color, curveWidth(order_.indexOf(name))));
    if (it->second.markers) setFastScatter(it->second.markers, markerStyle(color));
  }
  setGraphData(it->second.graph, xs, ys);
  linesDirty_ = true;
}

void ScalarMapPlot::removeCurve(const QString& name) {
  auto it = curves_.find(name);
  if (it == curves_.end()) return;
  for (QCPGraph* g : {it->second.graph, it->second.markers}) {
    if (!g) continue;
    forgetGraph(g);
    customPlot()->removeGraph(g);
  }
  curves_.erase(it);
  order_.removeAll(name);
  linesDirty_ = true;
}

void ScalarMapPlot::clearCurves() {
  const QStringList names = order_;
  for (const QString& n : names) removeCurve(n);
}

QStringList ScalarMapPlot::curveNames() const { return order_; }

void ScalarMapPlot::setMarkers(const std::vector<double>& sigmas, const std::vector<double>& fOfSigmas,
                               const QString& curveName) {
  const QString name = curveName.isEmpty() ? (order_.isEmpty() ? QString() : order_.front()) : curveName;
  auto it = curves_.find(name);
  if (it == curves_.end()) {
    // Markers for a curve not set yet: create it empty so the colour is fixed now.
    setCurve(name.isEmpty() ? tr("f(σ)") : name, {}, {});
    it = curves_.find(name.isEmpty() ? tr("f(σ)") : name);
  }
  Curve& c = it->second;
  if (!c.markers) {
    c.markers = customPlot()->addGraph();
    c.markers->setLineStyle(QCPGraph::lsNone);
    c.markers->setName(rmsUnits_ ? tr("σᵢ of the matrix (RMS→RMS)") : tr("σᵢ of the matrix"));
    c.markers->removeFromLegend();
  }
  const QColor color = c.graph->pen().color();
  setFastScatter(c.markers, markerStyle(color));
  // Only the first curve's markers are in the legend: one entry explains them all.
  if (it->first == order_.front()) c.markers->addToLegend();
  const std::size_t n = std::min(sigmas.size(), fOfSigmas.size());
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return sigmas[a] < sigmas[b]; });
  std::vector<double> xs(n), ys(n);
  for (std::size_t i = 0; i < n; ++i) {
    xs[i] = sigmas[order[i]];
    ys[i] = fOfSigmas[order[i]];
  }
  setGraphData(c.markers, std::move(xs), std::move(ys));
  linesDirty_ = true;
}

void ScalarMapPlot::clearMarkers() {
  for (auto& [name, c] : curves_)
    if (c.markers) setGraphData(c.markers, {}, {});
}

void ScalarMapPlot::setRmsUnits(bool rms) {
  if (rms == rmsUnits_) return;
  rmsUnits_ = rms;
  customPlot()->xAxis->setLabel(rms ? tr("σ (RMS→RMS)") : tr("σ"));
  for (auto& [name, c] : curves_)
    if (c.markers) c.markers->setName(rms ? tr("σᵢ of the matrix (RMS→RMS)") : tr("σᵢ of the matrix"));
  requestReplot();
}

void ScalarMapPlot::setSigmaMax(double sigmaMax) {
  sigmaMax_ = sigmaMax;
  linesDirty_ = true;
}

void ScalarMapPlot::setSigmaMin(double sigmaMin) {
  sigmaMin_ = sigmaMin;
  linesDirty_ = true;
}

void ScalarMapPlot::updateLines() {
  // Identity over the curves' σ range; σ lines are vertical at σmax, σmin.
  double lo = 0, hi = 1;
  bool any = false;
  for (const auto& [name, c] : curves_) {
    for (QCPGraph* g : {c.graph, c.markers}) {
      const XYData* d = g ? graphSource(g) : nullptr;
      if (!d || d->xs.empty()) continue;
      const auto [mn, mx] = std::minmax_element(d->xs.begin(), d->xs.end());
      lo = any ? std::min(lo, *mn) : *mn;
      hi = any ? std::max(hi, *mx) : *mx;
      any = true;
    }
  }
  setGraphData(identity_, {lo, hi}, {lo, hi});
  auto place = [](QCPItemStraightLine* line, double v) {
    line->setVisible(std::isfinite(v));
    line->point1->setCoords(v, 0);
    line->point2->setCoords(v, 1);
  };
  place(sigmaMaxLine_, sigmaMax_);
  place(sigmaMinLine_, sigmaMin_);
  QVector<QPair<double, QString>> ticks;
  if (std::isfinite(sigmaMax_)) ticks.append({sigmaMax_, tr("σmax")});
  if (std::isfinite(sigmaMin_)) ticks.append({sigmaMin_, tr("σmin")});
  setReferenceTicks(customPlot()->xAxis, ticks);
}

void ScalarMapPlot::syncData() {
  if (!linesDirty_) return;
  updateLines();
  linesDirty_ = false;
}

void ScalarMapPlot::fitView() {
  PlotView::fitView();
  QCustomPlot* p = customPlot();
  QCPRange x = p->xAxis->range();
  for (double v : {sigmaMax_, sigmaMin_})
    if (std::isfinite(v)) x.expand(v);
  p->xAxis->setRange(x);
  // f(σ) >= 0 on σ >= 0 for every constraint map: keep 0 as the floor so the eye reads
  // the cap against the origin.
  QCPRange y = p->yAxis->range();
  if (y.lower > 0) y.lower = 0;
  p->yAxis->setRange(y);
}

CsvTable ScalarMapPlot::csvTable() const {
  // Curves and marker sets share σ only by coincidence: one long table (series, σ, f).
  CsvTable table;
  table.header << QStringLiteral("series") << QStringLiteral("sigma") << QStringLiteral("f_sigma");  // column ids, not UI text
  for (const QString& name : order_) {
    const Curve& c = curves_.at(name);
    for (const auto& [suffix, g] : {std::pair<QString, QCPGraph*>{QString(), c.graph},
                                    std::pair<QString, QCPGraph*>{QStringLiteral(" markers"), c.markers}}) {
      const XYData* d = g ? graphSource(g) : nullptr;
      if (!d) continue;
      for (std::size_t i = 0; i < d->xs.size(); ++i)
        table.rows << QStringList{name + suffix, csvNumber(d->xs[i]), csvNumber(d->ys[i])};
    }
  }
  return table;
}

}  // namespace lwb::widgets
