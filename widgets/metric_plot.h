// One metric over steps for several runs (Compare page: "overlay any metric"; also the
// Lipschitz-bound-over-steps panel's building block). Log-y toggle; optional EMA.
#pragma once

#include "widgets/multi_run_plot.h"

namespace lwb::widgets {

class MetricPlot : public MultiRunPlot {
  Q_OBJECT

 public:
  explicit MetricPlot(QWidget* parent = nullptr);

  // Axis labels, e.g. ("step", "validation loss").
  void setAxisLabels(const QString& x, const QString& y);

  void appendPoint(const QString& runId, double step, double value);
  void setSeries(const QString& runId, const std::vector<double>& steps, const std::vector<double>& values);

  // EMA weight in [0, 0.999]; 0 (default) = raw. Raw series drawn faint behind when > 0.
  void setSmoothing(double weight);
  double smoothing() const { return smoothing_; }

 protected:
  QList<QCPGraph*> createSeriesGraphs(const QString& runId, const QString& key) override;
  void pushSeries(const QString& runId, const QString& key, LiveSeries& series) override;
  void restyleRun(const RunStyle& style) override;

 private:
  double smoothing_ = 0;
};

}  // namespace lwb::widgets
