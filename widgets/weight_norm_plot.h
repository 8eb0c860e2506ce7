// Per-layer RMS→RMS weight norms ‖W‖ = σ₁·√(d_in/d_out) over steps (dashboard plot 2),
// against the σmax target: a line at σmax, and a band [σmin, σmax] when a lower target
// exists (spectral_clip). With one run, each layer gets its own palette colour and the
// legend (beside the plot) names the layers; with several runs, lines take their run's
// colour and the hover read-out names run and layer. Norms more than a decade apart switch the
// y-axis to log once, unless the scale was chosen.
#pragma once

#include <QMap>

#include "widgets/multi_run_plot.h"

#include <limits>

class QCPItemRect;
class QCPItemStraightLine;

namespace lwb::widgets {

class WeightNormPlot : public MultiRunPlot {
  Q_OBJECT

 public:
  explicit WeightNormPlot(QWidget* parent = nullptr);

  void appendPoint(const QString& runId, const QString& layer, double step, double rmsNorm);
  // All layers of one logged step at once (names and norms of equal length).
  void appendStep(const QString& runId, double step, const QStringList& layers,
                  const std::vector<double>& rmsNorms);
  void setSeries(const QString& runId, const QString& layer, const std::vector<double>& steps,
                 const std::vector<double>& rmsNorms);

  // σmax target (RMS→RMS); NaN hides it. sigmaMin (optional, NaN = none) draws the band.
  void setTarget(double sigmaMax, double sigmaMin = std::numeric_limits<double>::quiet_NaN());
  double targetMax() const { return targetMax_; }

  // The same plot for other per-matrix series over steps (seed 002's Stiefel band, tangency
  // and activation RMS panels): the y-axis title and the names of the target lines.
  void setValueLabel(const QString& yLabel);
  void setTargetNames(const QString& legend, const QString& maxTick, const QString& minTick);

  // Layers seen so far, in first-seen order.
  QStringList layers() const { return layers_; }
  // A note after a layer's legend name, e.g. that the embedding is not held to σmax but has
  // its own cap (issue 32: "embed 15.8" beside "σmax = 3" read as a failed constraint).
  void setLayerNote(const QString& layer, const QString& note);
  QString legendName(const QString& layer) const { return layer + layerNotes_.value(layer); }

 protected:
  QList<QCPGraph*> createSeriesGraphs(const QString& runId, const QString& key) override;
  void restyleRun(const RunStyle& style) override;
  QString hoverLabel(QCPAbstractPlottable* plottable, int dataIndex) const override;
  void fitView() override;

 private:
  void restyleAll();
  void updateTargetItems();

  QStringList layers_;
  QMap<QString, QString> layerNotes_;
  QCPGraph* hoverHint_ = nullptr;  // legend entry when the lines are not named one by one
  double targetMax_ = std::numeric_limits<double>::quiet_NaN();
  double targetMin_ = std::numeric_limits<double>::quiet_NaN();
  QCPItemStraightLine* targetLine_ = nullptr;
  QCPItemStraightLine* minLine_ = nullptr;
  QCPItemRect* band_ = nullptr;
  QCPGraph* targetProxy_ = nullptr;  // legend entry for the (item) target line
  QString maxTick_, minTick_;
  // Until someone sets the y scale (the box, the menu or the caller), norms spanning more than
  // a decade switch it to log once: the embedding's own cap (~15) on a linear axis flattened
  // every σmax-held matrix into one line near the target.
  bool logScaleChosen_ = false, autoLogging_ = false;
};

}  // namespace lwb::widgets
