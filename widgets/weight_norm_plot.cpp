#include "widgets/weight_norm_plot.h"

#include "widgets/palette.h"

#include "widgets/qcp.h"

#include <cmath>

namespace lwb::widgets {

namespace {
// Beyond this many layers a legend would be taller than the plot: hover names them instead.
constexpr int kMaxLegendLayers = 14;
}  // namespace

WeightNormPlot::WeightNormPlot(QWidget* parent) : MultiRunPlot(parent) {
  QCustomPlot* p = customPlot();
  p->xAxis->setLabel(tr("step"));
  p->yAxis->setLabel(tr("‖W‖ RMS→RMS"));
  placeLegendRightWhenWide();
  // Items, not graphs: they span the axis rect at any zoom and stay out of auto range.
  band_ = new QCPItemRect(p);
  band_->setPen(Qt::NoPen);
  band_->setBrush(QBrush(withAlpha(referenceColor(), 24)));
  band_->topLeft->setTypeX(QCPItemPosition::ptAxisRectRatio);
  band_->bottomRight->setTypeX(QCPItemPosition::ptAxisRectRatio);
  band_->setLayer(QStringLiteral("background"));
  targetLine_ = new QCPItemStraightLine(p);
  minLine_ = new QCPItemStraightLine(p);
  targetLine_->setPen(QPen(referenceColor(), 1.5, Qt::DashLine));
  minLine_->setPen(QPen(referenceColor(), 1, Qt::DotLine));
  targetProxy_ = addLegendProxy(tr("σmax target"), targetLine_->pen());
  targetProxy_->removeFromLegend();
  hoverHint_ = addLegendProxy(QString(), QPen(Qt::gray, 1.3));
  hoverHint_->removeFromLegend();
  maxTick_ = tr("σmax");
  minTick_ = tr("σmin");
  updateTargetItems();
  connect(this, &PlotView::logYChanged, this, [this] {
    if (!autoLogging_) logScaleChosen_ = true;
  });
}

void WeightNormPlot::setLayerNote(const QString& layer, const QString& note) {
  if (layerNotes_.value(layer) == note) return;
  layerNotes_[layer] = note;
  restyleAll();
}

void WeightNormPlot::setValueLabel(const QString& yLabel) { customPlot()->yAxis->setLabel(yLabel); }

void WeightNormPlot::setTargetNames(const QString& legend, const QString& maxTick, const QString& minTick) {
  targetProxy_->setName(legend);
  maxTick_ = maxTick;
  minTick_ = minTick;
  updateTargetItems();
}

void WeightNormPlot::appendPoint(const QString& runId, const QString& layer, double step, double rmsNorm) {
  // A new (run, layer) series changes colours and legend: restyle once, not per point.
  const bool isNew = seriesSize(runId, layer) == 0;
  if (!layers_.contains(layer)) layers_ << layer;
  MultiRunPlot::appendPoint(runId, layer, step, rmsNorm);
  if (isNew) restyleAll();
}

void WeightNormPlot::appendStep(const QString& runId, double step, const QStringList& layers,
                                const std::vector<double>& rmsNorms) {
  const int n = std::min(static_cast<int>(layers.size()), static_cast<int>(rmsNorms.size()));
  for (int i = 0; i < n; ++i) appendPoint(runId, layers[i], step, rmsNorms[static_cast<std::size_t>(i)]);
}

void WeightNormPlot::setSeries(const QString& runId, const QString& layer, const std::vector<double>& steps,
                               const std::vector<double>& rmsNorms) {
  if (!layers_.contains(layer)) layers_ << layer;
  MultiRunPlot::setSeries(runId, layer, steps, rmsNorms);
  restyleAll();
}

void WeightNormPlot::setTarget(double sigmaMax, double sigmaMin) {
  targetMax_ = sigmaMax;
  targetMin_ = sigmaMin;
  updateTargetItems();
  if (std::isfinite(sigmaMax))
    targetProxy_->addToLegend();
  else
    targetProxy_->removeFromLegend();
  customPlot()->legend->setVisible(customPlot()->legend->itemCount() > 0);
}

QList<QCPGraph*> WeightNormPlot::createSeriesGraphs(const QString&, const QString&) {
  return {customPlot()->addGraph()};
}

void WeightNormPlot::restyleRun(const RunStyle&) { restyleAll(); }

void WeightNormPlot::restyleAll() {
  // One run: colour by layer (legend names layers). Several: colour by run, layers told
  // apart by the hover read-out.
  const bool single = runIds().size() <= 1;
  for (const auto& [id, s] : allSeries()) {
    QCPGraph* g = s->graphs.front();
    const int layerIndex = static_cast<int>(layers_.indexOf(id.second));
    const RunStyle style = runStyle(id.first);
    g->setPen(QPen(single ? runColor(layerIndex) : style.color, 1.3, single ? runPenStyle(layerIndex) : Qt::SolidLine));
    g->setName(single ? legendName(id.second) : style.label + QStringLiteral(" · ") + legendName(id.second));
    const bool inLegend = single ? layers_.size() <= kMaxLegendLayers : false;
    if (inLegend)
      g->addToLegend();
    else
      g->removeFromLegend();
  }
  // Too many layers to name, or several runs: one entry says how to read the lines instead
  // of no legend at all (issue 32: a Manifold Muon run's norms had none).
  const bool named = single && layers_.size() <= kMaxLegendLayers;
  if (!named && !allSeries().empty()) {
    hoverHint_->setName(single ? tr("%1 layers: hover a line for its name").arg(layers_.size())
                               : tr("colour: run · hover a line for its layer"));
    if (!customPlot()->legend->hasItemWithPlottable(hoverHint_)) hoverHint_->addToLegend();
  } else {
    hoverHint_->removeFromLegend();
  }
  customPlot()->legend->setVisible(customPlot()->legend->itemCount() > 0);
}

QString WeightNormPlot::hoverLabel(QCPAbstractPlottable* plottable, int) const {
  for (const auto& [id, s] : allSeries())
    if (s->graphs.front() == plottable) return tr("layer %1").arg(id.second);
  return QString();
}

void WeightNormPlot::updateTargetItems() {
  const bool haveMax = std::isfinite(targetMax_);
  const bool haveBand = haveMax && std::isfinite(targetMin_);
  targetLine_->setVisible(haveMax);
  minLine_->setVisible(haveBand);
  band_->setVisible(haveBand);
  targetLine_->point1->setCoords(0, targetMax_);
  targetLine_->point2->setCoords(1, targetMax_);
  minLine_->point1->setCoords(0, targetMin_);
  minLine_->point2->setCoords(1, targetMin_);
  band_->topLeft->setCoords(0, targetMax_);
  band_->bottomRight->setCoords(1, targetMin_);
  QVector<QPair<double, QString>> ticks;
  if (haveMax) ticks.append({targetMax_, maxTick_});
  if (haveBand) ticks.append({targetMin_, minTick_});
  setReferenceTicks(customPlot()->yAxis, ticks);
}

void WeightNormPlot::fitView() {
  if (!logScaleChosen_ && !logY()) {
    double lo = 0, hi = 0;
    for (const auto& [id, series] : allSeries()) {
      const ValueRange r = series->buffer.positiveYRange();
      if (!r.valid) continue;
      lo = lo > 0 ? std::min(lo, r.lower) : r.lower;
      hi = std::max(hi, r.upper);
    }
    if (lo > 0 && hi / lo > 10) {
      logScaleChosen_ = true;  // once: the user's box and menu rule from here on
      // After this fit, not inside it (setLogY refits through applyLogScales).
      QMetaObject::invokeMethod(
          this,
          [this] {
            autoLogging_ = true;
            setLogY(true);
            autoLogging_ = false;
          },
          Qt::QueuedConnection);
    }
  }
  MultiRunPlot::fitView();
  // The target must stay in view: it is what the norms are judged against.
  if (std::isfinite(targetMax_)) {
    QCPRange y = customPlot()->yAxis->range();
    const bool log = customPlot()->yAxis->scaleType() == QCPAxis::stLogarithmic;
    // Margin from what is shown: a narrow band (Manifold Muon's 1 ± 10⁻³) is padded by its own
    // width, not by 5 % of its value, which once stretched the axis to 1 … 1.05 and hid the band.
    const bool band = std::isfinite(targetMin_);
    const double scale = band ? std::max(y.size(), targetMax_ - targetMin_) : std::max(y.size(), std::abs(targetMax_));
    const double hi = log ? targetMax_ * 1.15 : targetMax_ + 0.05 * scale;
    if (hi > y.upper) y.upper = hi;
    if (band && targetMin_ - 0.05 * scale < y.lower && (!log || targetMin_ > 0))
      y.lower = log ? targetMin_ / 1.15 : targetMin_ - 0.05 * scale;
    customPlot()->yAxis->setRange(y);
  }
}

}  // namespace lwb::widgets
