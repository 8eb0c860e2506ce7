#include "widgets/bar_chart_plot.h"

#include "widgets/palette.h"

#include "widgets/qcp.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace lwb::widgets {

namespace {
constexpr int kMaxLabelChars = 30;

// Long tensor names keep their tail ("…blocks.3.attn.qkv.weight"): the end says which
// matrix it is, the shared prefix does not. Cut at a '.' so no component is split.
QString elideName(const QString& name) {
  if (name.size() <= kMaxLabelChars) return name;
  qsizetype cut = name.size() - kMaxLabelChars + 1;
  const qsizetype dot = name.indexOf(QLatin1Char('.'), cut - 1);  // a dot just before cut: keep its component whole
  if (dot >= 0 && name.size() - dot - 1 >= 8) cut = dot + 1;
  return QStringLiteral("…") + name.mid(cut);
}

// The tail of `name` that fits in `pixels`, cut after a '.' when one is near ("…qkv.weight").
QString elideToWidth(const QString& name, const QFontMetrics& fm, int pixels) {
  if (fm.horizontalAdvance(name) <= pixels) return name;
  for (qsizetype keep = name.size() - 1; keep > 1; --keep) {
    const QString tail = QStringLiteral("…") + name.right(keep);
    if (fm.horizontalAdvance(tail) <= pixels) return tail;
  }
  return QStringLiteral("…");
}
}

BarChartPlot::BarChartPlot(QWidget* parent) : PlotView(parent) {
  QCustomPlot* p = customPlot();
  p->xAxis->setTicker(QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText));
  p->xAxis->setSubTicks(false);
  p->xAxis->grid()->setVisible(false);
  bars_ = new QCPBars(p->xAxis, p->yAxis);
  bars_->setWidth(0.7);
  bars_->setName(tr("value"));
  highlight_ = new QCPBars(p->xAxis, p->yAxis);
  highlight_->setWidth(0.7);
  markDecoration(highlight_);
  setBarColor(runColor(0));
  refLine_ = new QCPItemStraightLine(p);
  refLine_->setPen(QPen(referenceColor(), 1.4, Qt::DashLine));
  refLine_->setVisible(false);
  p->legend->setVisible(false);
  // Category axis: only the value axis zooms and pans.
  p->axisRect()->setRangeDrag(Qt::Vertical | Qt::Horizontal);
  connect(p, &QCustomPlot::plottableClick, this, [this](QCPAbstractPlottable* plottable, int dataIndex, QMouseEvent*) {
    if (plottable != bars_ && plottable != highlight_) return;
    const int i = static_cast<int>(std::lround(plottable->interface1D()->dataMainKey(dataIndex))) - 1;
    if (i >= 0 && i < names_.size()) Q_EMIT barClicked(i, names_[i]);
  });
}

void BarChartPlot::setBars(const QStringList& names, const std::vector<double>& values) {
  const int n = std::min(static_cast<int>(names.size()), static_cast<int>(values.size()));
  names_ = names.mid(0, n);
  values_.assign(values.begin(), values.begin() + n);
  if (highlighted_ >= n) highlighted_ = -1;
  dirty_ = true;
}

void BarChartPlot::setValueLabel(const QString& label) {
  customPlot()->yAxis->setLabel(label);
  bars_->setName(label);
}

void BarChartPlot::setBarColor(const QColor& color) {
  bars_->setPen(QPen(color.darker(130)));
  bars_->setBrush(withAlpha(color, 170));
  highlight_->setPen(QPen(color.darker(170), 1.5));
  highlight_->setBrush(color.darker(115));
}

void BarChartPlot::setReferenceLine(double value, const QString& label) {
  refValue_ = value;
  const bool on = std::isfinite(value);
  refLine_->setVisible(on);
  refLine_->point1->setCoords(0, value);
  refLine_->point2->setCoords(1, value);
  // The label sits on the right axis, outside the bars.
  QVector<QPair<double, QString>> ticks;
  if (on && !label.isEmpty()) ticks.append({value, label});
  setReferenceTicks(customPlot()->yAxis, ticks);
}

void BarChartPlot::setHighlighted(int index) {
  highlighted_ = index >= 0 && index < names_.size() ? index : -1;
  dirty_ = true;
}

