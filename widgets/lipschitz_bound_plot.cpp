#include "widgets/lipschitz_bound_plot.h"

#include "widgets/log_ticker.h"
#include "widgets/number_format.h"
#include "widgets/palette.h"

#include "widgets/qcp.h"

#include <algorithm>
#include <cmath>

namespace lwb::widgets {

namespace {
const QString kBoundKey = QStringLiteral("lipschitz_bound");
const QString kSingleHeadKey = QStringLiteral("lipschitz_bound_app_d");
}

QString traceRowExplanation(const std::vector<TraceFactor>& rows, std::size_t i) {
  if (i >= rows.size()) return {};
  const double before = i == 0 ? 1.0 : rows[i - 1].boundAfter, factor = rows[i].factor, after = rows[i].boundAfter;
  if (!std::isfinite(before) || !std::isfinite(factor) || !std::isfinite(after) || before <= 0) return {};
  const auto n = [](double v) { return displayNumber(v, 'g', 4); };
  // Composition (an MLP layer, the head): the factors multiply.
  if (std::abs(after - before * factor) <= 1e-6 * std::max(after, 1e-300))
    return LipschitzBoundPlot::tr("L = %1 × %2 = %3 (composition: factors multiply)").arg(n(before), n(factor), n(after));
  // A residual block x + α·f(x), 000 App. D eq. (14): L ← (1 − α)·L + α·L·L_block.
  if (std::abs(factor - 1.0) > 1e-12) {
    const double alpha = (after - before) / (before * (factor - 1.0));
    if (alpha > 0 && alpha <= 1)
      return LipschitzBoundPlot::tr("L = (1 − α)·%1 + α·%1·%2 = %3 with α = %4 (residual block, App. D eq. 14)")
          .arg(n(before), n(factor), n(after), n(alpha));
  }
  return LipschitzBoundPlot::tr("L: %1 → %2 (factor %3)").arg(n(before), n(after), n(factor));
}

LipschitzBoundPlot::LipschitzBoundPlot(QWidget* parent) : MultiRunPlot(parent) {
  QCustomPlot* p = customPlot();
  p->xAxis->setLabel(tr("step"));
  setAxisLabel(p->yAxis, tr("Lipschitz bound"), tr("bound"));

  traceRect_ = new QCPAxisRect(p);
  p->plotLayout()->addElement(p->plotLayout()->rowCount(), 0, traceRect_);
  p->plotLayout()->setRowStretchFactor(0, 1.0);
  p->plotLayout()->setRowStretchFactor(1, 0.85);
  QCPAxis* traceX = traceRect_->axis(QCPAxis::atBottom);
  QCPAxis* traceFactor = traceRect_->axis(QCPAxis::atLeft);
  QCPAxis* traceBound = traceRect_->axis(QCPAxis::atRight);
  traceBound->setVisible(true);
  traceX->setTicker(QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText));
  traceX->setTickLabelRotation(35);
  traceX->setSubTicks(false);
  traceX->grid()->setVisible(false);
  setAxisLabel(traceFactor, tr("factor (bars)"), tr("factor"));
  setAxisLabel(traceBound, tr("bound so far (line)"), tr("so far"));
  traceBound->setScaleType(QCPAxis::stLogarithmic);
  // 10ᵏ labels in every language, and labelled ticks on short ranges too (log_ticker.h).
  traceBound->setTicker(QSharedPointer<QCPAxisTicker>(new AdaptiveLogTicker));
  // Both panels share left/right margins so their plot areas line up.
  auto* margins = new QCPMarginGroup(p);
  p->axisRect()->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
  traceRect_->setMarginGroup(QCP::msLeft | QCP::msRight, margins);
  p->yAxis2->setVisible(true);
  p->yAxis2->setTickLabels(false);

