#include "widgets/spectrum_plot.h"

#include "widgets/flow_layout.h"
#include "widgets/log_histogram.h"
#include "widgets/palette.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QSlider>
#include "widgets/qcp.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace lwb::widgets {

SpectrumPlot::SpectrumPlot(QWidget* parent) : MultiRunPlot(parent) {
  layerBox_ = new QComboBox(this);
  // Names like "blocks.11.mlp.out" stay readable when the control row is crowded: the
  // scrubber gives way first.
  layerBox_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  layerBox_->setMinimumContentsLength(12);
  layerBox_->setSizePolicy(QSizePolicy::Minimum, QSizePolicy::Fixed);
  layerBox_->setToolTip(tr("Layer whose spectrum is shown"));
  stepLabel_ = new QLabel(tr("step –"), this);
  stepLabel_->setMinimumWidth(stepLabel_->fontMetrics().horizontalAdvance(QStringLiteral("step 000000")));
  scrubber_ = new QSlider(Qt::Horizontal, this);
  scrubber_->setToolTip(tr("Recorded snapshot steps"));
  // Short: the row sets the dock's minimum width (a 1280-px screen squeezed the plot column
  // beside it); the tooltip and the legend's "before constraint" say what it is.
  beforeBox_ = new QCheckBox(tr("Before"), this);
  beforeBox_->setChecked(showBefore_);
  beforeBox_->setToolTip(tr("Overlay the spectrum measured just before the constraint step"));
  modeBox_ = new QComboBox(this);
  modeBox_->addItems({tr("Ranked"), tr("Density")});
  // The controls wrap onto a second line when the panel is narrow (widgets/flow_layout.h): in
  // one row they made the panel ≥ 560 px wide in German, and on a 1024×768 projector the loss
  // plot beside it was left 175 px, its tick labels run together, and the page scrolled sideways.
  auto* own = new QWidget(this);
  auto* flow = new FlowLayout(own);
  flow->setContentsMargins(0, 0, 0, 0);
  scrubber_->setMinimumWidth(90);  // a flow line gives each control its size hint, no stretch
  for (QWidget* w : {static_cast<QWidget*>(layerBox_), static_cast<QWidget*>(scrubber_),
                     static_cast<QWidget*>(stepLabel_), static_cast<QWidget*>(beforeBox_),
                     static_cast<QWidget*>(modeBox_)})
    flow->addWidget(w);
  for (QWidget* box : logBoxes()) {  // in the flow too, or they alone would keep a line 130 px short
    controlsLayout()->removeWidget(box);
    flow->addWidget(box);
  }
  for (int i = controlsLayout()->count() - 1; i >= 0; --i)  // the flow takes the whole row
    if (controlsLayout()->itemAt(i)->spacerItem()) delete controlsLayout()->takeAt(i);
  controlsLayout()->insertWidget(0, own, 1);

  connect(layerBox_, &QComboBox::currentTextChanged, this, [this](const QString& name) {
    if (!name.isEmpty()) setCurrentLayer(name);
  });
  connect(scrubber_, &QSlider::valueChanged, this, [this](int index) {
    const std::vector<qint64> s = steps();
    if (index < 0 || index >= static_cast<int>(s.size())) return;
    following_ = index == static_cast<int>(s.size()) - 1;
    if (s[static_cast<std::size_t>(index)] == step_) return;
    step_ = s[static_cast<std::size_t>(index)];
    dirty_ = true;
    requestReplot();
    Q_EMIT stepSelected(step_);
  });
  connect(beforeBox_, &QCheckBox::toggled, this, &SpectrumPlot::setShowBefore);
  connect(modeBox_, qOverload<int>(&QComboBox::currentIndexChanged), this,
          [this](int i) { setMode(i == 1 ? Mode::Density : Mode::Ranked); });

  QCustomPlot* p = customPlot();
  maxLine_ = new QCPItemStraightLine(p);
  minLine_ = new QCPItemStraightLine(p);
  for (auto* line : {maxLine_, minLine_}) line->setPen(QPen(referenceColor(), 1.4, Qt::DashLine));
  placeLegend(LegendPlace::Below);
  setSupportsLogX(true);
  setLogY(true);
  setMode(Mode::Ranked);
  updateScrubber();
  updateReferenceLines();
}

