#include "widgets/multi_run_plot.h"

#include "widgets/palette.h"

#include "widgets/qcp.h"

#include <algorithm>

namespace lwb::widgets {

MultiRunPlot::MultiRunPlot(QWidget* parent) : PlotView(parent) {}

MultiRunPlot::~MultiRunPlot() = default;

void MultiRunPlot::setRun(const QString& runId, const QString& label, const QColor& color) {
  auto it = std::find_if(runs_.begin(), runs_.end(), [&](const RunStyle& r) { return r.id == runId; });
  const RunStyle style{runId, label.isEmpty() ? runId : label, color.isValid() ? color : runColor(static_cast<int>(runs_.size()))};
  if (it == runs_.end()) {
    runs_.append(style);
  } else {
    *it = style;
  }
  restyleRun(style);
}

void MultiRunPlot::ensureRun(const QString& runId) {
  if (!hasRun(runId)) setRun(runId, runId, runColor(static_cast<int>(runs_.size())));
}

void MultiRunPlot::removeRun(const QString& runId) {
  for (auto it = series_.begin(); it != series_.end();) {
    if (it->first.first == runId) {
      for (QCPGraph* g : it->second->graphs) {
        forgetGraph(g);
        customPlot()->removeGraph(g);
      }
      it = series_.erase(it);
    } else {
      ++it;
    }
  }
  runs_.erase(std::remove_if(runs_.begin(), runs_.end(), [&](const RunStyle& r) { return r.id == runId; }),
              runs_.end());
  runRemoved(runId);
}

void MultiRunPlot::clearRuns() {
  const QStringList ids = runIds();
  for (const QString& id : ids) removeRun(id);
}

QStringList MultiRunPlot::runIds() const {
  QStringList ids;
  for (const RunStyle& r : runs_) ids << r.id;
  return ids;
}

RunStyle MultiRunPlot::runStyle(const QString& runId) const {
  for (const RunStyle& r : runs_)
    if (r.id == runId) return r;
  return RunStyle{runId, runId, runColor(0)};
}

bool MultiRunPlot::hasRun(const QString& runId) const {
  return std::any_of(runs_.begin(), runs_.end(), [&](const RunStyle& r) { return r.id == runId; });
}

void MultiRunPlot::setCapacity(std::size_t points) {
  capacity_ = std::max<std::size_t>(1, points);
  for (auto& [id, s] : series_) {
    s->buffer.setCapacity(capacity_);
    s->dirty = true;
  }
}

std::size_t MultiRunPlot::seriesSize(const QString& runId, const QString& key) const {
  auto it = series_.find({runId, key});
  return it == series_.end() ? 0 : it->second->buffer.size();
}

MultiRunPlot::LiveSeries* MultiRunPlot::series(const QString& runId, const QString& key) {
  auto it = series_.find({runId, key});
  if (it != series_.end()) return it->second.get();
  ensureRun(runId);
  auto s = std::make_unique<LiveSeries>(capacity_);
  s->graphs = createSeriesGraphs(runId, key);
  LiveSeries* raw = s.get();
  series_.emplace(SeriesId{runId, key}, std::move(s));
  return raw;
}

void MultiRunPlot::appendPoint(const QString& runId, const QString& key, double x, double y) {
  LiveSeries* s = series(runId, key);
  s->buffer.append(x, y);
  s->dirty = true;
}

void MultiRunPlot::setSeries(const QString& runId, const QString& key, const std::vector<double>& xs,
                             const std::vector<double>& ys) {
  LiveSeries* s = series(runId, key);
  s->buffer.clear();
  const std::size_t n = std::min(xs.size(), ys.size());
  for (std::size_t i = 0; i < n; ++i) s->buffer.append(xs[i], ys[i]);
  s->dirty = true;
}

void MultiRunPlot::invalidateSeries() {
  for (auto& [id, s] : series_) s->dirty = true;
}

void MultiRunPlot::pushSeries(const QString&, const QString&, LiveSeries& s) {
  if (s.graphs.isEmpty()) return;
  assignGraphData(s.graphs.front(), s.buffer);
}

void MultiRunPlot::restyleRun(const RunStyle& style) {
  for (auto& [id, s] : series_) {
    if (id.first != style.id) continue;
    for (QCPGraph* g : s->graphs) {
      QPen pen = g->pen();
      const int alpha = pen.color().alpha();
      pen.setColor(withAlpha(style.color, alpha));
      g->setPen(pen);
    }
  }
}

void MultiRunPlot::syncData() {
  for (auto& [id, s] : series_) {
    if (!s->dirty) continue;
    pushSeries(id.first, id.second, *s);
    s->dirty = false;
    // A line through one point draws nothing: a series with a single point (one evaluation
    // so far) shows it as a dot until a second point makes a line. Graphs with markers of
    // their own keep them.
    if (s->buffer.size() == 1 && s->dotted.isEmpty()) {
      for (QCPGraph* g : s->graphs)
        if (g->scatterStyle().isNone()) {
          g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 6));
          s->dotted << g;
        }
    } else if (s->buffer.size() != 1 && !s->dotted.isEmpty()) {
      for (QCPGraph* g : s->dotted) g->setScatterStyle(QCPScatterStyle());
      s->dotted.clear();
    }
  }
}

void MultiRunPlot::fitView() {
  // Cached buffer ranges: no scan of the (possibly decimated) graph data.
  ValueRange x, y;
  const bool logY = customPlot()->yAxis->scaleType() == QCPAxis::stLogarithmic;
  auto merge = [](ValueRange& into, const ValueRange& r) {
    if (!r.valid) return;
    if (!into.valid) {
      into = r;
      return;
    }
    into.lower = std::min(into.lower, r.lower);
    into.upper = std::max(into.upper, r.upper);
  };
  for (const auto& [id, s] : series_) {
    if (s->graphs.isEmpty() || !s->graphs.back()->visible()) continue;
    merge(x, s->buffer.xRange());
    // Only the left axis is fitted here; plots with a right axis set it themselves.
    if (s->graphs.front()->valueAxis() == customPlot()->yAxis)
      merge(y, logY ? s->buffer.positiveYRange() : s->buffer.yRange());
  }
  if (x.valid) fitAxis(customPlot()->xAxis, x.lower, x.upper, 0.02);
  if (y.valid) fitAxis(customPlot()->yAxis, y.lower, y.upper);
}

CsvTable MultiRunPlot::csvTable() const {
  // Full buffers (not the decimated or smoothed drawing), one column per run and series.
  std::vector<CsvSeries> out;
  for (const RunStyle& run : runs_) {
    for (const auto& [id, s] : series_) {
      if (id.first != run.id) continue;
      CsvSeries cs;
      cs.name = id.second.isEmpty() ? run.label : run.label + QStringLiteral(" ") + id.second;
      s->buffer.copyTo(cs.xs, cs.ys);
      out.push_back(std::move(cs));
    }
  }
  const QString xName = customPlot()->xAxis->label().isEmpty() ? QStringLiteral("step") : customPlot()->xAxis->label();
  return wideTable(xName, out);
}

}  // namespace lwb::widgets
