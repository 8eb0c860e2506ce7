#include "app/pages/cliplab/cliplab_page.h"
#include "widgets/number_format.h"

#include "app/pages/cliplab/cap_sweep_view.h"
#include "app/app_options.h"
#include "app/pages/cliplab/cliplab_presets.h"
#include "app/pages/common/lecture_preset_bar.h"
#include "app/pages/cliplab/constraint_view.h"
#include "app/pages/cliplab/equilibrium_view.h"
#include "app/pages/cliplab/stiefel_view.h"
#include "app/pages/cliplab/matrix_source_panel.h"
#include "app/pages/cliplab/ns_steps_view.h"
#include "app/pages/common/latest_wins.h"
#include "app/pages/common/method_form.h"
#include "app/pages/common/page_frame.h"
#include "app/pages/common/slider_field.h"
#include "io/tensor_file.h"

#include <QComboBox>
#include <QFileInfo>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace lwb::app::pages {
namespace {

// Above this, slider drags wait for the release instead of computing every step.
constexpr double kLiveUpdateSeconds = 0.3;

// A random source in the UI's words and numbers ("Gauß 256×512, σ₁ = 3"); the engine's
// describeSpec is the English name files and exports keep.
QString describeRandom(const lab::MatrixSpec& spec) {
  const QString size = QStringLiteral("%1×%2").arg(spec.rows).arg(spec.cols);
  auto num = [](double v) { return widgets::displayNumber(v, 'g', 3); };
  switch (spec.kind) {
    case lab::SourceKind::Gaussian: return QObject::tr("Gaussian %1, σ₁ = %2").arg(size, num(spec.sigma1));
    case lab::SourceKind::LowRankNoise:
      return QObject::tr("rank %1 + noise %2, %3, σ₁ = %4").arg(spec.rank).arg(num(spec.noise), size, num(spec.sigma1));
    case lab::SourceKind::HeavyTailed:
      return QObject::tr("heavy-tailed (a = %1) %2, σ₁ = %3").arg(num(spec.tailExponent), size, num(spec.sigma1));
    case lab::SourceKind::Prescribed:
      return spec.values.empty() ? QObject::tr("σ log-spaced %1 → %2, %3").arg(num(spec.sigma1), num(spec.sigmaLow), size)
                                 : QObject::tr("%1 prescribed σ, %2").arg(spec.values.size()).arg(size);
  }
  return QString::fromStdString(lab::describeSpec(spec));
}

// "Gaussian 256×512, σ₁ = 3 · smallest σ = 0.504" (random sources name their size and σ₁;
// a checkpoint layer is named by its tensor).
QString describe(const lab::LabMatrix& m, const std::optional<lab::MatrixSpec>& spec) {
  const auto& s = m.singularValues();
  QString text = spec ? describeRandom(*spec) : QString::fromStdString(m.name());
  if (!spec)
    text += QObject::tr(", %1×%2, σ₁ = %L3").arg(m.rows()).arg(m.cols()).arg(widgets::displayNumber(s.empty() ? 0.0 : s.front(), 'g', 4));
  return text + QObject::tr(" · smallest σ = %L1").arg(widgets::displayNumber(s.empty() ? 0.0 : s.back(), 'g', 3));
}

}  // namespace

ClipLabPage::ClipLabPage(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("clipLabPage"));
  matrixRunner_ = new LatestWins(this);
  updateRunner_ = new LatestWins(this);
  fileRunner_ = new LatestWins(this);
  QHBoxLayout* top = createPresetBar();
  QWidget* controls = createControls();
  QWidget* views = createViews();
  QSplitter* split = twoPanes(Qt::Horizontal, controls, views, this);
  split->setStretchFactor(1, 1);
  // The controls' unwrapped width against about 1,000 px of plots: on a 1024-px projector the
  // controls shrink to their minimum (rows wrapped) and the plots keep the rest.
  split->setSizes({controls->sizeHint().width(), 1000});
  setPageLayout(this, top, nullptr, split);
  connectComputations();
  onSourceChanged();
}

QHBoxLayout* ClipLabPage::createPresetBar() {
  QList<QPair<QString, QString>> presets;
  for (const auto& p : clipLabPresets()) presets.append({p.title, p.id});
  presetBar_ = new LecturePresetBar(presets, QStringLiteral("presetBox"),
                                    tr("Pick a matrix and a method; every control updates the plots while it moves."), this);
  connect(presetBar_, &LecturePresetBar::presetChosen, this, [this](const QString& id) { applyPreset(id); });
  auto* top = new QHBoxLayout;
  top->addWidget(presetBar_);
  return top;
}

