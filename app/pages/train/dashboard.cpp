#include "app/pages/train/dashboard.h"

#include "app/scalar_map.h"
#include "widgets/activation_plot.h"
#include "widgets/lipschitz_bound_plot.h"
#include "widgets/loss_accuracy_plot.h"
#include "widgets/plot_linker.h"
#include "widgets/scalar_map_plot.h"
#include "widgets/spectrum_plot.h"
#include "widgets/weight_norm_plot.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <limits>

namespace lwb::app {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
using Metric = widgets::LossAccuracyPlot::Metric;

bool readsSigmaMax(spectral::ConstraintMethod m) { return spectral::reads(m, spectral::kSigmaMax); }
bool readsSigmaMin(spectral::ConstraintMethod m) { return spectral::reads(m, spectral::kSigmaMin); }

// Spectra are shown in the units σmax is stated in: RMS→RMS for norm = rms.
std::vector<double> scaled(const std::vector<float>& values, double scale) {
  std::vector<double> out(values.begin(), values.end());
  for (double& v : out) v *= scale;
  return out;
}

bool spectraInRmsUnits(const RunHistory& h) { return h.constraint().norm != spectral::ThresholdNorm::Spectral; }

double spectraScale(const RunHistory& h, const std::string& layer) { return spectraInRmsUnits(h) ? h.rmsScale(layer) : 1.0; }

// Whether the constraint holds this layer to σmax: embeddings are lookup tables it skips (the
// model caps their rows), so the constraint map places no σᵢ of theirs on f.
bool constraintSkips(const RunHistory& h, const std::string& layer) {
  const run::StepMetrics* latest = h.latest();
  if (!latest) return false;
  for (const auto& n : latest->norms)
    if (n.name == layer) return n.role == "embedding";
  return false;
}

// Manifold Muon's σ band and tangency per matrix, and the per-module activation RMS on
// evaluation steps.
void appendStiefelAndActivations(widgets::WeightNormPlot* stiefel, widgets::WeightNormPlot* tangency, widgets::WeightNormPlot* actRms,
                   const QString& id, const run::StepMetrics& s) {
  const double x = static_cast<double>(s.step);
  for (const auto& m : s.stiefel) {
    const QString name = QString::fromStdString(m.name);
    stiefel->appendPoint(id, name + QStringLiteral(" σmax"), x, m.sigmaMax);
    stiefel->appendPoint(id, name + QStringLiteral(" σmin"), x, m.sigmaMin);
    tangency->appendPoint(id, name, x, m.tangency);
  }
  if (s.activations)
    for (size_t i = 0; i < s.activations->names.size() && i < s.activations->meanTokenRms.size(); ++i)
      actRms->appendPoint(id, QString::fromStdString(s.activations->names[i]), x, s.activations->meanTokenRms[i]);
}

// AttLip's solver per logged step (issue 26): is the block more than the identity, and how
// far is its solve from the prox? Evaluation rows add the evaluation forward's values.
void appendAttLip(widgets::WeightNormPlot* plot, const QString& id, const run::StepMetrics& s) {
  const double x = static_cast<double>(s.step);
  const auto add = [&](const QString& name, const std::optional<double>& v) {
    if (v) plot->appendPoint(id, name, x, *v);
  };
  add(Dashboard::tr("movement ‖AttLip(X) − X‖/‖X‖"), s.attlipMovement);
  add(Dashboard::tr("λ mean"), s.attlipStepMean);
  add(Dashboard::tr("λ min"), s.attlipStepMin);
  add(Dashboard::tr("‖g_K‖/‖g_0‖"), s.attlipResidualRatio);
  add(Dashboard::tr("evaluation movement"), s.valAttlipMovement);
  add(Dashboard::tr("evaluation ‖g_K‖/‖g_0‖"), s.valAttlipResidualRatio);
}

void appendSteps(widgets::LossAccuracyPlot* loss, widgets::WeightNormPlot* norms, widgets::LipschitzBoundPlot* bound,
                 const QString& id, const std::vector<run::StepMetrics>& steps) {
  for (const run::StepMetrics& s : steps) {
    const double x = static_cast<double>(s.step);
    loss->appendPoint(id, Metric::TrainLoss, x, s.trainLoss);
    loss->appendPoint(id, Metric::TrainAcc, x, s.trainAcc);
    if (s.valLoss) loss->appendPoint(id, Metric::ValLoss, x, *s.valLoss);
    if (s.valAcc) loss->appendPoint(id, Metric::ValAcc, x, *s.valAcc);
    for (const auto& n : s.norms) {
      const QString name = QString::fromStdString(n.name);
      // Embeddings are lookup tables the constraint skips; the model normalises or caps
      // their rows instead (000 App. F), so their norm may sit above the σmax line.
      if (n.role == "embedding" && norms->seriesSize(id, name) == 0)
        norms->setLayerNote(name, Dashboard::tr(" (not held to σmax)"));
      norms->appendPoint(id, name, x, n.rmsNorm);
    }
    if (s.lipschitzBound) bound->appendBound(id, x, *s.lipschitzBound, s.boundTrace.singleHeadBound);
  }
}

std::vector<widgets::TraceFactor> traceFactors(const bounds::BoundTrace& trace) {
  std::vector<widgets::TraceFactor> out;
  out.reserve(trace.layers.size());
  for (const auto& t : trace.layers) out.push_back({QString::fromStdString(t.name), t.blockLipschitz, t.lipschitzAfter});
  return out;
}

}  // namespace