void BarChartPlot::syncData() {
  if (!dirty_) return;
  QVector<double> keys, values;
  for (int i = 0; i < names_.size(); ++i) {
    keys << i + 1;
    values << values_[static_cast<std::size_t>(i)];
  }
  const bool log = customPlot()->yAxis->scaleType() == QCPAxis::stLogarithmic;
  if (log)
    for (double& v : values)
      if (!(v > 0)) v = std::numeric_limits<double>::quiet_NaN();
  bars_->setData(keys, values, true);
  // Bars on a log axis grow from the axis floor, not from 0 (which a log axis cannot show).
  bars_->setBaseValue(log ? 1e-300 : 0);
  highlight_->setBaseValue(bars_->baseValue());
  if (highlighted_ >= 0)
    highlight_->setData({keys[highlighted_]}, {values[highlighted_]}, true);
  else
    highlight_->data()->clear();
  updateTicks();
  dirty_ = false;
}

void BarChartPlot::updateTicks() {
  auto ticker = customPlot()->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
  ticker->clear();
  const int n = static_cast<int>(names_.size());
  if (n == 0) return;
  const QFontMetrics fm(customPlot()->xAxis->tickLabelFont());
  int widest = 0;
  QStringList shown;
  for (const QString& name : names_) {
    const QString elided = elideName(name);
    shown << elided;
    widest = std::max(widest, fm.horizontalAdvance(elided));
  }
  const int plotWidth = std::max(100, customPlot()->axisRect()->width() > 0 ? customPlot()->axisRect()->width()
                                                                             : customPlot()->width() - 80);
  const double perBar = static_cast<double>(plotWidth) / n;
  // Horizontal if they fit; else rotated (45°, or 90° when even that is crowded); when a
  // rotated label's height exceeds the bar spacing, label every k-th bar only.
  double rotation = 0;
  int stride = 1;
  if (widest + 6 > perBar) {
    rotation = perBar > fm.height() * 1.6 ? 45 : 90;
    stride = std::max(1, static_cast<int>(std::ceil(fm.height() * 1.15 / perBar)));
  }
  // Rotated names take at most a third of the plot's height (issue 32: with 50 matrices the
  // names took three quarters of it); their full names are in the hover read-out.
  if (rotation > 0) {
    const int maxLength = std::max(90, customPlot()->height() / 3);
    const int along = rotation >= 90 ? maxLength : static_cast<int>(maxLength / std::sin(rotation * std::numbers::pi / 180));
    for (QString& name : shown) name = elideToWidth(name, fm, along);
  }
  customPlot()->xAxis->setTickLabelRotation(rotation);
  for (int i = 0; i < n; i += stride) ticker->addTick(i + 1, shown[i]);
  // As many value ticks as the height has room for: labels ~40 px apart never overlap.
  customPlot()->yAxis->ticker()->setTickCount(std::clamp(customPlot()->axisRect()->height() / 40, 2, 8));
}

void BarChartPlot::resizeEvent(QResizeEvent* event) {
  PlotView::resizeEvent(event);
  updateTicks();
}

void BarChartPlot::fitView() {
  QCustomPlot* p = customPlot();
  p->xAxis->setRange(0.4, std::max<double>(1, names_.size()) + 0.6);
  const bool log = p->yAxis->scaleType() == QCPAxis::stLogarithmic;
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (double v : values_) {
    if (!std::isfinite(v) || (log && v <= 0)) continue;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  if (std::isfinite(refValue_) && (!log || refValue_ > 0)) {
    lo = std::min(lo, refValue_);
    hi = std::max(hi, refValue_);
  }
  if (!std::isfinite(lo)) return;
  if (log)
    p->yAxis->setRange(lo / 1.5, hi * 1.5);
  else
    p->yAxis->setRange(std::min(0.0, lo * 1.1), hi > 0 ? hi * 1.1 : 1);
}

QString BarChartPlot::hoverLabel(QCPAbstractPlottable* plottable, int dataIndex) const {
  const int i = static_cast<int>(std::lround(plottable->interface1D()->dataMainKey(dataIndex))) - 1;
  return i >= 0 && i < names_.size() ? names_[i] : QString();
}

CsvTable BarChartPlot::csvTable() const {
  CsvTable table;
  table.header << QStringLiteral("name") << (customPlot()->yAxis->label().isEmpty() ? QStringLiteral("value") : customPlot()->yAxis->label());
  for (int i = 0; i < names_.size(); ++i) table.rows << QStringList{names_[i], csvNumber(values_[static_cast<std::size_t>(i)])};
  return table;
}

}  // namespace lwb::widgets
