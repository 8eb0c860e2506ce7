#include "widgets/activation_plot.h"

#include "widgets/number_format.h"

#include "widgets/palette.h"

#include "widgets/qcp.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace lwb::widgets {

const std::vector<NumberFormatLimit>& ActivationPlot::formatLimits() {
  static const std::vector<NumberFormatLimit> limits = {
      {QStringLiteral("fp4 E2M1"), 6.0},
      {QStringLiteral("fp8 E4M3"), 448.0},
      {QStringLiteral("fp8 E5M2"), 57344.0},
      {QStringLiteral("bf16"), 3.3895313892515355e38},  // (2 − 2⁻⁷)·2¹²⁷
  };
  return limits;
}

ActivationPlot::ActivationPlot(QWidget* parent) : MultiRunPlot(parent) {
  QCustomPlot* p = customPlot();
  p->xAxis->setLabel(tr("block"));
  p->yAxis->setLabel(tr("activation magnitude"));
  p->xAxis->setTicker(QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText));
  p->xAxis->setSubTicks(false);
  p->xAxis->grid()->setVisible(false);
  p->xAxis->setTickLabelRotation(35);
  for (const NumberFormatLimit& limit : formatLimits()) {
    auto* line = new QCPItemStraightLine(p);
    line->setPen(QPen(referenceColor(), 1, Qt::DashDotLine));
    line->point1->setCoords(0, limit.maxFinite);
    line->point2->setCoords(1, limit.maxFinite);
    limitLines_ << line;
  }
  offScaleNote_ = p->addGraph();
  markDecoration(offScaleNote_);
  offScaleNote_->setPen(QPen(referenceColor(), 1, Qt::DashDotLine));
  // Below, two per row: beside the plot the long off-scale note left the blocks no room.
  placeLegend(LegendPlace::Below, 2);
  setLogY(true);
  updateLimitLines(std::numeric_limits<double>::quiet_NaN());
}

ActivationPlot::RunGraphs& ActivationPlot::graphsFor(const QString& runId) {
  auto it = graphs_.find(runId);
  if (it != graphs_.end()) return it->second;
  if (!hasRun(runId)) setRun(runId, runId, runColor(static_cast<int>(runIds().size())));
  RunGraphs g{customPlot()->addGraph(), customPlot()->addGraph()};
  it = graphs_.emplace(runId, g).first;
  restyleRun(runStyle(runId));
  return it->second;
}

QList<QCPGraph*> ActivationPlot::createSeriesGraphs(const QString&, const QString&) { return {}; }

void ActivationPlot::restyleRun(const RunStyle& style) {
  auto it = graphs_.find(style.id);
  if (it == graphs_.end()) return;
  it->second.entry->setPen(QPen(style.color, 1.6));
  it->second.entry->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 6));
  it->second.entry->setName(style.label + tr(" · max |entry|"));
  it->second.rms->setPen(QPen(style.color, 1.4, Qt::DashLine));
  it->second.rms->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, 6));
  it->second.rms->setName(style.label + tr(" · max RMS"));
}

void ActivationPlot::runRemoved(const QString& runId) {
  auto it = graphs_.find(runId);
  if (it != graphs_.end()) {
    for (QCPGraph* g : {it->second.entry, it->second.rms}) {
      forgetGraph(g);
      customPlot()->removeGraph(g);
    }
    graphs_.erase(it);
  }
  stats_.erase(runId);
  dirty_ = true;
}

void ActivationPlot::setActivations(const QString& runId, const QStringList& blocks,
                                    const std::vector<double>& maxEntry, const std::vector<double>& maxRms) {
  graphsFor(runId);
  Stats s{blocks, maxEntry, maxRms};
  const auto n = static_cast<std::size_t>(blocks.size());
  s.maxEntry.resize(n, std::numeric_limits<double>::quiet_NaN());
  s.maxRms.resize(n, std::numeric_limits<double>::quiet_NaN());
  stats_[runId] = std::move(s);
  for (const QString& b : blocks)
    if (!blocks_.contains(b)) blocks_ << b;
  dirty_ = true;
}

