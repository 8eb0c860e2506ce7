// PlotView, part 2: what is drawn around the data — hover read-out, title, legend
// placement, legend proxies, labelled reference ticks.
#include "widgets/plot_view.h"

#include "widgets/number_format.h"
#include "widgets/palette.h"

#include "widgets/qcp.h"

#include <QToolTip>

#include <algorithm>

#include <cmath>

namespace lwb::widgets {

namespace {
QString formatValue(double v) { return displayNumber(v, 'g', 6); }

}  // namespace

QString PlotView::wrapWords(const QString& text, const QFontMetrics& metrics, int width) {
  if (width <= 0) return text;
  QStringList lines;
  for (const QString& paragraph : text.split(QLatin1Char('\n'))) {
    if (metrics.horizontalAdvance(paragraph) <= width) {
      lines << paragraph;
      continue;
    }
    QString line;
    for (const QString& word : paragraph.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
      const QString longer = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
      if (!line.isEmpty() && metrics.horizontalAdvance(longer) > width) {
        lines << line;
        line = word;
      } else {
        line = longer;
      }
    }
    lines << line;
  }
  return lines.join(QLatin1Char('\n'));
}

QCPGraph* PlotView::addLegendProxy(const QString& name, const QPen& pen, const QCPScatterStyle* scatter) {
  QCPGraph* proxy = plot_->addGraph();
  markDecoration(proxy);
  proxy->setName(name);
  proxy->setPen(pen);
  if (scatter) proxy->setScatterStyle(*scatter);
  proxy->addToLegend();
  return proxy;
}

void PlotView::setReferenceTicks(QCPAxis* parallel, const QVector<QPair<double, QString>>& ticks) {
  QCPAxisRect* rect = parallel->axisRect();
  const QCPAxis::AxisType oppositeType = QCPAxis::opposite(parallel->axisType());
  QCPAxis* axis = rect->axis(oppositeType);
  if (!axis) return;
  if (!axis->property("lwbReferenceAxis").toBool()) {
    axis->setProperty("lwbReferenceAxis", true);
    axis->setTicker(QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText));
    axis->setSubTicks(false);
    axis->setTickLength(0, 4);
    axis->grid()->setVisible(false);
    axis->setTickLabelColor(referenceColor());
    axis->setRange(parallel->range());
    axis->setScaleType(parallel->scaleType());
    connect(parallel, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), axis, qOverload<const QCPRange&>(&QCPAxis::setRange));
    connect(parallel, &QCPAxis::scaleTypeChanged, axis, &QCPAxis::setScaleType);
  }
  auto ticker = axis->ticker().dynamicCast<QCPAxisTickerText>();
  ticker->clear();
  for (const auto& [value, label] : ticks) ticker->addTick(value, label);
  axis->setVisible(!ticks.isEmpty());
  axis->setTickLabels(!ticks.isEmpty());
}

// ---- hover ----