  barsGroup_ = new QCPBarsGroup(p);
  unitLine_ = new QCPItemStraightLine(p);
  unitLine_->setClipAxisRect(traceRect_);
  for (QCPItemPosition* pos : {unitLine_->point1, unitLine_->point2}) {
    pos->setAxisRect(traceRect_);
    pos->setAxes(traceX, traceFactor);
  }
  unitLine_->point1->setCoords(0, 1);
  unitLine_->point2->setCoords(1, 1);
  unitLine_->setPen(QPen(referenceColor(), 1, Qt::DashLine));

  // Only the upper panel zooms and pans with the step axis; the trace is a category plot.
  p->axisRect()->setRangeDragAxes(p->xAxis, p->yAxis);
  traceRect_->setRangeDrag(Qt::Orientations());
  traceRect_->setRangeZoom(Qt::Orientations());
  // Below, not beside: the bound is the panel the app is about and needs the width (issue 32:
  // a legend on the right left the plots a third of a narrow dock, ticks running together).
  placeLegend(LegendPlace::Below, 2);
  setLogY(true);
}

void LipschitzBoundPlot::appendBound(const QString& runId, double step, double bound, double singleHeadBound) {
  MultiRunPlot::appendPoint(runId, kBoundKey, step, bound);
  if (singleHeadBound > 0 && std::isfinite(singleHeadBound))
    MultiRunPlot::appendPoint(runId, kSingleHeadKey, step, singleHeadBound);
}

QString LipschitzBoundPlot::seriesName(const QString& label, const QString& key) const {
  return key == kSingleHeadKey ? label + tr(" · App. D, single-head argument") : label;
}

QList<QCPGraph*> LipschitzBoundPlot::createSeriesGraphs(const QString& runId, const QString& key) {
  QCPGraph* g = customPlot()->addGraph();
  const RunStyle style = runStyle(runId);
  // The sound bound solid; the paper's App. D value (not a bound for several heads) dotted.
  g->setPen(QPen(style.color, key == kSingleHeadKey ? 1.2 : 1.6, key == kSingleHeadKey ? Qt::DotLine : Qt::SolidLine));
  g->setName(seriesName(style.label, key));
  return {g};
}

LipschitzBoundPlot::TraceGraphs& LipschitzBoundPlot::traceGraphsFor(const QString& runId) {
  auto it = traceGraphs_.find(runId);
  if (it != traceGraphs_.end()) return it->second;
  if (!hasRun(runId)) setRun(runId, runId, runColor(static_cast<int>(runIds().size())));
  TraceGraphs t;
  t.bars = new QCPBars(traceRect_->axis(QCPAxis::atBottom), traceRect_->axis(QCPAxis::atLeft));
  t.bars->setBarsGroup(barsGroup_);
  t.running = customPlot()->addGraph(traceRect_->axis(QCPAxis::atBottom), traceRect_->axis(QCPAxis::atRight));
  t.bars->removeFromLegend();
  t.running->removeFromLegend();
  it = traceGraphs_.emplace(runId, t).first;
  restyleRun(runStyle(runId));
  return it->second;
}

void LipschitzBoundPlot::restyleRun(const RunStyle& style) {
  MultiRunPlot::restyleRun(style);
  for (const auto& [id, s] : allSeries())
    if (id.first == style.id) s->graphs.front()->setName(seriesName(style.label, id.second));
  auto it = traceGraphs_.find(style.id);
  if (it == traceGraphs_.end()) return;
  it->second.bars->setPen(QPen(style.color.darker(120)));
  it->second.bars->setBrush(withAlpha(style.color, 150));
  it->second.bars->setName(style.label + tr(" · layer factor"));
  it->second.running->setPen(QPen(style.color, 1.5));
  it->second.running->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, 6));
  it->second.running->setName(style.label + tr(" · bound after layer"));
}

void LipschitzBoundPlot::runRemoved(const QString& runId) {
  auto it = traceGraphs_.find(runId);
  if (it != traceGraphs_.end()) {
    forgetGraph(it->second.running);
    customPlot()->removeGraph(it->second.running);
    customPlot()->removePlottable(it->second.bars);
    traceGraphs_.erase(it);
  }
  traces_.erase(runId);
  traceDirty_ = true;
}

