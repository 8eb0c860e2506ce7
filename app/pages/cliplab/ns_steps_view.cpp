#include "app/pages/cliplab/ns_steps_view.h"

#include "app/pages/common/ns_steps_field.h"
#include "widgets/number_format.h"

#include "widgets/curve_plot.h"
#include "widgets/flow_layout.h"
#include "app/pages/common/page_frame.h"
#include "app/pages/common/latest_wins.h"
#include "widgets/palette.h"

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <QTimer>

#include "app/pages/common/id_combo.h"
#include "spectral/ns_coefficients.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace lwb::app::pages {
namespace {

}  // namespace

NsStepsView::NsStepsView(QWidget* parent) : QWidget(parent) {
  runner_ = new LatestWins(this);
  coeffs_ = registryCombo(spectral::nsCoefficientSets(), this, false);
  ns_ = new NsStepsField(this);
  dtype_ = idCombo(lab::labDtypeIds(), this);
  stepSlider_ = new QSlider(Qt::Horizontal, this);
  stepSlider_->setObjectName(QStringLiteral("nsStepSlider"));
  stepSlider_->setRange(0, 0);
  play_ = new QPushButton(tr("▶ &Play"), this);
  playTimer_ = new QTimer(this);
  playTimer_->setInterval(600);
  info_ = new QLabel(this);
  info_->setWordWrap(true);

  poly_ = new widgets::CurvePlot(this);
  poly_->setTitle(tr("p_k ∘ … ∘ p₁ acting on every σ / ‖W‖_F"));
  poly_->setAxisLabels(tr("σ / ‖W‖_F (input)"), tr("after k steps"));
  poly_->setLogXAvailable(true);
  poly_->setLogX(true);
  ranked_ = new widgets::CurvePlot(this);
  ranked_->setTitle(tr("Singular values of the iterate X_k"));
  ranked_->setAxisLabels(tr("rank i"), tr("σᵢ(X_k)"));
  ranked_->setLogY(true);

  auto* controls = new widgets::FlowLayout;  // wraps in a narrow window (1024 × 768)
  auto* schedule = new QHBoxLayout;
  schedule->addWidget(new QLabel(tr("Coefficients"), this));
  schedule->addWidget(coeffs_);
  schedule->addWidget(new QLabel(tr("×"), this));
  ns_->addTo(schedule);
  controls->addWidget(group(schedule, this));
  controls->addWidget(group({new QLabel(tr("Precision"), this), dtype_}, this));
  stepSlider_->setMinimumWidth(120);
  controls->addWidget(group({new QLabel(tr("Step k"), this), stepSlider_, play_}, this));
  auto* grid = new QGridLayout(this);
  grid->setContentsMargins(0, 0, 0, 0);
  grid->addLayout(controls, 0, 0, 1, 2);
  grid->addWidget(info_, 1, 0, 1, 2);
  grid->addWidget(poly_, 2, 0);
  grid->addWidget(ranked_, 2, 1);
  grid->setRowStretch(2, 1);

  const auto changed = [this] {
    dirty_ = true;
    if (isVisible()) recompute();
  };
  connect(coeffs_, &QComboBox::currentIndexChanged, this, changed);
  connect(dtype_, &QComboBox::currentIndexChanged, this, changed);
  connect(ns_, &NsStepsField::changed, this, changed);
  connect(stepSlider_, &QSlider::valueChanged, this, &NsStepsView::showStep);
  connect(play_, &QPushButton::clicked, this, [this] {
    if (playTimer_->isActive()) {
      playTimer_->stop();
      play_->setText(tr("▶ &Play"));
      return;
    }
    if (stepSlider_->value() == stepSlider_->maximum()) stepSlider_->setValue(0);
    playTimer_->start();
    play_->setText(tr("■ Sto&p"));
  });
  connect(playTimer_, &QTimer::timeout, this, [this] {
    if (stepSlider_->value() >= stepSlider_->maximum()) {
      playTimer_->stop();
      play_->setText(tr("▶ &Play"));
      return;
    }
    stepSlider_->setValue(stepSlider_->value() + 1);
  });
  connect(runner_, &LatestWins::errorOccurred, this, [this](const QString& m) { info_->setText(tr("Cannot run: %1").arg(m)); });
}

void NsStepsView::setMatrix(lab::LabMatrixPtr matrix) {
  matrix_ = std::move(matrix);
  hasTrace_ = false;
  dirty_ = true;
  if (isVisible()) recompute();
}

void NsStepsView::setSettings(const lab::NsTraceRequest& r) {
  coeffs_->setCurrentIndex(std::max(0, coeffs_->findData(QString::fromStdString(r.coefficients))));
  ns_->setSteps(r.steps);
  ns_->setPolishSteps(r.polishSteps);
  dtype_->setCurrentIndex(std::max(0, dtype_->findData(QString::fromStdString(r.dtype))));
}

lab::NsTraceRequest NsStepsView::settings() const {
  return {coeffs_->currentData().toString().toStdString(), ns_->steps(), ns_->polishSteps(), dtype_->currentData().toString().toStdString()};
}

void NsStepsView::setStep(int k) { stepSlider_->setValue(k); }
int NsStepsView::step() const { return stepSlider_->value(); }

void NsStepsView::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  if (dirty_) recompute();
}