QWidget* ClipLabPage::createControls() {
  source_ = new MatrixSourcePanel(this);
  method_ = new MethodForm(this);
  methodBox_ = new QGroupBox(tr("Method"), this);
  auto* methodBox = methodBox_;
  auto* methodLayout = new QVBoxLayout(methodBox);
  methodLayout->addWidget(method_);
  status_ = new QLabel(this);
  status_->setObjectName(QStringLiteral("clipLabStatus"));
  status_->setWordWrap(true);
  cancel_ = new QPushButton(tr("Cance&l"), this);
  cancel_->setEnabled(false);
  auto* left = new QWidget(this);
  auto* leftLayout = new QVBoxLayout(left);
  leftLayout->addWidget(source_);
  leftLayout->addWidget(methodBox);
  leftLayout->addWidget(status_);
  computeAnyway_ = new QPushButton(tr("Compute &anyway"), this);
  computeAnyway_->setObjectName(QStringLiteral("computeAnyway"));
  computeAnyway_->setVisible(false);
  leftLayout->addWidget(computeAnyway_);
  leftLayout->addWidget(cancel_);
  leftLayout->addStretch(1);
  auto* scroll = new QScrollArea(this);
  scroll->setWidget(left);
  scroll->setWidgetResizable(true);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  // As narrow as the controls can be (their forms wrap long rows), plus a vertical scroll bar.
  scroll->setMinimumWidth(left->minimumSizeHint().width() + scroll->verticalScrollBar()->sizeHint().width() + 4);
  controls_ = scroll;
  return scroll;
}

QWidget* ClipLabPage::createViews() {
  constraint_ = new ConstraintView(this);
  ns_ = new NsStepsView(this);
  sweep_ = new CapSweepView(this);
  equilibrium_ = new EquilibriumView(this);
  tabs_ = new QTabWidget(this);
  tabs_->addTab(constraint_, tr("Constraint"));
  tabs_->addTab(ns_, tr("Newton–Schulz steps"));
  tabs_->addTab(sweep_, tr("Nested vs ABD"));
  tabs_->addTab(equilibrium_, tr("Equilibrium"));
  stiefel_ = new StiefelView(this);
  tabs_->addTab(stiefel_, tr("Stiefel retraction"));
  connect(tabs_, &QTabWidget::currentChanged, this, &ClipLabPage::showControlsForTab);
  return tabs_;
}

void ClipLabPage::showControlsForTab() {
  // Matrix and Method feed the Constraint tab; Newton–Schulz steps iterates on the matrix
  // alone; Nested vs ABD, Equilibrium and Stiefel have their own controls and ignore both,
  // so the panel is not shown there (it would suggest it changes those plots).
  const QWidget* tab = tabs_->currentWidget();
  const bool usesMatrix = tab == constraint_ || tab == ns_;
  methodBox_->setVisible(tab == constraint_);
  controls_->setVisible(usesMatrix);
}

void ClipLabPage::connectComputations() {
  connect(source_, &MatrixSourcePanel::sourceChanged, this, &ClipLabPage::onSourceChanged);
  connect(source_, &MatrixSourcePanel::openFileRequested, this, &ClipLabPage::openCheckpoint);
  connect(method_, &MethodForm::changed, this, [this] { requestUpdate(); });
  connect(method_, &MethodForm::sliderReleased, this, [this] {
    if (waitForRelease_) requestUpdate();
  });
  connect(computeAnyway_, &QPushButton::clicked, this, [this] { requestUpdate(true); });
  connect(cancel_, &QPushButton::clicked, this, &ClipLabPage::cancelAll);
  for (LatestWins* r : {matrixRunner_, updateRunner_, fileRunner_}) {
    connect(r, &LatestWins::busyChanged, this, &ClipLabPage::updateStatus);
    connect(r, &LatestWins::cancelled, this, [this] { status_->setText(tr("Cancelled.")); });
  }
  connect(matrixRunner_, &LatestWins::errorOccurred, this, [this](const QString& m) { source_->setStatus(m, true); });
  connect(fileRunner_, &LatestWins::errorOccurred, this, [this](const QString& m) { source_->setStatus(m, true); });
  connect(updateRunner_, &LatestWins::errorOccurred, this, [this](const QString& m) { status_->setText(tr("Cannot apply: %1").arg(m)); });
}