Dashboard::Dashboard(RunManager* runs, QWidget* plotParent) : QObject(plotParent) {
  createPlots(plotParent);
  // f(σ) marks the layer and step the spectrum plot shows.
  connect(spectrum_, &widgets::SpectrumPlot::layerSelected, this, [this] {
    updateScalarMap();
    scalarMap_->requestReplot();
  });
  connect(spectrum_, &widgets::SpectrumPlot::stepSelected, this, [this] {
    updateScalarMap();
    scalarMap_->requestReplot();
  });
  connect(runs, &RunManager::sessionAdded, this, &Dashboard::addRun);
  connect(runs, &RunManager::sessionRemoved, this, &Dashboard::removeRun);
  connect(runs, &RunManager::deltasReady, this, &Dashboard::apply);
  connect(runs, &RunManager::currentRunChanged, this, &Dashboard::setCurrentRun);
}

void Dashboard::createPlots(QWidget* plotParent) {
  loss_ = new widgets::LossAccuracyPlot(plotParent);
  norms_ = new widgets::WeightNormPlot(plotParent);
  spectrum_ = new widgets::SpectrumPlot(plotParent);
  bound_ = new widgets::LipschitzBoundPlot(plotParent);
  activations_ = new widgets::ActivationPlot(plotParent);
  scalarMap_ = new widgets::ScalarMapPlot(plotParent);
  stiefel_ = new widgets::WeightNormPlot(plotParent);
  stiefel_->setValueLabel(tr("σ of constrained matrices"));
  // The band is the tolerance beyond which a Manifold Muon run stops as diverged.
  stiefel_->setTargetNames(tr("diverged beyond"), tr("1 + 10⁻³"), tr("1 − 10⁻³"));
  stiefel_->setTarget(1.0 + 1e-3, 1.0 - 1e-3);
  tangency_ = new widgets::WeightNormPlot(plotParent);
  tangency_->setValueLabel(tr("tangency violation rms(WᵀM + MᵀW)"));
  tangency_->setLogY(true);
  actRms_ = new widgets::WeightNormPlot(plotParent);
  actRms_->setValueLabel(tr("output RMS (token mean)"));
  actRms_->setLogY(true);
  attention_ = new widgets::WeightNormPlot(plotParent);
  attention_->setValueLabel(tr("movement, λ, ‖g_K‖/‖g_0‖ (log)"));
  attention_->setLogY(true);
  attention_->setToolTip(tr("With the Armijo rule, training runs K ≤ model.prox_steps steps from the input: that forward "
                            "is not 1-Lipschitz (Attention Lab, \"Why Armijo with small K…\"). The certificate belongs to the "
                            "evaluation forward, solved until ‖g_K‖/‖g_0‖ ≤ model.prox_tol (the \"at evaluation\" lines); the "
                            "fixed rule with unit-norm tokens is certified at every K. λ mean / min: the accepted step sizes."));
  // `what` is the Help → Tour's one-line answer to "what am I looking at".
  panels_ = {{QStringLiteral("loss"), tr("Loss and accuracy"), loss_,
              tr("Training and validation loss (and accuracy) of every run over steps: is it learning?")},
             {QStringLiteral("norms"), tr("Weight norms (RMS→RMS)"), norms_,
              tr("Each layer's RMS→RMS weight norm against the σmax target the constraint holds them to. "
                 "Embeddings are not held to σmax: the model normalises or caps each token's row instead.")},
             {QStringLiteral("spectrum"), tr("Singular values"), spectrum_,
              tr("The singular values of one layer, before and after the constraint step; the scrubber walks "
                 "through the recorded steps.")},
             {QStringLiteral("bound"), tr("Lipschitz bound (RMS→RMS)"), bound_,
              tr("The network's certified Lipschitz bound over steps: no change of the embedded input by δ (RMS "
                 "per token) moves the logits by more than bound × δ. Every matrix stays at σmax, but the bound is "
                 "the product of the per-layer factors in the trace beside it (hover a layer for the arithmetic), so "
                 "a few layers slightly above 1 multiply into a large number; σmax, the final logit scale and the "
                 "number of heads set it.")},
             {QStringLiteral("activations"), tr("Activations"), activations_,
              tr("The largest activation entry and token RMS per block, against the ranges of bf16, fp8 and "
                 "fp4: bounded weights keep them small.")},
             {QStringLiteral("scalar_map"), tr("Constraint map f(σ)"), scalarMap_,
              tr("What the constraint does to a singular value σ (the soft cap's f at the current α*), with "
                 "the chosen layer's σ marked on it.")},
             {QStringLiteral("stiefel"), tr("Stiefel band"), stiefel_,
              tr("Manifold Muon: the smallest and largest singular value of every constrained matrix after each "
                 "logged step — a flat line at 1 while the matrices stay on the manifold.")},
             {QStringLiteral("tangency"), tr("Tangency violation"), tangency_,
              tr("Manifold Muon: how far each matrix's update direction is from the tangent space, rms(WᵀM + MᵀW).")},
             {QStringLiteral("activation_rms"), tr("Activation RMS"), actRms_,
              tr("Mean token RMS of the embedding and of every attention and MLP output over the evaluation steps "
                 "(the Manifold Muon paper's Fig. 3).")},
             {QStringLiteral("attention"), tr("AttLip solver"), attention_,
              tr("AttLip: how far the block moves its input (‖AttLip(X) − X‖/‖X‖; near 0 means nearly the "
                 "identity), the accepted step sizes λ and the residual ratio ‖g_K‖/‖g_0‖ of the prox solve, "
                 "in training and at evaluation. With the Armijo rule only the evaluation forward, solved to "
                 "tolerance, is certified 1-Lipschitz; the training forward's few steps are not.")}};
  for (const Panel& p : panels_) p.plot->setObjectName(p.id + QStringLiteral("_plot"));
  updateEmptyTexts();

  // Plots over steps share their x range when the user zooms one of them.
  linker_ = new widgets::PlotLinker(this);
  linker_->add(loss_);
  linker_->add(norms_);
  linker_->add(bound_);
  linker_->add(stiefel_);
  linker_->add(tangency_);
  linker_->add(actRms_);
  linker_->add(attention_);
}