std::optional<HoverPoint> PlotView::nearestPoint(const QPointF& pixel, double maxPixelDistance) const {
  std::optional<HoverPoint> best;
  double bestDistance = maxPixelDistance;
  for (int p = 0; p < plot_->plottableCount(); ++p) {
    QCPAbstractPlottable* plottable = plot_->plottable(p);
    QCPPlottableInterface1D* data = plottable->interface1D();
    if (!data || !plottable->visible() || isDecoration(plottable) || data->dataCount() == 0) continue;
    if (!plottable->keyAxis()->axisRect()->rect().contains(pixel.toPoint())) continue;
    int candidate = -1;
    double distance = 0;
    if (auto* bars = qobject_cast<QCPBars*>(plottable)) {
      // Inside a bar counts as on it; QCPBars::selectTest reports that with a constant.
      QVariant details;
      const double d = bars->selectTest(pixel, false, &details);
      if (d < 0 || d > maxPixelDistance) continue;
      const QCPDataSelection selection = details.value<QCPDataSelection>();
      if (selection.isEmpty()) continue;
      candidate = selection.dataRange().begin();
      distance = 0;
    } else {
      // Only points whose key lies within maxPixelDistance of the cursor can be nearest.
      QCPAxis* keyAxis = plottable->keyAxis();
      double k1 = keyAxis->pixelToCoord(pixel.x() - maxPixelDistance);
      double k2 = keyAxis->pixelToCoord(pixel.x() + maxPixelDistance);
      if (k1 > k2) std::swap(k1, k2);
      const int begin = data->findBegin(k1, false), end = data->findEnd(k2, false);
      for (int i = begin; i < end; ++i) {
        const double v = data->dataMainValue(i);
        if (std::isnan(v)) continue;
        if (plottable->valueAxis()->scaleType() == QCPAxis::stLogarithmic && !(v > 0)) continue;
        const QPointF pos = data->dataPixelPosition(i);
        const double d = std::hypot(pos.x() - pixel.x(), pos.y() - pixel.y());
        if (candidate < 0 || d < distance) {
          candidate = i;
          distance = d;
        }
      }
      if (candidate < 0 || distance > maxPixelDistance) continue;
    }
    if (!best || distance < bestDistance) {
      bestDistance = distance;
      best = HoverPoint{plottable->name(), hoverLabel(plottable, candidate), data->dataMainKey(candidate),
                        data->dataMainValue(candidate)};
    }
  }
  return best;
}

QString PlotView::hoverLabel(QCPAbstractPlottable*, int) const { return QString(); }

void PlotView::onMouseMove(QMouseEvent* event) {
  if (event->buttons() != Qt::NoButton) return;
  const auto point = nearestPoint(event->position());
  if (!point) {
    QToolTip::hideText();
    return;
  }
  QString text = point->series;
  if (!point->label.isEmpty()) text += QLatin1Char('\n') + point->label;
  text += QLatin1Char('\n') + plot_->xAxis->label().section(QLatin1Char(' '), 0, 0, QString::SectionSkipEmpty);
  if (text.endsWith(QLatin1Char('\n'))) text += QStringLiteral("x");
  text += QStringLiteral(" = ") + formatValue(point->x) + QStringLiteral(", y = ") + formatValue(point->y);
  QToolTip::showText(event->globalPosition().toPoint(), text, plot_);
  Q_EMIT pointHovered(*point);
}

// ---- title, legend ----

void PlotView::setTitle(const QString& title) {
  title_ = title;
  if (!titleElement_) {
    plot_->plotLayout()->insertRow(0);
    titleElement_ = new QCPTextElement(plot_, title, QFont(font().family(), font().pointSize() + 1, QFont::Bold));
    plot_->plotLayout()->addElement(0, 0, titleElement_);
    // Before each layout: a title wider than the plot breaks between words (a narrow window
    // cut "Spectrum before (dashed) and after" at both ends). QCPTextElement sizes its row
    // for one line, so the breaks are put into the text.
    connect(plot_, &QCustomPlot::beforeReplot, titleElement_, [this] {
      const QString wrapped = wrapWords(title_, QFontMetrics(titleElement_->font()), plot_->viewport().width() - 8);
      if (wrapped != titleElement_->text()) titleElement_->setText(wrapped);
    });
  }
  titleElement_->setText(wrapWords(title, QFontMetrics(titleElement_->font()), plot_->viewport().width() - 8));
}

QString PlotView::title() const { return title_; }