bool ClipLabPage::applyOptions(const AppOptions& options, QString* error) {
  if (options.labPreset.isEmpty() || applyPreset(options.labPreset)) return true;
  *error = tr("--lab-preset: unknown Clip Lab preset '%1' (%2)").arg(options.labPreset, presetIds().join(QStringLiteral(", ")));
  return false;
}

QStringList ClipLabPage::presetIds() const {
  QStringList ids;
  for (const auto& p : clipLabPresets()) ids << p.id;
  return ids;
}

bool ClipLabPage::applyPreset(const QString& id) {
  const auto& all = clipLabPresets();
  const auto it = std::find_if(all.begin(), all.end(), [&](const ClipLabPreset& p) { return p.id == id; });
  if (it == all.end()) return false;
  const int index = static_cast<int>(it - all.begin());
  presetBar_->select(id);
  if (it->newtonSchulz) ns_->setSettings(*it->newtonSchulz);
  if (it->equilibrium) equilibrium_->setRequest(*it->equilibrium);
  if (it->method) method_->setRequest(*it->method);
  if (it->matrix) source_->setSpec(*it->matrix);
  tabs_->setCurrentIndex(static_cast<int>(it->tab));
  if (it->tab == ClipLabTab::NewtonSchulz) ns_->setStep(0);
  if (it->sweep) {
    sweep_->setRequest(*it->sweep);
    sweep_->run();
  }
  showPresetCue(index);
  return true;
}

void ClipLabPage::showPresetCue(int index) { presetBar_->setCue(clipLabPresets()[static_cast<size_t>(index)].cue); }

void ClipLabPage::openCheckpoint(const QString& path) {
  source_->setStatus(tr("Reading %1…").arg(QFileInfo(path).fileName()));
  fileRunner_->submit([this, path](const CancelFlag& cancel) -> LatestWins::Continuation {
    // A cancel (the page closing) stops the read within one chunk; the job's error is then unwanted.
    auto file = std::make_shared<const io::TensorFile>(io::readTensorFile(path.toStdString(), io::kMaxTensorFileBytes, &cancel));
    throwIfCancelled(&cancel);
    std::vector<std::pair<QString, QString>> layers;
    for (const auto& t : file->tensors)
      if (t.shape.size() == 2 && io::isFloating(t.dtype) && t.numel() > 0)
        layers.emplace_back(QString::fromStdString(t.name), QStringLiteral("%1×%2 %3").arg(t.shape[0]).arg(t.shape[1]).arg(QString::fromUtf8(io::dtypeName(t.dtype).data())));
    return [this, path, file, layers] {
      if (layers.empty()) {
        source_->setStatus(tr("%1 has no 2-D floating-point tensor.").arg(QFileInfo(path).fileName()), true);
        return;
      }
      file_ = file;
      source_->setCheckpointLayers(path, layers);
    };
  });
}

void ClipLabPage::useTensor(std::shared_ptr<const io::TensorFile> file, const QString& name) {
  std::vector<std::pair<QString, QString>> layers;
  for (const auto& t : file->tensors)
    if (t.shape.size() == 2 && io::isFloating(t.dtype) && t.numel() > 0)
      layers.emplace_back(QString::fromStdString(t.name), QStringLiteral("%1×%2").arg(t.shape[0]).arg(t.shape[1]));
  file_ = std::move(file);
  source_->setCheckpointLayers(QString::fromStdString(file_->path), layers);
  source_->selectCheckpointLayer(name);
  tabs_->setCurrentWidget(constraint_);
}

void ClipLabPage::onSourceChanged() {
  if (source_->isCheckpointSource()) {
    const QString layer = source_->checkpointLayer();
    if (!file_ || layer.isEmpty()) {
      source_->setStatus(tr("Open a .safetensors, .npz, .npy or .pt file and pick a layer."));
      return;
    }
    const auto file = file_;
    const std::string name = layer.toStdString();
    submitMatrixJob(
        [file, name](const CancelFlag& cancel) {
          for (const auto& t : file->tensors)
            if (t.name == name) return lab::matrixFromRaw(t, /*singularVectors=*/true, lab::kMaxLabEntries, &cancel);
          throw std::runtime_error("tensor '" + name + "' is not in the file");
        },
        std::nullopt);
    return;
  }
  const lab::MatrixSpec spec = source_->spec();
  if (const std::string err = lab::validateSpec(spec); !err.empty()) {
    source_->setStatus(QString::fromStdString(err), true);
    return;
  }
  if (matrix_ && matrixSpec_ && source_->onlySigma1Differs(*matrixSpec_, spec)) {
    // Only σ₁ moved: rescale (W, Σ scale; U, V stay), no new SVD.
    const lab::LabMatrixPtr m = matrix_;
    const std::string name = lab::describeSpec(spec);
    submitMatrixJob([m, spec, name](const CancelFlag&) { return lab::withTopSingularValue(*m, spec.sigma1, name); }, spec);
    return;
  }
  source_->setStatus(tr("Building the matrix and its exact SVD…"));
  submitMatrixJob([spec](const CancelFlag& cancel) { return lab::makeMatrix(spec, &cancel); }, spec);
}