QList<widgets::MultiRunPlot*> Dashboard::runPlots() const {
  return {loss_, norms_, spectrum_, bound_, activations_, stiefel_, tangency_, actRms_, attention_};
}

void Dashboard::addRun(RunSession* s) {
  for (widgets::MultiRunPlot* p : runPlots()) p->setRun(s->id(), s->label(), s->color());
}

void Dashboard::removeRun(RunSession* s) {
  for (widgets::MultiRunPlot* p : runPlots()) p->removeRun(s->id());
  if (current_ == s) setCurrentRun(nullptr);
  requestReplots();
}

// Empty axes from 0 to 5 read as data: each panel says what would fill it, for the run shown
// (a finished ICL run's bound panel said "No run yet" while that run was open).
void Dashboard::updateEmptyTexts() {
  const bool steps = current_ && !current_->history().steps().empty();
  const QString text = !current_ ? tr("No run yet (F5 starts one)")
                       : !steps  ? tr("Waiting for the run's first logged step")
                                 : tr("None of this run's logged rows holds this panel's values");  // not "records nothing": rows may be lost
  for (const Panel& p : panels_) p.plot->setEmptyText(text);
  if (steps && std::none_of(current_->history().steps().begin(), current_->history().steps().end(),
                            [](const run::StepMetrics& m) { return m.lipschitzBound.has_value(); }))
    bound_->setEmptyText(tr("This run's model has no Lipschitz bound (e.g. a transformer with LayerNorm)"));
}

