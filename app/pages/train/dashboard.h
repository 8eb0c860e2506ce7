// The live dashboard's six plots and the glue that feeds them from the RunManager's runs:
//   loss        loss and accuracy (train/val), every run
//   norms       per-layer RMS→RMS weight norms against the current run's σmax
//   spectrum    singular values of a chosen layer, with history scrubber, before/after
//   bound       Lipschitz bound over steps, per-layer trace at the latest step
//   activations max |entry| / max RMS per block at the latest evaluation
//   scalar_map  the current run's constraint map f(σ), the chosen layer's σ marked on it
// Plots take plain data (widgets/); the dashboard converts the engine's run results at that
// boundary (names to QString, float spectra to double), scales spectra to the units σmax is
// stated in, and replots once per batch (RunManager throttles batches). The single-run
// plots follow the RunManager's current run.
#pragma once

#include "app/runs/run_manager.h"

#include <QList>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QString>

namespace lwb::widgets {
class ActivationPlot;
class LipschitzBoundPlot;
class LossAccuracyPlot;
class MultiRunPlot;
class PlotLinker;
class PlotView;
class ScalarMapPlot;
class SpectrumPlot;
class WeightNormPlot;
}  // namespace lwb::widgets

class QWidget;

namespace lwb::app {

class Dashboard : public QObject {
  Q_OBJECT

 public:
  struct Panel {
    QString id;     // stable: dock object names and saved layouts use it
    QString title;
    widgets::PlotView* plot = nullptr;
    QString what;  // one sentence on what the plot shows (Help → Tour)
  };

  // Plots are created with plotParent as parent (the page docks them). Shows the runs
  // `runs` adds from now on (pages are built before any run starts).
  Dashboard(RunManager* runs, QWidget* plotParent);

  const QList<Panel>& panels() const { return panels_; }
  // The run the single-run plots (σmax lines, f(σ)) show.
  RunSession* currentRun() const { return current_; }
  // Pushes everything and replots synchronously (screenshots, exports).
  void replotNow();

  widgets::LossAccuracyPlot* lossPlot() const { return loss_; }
  widgets::WeightNormPlot* normPlot() const { return norms_; }
  widgets::SpectrumPlot* spectrumPlot() const { return spectrum_; }
  widgets::LipschitzBoundPlot* boundPlot() const { return bound_; }
  widgets::ActivationPlot* activationPlot() const { return activations_; }
  widgets::ScalarMapPlot* scalarMapPlot() const { return scalarMap_; }
  // Seed 002 panels (issue 14): Manifold Muon's σ band and tangency per matrix, per-module
  // activation RMS over steps (they stay empty for runs that do not report them).
  widgets::WeightNormPlot* stiefelPlot() const { return stiefel_; }
  widgets::WeightNormPlot* tangencyPlot() const { return tangency_; }
  widgets::WeightNormPlot* activationRmsPlot() const { return actRms_; }
  // AttLip runs (issue 26): the block's relative movement, accepted λ and residual ratio.
  widgets::WeightNormPlot* attentionPlot() const { return attention_; }

 Q_SIGNALS:
  // After each batch has been handed to the plots (one per throttle tick).
  void refreshed();

 private:
  void createPlots(QWidget* plotParent);
  void addRun(RunSession* session);
  void removeRun(RunSession* session);
  void setCurrentRun(RunSession* session);
  // One throttled batch: appends to every plot, then one replot request per plot.
  void apply(const QList<SessionDelta>& batch);
  void applyDelta(RunSession* s, const RunDelta& d);
  void addSpectra(RunSession* s, const run::SpectraRecord& sample);
  void reloadRun(RunSession* s);  // re-feeds a run from its history (reset, re-add)
  void updateTargets();
  void updateScalarMap();
  void updateEmptyTexts();
  void updateLevels();  // the current run's loss reference levels on the loss plot
  // Every multi-run plot, for adding, removing and re-feeding a run.
  QList<widgets::MultiRunPlot*> runPlots() const;
  void requestReplots();  // every plot
  void requestTouchedReplots();  // only the plots this batch changed

  QList<Panel> panels_;
  widgets::LossAccuracyPlot* loss_ = nullptr;
  widgets::WeightNormPlot* norms_ = nullptr;
  widgets::SpectrumPlot* spectrum_ = nullptr;
  widgets::LipschitzBoundPlot* bound_ = nullptr;
  widgets::ActivationPlot* activations_ = nullptr;
  widgets::ScalarMapPlot* scalarMap_ = nullptr;
  widgets::WeightNormPlot* stiefel_ = nullptr;
  widgets::WeightNormPlot* tangency_ = nullptr;
  widgets::WeightNormPlot* actRms_ = nullptr;
  widgets::WeightNormPlot* attention_ = nullptr;
  widgets::PlotLinker* linker_ = nullptr;
  QSet<widgets::PlotView*> touched_;
  QPointer<RunSession> current_;
  double shownAlpha_ = -1;
};

}  // namespace lwb::app