SpectrumPlot::RunGraphs& SpectrumPlot::graphsFor(const QString& runId) {
  auto it = graphs_.find(runId);
  if (it != graphs_.end()) return it->second;
  if (!hasRun(runId)) setRun(runId, runId, runColor(static_cast<int>(runIds().size())));
  RunGraphs g;
  // "before" first so the "after" spectrum is drawn on top of it.
  g.before = customPlot()->addGraph();
  g.after = customPlot()->addGraph();
  styleGraphs(runStyle(runId), g);
  return graphs_.emplace(runId, g).first->second;
}

void SpectrumPlot::styleGraphs(const RunStyle& style, RunGraphs& g) {
  const bool single = runIds().size() <= 1;
  const auto name = [](QCPGraph* graph, const QString& text) {
    graph->setName(text);
    if (text.isEmpty()) graph->removeFromLegend();
    else graph->addToLegend();
  };
  g.after->setPen(QPen(style.color, 1.6));
  setFastScatter(g.after, QCPScatterStyle(QCPScatterStyle::ssDisc, 3));
  name(g.after, single ? afterName_ : style.label);
  g.before->setPen(QPen(withAlpha(style.color, 150), 1.4, Qt::DashLine));
  name(g.before, single ? beforeName_ : style.label + tr(" (before)"));
  g.before->setVisible(showBefore_);
}

void SpectrumPlot::restyleAll() {
  for (auto& [id, g] : graphs_) styleGraphs(runStyle(id), g);
}

void SpectrumPlot::restyleRun(const RunStyle&) { restyleAll(); }

void SpectrumPlot::setCurveNames(const QString& after, const QString& before) {
  afterName_ = after;
  beforeName_ = before;
  restyleAll();
}

void SpectrumPlot::runRemoved(const QString& runId) {
  auto it = graphs_.find(runId);
  if (it != graphs_.end()) {
    for (QCPGraph* g : {it->second.after, it->second.before}) {
      forgetGraph(g);
      customPlot()->removeGraph(g);
    }
    graphs_.erase(it);
  }
  data_.erase(runId);
  restyleAll();
  dirty_ = true;
}

QList<QCPGraph*> SpectrumPlot::createSeriesGraphs(const QString&, const QString&) { return {}; }

void SpectrumPlot::addSnapshot(const QString& runId, const QString& layer, qint64 step, std::vector<double> after,
                               std::vector<double> before) {
  graphsFor(runId);
  data_[runId][layer][step] = Snapshot{std::move(after), std::move(before)};
  if (!layers_.contains(layer)) {
    layers_ << layer;
    layerBox_->addItem(layer);  // the first one becomes current through currentTextChanged
  }
  if (layer_.isEmpty()) setCurrentLayer(layer);
  if (layer == layer_) {
    if (following_ || step_ < 0) step_ = std::max(step_, step);
    dirty_ = true;
  }
}

void SpectrumPlot::clearSnapshots() {
  data_.clear();
  layers_.clear();
  layer_.clear();
  step_ = -1;
  following_ = true;
  layerBox_->blockSignals(true);
  layerBox_->clear();
  layerBox_->blockSignals(false);
  dirty_ = true;
}

QStringList SpectrumPlot::layers() const { return layers_; }
QString SpectrumPlot::currentLayer() const { return layer_; }

void SpectrumPlot::setCurrentLayer(const QString& layer) {
  if (!layers_.contains(layer) || layer == layer_) return;
  layer_ = layer;
  layerBox_->blockSignals(true);
  layerBox_->setCurrentText(layer);
  layerBox_->blockSignals(false);
  // Keep the step when the new layer has it; otherwise the newest (following) step.
  const std::vector<qint64> s = steps();
  if (following_ || std::find(s.begin(), s.end(), step_) == s.end()) step_ = s.empty() ? -1 : s.back();
  following_ = !s.empty() && step_ == s.back();
  dirty_ = true;
  requestReplot();
  Q_EMIT layerSelected(layer);
}

