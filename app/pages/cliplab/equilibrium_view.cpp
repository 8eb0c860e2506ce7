#include "app/pages/cliplab/equilibrium_view.h"
#include "widgets/number_format.h"

#include "widgets/curve_plot.h"
#include "app/pages/common/latest_wins.h"
#include "app/pages/common/method_form.h"
#include "app/pages/common/slider_field.h"
#include "widgets/palette.h"

#include <QFormLayout>
#include <QGridLayout>
#include <QLabel>
#include <QSpinBox>

namespace lwb::app::pages {

EquilibriumView::EquilibriumView(QWidget* parent) : QWidget(parent) {
  runner_ = new LatestWins(this);
  lr_ = new SliderField(0.001, 1, 0.1, 4, true, this);
  lambda_ = new SliderField(0.01, 1, 0.5, 3, false, this);
  sigmaMax_ = new SliderField(0.1, 10, 1.0, 3, true, this);
  alignment_ = new SliderField(0, 1, 1.0, 2, false, this);
  start_ = new SliderField(0.01, 10, 0.5, 3, true, this);
  steps_ = new QSpinBox(this);
  steps_->setRange(10, 5000);
  steps_->setValue(200);
  info_ = new QLabel(this);
  info_->setObjectName(QStringLiteral("equilibriumInfo"));
  info_->setWordWrap(true);
  info_->setTextFormat(Qt::RichText);

  plot_ = new widgets::CurvePlot(this);
  plot_->setObjectName(QStringLiteral("equilibriumPlot"));
  plot_->setTitle(tr("σ₁ under repeated updates of norm η"));
  plot_->setAxisLabels(tr("step"), tr("σ₁(W)"));

  auto* form = new QFormLayout;
  form->addRow(tr("η (update norm)"), lr_);
  form->addRow(tr("λ (decay)"), lambda_);
  form->addRow(tr("β = σmax"), sigmaMax_);
  form->addRow(tr("Alignment ρ"), alignment_);
  form->addRow(tr("Start σ₁"), start_);
  form->addRow(tr("Steps"), steps_);
  form->addRow(info_);
  alignment_->setToolTip(tr("ΔW = η·msign(ρ·msign(W) + (1 − ρ)·msign(G)), G Gaussian. ρ = 1 is the proofs' worst case "
                            "(updates aligned with the weights), where σ₁ reaches the predicted values exactly."));
  auto* grid = new QGridLayout(this);
  grid->setContentsMargins(0, 0, 0, 0);
  grid->addLayout(form, 0, 0);
  grid->addWidget(plot_, 0, 1);
  grid->setColumnStretch(0, 2);
  grid->setColumnStretch(1, 5);

  fields_.bind(lr_, [](auto& r) -> auto& { return r.lr; });
  fields_.bind(lambda_, [](auto& r) -> auto& { return r.lambda; });
  fields_.bind(sigmaMax_, [](auto& r) -> auto& { return r.sigmaMax; });
  fields_.bind(alignment_, [](auto& r) -> auto& { return r.alignment; });
  fields_.bind(start_, [](auto& r) -> auto& { return r.startSigma1; });
  fields_.bind(steps_, [](auto& r) -> auto& { return r.steps; });
  fields_.onChange(this, [this] {
    dirty_ = true;
    if (isVisible()) recompute();
  });
  connect(runner_, &LatestWins::errorOccurred, this, [this](const QString& m) { info_->setText(tr("Cannot simulate: %1").arg(m)); });
}

lab::EquilibriumRequest EquilibriumView::request() const {
  lab::EquilibriumRequest r;
  fields_.read(r);
  return r;
}

void EquilibriumView::setRequest(const lab::EquilibriumRequest& r) {
  fields_.write(r);  // signals blocked: one recompute below, not one per field
  dirty_ = true;
  if (isVisible()) recompute();
}

void EquilibriumView::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  if (dirty_) recompute();
}

void EquilibriumView::recompute() {
  dirty_ = false;
  const lab::EquilibriumRequest r = request();
  runner_->submit([this, r](const CancelFlag& cancel) -> LatestWins::Continuation {
    lab::EquilibriumResult result = lab::simulateEquilibrium(r, &cancel);
    return [this, r, result = std::move(result)]() mutable {
      result_ = std::move(result);
      shown_ = r;
      hasResult_ = true;
      showResult();
      Q_EMIT resultReady();
    };
  });
}

void EquilibriumView::showResult() {
  plot_->clearCurves();
  QVector<widgets::CurvePlot::Reference> refs;
  QString text = tr("Soft cap strength α* = %L1 (App. B, with decay λ).<br>").arg(widgets::displayNumber(result_.alphaStar, 'g', 4));
  for (size_t i = 0; i < result_.series.size(); ++i) {
    const auto& s = result_.series[i];
    const QColor color = widgets::runColor(static_cast<int>(i));
    std::vector<double> steps;
    for (size_t k = 0; k < s.sigma1.size(); ++k) steps.push_back(static_cast<double>(k));
    const QString title = MethodForm::methodTitle(s.method);
    plot_->setCurve(title, steps, s.sigma1, {color, Qt::SolidLine, 1.8, false});
    const QString formula = QString::fromStdString(s.formula);
    refs.append({s.predicted, tr("%1 = %L2").arg(formula).arg(widgets::displayNumber(s.predicted, 'g', 4)), color});
    text += tr("<span style='color:%1'>■</span> %2: σ₁ → <b>%L3</b> after %4 steps; predicted %5 = <b>%L6</b><br>")
                .arg(color.name(), title)
                .arg(widgets::displayNumber(s.sigma1.empty() ? 0.0 : s.sigma1.back(), 'g', 5))
                .arg(shown_.steps)
                .arg(formula)
                .arg(widgets::displayNumber(s.predicted, 'g', 5));
  }
  // Plain text in a rich-text label: escaped, or "ρ < 1" opens a tag and the rest of the
  // sentence vanishes (issue 32: "Updates only partly aligned (ρ" in both languages).
  if (shown_.alignment < 1) text += tr("Updates only partly aligned (ρ < 1): the predictions are upper bounds.").toHtmlEscaped();
  plot_->setReferenceLines(refs);
  info_->setText(text);
  plot_->requestReplot();
}

void EquilibriumView::replotNow() { plot_->replotNow(); }

}  // namespace lwb::app::pages