void NsStepsView::recompute() {
  if (!matrix_) return;
  dirty_ = false;
  info_->setText(tr("Running the iteration…"));
  const lab::LabMatrixPtr m = matrix_;
  const lab::NsTraceRequest r = settings();
  runner_->submit([this, m, r](const CancelFlag& cancel) -> LatestWins::Continuation {
    lab::NsTrace trace = lab::newtonSchulzTrace(*m, r, &cancel);
    return [this, m, trace = std::move(trace)]() mutable {
      if (m != matrix_) return;  // the matrix changed meanwhile; its own trace follows
      const bool first = !hasTrace_;
      trace_ = std::move(trace);
      hasTrace_ = true;
      const int last = static_cast<int>(trace_.schedule.size());
      const bool atEnd = stepSlider_->value() >= stepSlider_->maximum();
      stepSlider_->setRange(0, last);
      // The first trace opens on step 0, the input's spectrum, for Play to step through (the
      // lecture preset's "Press Play" opened on the last step, every σ already at 1); later
      // ones keep following the end when the slider was there.
      if (first) stepSlider_->setValue(0);
      else if (atEnd) stepSlider_->setValue(last);
      showStep();
      Q_EMIT traceReady();
    };
  });
}

void NsStepsView::showStep() {
  if (!hasTrace_) return;
  const int k = std::clamp(stepSlider_->value(), 0, static_cast<int>(trace_.matrix.size()) - 1);
  const auto& x0 = trace_.scalar.front();
  // The composed polynomial on a log grid that covers the smallest input value.
  double lo = 1.0;
  for (double v : x0)
    if (v > 0) lo = std::min(lo, v);
  lo = std::max(lo / 3, 1e-9);
  std::vector<double> gx, gy;
  for (int i = 0; i <= 400; ++i) {
    const double x = lo * std::pow(1.0 / lo, i / 400.0);
    gx.push_back(x);
    gy.push_back(std::abs(lab::applyNsPolynomials(trace_.schedule, x, k)));
  }
  poly_->setCurve(tr("p_k ∘ … ∘ p₁ (float64)"), gx, gy, {widgets::runColor(0), Qt::SolidLine, 1.6, false});
  // Every other coefficient set at its default step count, faint, for comparison (Polar
  // Express converges to 1, jordan5 oscillates in ~[0.7, 1.2], you6 in between).
  const QString chosen = coeffs_->currentData().toString();
  int other = 2;
  for (const auto& set : spectral::nsCoefficientSets()) {
    const QString key = QString::fromUtf8(set.key.data(), static_cast<qsizetype>(set.key.size()));
    const QString name = tr("%1 × %2 (all steps)").arg(registryText(set.label)).arg(set.defaultSteps);
    if (key == chosen) {
      poly_->removeCurve(name);
      continue;
    }
    const auto schedule = lab::nsSchedule(std::string(set.key), set.defaultSteps, 0);
    std::vector<double> oy;
    for (double x : gx) oy.push_back(std::abs(lab::applyNsPolynomials(schedule, x)));
    poly_->setCurve(name, gx, oy, {widgets::withAlpha(widgets::runColor(other++), 140), Qt::DotLine, 1.2, false});
  }
  std::vector<double> mx, my;
  for (size_t i = 0; i < x0.size(); ++i)
    if (x0[i] > 0) {
      mx.push_back(x0[i]);
      my.push_back(std::abs(trace_.scalar[k][i]));
    }
  poly_->setCurve(tr("input singular values"), mx, my, {widgets::runColor(1), Qt::NoPen, 1, true});
  poly_->setReferenceLines({{1.0, tr("1"), QColor()}});

  const QString dtype = dtype_->currentData().toString();
  std::vector<double> ranks, measured = trace_.matrix[k], predicted;
  for (double v : trace_.scalar[k]) predicted.push_back(std::abs(v));
  std::sort(predicted.begin(), predicted.end(), std::greater<>());
  double worst = 0;
  for (size_t i = 0; i < measured.size(); ++i) {
    ranks.push_back(static_cast<double>(i + 1));
    if (i < predicted.size()) worst = std::max(worst, std::abs(measured[i] - predicted[i]));
  }
  ranked_->setCurve(tr("X_k in %1").arg(dtype), ranks, measured, {widgets::runColor(0), Qt::SolidLine, 2.0, false});
  ranked_->setCurve(tr("scalar polynomials in float64"), ranks, predicted, {widgets::runColor(1), Qt::DashLine, 1.4, false});
  ranked_->setReferenceLines({{1.0, tr("1"), QColor()}});

  QString text = tr("Step <b>%1</b> of %2 · ‖W‖_F = %L3").arg(k).arg(trace_.schedule.size()).arg(widgets::displayNumber(trace_.frobenius, 'g', 4));
  if (k > 0) {
    const auto& t = trace_.schedule[static_cast<size_t>(k - 1)];
    text += tr(" · this step: p(x) = %L1x %2 %L3x³ + %L4x⁵")
                .arg(widgets::displayNumber(t.a, 'g', 5))
                .arg(t.b < 0 ? QStringLiteral("−") : QStringLiteral("+"))
                .arg(widgets::displayNumber(std::abs(t.b), 'g', 5))
                .arg(widgets::displayNumber(t.c, 'g', 5));
  }
  if (!measured.empty())
    text += tr(" · σ(X_k) ∈ [%L1, %L2] · largest gap to float64: %L3")
                .arg(widgets::displayNumber(measured.back(), 'g', 3))
                .arg(widgets::displayNumber(measured.front(), 'g', 4))
                .arg(widgets::displayNumber(worst, 'g', 3));
  info_->setText(text);
  poly_->requestReplot();
  ranked_->requestReplot();
}

void NsStepsView::replotNow() {
  poly_->replotNow();
  ranked_->replotNow();
}

}  // namespace lwb::app::pages