void ClipLabPage::submitMatrixJob(std::function<lab::LabMatrixPtr(const CancelFlag&)> build, std::optional<lab::MatrixSpec> spec) {
  matrixRunner_->submit([this, build = std::move(build), spec](const CancelFlag& cancel) -> LatestWins::Continuation {
    lab::LabMatrixPtr m = build(cancel);
    return [this, m, spec] {
      matrix_ = m;
      matrixSpec_ = spec;
      source_->setStatus(describe(*m, spec));
      ns_->setMatrix(m);
      Q_EMIT matrixReady();
      requestUpdate();
    };
  });
}

void ClipLabPage::requestUpdate(bool confirmed) {
  computeAnyway_->setVisible(false);
  if (!matrix_) return;
  const lab::ConstraintRequest req = method_->request();
  if (const QString err = method_->validationError(); !err.isEmpty()) {
    status_->setText(tr("Cannot apply: %1").arg(err));
    return;
  }
  constraint_->showPreview(req, matrix_->singularValues());
  // Slow settings (large matrices, ABD): compute when the slider is let go, not per step;
  // the scalar map above still follows the slider.
  waitForRelease_ = lastUpdateSeconds_ > kLiveUpdateSeconds && method_->sliderDown();
  if (waitForRelease_) {
    status_->setText(tr("Release the slider to compute (the last update took %L1 s).").arg(widgets::displayNumber(lastUpdateSeconds_, 'f', 1)));
    return;
  }
  const double estimate = lab::estimatedSeconds(req, static_cast<double>(matrix_->rows()), static_cast<double>(matrix_->cols()));
  if (estimate > confirmAboveSeconds_ && !confirmed) {
    status_->setText(tr("This method takes roughly %L1 s on this matrix here and cannot be interrupted once started; "
                        "the scalar map above is exact.")
                         .arg(widgets::displayNumber(estimate, 'f', 0)));
    computeAnyway_->setVisible(true);
    return;
  }
  if (estimate > 3) status_->setText(tr("This takes roughly %L1 s here; Cancel drops the result.").arg(widgets::displayNumber(estimate, 'f', 0)));
  const lab::LabMatrixPtr m = matrix_;
  QElapsedTimer clock;
  clock.start();
  updateRunner_->submit([this, m, req, clock](const CancelFlag& cancel) -> LatestWins::Continuation {
    lab::ConstraintOutcome outcome = lab::applyToMatrix(*m, req, &cancel);
    return [this, m, req, clock, outcome = std::move(outcome)] {
      if (m != matrix_) return;  // a newer matrix's update follows
      lastUpdateSeconds_ = outcome.seconds;
      constraint_->showOutcome(outcome, req, static_cast<double>(clock.nsecsElapsed()) / 1e6);
      Q_EMIT updateShown();
    };
  });
}

void ClipLabPage::updateStatus() {
  const bool busy = matrixRunner_->busy() || updateRunner_->busy() || fileRunner_->busy();
  cancel_->setEnabled(busy);
  if (busy && status_->text().isEmpty()) status_->setText(tr("Computing…"));
  if (!busy && !status_->text().startsWith(tr("Cannot")) && !waitForRelease_ && !computeAnyway_->isVisible()) status_->clear();
}

void ClipLabPage::cancelAll() {
  for (LatestWins* r : {matrixRunner_, updateRunner_, fileRunner_}) r->cancel();
  sweep_->cancel();
}

void ClipLabPage::replotNow() {
  constraint_->replotNow();
  ns_->replotNow();
  sweep_->replotNow();
  equilibrium_->replotNow();
}

}  // namespace lwb::app::pages