void ActivationPlot::rebuild() {
  auto ticker = customPlot()->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
  ticker->clear();
  for (int i = 0; i < blocks_.size(); ++i) ticker->addTick(i + 1, blocks_[i]);
  double dataUpper = std::numeric_limits<double>::quiet_NaN();
  for (auto& [id, g] : graphs_) {
    std::vector<double> xs, entry, rms;
    auto it = stats_.find(id);
    if (it != stats_.end()) {
      const Stats& s = it->second;
      for (int i = 0; i < s.blocks.size(); ++i) {
        xs.push_back(blocks_.indexOf(s.blocks[i]) + 1);
        entry.push_back(s.maxEntry[static_cast<std::size_t>(i)]);
        rms.push_back(s.maxRms[static_cast<std::size_t>(i)]);
        for (double v : {entry.back(), rms.back()})
          if (std::isfinite(v) && !(v <= dataUpper)) dataUpper = v;
      }
    }
    setGraphData(g.entry, xs, entry);
    setGraphData(g.rms, std::move(xs), std::move(rms));
  }
  updateLimitLines(dataUpper);
}

void ActivationPlot::updateLimitLines(double dataUpper) {
  // Show limits up to the first one at or above the data: the format the data still fits.
  visibleLimits_.clear();
  offScaleLimits_.clear();
  const auto& limits = formatLimits();
  const double reach = std::isfinite(dataUpper) ? dataUpper : limits[1].maxFinite;
  bool above = false;
  yUpper_ = reach;
  QVector<QPair<double, QString>> ticks;
  for (std::size_t i = 0; i < limits.size(); ++i) {
    const bool show = !above;
    if (limits[i].maxFinite >= reach) above = true;
    limitLines_[static_cast<int>(i)]->setVisible(show);
    if (show) {
      visibleLimits_ << limits[i].name;
      ticks.append({limits[i].maxFinite, tr("%1 · %2").arg(limits[i].name, displayNumber(limits[i].maxFinite, 'g', 5))});
      yUpper_ = std::max(yUpper_, limits[i].maxFinite);
    } else {
      offScaleLimits_ << tr("%1 (%2)").arg(limits[i].name, displayNumber(limits[i].maxFinite, 'g', 3));
    }
  }
  setReferenceTicks(customPlot()->yAxis, ticks);
  // One limit a line: on one line the note ran past a 1024-px window's panel.
  offScaleNote_->setName(tr("off scale: %1").arg(offScaleLimits_.join(QStringLiteral(",\n"))));
  if (offScaleLimits_.isEmpty())
    offScaleNote_->removeFromLegend();
  else
    offScaleNote_->addToLegend();
}

void ActivationPlot::syncData() {
  if (!dirty_) return;
  rebuild();
  dirty_ = false;
}

void ActivationPlot::fitView() {
  QCustomPlot* p = customPlot();
  p->xAxis->setRange(0.5, std::max<double>(1, blocks_.size()) + 0.5);
  double lower = std::numeric_limits<double>::infinity();
  const bool log = p->yAxis->scaleType() == QCPAxis::stLogarithmic;
  for (const auto& [id, s] : stats_)
    for (const auto* v : {&s.maxEntry, &s.maxRms})
      for (double x : *v)
        if (std::isfinite(x) && (!log || x > 0)) lower = std::min(lower, x);
  if (!std::isfinite(lower)) lower = log ? 0.1 : 0;
  if (log)
    p->yAxis->setRange(lower / 2, yUpper_ * 2);
  else
    p->yAxis->setRange(std::min(0.0, lower), yUpper_ * 1.08);
}

QString ActivationPlot::hoverLabel(QCPAbstractPlottable* plottable, int dataIndex) const {
  const int i = static_cast<int>(std::lround(plottable->interface1D()->dataMainKey(dataIndex))) - 1;
  return i >= 0 && i < blocks_.size() ? blocks_[i] : QString();
}

CsvTable ActivationPlot::csvTable() const {
  CsvTable table;
  table.header << tr("block");
  const QStringList ids = runIds();
  for (const QString& id : ids) {
    const QString label = runStyle(id).label;
    table.header << label + QStringLiteral(" max_entry") << label + QStringLiteral(" max_rms");
  }
  for (const QString& block : blocks_) {
    QStringList row{block};
    for (const QString& id : ids) {
      auto it = stats_.find(id);
      const int i = it == stats_.end() ? -1 : static_cast<int>(it->second.blocks.indexOf(block));
      row << (i < 0 ? QString() : csvNumber(it->second.maxEntry[static_cast<std::size_t>(i)]))
          << (i < 0 ? QString() : csvNumber(it->second.maxRms[static_cast<std::size_t>(i)]));
    }
    table.rows << row;
  }
  return table;
}

}  // namespace lwb::widgets
