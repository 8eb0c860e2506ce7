// Loss and accuracy (train / validation) over steps for several runs (dashboard plot 1).
// Loss on the left axis (log-y toggle), accuracy on the right axis (linear, 0..1).
// Train lines are solid, validation lines dashed with markers; with smoothing on, each
// train series is drawn faint behind its EMA (TensorBoard's bias-corrected EMA,
// smoothing.h). Validation series (sparse, already averaged) are never smoothed.
#pragma once

#include "widgets/multi_run_plot.h"

class QCPAbstractItem;
class QSlider;
class QLabel;

namespace lwb::widgets {

class LossAccuracyPlot : public MultiRunPlot {
  Q_OBJECT

 public:
  enum class Metric { TrainLoss, ValLoss, TrainAcc, ValAcc };

  explicit LossAccuracyPlot(QWidget* parent = nullptr);

  // One point of one metric; steps ascending per series.
  void appendPoint(const QString& runId, Metric metric, double step, double value);
  // Replaces a whole series (opening a finished run).
  void setSeries(const QString& runId, Metric metric, const std::vector<double>& steps,
                 const std::vector<double>& values);

  // EMA weight in [0, 0.999] (clamped); 0 = no smoothing. Also moves the slider.
  void setSmoothing(double weight);
  double smoothing() const { return smoothing_; }

  // Horizontal reference lines on the loss axis, labelled on the axis (seed 002's ICL levels:
  // predict 0, copy only, Bayes floor); empty removes them.
  void setReferenceLevels(const QVector<QPair<double, QString>>& levels);
  const QVector<QPair<double, QString>>& referenceLevels() const { return levels_; }

  static QString metricKey(Metric metric);  // "train_loss", "val_loss", "train_acc", "val_acc"

 Q_SIGNALS:
  void smoothingChanged(double weight);

 protected:
  QList<QCPGraph*> createSeriesGraphs(const QString& runId, const QString& key) override;
  void pushSeries(const QString& runId, const QString& key, LiveSeries& series) override;
  void restyleRun(const RunStyle& style) override;
  void runRemoved(const QString& runId) override;
  void fitView() override;

 private:
  void styleGraphs(const RunStyle& style, const QString& key, QCPGraph* raw, QCPGraph* smooth);

  double smoothing_ = 0.6;
  QSlider* slider_ = nullptr;
  QLabel* sliderLabel_ = nullptr;
  // The legend explains colours (one entry per run) and line styles (train / validation /
  // accuracy) separately: runs × metrics entries would not fit.
  QMap<QString, QCPGraph*> runProxies_;
  QCPGraph* accuracyProxy_ = nullptr;  // legend entry "accuracy: lighter, right axis"
  // Whether any run logs a finite accuracy (regression tasks such as ICL do not).
  bool hasAccuracy() const;
  QList<QCPAbstractItem*> levelItems_;
  QVector<QPair<double, QString>> levels_;
};

}  // namespace lwb::widgets