void Dashboard::setCurrentRun(RunSession* s) {
  current_ = s;
  shownAlpha_ = -1;
  updateEmptyTexts();
  updateTargets();
  updateScalarMap();
  updateLevels();
  requestReplots();
}

void Dashboard::updateLevels() {
  QVector<QPair<double, QString>> levels;
  if (current_)
    for (const auto& l : current_->history().referenceLevels())
      levels.append({l.value, QCoreApplication::translate("Registry", l.label.c_str())});
  loss_->setReferenceLevels(levels);
}

void Dashboard::apply(const QList<SessionDelta>& batch) {
  for (const SessionDelta& sd : batch) applyDelta(sd.session, sd.delta);
  // A replot of all six plots costs several ms; most batches change three of them.
  requestTouchedReplots();
  Q_EMIT refreshed();
}

void Dashboard::applyDelta(RunSession* s, const RunDelta& d) {
  if (d.reset) {
    reloadRun(s);
    for (const Panel& p : panels_) touched_.insert(p.plot);
  } else {
    appendSteps(loss_, norms_, bound_, s->id(), d.steps);
    for (const run::StepMetrics& m : d.steps) {
      appendStiefelAndActivations(stiefel_, tangency_, actRms_, s->id(), m);
      appendAttLip(attention_, s->id(), m);
    }
    for (const run::SpectraRecord& sample : d.spectra) addSpectra(s, sample);
    if (!d.steps.empty()) touched_ += {loss_, norms_, bound_, stiefel_, tangency_, actRms_, attention_};
    if (!d.spectra.empty()) touched_.insert(spectrum_);
  }
  for (auto it = d.steps.rbegin(); it != d.steps.rend(); ++it)
    if (it->lipschitzBound && !it->boundTrace.layers.empty()) {
      bound_->setTrace(s->id(), it->step, traceFactors(it->boundTrace));
      break;
    }
  if (const run::StepMetrics* e = s->history().latestEval();
      e && std::any_of(d.steps.begin(), d.steps.end(), [](const run::StepMetrics& x) {
        return x.activations && !x.activations->names.empty();
      })) {
    QStringList blocks;
    for (const auto& name : e->activations->names) blocks << QString::fromStdString(name);
    activations_->setActivations(s->id(), blocks, e->activations->maxAbsEntry, e->activations->maxTokenRms);
    touched_.insert(activations_);
  }
  if (s != current_) return;
  // The first logged steps (a model has a bound from its first step or never).
  if (d.reset || (!d.steps.empty() && s->history().steps().size() == d.steps.size())) updateEmptyTexts();
  if (d.levels || d.reset) {
    updateLevels();
    touched_.insert(loss_);
  }
  if (d.constraint || d.reset) {
    updateTargets();
    touched_ += {norms_, spectrum_};
  }
  const run::StepMetrics* latest = s->history().latest();
  const double alpha = latest ? latest->alpha : -1;
  // α* follows the learning-rate schedule: redraw f(σ) when it moved visibly.
  const bool alphaMoved = std::abs(alpha - shownAlpha_) > 1e-3 * std::max(std::abs(shownAlpha_), 1e-12);
  if (!d.spectra.empty() || d.constraint || d.reset || alphaMoved) {
    updateScalarMap();
    touched_.insert(scalarMap_);
  }
}

void Dashboard::addSpectra(RunSession* s, const run::SpectraRecord& sample) {
  const RunHistory& h = s->history();
  for (const auto& [layer, after] : sample.after) {
    const double scale = spectraScale(h, layer);
    const auto before = sample.before.find(layer);
    spectrum_->addSnapshot(s->id(), QString::fromStdString(layer), sample.step, scaled(after, scale),
                           before == sample.before.end() ? std::vector<double>() : scaled(before->second, scale));
  }
}

void Dashboard::reloadRun(RunSession* s) {
  for (widgets::MultiRunPlot* p : runPlots()) {
    p->removeRun(s->id());
    p->setRun(s->id(), s->label(), s->color());
  }
  appendSteps(loss_, norms_, bound_, s->id(), s->history().steps());
  for (const run::StepMetrics& m : s->history().steps()) {
    appendStiefelAndActivations(stiefel_, tangency_, actRms_, s->id(), m);
    appendAttLip(attention_, s->id(), m);
  }
  for (const auto& [step, sample] : s->history().spectra()) addSpectra(s, sample);
}

