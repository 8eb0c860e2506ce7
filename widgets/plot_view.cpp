#include "widgets/plot_view.h"

#include "widgets/log_ticker.h"
#include "widgets/qcp.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

// PlotView, part 1: construction, replots, log scales, view range, data and decimation.
// Hover/legend/reference labels: plot_view_decor.cpp; exports and menu: plot_view_export.cpp.

namespace lwb::widgets {

namespace {
constexpr char kDecorationProperty[] = "lwbDecoration";
}  // namespace

PlotView::PlotView(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  controls_ = new QHBoxLayout;
  controls_->setContentsMargins(4, 2, 4, 0);
  controls_->addStretch(1);
  logYBox_ = new QCheckBox(tr("Log y"), this);
  logXBox_ = new QCheckBox(tr("Log x"), this);
  logXBox_->setVisible(false);
  controls_->addWidget(logXBox_);
  controls_->addWidget(logYBox_);
  layout->addLayout(controls_);

  plot_ = new QCustomPlot(this);
  plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  // Lines wider than 1 px are otherwise stroked as one path by the raster engine, which
  // dominated replot time (docs/BENCHMARKS.md, "Plot rendering").
  plot_->setPlottingHint(QCP::phFastPolylines, true);
  plot_->setMinimumSize(160, 120);
  layout->addWidget(plot_, 1);

  connect(logYBox_, &QCheckBox::toggled, this, &PlotView::setLogY);
  connect(logXBox_, &QCheckBox::toggled, this, &PlotView::setLogX);
  connect(plot_, &QCustomPlot::afterReplot, this, &PlotView::replotted);
  // The axis rect's width (the number of pixel columns) is only known after layout, which
  // happens inside replot: decimate again there when it changed, before anything is drawn.
  connect(plot_, &QCustomPlot::afterLayout, this, [this] {
    if (plot_->axisRect()->width() != decimationColumns_) redecimate();
    // A log axis over less than a decade falls back to linear ticks (log_ticker.h); on a short
    // axis rect their default count ran the labels into each other (the dashboard's bound
    // panel at 60 px: 7.75 … 9.25 every 0.25). About one label per 30 px.
    // Linear value axes the same: the bound panel's per-layer trace, about 50 px tall, printed
    // "5 4 3 2 1" beside "30 25 … 5" in each other's lines. Tall axes keep QCP's default 5.
    // Ticks are made before layout, so a changed count shows from the next replot: queue it.
    bool changed = false;
    for (QCPAxisRect* rect : plot_->axisRects())
      for (QCPAxis* axis : rect->axes(QCPAxis::atLeft | QCPAxis::atRight)) {
        const int count = std::clamp(rect->height() / 30, 2, 5);
        if (qSharedPointerDynamicCast<QCPAxisTickerText>(axis->ticker()) || axis->ticker()->tickCount() == count) continue;
        axis->ticker()->setTickCount(count);
        changed = true;
      }
    if (fitLegendPlace()) changed = true;
    fitEmptyText();
    if (fitAxisLabels() || changed) plot_->replot(QCustomPlot::rpQueuedReplot);
  });
  connect(plot_, &QCustomPlot::mousePress, this, [this](QMouseEvent* e) { dragging_ = e->button() == Qt::LeftButton; });
  connect(plot_, &QCustomPlot::mouseRelease, this, [this](QMouseEvent*) { dragging_ = false; });
  connect(plot_, &QCustomPlot::mouseWheel, this, [this](QWheelEvent*) { setAutoRange(false); });
  connect(plot_, &QCustomPlot::mouseDoubleClick, this, [this](QMouseEvent*) { resetView(); });
  connect(plot_, &QCustomPlot::mouseMove, this, &PlotView::onMouseMove);
  connect(plot_->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this](const QCPRange& r) {
    if (dragging_ && !fitting_) setAutoRange(false);
    // While following the data, decimation already spans all of it (pushGraph).
    if (!autoRange_) redecimate();
    Q_EMIT xRangeChanged(r.lower, r.upper);
  });
  connect(plot_->yAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this](const QCPRange&) {
    if (dragging_ && !fitting_) setAutoRange(false);
  });
}

