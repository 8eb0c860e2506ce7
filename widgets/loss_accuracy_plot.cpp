#include "widgets/loss_accuracy_plot.h"

#include "widgets/number_format.h"
#include "widgets/palette.h"
#include "widgets/smoothing.h"

#include <QLabel>
#include <QSlider>
#include "widgets/qcp.h"

#include <algorithm>
#include <cmath>

namespace lwb::widgets {

namespace {

constexpr int kRawAlpha = 60;  // the raw series stays visible but reads as background

bool isAccuracy(const QString& key) { return key.endsWith(QLatin1String("_acc")); }
bool isValidation(const QString& key) { return key.startsWith(QLatin1String("val_")); }

QString metricTitle(const QString& key) {
  if (key == QLatin1String("train_loss")) return LossAccuracyPlot::tr("train loss");
  if (key == QLatin1String("val_loss")) return LossAccuracyPlot::tr("val loss");
  if (key == QLatin1String("train_acc")) return LossAccuracyPlot::tr("train acc");
  return LossAccuracyPlot::tr("val acc");
}

}  // namespace

LossAccuracyPlot::LossAccuracyPlot(QWidget* parent) : MultiRunPlot(parent) {
  QCustomPlot* p = customPlot();
  p->xAxis->setLabel(tr("step"));
  p->yAxis->setLabel(tr("loss"));
  p->yAxis2->setVisible(true);
  p->yAxis2->setLabel(tr("accuracy"));
  p->yAxis2->setRange(0, 1);
  placeLegend(LegendPlace::Below);
  const QColor grey(90, 90, 90);
  addLegendProxy(tr("train"), QPen(grey, 1.4));
  const QCPScatterStyle dot(QCPScatterStyle::ssCircle, 4);
  addLegendProxy(tr("validation"), QPen(grey, 1.6, Qt::DashLine), &dot);
  accuracyProxy_ = addLegendProxy(tr("accuracy: lighter, right axis"), QPen(grey.lighter(160), 1.4));

  sliderLabel_ = new QLabel(this);
  slider_ = new QSlider(Qt::Horizontal, this);
  slider_->setRange(0, 999);
  slider_->setMaximumWidth(160);
  slider_->setToolTip(tr("EMA smoothing weight (TensorBoard style, bias-corrected)"));
  controlsLayout()->insertWidget(0, sliderLabel_);
  controlsLayout()->insertWidget(1, slider_);
  connect(slider_, &QSlider::valueChanged, this, [this](int v) { setSmoothing(v / 1000.0); });
  slider_->setValue(static_cast<int>(std::lround(smoothing_ * 1000)));
  sliderLabel_->setText(tr("Smoothing %L1").arg(displayNumber(smoothing_, 'f', 3)));
}

QString LossAccuracyPlot::metricKey(Metric metric) {
  switch (metric) {
    case Metric::TrainLoss: return QStringLiteral("train_loss");
    case Metric::ValLoss: return QStringLiteral("val_loss");
    case Metric::TrainAcc: return QStringLiteral("train_acc");
    case Metric::ValAcc: return QStringLiteral("val_acc");
  }
  return QString();
}

void LossAccuracyPlot::appendPoint(const QString& runId, Metric metric, double step, double value) {
  MultiRunPlot::appendPoint(runId, metricKey(metric), step, value);
}

void LossAccuracyPlot::setSeries(const QString& runId, Metric metric, const std::vector<double>& steps,
                                 const std::vector<double>& values) {
  MultiRunPlot::setSeries(runId, metricKey(metric), steps, values);
}

void LossAccuracyPlot::setSmoothing(double weight) {
  weight = std::isfinite(weight) ? std::clamp(weight, 0.0, 0.999) : 0.0;
  if (weight == smoothing_) return;
  smoothing_ = weight;
  slider_->blockSignals(true);
  slider_->setValue(static_cast<int>(std::lround(weight * 1000)));
  slider_->blockSignals(false);
  sliderLabel_->setText(tr("Smoothing %L1").arg(displayNumber(weight, 'f', 3)));
  invalidateSeries();
  for (const auto& [id, s] : allSeries())
    if (s->graphs.size() == 2) styleGraphs(runStyle(id.first), id.second, s->graphs[0], s->graphs[1]);
  requestReplot();
  Q_EMIT smoothingChanged(weight);
}

QList<QCPGraph*> LossAccuracyPlot::createSeriesGraphs(const QString& runId, const QString& key) {
  QCustomPlot* p = customPlot();
  QCPAxis* valueAxis = isAccuracy(key) ? p->yAxis2 : p->yAxis;
  QCPGraph* raw = p->addGraph(p->xAxis, valueAxis);
  QCPGraph* smooth = p->addGraph(p->xAxis, valueAxis);
  markDecoration(raw);
  styleGraphs(runStyle(runId), key, raw, smooth);
  return {raw, smooth};
}

void LossAccuracyPlot::styleGraphs(const RunStyle& style, const QString& key, QCPGraph* raw, QCPGraph* smooth) {
  const Qt::PenStyle dash = isValidation(key) ? Qt::DashLine : Qt::SolidLine;
  QColor color = style.color;
  // Accuracy in a lighter shade of the run colour so loss and accuracy read apart.
  if (isAccuracy(key)) color = color.lighter(125);
  raw->setPen(QPen(withAlpha(color, kRawAlpha), 1, dash));
  raw->setVisible(smoothing_ > 0 && !isValidation(key));
  raw->setName(style.label + QStringLiteral(" · ") + metricTitle(key) + tr(" (raw)"));
  smooth->removeFromLegend();
  smooth->setPen(QPen(color, isValidation(key) ? 1.6 : 1.4, dash));
  smooth->setName(style.label + QStringLiteral(" · ") + metricTitle(key));
  // Validation points are sparse: markers show where they were measured.
  smooth->setScatterStyle(isValidation(key) ? QCPScatterStyle(QCPScatterStyle::ssCircle, 4) : QCPScatterStyle());
}

void LossAccuracyPlot::restyleRun(const RunStyle& style) {
  QCPGraph*& proxy = runProxies_[style.id];
  if (!proxy) proxy = addLegendProxy(style.label, QPen(style.color, 2.5));
  proxy->setName(style.label);
  proxy->setPen(QPen(style.color, 2.5));
  for (const auto& [id, s] : allSeries())
    if (id.first == style.id && s->graphs.size() == 2) styleGraphs(style, id.second, s->graphs[0], s->graphs[1]);
}

void LossAccuracyPlot::runRemoved(const QString& runId) {
  if (QCPGraph* proxy = runProxies_.take(runId)) customPlot()->removeGraph(proxy);
}

void LossAccuracyPlot::pushSeries(const QString&, const QString& key, LiveSeries& s) {
  // Validation points are already averages over a whole evaluation set and are sparse (one
  // per eval_every steps): an EMA over them would lag by many evaluations. Only train
  // series are smoothed.
  if (smoothing_ > 0 && !isValidation(key)) {
    assignGraphData(s.graphs[0], s.buffer);
    const XYData* raw = graphSource(s.graphs[0]);
    assignGraphData(s.graphs[1], raw->xs, emaSmooth(raw->ys, smoothing_));
  } else {
    setGraphData(s.graphs[0], {}, {});
    assignGraphData(s.graphs[1], s.buffer);
  }
}

void LossAccuracyPlot::setReferenceLevels(const QVector<QPair<double, QString>>& levels) {
  QCustomPlot* p = customPlot();
  for (QCPAbstractItem* item : std::as_const(levelItems_)) p->removeItem(item);
  levelItems_.clear();
  levels_ = levels;
  // Labels sit on the line at the left edge, inside the plot: the right axis is accuracy's.
  for (const auto& [value, label] : levels) {
    auto* line = new QCPItemStraightLine(p);
    line->setPen(QPen(referenceColor(), 1, Qt::DashDotLine));
    line->point1->setCoords(0, value);
    line->point2->setCoords(1, value);
    auto* text = new QCPItemText(p);
    text->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
    text->position->setTypeY(QCPItemPosition::ptPlotCoords);
    text->position->setCoords(0.01, value);
    text->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    text->setColor(referenceColor());
    text->setText(QStringLiteral("%1 = %2").arg(label, displayNumber(value, 'g', 3)));
    levelItems_ << line << text;
  }
  requestReplot();
}

bool LossAccuracyPlot::hasAccuracy() const {
  for (const auto& [id, s] : allSeries())
    if (isAccuracy(id.second) && s->buffer.yRange().valid) return true;
  return false;
}

void LossAccuracyPlot::fitView() {
  MultiRunPlot::fitView();
  // Reference levels stay in view: a loss is read against them. Their labels sit just above
  // the line, so the top level keeps a label's height of room (issue 32: "predict 0 = 5" cut).
  if (!levels_.isEmpty()) {
    QCPRange y = customPlot()->yAxis->range();
    const bool log = customPlot()->yAxis->scaleType() == QCPAxis::stLogarithmic;
    for (const auto& level : std::as_const(levels_)) {
      if (level.first < y.lower && (!log || level.first > 0)) y.lower = log ? level.first / 1.15 : level.first - 0.05 * y.size();
    }
    // The top level keeps a tenth of the final range above it: upper − v = 0.1 (upper − lower).
    for (const auto& level : std::as_const(levels_)) {
      const double top = log ? level.first * 1.3 : (level.first - 0.1 * y.lower) / 0.9;
      if (top > y.upper) y.upper = top;
    }
    customPlot()->yAxis->setRange(y);
  }
  customPlot()->yAxis2->setRange(0, 1.02);
  // Regression tasks (ICL) log no accuracy: no right axis and no legend entry for one.
  const bool accuracy = hasAccuracy();
  customPlot()->yAxis2->setVisible(accuracy);
  if (accuracy && !customPlot()->legend->hasItemWithPlottable(accuracyProxy_)) accuracyProxy_->addToLegend();
  else if (!accuracy) accuracyProxy_->removeFromLegend();
}

}  // namespace lwb::widgets
