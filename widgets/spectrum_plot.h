// Singular-value spectrum of one layer (dashboard plot 3; Inspector).
//
// Ranked mode: σ_i against rank i = 1, 2, … (log-y), the σmax line (and σmin when set),
// optionally the spectrum measured before the constraint step drawn faint + dashed behind
// ("before" vs "after"). Density mode: log-log density of the singular values
// (log_histogram.h), σmax as a vertical line.
//
// The widget keeps the snapshots it is given: per run, per layer, per step. A layer combo
// box lists the layers seen; a scrubber (slider) walks through the recorded steps of the
// chosen layer, showing the step; while the scrubber sits on the newest step it follows
// new snapshots. Several runs are overlaid, each in its colour, at the newest step <= the
// scrubber's. With a single step the scrubber is hidden (Inspector).
#pragma once

#include "widgets/multi_run_plot.h"

#include <QtGlobal>

#include <limits>
#include <map>

class QCheckBox;
class QComboBox;
class QLabel;
class QSlider;
class QCPItemStraightLine;

namespace lwb::widgets {

class SpectrumPlot : public MultiRunPlot {
  Q_OBJECT

 public:
  enum class Mode { Ranked, Density };

  explicit SpectrumPlot(QWidget* parent = nullptr);

  // Singular values of one matrix at one step (any order; drawn descending). `before` is
  // the spectrum just before the constraint step (may be empty). Same step again replaces.
  void addSnapshot(const QString& runId, const QString& layer, qint64 step, std::vector<double> after,
                   std::vector<double> before = {});
  void clearSnapshots();

  QStringList layers() const;  // first-seen order
  QString currentLayer() const;
  void setCurrentLayer(const QString& layer);  // unknown names are ignored
  // Steps recorded for the current layer (over all runs), ascending.
  std::vector<qint64> steps() const;
  qint64 currentStep() const;                  // -1 when nothing is recorded
  void setCurrentStep(qint64 step);            // snaps to the nearest recorded step

  // Reference lines in the units of the values given (raw σ, or RMS-scaled: the caller
  // decides); NaN hides.
  void setSigmaMax(double sigmaMax);
  void setSigmaMin(double sigmaMin);

  // Legend names of a single run's two curves; by default "after constraint" and "before
  // constraint" (the dashboard's meaning). The Inspector shows a tensor and what a method
  // would make of it instead. An empty name keeps that curve out of the legend. With
  // several runs the curves are named after the runs.
  void setCurveNames(const QString& after, const QString& before);

  // Off for a single matrix with no history (Inspector, Clip Lab): no scrubber, no step.
  void setStepControlsVisible(bool visible);
  // Off where the plot only ever shows one layer (the Clip Lab's W): the box would take
  // 12 characters of a narrow row to offer no choice.
  void setLayerChoiceVisible(bool visible);

  void setMode(Mode mode);  // Density switches log-x on, Ranked restores linear x
  // Values given in RMS→RMS units (σᵢ·√(d_in/d_out), as σmax is stated for norm = rms): the
  // axis says so, so that they are not read as the plain σᵢ the Inspector and inspect show.
  void setRmsUnits(bool rms);
  void setDensityBins(int bins);  // default 30

 Q_SIGNALS:
  void layerSelected(const QString& layer);  // by the user or setCurrentLayer
  void stepSelected(qint64 step);            // scrubber moved (not while following)

 protected:
  QList<QCPGraph*> createSeriesGraphs(const QString& runId, const QString& key) override;
  void syncData() override;
  void restyleRun(const RunStyle& style) override;
  void runRemoved(const QString& runId) override;
  void fitView() override;
  CsvTable csvTable() const override;

 private:
  struct Snapshot {
    std::vector<double> after, before;
  };
  using History = std::map<qint64, Snapshot>;  // step -> snapshot
  struct RunGraphs {
    QCPGraph* after = nullptr;
    QCPGraph* before = nullptr;
  };

  void setShowBefore(bool on);  // the "Before" box
  void restyleAll();
  const Snapshot* shownSnapshot(const QString& runId) const;
  void rebuildGraphs();
  void updateScrubber();
  void updateReferenceLines();
  RunGraphs& graphsFor(const QString& runId);
  void styleGraphs(const RunStyle& style, RunGraphs& g);

  std::map<QString, std::map<QString, History>> data_;  // run -> layer -> history
  QStringList layers_;
  QString layer_;
  qint64 step_ = -1;
  bool following_ = true;
  bool showBefore_ = true;
  QString afterName_ = tr("after constraint");
  QString beforeName_ = tr("before constraint");
  bool stepControls_ = true;
  bool rmsUnits_ = false;
  Mode mode_ = Mode::Ranked;
  int densityBins_ = 30;
  double sigmaMax_ = std::numeric_limits<double>::quiet_NaN();
  double sigmaMin_ = std::numeric_limits<double>::quiet_NaN();
  bool dirty_ = true;

  QComboBox* layerBox_ = nullptr;
  QSlider* scrubber_ = nullptr;
  QLabel* stepLabel_ = nullptr;
  QCheckBox* beforeBox_ = nullptr;
  QComboBox* modeBox_ = nullptr;
  std::map<QString, RunGraphs> graphs_;
  QCPItemStraightLine* maxLine_ = nullptr;
  QCPItemStraightLine* minLine_ = nullptr;

};

}  // namespace lwb::widgets