std::vector<qint64> SpectrumPlot::steps() const {
  std::set<qint64> all;
  for (const auto& [run, layers] : data_) {
    auto it = layers.find(layer_);
    if (it == layers.end()) continue;
    for (const auto& [step, snap] : it->second) all.insert(step);
  }
  return {all.begin(), all.end()};
}

qint64 SpectrumPlot::currentStep() const { return step_; }

void SpectrumPlot::setCurrentStep(qint64 step) {
  const std::vector<qint64> s = steps();
  if (s.empty()) return;
  // Nearest recorded step.
  auto it = std::lower_bound(s.begin(), s.end(), step);
  if (it == s.end() || (it != s.begin() && step - *(it - 1) < *it - step)) --it;
  step_ = *it;
  following_ = step_ == s.back();
  dirty_ = true;
  requestReplot();
}

void SpectrumPlot::setSigmaMax(double sigmaMax) {
  sigmaMax_ = sigmaMax;
  updateReferenceLines();
}

void SpectrumPlot::setSigmaMin(double sigmaMin) {
  sigmaMin_ = sigmaMin;
  updateReferenceLines();
}

void SpectrumPlot::setStepControlsVisible(bool visible) {
  stepControls_ = visible;
  if (!visible) scrubber_->setVisible(false), stepLabel_->setVisible(false);
}

void SpectrumPlot::setLayerChoiceVisible(bool visible) { layerBox_->setVisible(visible); }

void SpectrumPlot::setShowBefore(bool on) {
  showBefore_ = on;
  beforeBox_->blockSignals(true);
  beforeBox_->setChecked(on);
  beforeBox_->blockSignals(false);
  for (auto& [id, g] : graphs_) g.before->setVisible(on);
  dirty_ = true;
}

void SpectrumPlot::setMode(Mode mode) {
  mode_ = mode;
  modeBox_->blockSignals(true);
  modeBox_->setCurrentIndex(mode == Mode::Density ? 1 : 0);
  modeBox_->blockSignals(false);
  QCustomPlot* p = customPlot();
  if (mode == Mode::Density) {
    p->xAxis->setLabel(rmsUnits_ ? tr("singular value σ (RMS→RMS)") : tr("singular value σ"));
    p->yAxis->setLabel(tr("density"));
  } else {
    p->xAxis->setLabel(tr("rank i"));
    p->yAxis->setLabel(rmsUnits_ ? tr("σᵢ (RMS→RMS)") : tr("σᵢ"));
  }
  dirty_ = true;
  setLogX(mode == Mode::Density);  // a density of a spectrum is read log-log
  if (mode == Mode::Density) setLogY(true);
  updateReferenceLines();
  resetView();
}

void SpectrumPlot::setRmsUnits(bool rms) {
  if (rms == rmsUnits_) return;
  rmsUnits_ = rms;
  QCustomPlot* p = customPlot();
  if (mode_ == Mode::Density) p->xAxis->setLabel(rms ? tr("singular value σ (RMS→RMS)") : tr("singular value σ"));
  else p->yAxis->setLabel(rms ? tr("σᵢ (RMS→RMS)") : tr("σᵢ"));
  requestReplot();
}

void SpectrumPlot::setDensityBins(int bins) {
  densityBins_ = std::max(1, bins);
  dirty_ = true;
}

const SpectrumPlot::Snapshot* SpectrumPlot::shownSnapshot(const QString& runId) const {
  auto run = data_.find(runId);
  if (run == data_.end()) return nullptr;
  auto layer = run->second.find(layer_);
  if (layer == run->second.end() || layer->second.empty()) return nullptr;
  // The newest snapshot at or before the scrubber's step (runs log at different steps).
  auto it = layer->second.upper_bound(step_);
  if (it == layer->second.begin()) return nullptr;
  return &std::prev(it)->second;
}