namespace {

// Entries per row for a legend below the plot: the requested number, fewer where the
// entries side by side would be wider than the plot (issue 32: legends cut at the right,
// "p_k ∘ … ∘ p₁ (floa", "mnist_softcap · max |Eint"). With foColumnsFirst, entry i sits in
// column i % wrap, and a column is as wide as its widest entry.
int fittingWrap(QCPLegend* legend, int maxWrap, int width) {
  const int n = legend->itemCount();
  for (int wrap = std::min(maxWrap, std::max(1, n)); wrap > 1; --wrap) {
    int total = legend->margins().left() + legend->margins().right() + (wrap - 1) * legend->columnSpacing();
    for (int c = 0; c < wrap; ++c) {
      int column = 0;
      for (int i = c; i < n; i += wrap)
        if (QCPAbstractLegendItem* item = legend->item(i)) column = std::max(column, item->minimumOuterSizeHint().width());
      total += column;
    }
    if (total <= width) return wrap;
  }
  return 1;
}

}  // namespace

void PlotView::placeLegend(LegendPlace place, int wrap) {
  QCPLegend* legend = plot_->legend;
  // The most entries per row below the plot; 0: not below (no re-wrapping).
  legend->setProperty("lwbLegendWrap", place == LegendPlace::Below ? std::max(1, wrap) : 0);
  if (!legend->property("lwbWrapHooked").toBool()) {
    legend->setProperty("lwbWrapHooked", true);
    // Before each layout: as many entries per row as the current width holds.
    connect(plot_, &QCustomPlot::beforeReplot, legend, [p = plot_, legend] {
      const int most = legend->property("lwbLegendWrap").toInt();
      if (most <= 0 || !legend->visible()) return;
      const int fit = legend->itemCount() == 0 ? most : fittingWrap(legend, most, p->viewport().width());
      if (fit == legend->wrap()) return;
      legend->setWrap(fit);
      legend->setFillOrder(legend->fillOrder(), true);  // setWrap alone leaves entries where they are
    });
  }
  if (place == LegendPlace::None) {
    legend->setVisible(false);
    return;
  }
  legend->setVisible(true);
  legend->setBrush(QBrush(QColor(255, 255, 255, 230)));
  legend->setBorderPen(Qt::NoPen);
  QFont f = font();
  f.setPointSizeF(f.pointSizeF() * 0.9);
  legend->setFont(f);
  QCPLayoutGrid* grid = plot_->plotLayout();
  if (auto* old = qobject_cast<QCPLayoutGrid*>(legend->layout()); old && old != grid) {
    // Placed before (a subclass moves its base's legend): drop the side column or the row
    // under the plot with its spacer, or it keeps its width.
    old->take(legend);
    grid->remove(old);
    grid->simplify();
  } else if (legend->layout()) {
    legend->layout()->take(legend);
  }
  // The row of the main axis rect (row 0 unless a title was inserted above).
  int row = 0, column = 0;
  for (int i = 0; i < grid->elementCount(); ++i)
    if (grid->elementAt(i) == plot_->axisRect()) grid->indexToRowCol(i, row, column);
  if (place == LegendPlace::Right) {
    // Legend on top of a stretching spacer, in a narrow column beside the plot.
    auto* side = new QCPLayoutGrid;
    grid->addElement(row, grid->columnCount(), side);
    side->addElement(0, 0, legend);
    side->addElement(1, 0, new QCPLayoutElement(plot_));
    side->setRowStretchFactor(0, 0.001);
    grid->setColumnStretchFactor(grid->columnCount() - 1, 0.001);
  } else {
    // Legend beside a stretching spacer, in a row under the plot. Not the legend alone: a
    // grid's column is no wider than its elements' maximum, and an empty legend's maximum
    // is a few pixels, which squeezed the whole plot into a narrow strip before data came.
    auto* below = new QCPLayoutGrid;
    grid->insertRow(grid->rowCount());
    grid->addElement(grid->rowCount() - 1, 0, below);
    grid->setRowStretchFactor(grid->rowCount() - 1, 0.001);
    below->addElement(0, 0, legend);
    below->addElement(0, 1, new QCPLayoutElement(plot_));
    below->setColumnStretchFactor(0, 0.001);
    legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    legend->setWrap(wrap);
  }
}
}  // namespace lwb::widgets
