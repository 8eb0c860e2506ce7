// The Lipschitz upper bound over steps (log-y, several runs; for transformers the paper's
// App. D single-head value dotted beside the sound bound) on top, and below it the
// bound's per-layer trace at the current step (dashboard plot 4): bars of each layer's
// factor (L_block, or the weight norm for MLP layers; left axis, linear, a reference line
// at 1) and the running bound after each layer as a line (right axis, log).
#pragma once

#include "widgets/multi_run_plot.h"

#include <QtGlobal>

#include <map>
#include <vector>

class QCPAxisRect;
class QCPBars;
class QCPBarsGroup;
class QCPItemStraightLine;

namespace lwb::widgets {

// One row of a bound trace (the engine's bounds::TraceEntry, as plain data).
struct TraceFactor {
  QString name;           // "layers.0", "block0.attn", "head"
  double factor = 0;      // this layer's Lipschitz factor
  double boundAfter = 0;  // running bound after it
};

// How row i's running bound follows from the one before it and its factor, with the numbers
// ("L = 2.1 × 3 = 6.3", or for a residual block "L = (1 − α)·L′ + α·L′·L_block = … with
// α = 0.25"): the reader can rebuild each step of the trace. α is read back from the rows
// (α = (L − L′) / (L′ (L_block − 1))); empty when the row cannot be explained (non-finite).
QString traceRowExplanation(const std::vector<TraceFactor>& rows, std::size_t i);

class LipschitzBoundPlot : public MultiRunPlot {
  Q_OBJECT

 public:
  explicit LipschitzBoundPlot(QWidget* parent = nullptr);

  // `bound` is drawn solid; `singleHeadBound` (> 0: 000 App. D's value beside a sound
  // transformer bound, labelled "App. D, single-head argument") dotted in the run's colour.
  void appendBound(const QString& runId, double step, double bound, double singleHeadBound = 0);

  // The trace at `step` (the caller's current step) replaces the run's previous trace.
  // Runs' traces are grouped by layer name in first-seen order.
  void setTrace(const QString& runId, qint64 step, const std::vector<TraceFactor>& trace);

  QCPAxisRect* traceAxisRect() const { return traceRect_; }

 protected:
  QList<QCPGraph*> createSeriesGraphs(const QString& runId, const QString& key) override;
  void syncData() override;
  void restyleRun(const RunStyle& style) override;
  void runRemoved(const QString& runId) override;
  void fitView() override;
  QString hoverLabel(QCPAbstractPlottable* plottable, int dataIndex) const override;

 private:
  struct TraceGraphs {
    QCPBars* bars = nullptr;
    QCPGraph* running = nullptr;
  };
  struct Trace {
    qint64 step = 0;
    std::vector<TraceFactor> rows;
  };
  void rebuildTrace();
  QString seriesName(const QString& runLabel, const QString& key) const;
  TraceGraphs& traceGraphsFor(const QString& runId);

  std::map<QString, Trace> traces_;
  QStringList traceNames_;
  bool traceDirty_ = false;
  QCPAxisRect* traceRect_ = nullptr;
  QCPBarsGroup* barsGroup_ = nullptr;
  std::map<QString, TraceGraphs> traceGraphs_;
  QCPItemStraightLine* unitLine_ = nullptr;
};

}  // namespace lwb::widgets
