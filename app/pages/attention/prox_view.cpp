#include "app/pages/attention/prox_view.h"

#include "app/pages/attention/attention_common.h"
#include "attention/attention_kinds.h"
#include "widgets/curve_plot.h"
#include "app/pages/common/latest_wins.h"
#include "app/pages/common/page_export.h"
#include "app/pages/common/step_player.h"
#include "widgets/csv_table.h"
#include "widgets/number_format.h"
#include "widgets/palette.h"

#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include "widgets/flow_layout.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>

#include <algorithm>
#include <cmath>

namespace lwb::app::pages {
namespace {

bool isArmijo(const std::string& rule) { return rule == attention::toString(attention::ProxRule::Armijo); }

QString ruleTitle(const std::string& rule) {
  return isArmijo(rule) ? QCoreApplication::translate("AttentionLab", "Armijo line search")
                          : QCoreApplication::translate("AttentionLab", "fixed step");
}

QColor ruleColor(const std::string& rule) { return isArmijo(rule) ? widgets::runColor(0) : widgets::runColor(3); }

std::vector<double> iterations(size_t n) {
  std::vector<double> k(n);
  for (size_t i = 0; i < n; ++i) k[i] = static_cast<double>(i);
  return k;
}

}  // namespace

ProxView::ProxView(QWidget* parent) : LiveView(parent) {
  runner_ = new LatestWins(this);
  createFields();
  createPlots();
  layOut();
  connectFields();
}

void ProxView::createFields() {
  tokens_ = makeSpin(1, 4096, 64, "proxTokens", this);
  dim_ = makeSpin(2, 512, 64, "proxDim", this);
  heads_ = makeSpin(1, 64, 1, "proxHeads", this);
  steps_ = makeSpin(1, 500, 20, "proxSteps", this);
  seed_ = makeSpin(0, 1000000, 0, "proxSeed", this);
  scale_ = new QDoubleSpinBox(this);
  scale_->setObjectName(QStringLiteral("proxScale"));
  scale_->setDecimals(3);
  scale_->setRange(0.001, 100);
  scale_->setValue(1.0);
  scale_->setToolTip(tr("Entries of X are scale · N(0, 1); Fig. 1's settings are 1 and 1/√d"));
  eta_ = new QDoubleSpinBox(this);
  eta_->setObjectName(QStringLiteral("proxEta"));
  eta_->setDecimals(3);
  eta_->setRange(0.001, 10);
  eta_->setValue(1.0);
  eta_->setToolTip(tr("AttLip is the prox of η·f: κ = 1 + η·L_f, so a smaller η converges in fewer steps"));
  relaxation_ = makeRelaxationSpin("proxRelaxation", this);
  player_ = new StepPlayer(this);
  player_->setObjectName(QStringLiteral("proxStepPlayer"));
  cancel_ = new QPushButton(tr("&Cancel"), this);
  cancel_->setEnabled(false);
  info_ = new QLabel(this);
  info_->setWordWrap(true);
  info_->setTextFormat(Qt::RichText);
}

// Residual, potential and movement per inner iteration.
void ProxView::createPlots() {
  residual_ = new widgets::CurvePlot(this);
  residual_->setObjectName(QStringLiteral("proxResidualPlot"));
  residual_->setTitle(tr("Residual ‖g_k‖ = ‖∇φ(y_k)‖ per inner iteration"));
  residual_->setAxisLabels(tr("inner iteration k"), tr("‖g_k‖_F"));
  residual_->setLogY(true);
  residual_->setLegendColumns(3);
  potential_ = new widgets::CurvePlot(this);
  potential_->setObjectName(QStringLiteral("proxPotentialPlot"));
  potential_->setTitle(tr("Potential φ(y_k) = f(y_k) + ‖y_k − X‖² / 2η"));
  potential_->setAxisLabels(tr("inner iteration k"), tr("φ"));
  potential_->setLegendColumns(3);
  movement_ = new widgets::CurvePlot(this);
  movement_->setObjectName(QStringLiteral("proxMovementPlot"));
  movement_->setTitle(tr("Movement α‖y_k − X‖ / ‖X‖: how far the block x + α(y_k − x) has moved its input"));
  movement_->setAxisLabels(tr("inner iteration k"), tr("α‖y_k − X‖ / ‖X‖"));
  movement_->setLegendColumns(3);
}

void ProxView::layOut() {
  auto* controls = new widgets::FlowLayout;  // wraps in a narrow window (1024 × 768)
  const auto add = [controls](const QString& label, QWidget* w) { addField(controls, label, w); };
  add(tr("&N"), tokens_);
  add(tr("d"), dim_);
  add(tr("H"), heads_);
  add(tr("input &scale"), scale_);
  add(tr("η"), eta_);
  add(tr("α"), relaxation_);
  add(tr("steps K"), steps_);
  add(tr("seed"), seed_);
  controls->addWidget(cancel_);
  addExportButtons(controls, this, QStringLiteral("attention_prox"), true,
                   [this](const QString& path, QString* error) { return savePlots(path, error); },
                   [this](const QString& path, QString* error) { return this->exportCsv(path, error); });
  auto* stepRow = new QHBoxLayout;
  stepRow->addWidget(new QLabel(tr("Iteration k"), this));
  stepRow->addWidget(player_, 1);
  auto* grid = new QGridLayout(this);
  grid->setContentsMargins(0, 0, 0, 0);
  grid->addLayout(controls, 0, 0, 1, 2);
  grid->addLayout(stepRow, 1, 0, 1, 2);
  grid->addWidget(info_, 2, 0, 1, 2);
  grid->addWidget(residual_, 3, 0);
  grid->addWidget(potential_, 3, 1);
  grid->addWidget(movement_, 4, 0, 1, 2);
  grid->setRowStretch(3, 1);
  grid->setRowStretch(4, 1);
}

void ProxView::connectFields() {
  fields_.bind(tokens_, [](auto& r) -> auto& { return r.tokens; });
  fields_.bind(dim_, [](auto& r) -> auto& { return r.block.dim; });
  fields_.bind(heads_, [](auto& r) -> auto& { return r.block.heads; });
  fields_.bind(steps_, [](auto& r) -> auto& { return r.maxSteps; });
  fields_.bind(seed_, [](auto& r) -> auto& { return r.block.seed; });
  fields_.bind(scale_, [](auto& r) -> auto& { return r.inputScale; });
  fields_.bind(eta_, [](auto& r) -> auto& { return r.block.eta; });
  fields_.bind(relaxation_, [](auto& r) -> auto& { return r.block.relaxation; });
  fields_.onChange(this, [this] { fieldsChanged(); });
  connect(player_, &StepPlayer::valueChanged, this, &ProxView::showStep);
  connect(runner_, &LatestWins::errorOccurred, this, [this](const QString& m) { info_->setText(tr("Cannot run: %1").arg(m.toHtmlEscaped())); });
  followRunner(runner_, info_, cancel_, &invalid_);
}

bool ProxView::request(ProxRequest* out, QString* error) const {
  ProxRequest r;
  if (!readBlock(dim_, heads_, seed_, attLipId(), &r.block, error)) return false;
  fields_.read(r);
  *out = r;
  return true;
}

void ProxView::setRequest(const ProxRequest& r) {
  fields_.write(r);
  fieldsChanged();
}

void ProxView::recompute() {
  dirty_ = false;
  ProxRequest r;
  QString error;
  // Bad fields: drop the computation in flight, so its result cannot replace the message.
  invalid_ = !request(&r, &error);
  if (invalid_) {
    runner_->cancel();
    info_->setText(error.toHtmlEscaped());
    return;
  }
  info_->setText(tr("Running the prox from y₀ = X with both step rules…"));
  runner_->submit([this, r](const CancelFlag& cancel) -> LatestWins::Continuation {
    auto trace = lab::proxTrace(r.block, r.tokens, r.inputScale, r.maxSteps, &cancel);
    return [this, trace = std::move(trace)]() mutable {
      if (invalid_) return;
      result_ = std::move(trace);
      hasResult_ = true;
      showTrace();
      Q_EMIT traceReady();
    };
  });
}

void ProxView::cancel() { runner_->cancel(); }
void ProxView::setStep(int k) { player_->setValue(k); }
int ProxView::step() const { return player_->value(); }
QString ProxView::infoText() const { return info_->text(); }

void ProxView::showTrace() {
  residual_->clearCurves();
  potential_->clearCurves();
  movement_->clearCurves();
  size_t last = 0;
  for (const auto& run : result_.runs) {
    const QString name = ruleTitle(run.rule);
    residual_->setCurve(name, iterations(run.residual.size()), run.residual, {ruleColor(run.rule), Qt::SolidLine, 1.8, true});
    potential_->setCurve(name, iterations(run.potential.size()), run.potential, {ruleColor(run.rule), Qt::SolidLine, 1.8, true});
    movement_->setCurve(name, iterations(run.movement.size()), run.movement, {ruleColor(run.rule), Qt::SolidLine, 1.8, true});
    last = std::max(last, run.residual.size());
  }
  player_->setMaximum(last > 0 ? static_cast<int>(last) - 1 : 0);
  showStep();
}

void ProxView::showStep() {
  if (!hasResult_) return;
  const int k = player_->value();
  std::vector<double> kx, gy, phi, moved;
  QString text = tr("Iteration <b>k = %1</b>").arg(k);
  for (const auto& run : result_.runs) {
    const auto at = static_cast<size_t>(k);
    if (at >= run.residual.size() || at >= run.potential.size()) continue;
    kx.push_back(k);
    gy.push_back(run.residual[at]);
    phi.push_back(run.potential[at]);
    const double movement = at < run.movement.size() ? run.movement[at] : 0.0;
    moved.push_back(movement);
    // step[k] is the λ taken from y_k to y_{k+1} (none after the last iterate).
    const QString lambda = at < run.step.size() ? tr(", next λ = %L1").arg(widgets::displayNumber(run.step[at], 'g', 3)) : QString();
    text += tr(" · <span style='color:%1'>%2</span>: ‖g‖ = %L3, φ = %L4, moved %L5%6")
                .arg(ruleColor(run.rule).name(), ruleTitle(run.rule))
                .arg(widgets::displayNumber(run.residual[at], 'g', 3))
                .arg(widgets::displayNumber(run.potential[at], 'g', 8))
                .arg(widgets::displayNumber(movement, 'g', 3))
                .arg(lambda);
  }
  for (const auto& run : result_.runs)
    text += tr("<br><span style='color:%1'>%2</span> after K = %3: ‖AttLip(X) − X‖/‖X‖ = %L4, λ mean %L5, min %L6, "
               "‖g_K‖/‖g_0‖ = %L7")
                .arg(ruleColor(run.rule).name(), ruleTitle(run.rule))
                .arg(run.step.size())
                .arg(widgets::displayNumber(run.movement.empty() ? 0.0 : run.movement.back(), 'g', 3))
                .arg(widgets::displayNumber(run.stepMean, 'g', 3))
                .arg(widgets::displayNumber(run.stepMin, 'g', 3))
                .arg(widgets::displayNumber(run.residualRatio, 'g', 3));
  for (const auto& run : result_.runs)
    if (!isArmijo(run.rule)) text += tr("<br>The fixed step λ = %L1 is safe for this input (λ/(1 − λ/η) ≤ 2/L_f): the K-step map is 1-Lipschitz for every K. "
                                        "Armijo only promises that φ decreases; ‖g‖ need not.").arg(widgets::displayNumber(run.lambda, 'g', 3));
  const widgets::CurvePlot::Style mark{widgets::referenceColor(), Qt::NoPen, 1, true};
  residual_->setCurve(tr("iteration k"), kx, gy, mark);
  potential_->setCurve(tr("iteration k"), kx, phi, mark);
  movement_->setCurve(tr("iteration k"), kx, moved, mark);
  info_->setText(text);
  residual_->requestReplot();
  potential_->requestReplot();
  movement_->requestReplot();
}

bool ProxView::exportCsv(const QString& path, QString* error) const {
  widgets::CsvTable t;
  t.header = {QStringLiteral("rule"), QStringLiteral("k"), QStringLiteral("residual"), QStringLiteral("potential"),
              QStringLiteral("step"), QStringLiteral("movement")};
  for (const auto& run : result_.runs)
    for (size_t k = 0; k < run.residual.size(); ++k)
      t.rows << QStringList{QString::fromStdString(run.rule), QString::number(k), widgets::csvNumber(run.residual[k]),
                            k < run.potential.size() ? widgets::csvNumber(run.potential[k]) : QString(),
                            k < run.step.size() ? widgets::csvNumber(run.step[k]) : QString(),
                            k < run.movement.size() ? widgets::csvNumber(run.movement[k]) : QString()};
  return writeCsvFile(path, t, error);
}

bool ProxView::savePlots(const QString& path, QString* error) {
  return savePlotPair(path, residual_, QStringLiteral("residual"), potential_, QStringLiteral("potential"), error);
}

void ProxView::replotNow() {
  residual_->replotNow();
  potential_->replotNow();
  movement_->replotNow();
}

}  // namespace lwb::app::pages