void Dashboard::updateTargets() {
  double sigmaMax = kNaN, sigmaMin = kNaN, normMax = kNaN, normMin = kNaN;
  if (current_ && current_->history().hasConstraint()) {
    const ConstraintInfo& c = current_->history().constraint();
    if (readsSigmaMax(c.method)) sigmaMax = c.sigmaMax;
    if (readsSigmaMin(c.method)) sigmaMin = c.sigmaMin;
    // The norm plot is in RMS→RMS units; a raw spectral threshold would mislead there.
    if (c.norm != spectral::ThresholdNorm::Spectral) {
      normMax = sigmaMax;
      normMin = sigmaMin;
    }
  }
  norms_->setTarget(normMax, normMin);
  const bool rms = current_ && spectraInRmsUnits(current_->history());
  spectrum_->setRmsUnits(rms);
  scalarMap_->setRmsUnits(rms);
  spectrum_->setSigmaMax(sigmaMax);
  spectrum_->setSigmaMin(sigmaMin);
}

void Dashboard::updateScalarMap() {
  scalarMap_->clearMarkers();
  scalarMap_->clearCurves();
  if (!current_ || !current_->history().hasConstraint()) {
    scalarMap_->setSigmaMax(kNaN);
    scalarMap_->setSigmaMin(kNaN);
    return;
  }
  const RunHistory& h = current_->history();
  const ConstraintInfo& c = h.constraint();
  const run::StepMetrics* latest = h.latest();
  shownAlpha_ = latest ? latest->alpha : -1;

  spectral::ConstraintSettings p = c;
  if (latest && std::isfinite(latest->lr) && latest->lr > 0) p.lr = latest->lr;  // the scheduled η
  const double alpha = resolveAlpha(p, shownAlpha_);

  // The chosen layer's singular values as f sees them: measured before the constraint
  // step when the run recorded that, else after it.
  std::vector<double> sigmas;
  const std::string layer = spectrum_->currentLayer().toStdString();
  const qint64 step = spectrum_->currentStep();
  const run::SpectraRecord* snap = step >= 0 ? h.spectraAt(step) : (h.spectra().empty() ? nullptr : &h.spectra().rbegin()->second);
  const bool skipped = !layer.empty() && constraintSkips(h, layer);
  if (snap && !layer.empty() && !skipped) {
    const double scale = spectraScale(h, layer);
    const auto before = snap->before.find(layer);
    const auto after = snap->after.find(layer);
    if (before != snap->before.end() && !before->second.empty()) sigmas = scaled(before->second, scale);
    else if (after != snap->after.end()) sigmas = scaled(after->second, scale);
  }
  double top = 0;
  for (double v : sigmas) top = std::max(top, v);

  const bool showsSigmaMax = readsSigmaMax(c.method);
  const double xMax = std::max({showsSigmaMax ? 1.5 * c.sigmaMax : 1.0, 1.1 * top, 1e-6});
  std::vector<double> xs, ys;
  sampleScalarMap(p, top, alpha, xMax, 240, xs, ys);
  // A skipped layer's spectrum is not on f: the legend says why its markers are missing.
  const QString name = skipped ? scalarMapName(p, alpha) + tr(" (%1: an embedding, not held to σmax)").arg(QString::fromStdString(layer))
                               : scalarMapName(p, alpha);
  scalarMap_->setCurve(name, xs, ys, current_->color());
  if (!sigmas.empty()) {
    std::vector<double> fs;
    fs.reserve(sigmas.size());
    for (double v : sigmas) fs.push_back(spectral::scalarMap(p, v, top, alpha));
    scalarMap_->setMarkers(sigmas, fs, name);
  }
  scalarMap_->setSigmaMax(showsSigmaMax ? c.sigmaMax : kNaN);
  scalarMap_->setSigmaMin(readsSigmaMin(c.method) ? c.sigmaMin : kNaN);
}

void Dashboard::requestReplots() {
  for (const Panel& p : panels_) p.plot->requestReplot();
}

void Dashboard::requestTouchedReplots() {
  for (widgets::PlotView* p : std::as_const(touched_)) p->requestReplot();
  touched_.clear();
}

void Dashboard::replotNow() {
  for (const Panel& p : panels_) p.plot->replotNow();
}

}  // namespace lwb::app