PlotView::~PlotView() = default;

void PlotView::setAxisLabel(QCPAxis* axis, const QString& full, const QString& shortForm) {
  axisLabels_.insert(axis, {full, shortForm});
  axis->setLabel(full);
}

// Runs inside replot, after layout; true when a label changed (the caller queues the replot
// that draws it). A label changes only text along the axis (the margin follows the font's
// height, not the text's length), so that replot lays out the same and settles.
bool PlotView::fitLegendPlace() {
  QCPLegend* legend = plot_->legend;
  if (!legend->property("lwbAdaptive").toBool() || !legend->visible() || legend->itemCount() == 0) return false;
  const int width = plot_->viewport().width();
  if (width <= 0) return false;
  if (legend->property("lwbLegendPending").toBool()) return false;
  const bool right = legend->property("lwbLegendWrap").toInt() == 0;
  LegendPlace next;
  if (right) {
    const int side = legend->outerRect().width();
    legend->setProperty("lwbRightWidth", side);  // for the way back
    if (side <= 0.4 * width) return false;
    next = LegendPlace::Below;
  } else {
    const int side = legend->property("lwbRightWidth").toInt();
    if (side <= 0 || side >= 0.25 * width) return false;
    next = LegendPlace::Right;
  }
  // Not inside this layout pass (it is drawing with the current elements): next in the queue.
  legend->setProperty("lwbLegendPending", true);
  QMetaObject::invokeMethod(
      this,
      [this, next] {
        plot_->legend->setProperty("lwbLegendPending", false);
        placeLegend(next, 2);
        plot_->replot(QCustomPlot::rpQueuedReplot);
      },
      Qt::QueuedConnection);
  return false;
}

void PlotView::placeLegendRightWhenWide() {
  placeLegend(LegendPlace::Right);
  plot_->legend->setProperty("lwbAdaptive", true);
}

bool PlotView::fitAxisLabels() {
  bool changed = false;
  for (auto it = axisLabels_.cbegin(); it != axisLabels_.cend(); ++it) {
    QCPAxis* axis = it.key();
    const QCPAxisRect* rect = axis->axisRect();
    const int room = axis->orientation() == Qt::Vertical ? rect->height() : rect->width();
    const bool fits = QFontMetrics(axis->labelFont()).horizontalAdvance(it.value().first) <= room;
    const QString& want = fits ? it.value().first : it.value().second;
    if (axis->label() != want) {
      axis->setLabel(want);
      changed = true;
    }
  }
  return changed;
}

void PlotView::setEmptyText(const QString& text) {
  emptyText_ = text;
  if (!emptyItem_ && !text.isEmpty()) {
    emptyItem_ = new QCPItemText(plot_);
    emptyItem_->position->setType(QCPItemPosition::ptAxisRectRatio);
    emptyItem_->position->setCoords(0.5, 0.5);
    emptyItem_->setPositionAlignment(Qt::AlignCenter);
    emptyItem_->setTextAlignment(Qt::AlignCenter);
    emptyItem_->setColor(Qt::gray);
    // On the plot's own background: a reference line (a format limit, σmax) drawn across the
    // middle would otherwise run through the words.
    emptyItem_->setBrush(QBrush(Qt::white));
    emptyItem_->setPadding(QMargins(6, 2, 6, 2));
    emptyItem_->setLayer(QStringLiteral("overlay"));
  }
  if (emptyItem_) emptyItem_->setText(text);
  updateEmptyState();
}

void PlotView::fitEmptyText() {
  if (!emptyItem_ || !emptyItem_->visible()) return;
  // Items are drawn after layout, so the words wrapped here show in this replot. Wider than
  // the axis rect they were cut at its edge ("Noch kein Lauf (F5 startet einen)" at 1024 px).
  const QString wrapped = wrapWords(emptyText_, QFontMetrics(emptyItem_->font()), plot_->axisRect()->width() - 16);
  if (emptyItem_->text() != wrapped) emptyItem_->setText(wrapped);
}