void SpectrumPlot::updateScrubber() {
  const std::vector<qint64> s = steps();
  scrubber_->blockSignals(true);
  scrubber_->setRange(0, std::max(0, static_cast<int>(s.size()) - 1));
  const auto it = std::find(s.begin(), s.end(), step_);
  scrubber_->setValue(it == s.end() ? 0 : static_cast<int>(it - s.begin()));
  scrubber_->blockSignals(false);
  // One snapshot (Inspector) has nothing to scrub through.
  scrubber_->setVisible(stepControls_ && s.size() > 1);
  stepLabel_->setVisible(stepControls_ && !s.empty());
  stepLabel_->setText(step_ >= 0 ? tr("step %1").arg(step_) : tr("step –"));
}

void SpectrumPlot::rebuildGraphs() {
  auto toData = [this](std::vector<double> values, std::vector<double>& xs, std::vector<double>& ys) {
    xs.clear();
    ys.clear();
    if (mode_ == Mode::Density) {
      const LogHistogram h = logHistogram(values, densityBins_);
      for (std::size_t i = 0; i < h.centres.size(); ++i) {
        if (h.counts[i] == 0) continue;  // log-y cannot show an empty bin
        xs.push_back(h.centres[i]);
        ys.push_back(h.density[i]);
      }
      return;
    }
    std::sort(values.begin(), values.end(), std::greater<>());
    for (std::size_t i = 0; i < values.size(); ++i) {
      xs.push_back(static_cast<double>(i + 1));
      ys.push_back(values[i]);
    }
  };
  for (auto& [id, g] : graphs_) {
    std::vector<double> xs, ys;
    const Snapshot* snap = shownSnapshot(id);
    if (snap) toData(snap->after, xs, ys);
    setGraphData(g.after, xs, ys);
    if (snap && showBefore_) {
      toData(snap->before, xs, ys);
    } else {
      xs.clear();
      ys.clear();
    }
    setGraphData(g.before, xs, ys);
  }
}

void SpectrumPlot::syncData() {
  if (!dirty_) return;
  rebuildGraphs();
  updateScrubber();
  dirty_ = false;
}

void SpectrumPlot::updateReferenceLines() {
  const bool density = mode_ == Mode::Density;
  QVector<QPair<double, QString>> ticks;
  auto place = [&](QCPItemStraightLine* line, double v, const QString& name) {
    const bool on = std::isfinite(v) && v > 0;
    line->setVisible(on);
    if (!on) return;
    // Ranked: σ is on y (horizontal line); density: σ is on x (vertical line).
    line->point1->setCoords(density ? v : 0, density ? 1 : v);
    line->point2->setCoords(density ? v : 1, density ? 2 : v);
    ticks.append({v, name});
  };
  place(maxLine_, sigmaMax_, tr("σmax"));
  place(minLine_, sigmaMin_, tr("σmin"));
  QCustomPlot* p = customPlot();
  setReferenceTicks(density ? p->xAxis : p->yAxis, ticks);
  setReferenceTicks(density ? p->yAxis : p->xAxis, {});
}

void SpectrumPlot::fitView() {
  PlotView::fitView();
  QCustomPlot* p = customPlot();
  // Keep σmax (and σmin) in view: the spectrum is judged against them.
  QCPAxis* axis = mode_ == Mode::Density ? p->xAxis : p->yAxis;
  QCPRange r = axis->range();
  const bool log = axis->scaleType() == QCPAxis::stLogarithmic;
  for (double v : {sigmaMax_, sigmaMin_}) {
    if (!std::isfinite(v) || (log && v <= 0)) continue;
    if (v * (log ? 1.3 : 1.0) > r.upper) r.upper = log ? v * 1.3 : v + 0.05 * std::abs(v);
    if (v / (log ? 1.3 : 1.0) < r.lower) r.lower = log ? v / 1.3 : v - 0.05 * std::abs(v);
  }
  axis->setRange(r);
  if (mode_ == Mode::Ranked && p->xAxis->scaleType() == QCPAxis::stLinear) {
    // Ranks are integers from 1: start the axis just left of rank 1.
    QCPRange x = p->xAxis->range();
    p->xAxis->setRange(0.5, std::max(x.upper, 1.5));
  }
}

CsvTable SpectrumPlot::csvTable() const { return PlotView::csvTable(); }

}  // namespace lwb::widgets