void LipschitzBoundPlot::setTrace(const QString& runId, qint64 step, const std::vector<TraceFactor>& trace) {
  traceGraphsFor(runId);
  traces_[runId] = Trace{step, trace};
  for (const TraceFactor& row : trace)
    if (!traceNames_.contains(row.name)) traceNames_ << row.name;
  traceDirty_ = true;
}

void LipschitzBoundPlot::rebuildTrace() {
  auto ticker = traceRect_->axis(QCPAxis::atBottom)->ticker().dynamicCast<QCPAxisTickerText>();
  ticker->clear();
  for (int i = 0; i < traceNames_.size(); ++i) ticker->addTick(i + 1, traceNames_[i]);
  const double groupWidth = 0.8;
  for (auto& [id, g] : traceGraphs_) {
    g.bars->setWidth(groupWidth / std::max<std::size_t>(1, traceGraphs_.size()));
    QVector<double> keys, factors;
    std::vector<double> xs, bounds;
    auto it = traces_.find(id);
    if (it != traces_.end()) {
      for (const TraceFactor& row : it->second.rows) {
        const double key = traceNames_.indexOf(row.name) + 1;
        keys << key;
        factors << row.factor;
        xs.push_back(key);
        bounds.push_back(row.boundAfter);
      }
    }
    g.bars->setData(keys, factors);
    setGraphData(g.running, xs, bounds);
  }
  QString stepText;
  for (const auto& [id, t] : traces_)
    // Short: with "(hover a layer: how it grows the bound)" it was cut on both sides in a
    // narrow (German, 1024-px) window; the panel's description has the hint.
    if (!t.rows.empty()) stepText = tr("per-layer trace at step %1").arg(t.step);
  traceRect_->axis(QCPAxis::atBottom)->setLabel(stepText);
}

void LipschitzBoundPlot::syncData() {
  MultiRunPlot::syncData();
  if (!traceDirty_) return;
  rebuildTrace();
  traceDirty_ = false;
}

void LipschitzBoundPlot::fitView() {
  MultiRunPlot::fitView();
  QCPAxis* traceX = traceRect_->axis(QCPAxis::atBottom);
  traceX->setRange(0.4, std::max<double>(1, traceNames_.size()) + 0.6);
  double maxFactor = 1, minBound = 0, maxBound = 0;
  for (const auto& [id, t] : traces_) {
    for (const TraceFactor& row : t.rows) {
      if (std::isfinite(row.factor)) maxFactor = std::max(maxFactor, row.factor);
      if (row.boundAfter > 0 && std::isfinite(row.boundAfter)) {
        minBound = minBound == 0 ? row.boundAfter : std::min(minBound, row.boundAfter);
        maxBound = std::max(maxBound, row.boundAfter);
      }
    }
  }
  traceRect_->axis(QCPAxis::atLeft)->setRange(0, maxFactor * 1.12);
  if (maxBound > 0) traceRect_->axis(QCPAxis::atRight)->setRange(minBound / 1.5, maxBound * 1.5);
}

QString LipschitzBoundPlot::hoverLabel(QCPAbstractPlottable* plottable, int dataIndex) const {
  for (const auto& [id, g] : traceGraphs_) {
    if (plottable != g.bars && plottable != g.running) continue;
    const double key = plottable->interface1D()->dataMainKey(dataIndex);
    const int i = static_cast<int>(std::lround(key)) - 1;
    if (i < 0 || i >= traceNames_.size()) continue;
    // The layer, and how its factor turns the bound before it into the bound after it.
    const auto t = traces_.find(id);
    if (t == traces_.end()) return traceNames_[i];
    const auto& rows = t->second.rows;
    for (std::size_t r = 0; r < rows.size(); ++r)
      if (rows[r].name == traceNames_[i]) return traceNames_[i] + QStringLiteral(": ") + traceRowExplanation(rows, r);
    return traceNames_[i];
  }
  return QString();
}

}  // namespace lwb::widgets