QString PlotView::emptyTextShown() const { return emptyItem_ ? emptyItem_->text() : QString(); }

bool PlotView::showsEmptyText() const { return emptyItem_ && emptyItem_->visible(); }

void PlotView::updateEmptyState() {
  if (!emptyItem_) return;
  bool hasData = false;
  for (int i = 0; i < plot_->plottableCount() && !hasData; ++i) {
    QCPAbstractPlottable* p = plot_->plottable(i);
    hasData = !isDecoration(p) && p->interface1D() && p->interface1D()->dataCount() > 0;
  }
  const bool empty = !hasData && !emptyText_.isEmpty();
  emptyItem_->setVisible(empty);
  for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis}) axis->setTickLabels(!empty);
}

void PlotView::syncAndFit() {
  syncData();
  updateEmptyState();
  if (autoRange_) {
    fitting_ = true;
    fitView();
    fitting_ = false;
  }
}

void PlotView::requestReplot() {
  syncAndFit();
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void PlotView::replotNow() {
  syncAndFit();
  plot_->replot(QCustomPlot::rpRefreshHint);
}

QList<QCPAxis*> PlotView::logYAxes() const { return {plot_->yAxis}; }

void PlotView::setLogY(bool on) {
  if (on == logY_) return;
  logY_ = on;
  logYBox_->blockSignals(true);
  logYBox_->setChecked(on);
  logYBox_->blockSignals(false);
  applyLogScales();
  Q_EMIT logYChanged(on);
}

void PlotView::setLogX(bool on) {
  if (!supportsLogX_) on = false;
  if (on == logX_) return;
  logX_ = on;
  logXBox_->blockSignals(true);
  logXBox_->setChecked(on);
  logXBox_->blockSignals(false);
  applyLogScales();
  Q_EMIT logXChanged(on);
}

void PlotView::setSupportsLogX(bool on) {
  supportsLogX_ = on;
  logXBox_->setVisible(on);
  if (!on) setLogX(false);
}

QList<QWidget*> PlotView::logBoxes() const { return {logXBox_, logYBox_}; }

void PlotView::setLogYToggleVisible(bool visible) { logYBox_->setVisible(visible); }

void PlotView::setAxisLog(QCPAxis* axis, bool on) {
  if ((axis->scaleType() == QCPAxis::stLogarithmic) == on) return;
  if (on) {
    // Keep the linear ticker (it may be a text ticker) to restore it later.
    linearTickers_.insert(axis, axis->ticker());
    axis->setScaleType(QCPAxis::stLogarithmic);
    axis->setTicker(QSharedPointer<QCPAxisTicker>(new AdaptiveLogTicker));
    axis->setNumberFormat(QStringLiteral("eb"));
    axis->setNumberPrecision(0);
  } else {
    axis->setScaleType(QCPAxis::stLinear);
    QSharedPointer<QCPAxisTicker> saved = linearTickers_.take(axis);
    axis->setTicker(saved ? saved : QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    axis->setNumberFormat(QStringLiteral("g"));
    axis->setNumberPrecision(6);
  }
}

void PlotView::applyLogScales() {
  for (QCPAxis* axis : logYAxes()) setAxisLog(axis, logY_);
  setAxisLog(plot_->xAxis, logX_);
  logScaleChanged();
  pushAllGraphs();
  // Ranges that were fine on a linear axis (0 .. 1) are meaningless on a log one: refit,
  // keeping a user-chosen x range when only y changed.
  const QCPRange x = plot_->xAxis->range();
  fitting_ = true;
  syncData();
  fitView();
  if (!autoRange_ && !logX_) plot_->xAxis->setRange(x);
  fitting_ = false;
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void PlotView::setXRange(double lower, double upper) {
  if (!(lower < upper) || !std::isfinite(lower) || !std::isfinite(upper)) return;
  setAutoRange(false);
  plot_->xAxis->setRange(lower, upper);
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void PlotView::resetView() {
  setAutoRange(true);
  requestReplot();
}

void PlotView::setAutoRange(bool on) {
  if (on == autoRange_) return;
  autoRange_ = on;
  // Decimation covers the whole series while following, the visible part once zoomed.
  redecimate();
  Q_EMIT autoRangeChanged(on);
}

void PlotView::fitView() {
  bool any = false;
  for (int i = 0; i < plot_->plottableCount(); ++i)
    if (plot_->plottable(i)->visible() && plot_->plottable(i)->interface1D() &&
        plot_->plottable(i)->interface1D()->dataCount() > 0)
      any = true;
  if (!any) return;
  plot_->rescaleAxes(true);
  padAxes(plot_->axisRect()->axes());
}

void PlotView::padAxes(const QList<QCPAxis*>& axes, double fraction) {
  for (QCPAxis* axis : axes) {
    // A reference axis follows its parallel axis's range (setReferenceTicks); padding it
    // again put its labels a few percent off their lines (issue 32: "1" below the line 1).
    if (axis->property("lwbReferenceAxis").toBool()) continue;
    fitAxis(axis, axis->range().lower, axis->range().upper, fraction);
  }
}

void PlotView::fitAxis(QCPAxis* axis, double lower, double upper, double fraction) {
  // Padding computed before setRange: QCustomPlot ignores a zero-width range, so a single
  // point (one evaluation so far) once kept the axis at its default 0 … 5, the point outside.
  if (axis->scaleType() == QCPAxis::stLogarithmic) {
    if (lower <= 0 || upper <= 0) return;
    const double f = std::pow(upper / lower, fraction);
    // A single value (or a flat series) still gets a visible decade around it.
    axis->setRange(upper == lower ? QCPRange(lower / 3, upper * 3) : QCPRange(lower / f, upper * f));
  } else {
    const double span = upper - lower;
    const double pad = span > 0 ? span * fraction : std::max(std::abs(lower) * 0.1, 0.5);
    axis->setRange(lower - pad, upper + pad);
  }
}

// ---- data ----

void PlotView::setGraphData(QCPGraph* graph, std::vector<double> xs, std::vector<double> ys) {
  const std::size_t n = std::min(xs.size(), ys.size());
  xs.resize(n);
  ys.resize(n);
  XYData& source = sources_[graph];
  source.xs = std::move(xs);
  source.ys = std::move(ys);
  pushGraph(graph, source);
}

void PlotView::assignGraphData(QCPGraph* graph, const std::vector<double>& xs, const std::vector<double>& ys) {
  const std::size_t n = std::min(xs.size(), ys.size());
  XYData& source = sources_[graph];
  for (std::vector<double>* v : {&source.xs, &source.ys})  // see SeriesBuffer::copyTo
    if (v->capacity() < n) v->reserve(std::max(n, v->capacity() + v->capacity() / 2));
  source.xs.assign(xs.begin(), xs.begin() + static_cast<std::ptrdiff_t>(n));
  source.ys.assign(ys.begin(), ys.begin() + static_cast<std::ptrdiff_t>(n));
  pushGraph(graph, source);
}

void PlotView::assignGraphData(QCPGraph* graph, const SeriesBuffer& buffer) {
  XYData& source = sources_[graph];
  buffer.copyTo(source.xs, source.ys);
  pushGraph(graph, source);
}

const XYData* PlotView::graphSource(const QCPGraph* graph) const {
  auto it = sources_.find(const_cast<QCPGraph*>(graph));
  return it == sources_.end() ? nullptr : &it->second;
}

void PlotView::forgetGraph(QCPGraph* graph) {
  sources_.erase(graph);
  vectorScatters_.remove(graph);
}

void PlotView::setFastScatter(QCPGraph* graph, const QCPScatterStyle& style) {
  vectorScatters_.insert(graph, QSharedPointer<QCPScatterStyle>::create(style));
  const bool raster = plot_->devicePixelRatioF() == 1.0 && style.shape() != QCPScatterStyle::ssNone &&
                      style.shape() != QCPScatterStyle::ssPixmap && style.shape() != QCPScatterStyle::ssCustom;
  if (!raster) {
    graph->setScatterStyle(style);
    return;
  }
  // A style without its own pen draws with the graph's (set the graph's pen first).
  const QPen pen = style.isPenDefined() ? style.pen() : graph->pen();
  // Odd side, centre on a pixel centre: QCustomPlot blits at round(x - side/2).
  const int side = static_cast<int>(std::ceil(style.size() + pen.widthF() + 2)) | 1;
  QPixmap pixmap(side, side);
  pixmap.fill(Qt::transparent);
  {
    QCPPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing, true);
    style.applyTo(&painter, pen);
    style.drawShape(&painter, side / 2.0, side / 2.0);
  }
  // The pen and brush ride along unused by the blit, so code reading the style still sees them.
  QCPScatterStyle fast(pixmap);
  if (style.isPenDefined()) fast.setPen(style.pen());
  fast.setBrush(style.brush());
  graph->setScatterStyle(fast);
}

void PlotView::pushGraph(QCPGraph* graph, const XYData& source) {
  const bool logKey = graph->keyAxis()->scaleType() == QCPAxis::stLogarithmic;
  const bool logValue = graph->valueAxis()->scaleType() == QCPAxis::stLogarithmic;
  const bool sorted = std::is_sorted(source.xs.begin(), source.xs.end());
  const XYData* drawn = &source;
  XYData decimated;
  if (source.xs.size() >= decimationThreshold_ && sorted && !source.xs.empty()) {
    const int width = graph->keyAxis()->axisRect()->width();
    if (graph->keyAxis()->axisRect() == plot_->axisRect()) decimationColumns_ = width;
    const std::size_t columns = static_cast<std::size_t>(width >= 16 ? width : 1000);
    QCPRange r = graph->keyAxis()->range();
    if (autoRange_) r = QCPRange(source.xs.front(), source.xs.back());
    decimated = decimateMinMax(source.xs, source.ys, r.lower, r.upper, columns, logKey);
    drawn = &decimated;
  }
  QVector<QCPGraphData> data;
  data.reserve(static_cast<int>(drawn->xs.size()));
  constexpr double nan = std::numeric_limits<double>::quiet_NaN();
  for (std::size_t i = 0; i < drawn->xs.size(); ++i) {
    const double x = drawn->xs[i], y = drawn->ys[i];
    // Log axes cannot show x <= 0 or y <= 0: drop the key, leave a gap for the value.
    if (logKey && !(x > 0)) continue;
    if (!std::isfinite(x)) continue;
    // ±inf (a diverged loss) would be drawn as a line off the widget: a gap says it better.
    const bool drawable = std::isfinite(y) && (!logValue || y > 0);
    data.append(QCPGraphData(x, drawable ? y : nan));
  }
  graph->data()->set(data, sorted);
}

void PlotView::pushAllGraphs() {
  for (auto& [graph, source] : sources_) pushGraph(graph, source);
}

void PlotView::redecimate() {
  for (auto& [graph, source] : sources_)
    if (source.xs.size() >= decimationThreshold_) pushGraph(graph, source);
}

void PlotView::setDecimationThreshold(std::size_t points) {
  decimationThreshold_ = std::max<std::size_t>(1, points);
  pushAllGraphs();
}

void PlotView::markDecoration(QCPAbstractPlottable* plottable) {
  plottable->setProperty(kDecorationProperty, true);
  plottable->removeFromLegend();
}

bool PlotView::isDecoration(const QCPAbstractPlottable* plottable) {
  return plottable->property(kDecorationProperty).toBool();
}

}  // namespace lwb::widgets
