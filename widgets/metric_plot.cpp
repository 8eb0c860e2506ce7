#include "widgets/metric_plot.h"

#include "widgets/palette.h"
#include "widgets/smoothing.h"

#include "widgets/qcp.h"

#include <algorithm>
#include <cmath>

namespace lwb::widgets {

namespace {
const QString kKey;  // one series per run: CSV columns are named by the run alone
constexpr int kRawAlpha = 60;
constexpr std::size_t kMarkedPoints = 30;  // series this short show their points
}  // namespace

MetricPlot::MetricPlot(QWidget* parent) : MultiRunPlot(parent) {
  customPlot()->xAxis->setLabel(tr("step"));
  placeLegend(LegendPlace::Below);
}

void MetricPlot::setAxisLabels(const QString& x, const QString& y) {
  customPlot()->xAxis->setLabel(x);
  customPlot()->yAxis->setLabel(y);
}

void MetricPlot::appendPoint(const QString& runId, double step, double value) {
  MultiRunPlot::appendPoint(runId, kKey, step, value);
}

void MetricPlot::setSeries(const QString& runId, const std::vector<double>& steps, const std::vector<double>& values) {
  MultiRunPlot::setSeries(runId, kKey, steps, values);
}

void MetricPlot::setSmoothing(double weight) {
  weight = std::isfinite(weight) ? std::clamp(weight, 0.0, 0.999) : 0.0;
  if (weight == smoothing_) return;
  smoothing_ = weight;
  invalidateSeries();
  for (const RunStyle& style : [this] {
         QList<RunStyle> out;
         for (const QString& id : runIds()) out << runStyle(id);
         return out;
       }())
    restyleRun(style);
  requestReplot();
}

QList<QCPGraph*> MetricPlot::createSeriesGraphs(const QString& runId, const QString&) {
  QCPGraph* raw = customPlot()->addGraph();
  QCPGraph* line = customPlot()->addGraph();
  markDecoration(raw);
  const RunStyle style = runStyle(runId);
  raw->setPen(QPen(withAlpha(style.color, kRawAlpha), 1));
  raw->setVisible(smoothing_ > 0);
  line->setPen(QPen(style.color, 1.5));
  line->setName(style.label);
  return {raw, line};
}

void MetricPlot::restyleRun(const RunStyle& style) {
  for (const auto& [id, s] : allSeries()) {
    if (id.first != style.id) continue;
    s->graphs[0]->setPen(QPen(withAlpha(style.color, kRawAlpha), 1));
    s->graphs[0]->setVisible(smoothing_ > 0);
    s->graphs[1]->setPen(QPen(style.color, 1.5));
    s->graphs[1]->setName(style.label);
  }
}

void MetricPlot::pushSeries(const QString&, const QString&, LiveSeries& s) {
  if (smoothing_ > 0) {
    assignGraphData(s.graphs[0], s.buffer);
    const XYData* raw = graphSource(s.graphs[0]);
    assignGraphData(s.graphs[1], raw->xs, emaSmooth(raw->ys, smoothing_));
  } else {
    setGraphData(s.graphs[0], {}, {});
    assignGraphData(s.graphs[1], s.buffer);
  }
  // A sparse series (a metric logged at each evaluation: two points in a short run) is drawn
  // with its points: a bare line between two evaluations read as a measured straight curve.
  const bool sparse = graphSource(s.graphs[1]) && graphSource(s.graphs[1])->xs.size() <= kMarkedPoints;
  if (sparse != (s.graphs[1]->scatterStyle().shape() != QCPScatterStyle::ssNone))
    s.graphs[1]->setScatterStyle(sparse ? QCPScatterStyle(QCPScatterStyle::ssDisc, 5) : QCPScatterStyle());
}

}  // namespace lwb::widgets
