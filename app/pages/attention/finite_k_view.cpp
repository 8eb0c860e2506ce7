#include "app/pages/attention/finite_k_view.h"

#include "app/pages/attention/attention_common.h"
#include "widgets/curve_plot.h"
#include "app/pages/common/latest_wins.h"
#include "app/pages/common/page_export.h"
#include "widgets/csv_table.h"
#include "widgets/number_format.h"
#include "widgets/palette.h"

#include <QGridLayout>
#include "widgets/flow_layout.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QDoubleSpinBox>
#include <QSpinBox>

#include <algorithm>

namespace lwb::app::pages {

FiniteKView::FiniteKView(QWidget* parent) : LiveView(parent) {
  runner_ = new LatestWins(this);
  tokens_ = makeSpin(1, 1024, 16, "finiteKTokens", this);
  dim_ = makeSpin(2, 512, 64, "finiteKDim", this);
  heads_ = makeSpin(1, 64, 4, "finiteKHeads", this);
  pairs_ = makeSpin(1, 200, 5, "finiteKPairs", this);
  kMax_ = makeSpin(1, 20, 5, "finiteKMax", this);
  seed_ = makeSpin(0, 1000000, 0, "finiteKSeed", this);
  relaxation_ = makeRelaxationSpin("finiteKRelaxation", this);
  cancel_ = new QPushButton(tr("&Cancel"), this);
  cancel_->setEnabled(false);
  auto* why = new QLabel(tr("<b>Why:</b> the step λ that Armijo's backtracking accepts jumps between β-powers as the input moves, so "
                            "after a few steps two nearby inputs can land far apart; the fixed safe step makes every step a "
                            "nonexpansive map, and its ratio stays ≤ 1 for every K."),
                         this);
  why->setWordWrap(true);
  info_ = new QLabel(this);
  info_->setWordWrap(true);
  info_->setTextFormat(Qt::RichText);

  plot_ = new widgets::CurvePlot(this);
  plot_->setObjectName(QStringLiteral("finiteKPlot"));
  plot_->setTitle(tr("Measured ‖f(x) − f(y)‖ / ‖x − y‖ on near pairs after K prox steps"));
  plot_->setAxisLabels(tr("inner steps K"), tr("largest ratio over the pairs"));
  plot_->setLegendColumns(2);
  plot_->setLogY(true);  // Armijo's ratio reaches tens by K = 5; the fixed step's sits at 1

  auto* controls = new widgets::FlowLayout;  // wraps in a narrow window (1024 × 768)
  addField(controls, tr("&N"), tokens_);
  addField(controls, tr("d"), dim_);
  addField(controls, tr("H"), heads_);
  addField(controls, tr("&pairs"), pairs_);
  addField(controls, tr("K up to"), kMax_);
  addField(controls, tr("seed"), seed_);
  addField(controls, tr("α"), relaxation_);
  controls->addWidget(cancel_);
  addExportButtons(controls, this, QStringLiteral("attention_finite_k"), false,
                   [this](const QString& path, QString* error) { return savePlot(path, error); },
                   [this](const QString& path, QString* error) { return this->exportCsv(path, error); });
  auto* grid = new QGridLayout(this);
  grid->setContentsMargins(0, 0, 0, 0);
  grid->addLayout(controls, 0, 0);
  grid->addWidget(why, 1, 0);
  grid->addWidget(info_, 2, 0);
  grid->addWidget(plot_, 3, 0);
  grid->setRowStretch(3, 1);

  fields_.bind(tokens_, [](auto& r) -> auto& { return r.tokens; });
  fields_.bind(dim_, [](auto& r) -> auto& { return r.block.dim; });
  fields_.bind(heads_, [](auto& r) -> auto& { return r.block.heads; });
  fields_.bind(pairs_, [](auto& r) -> auto& { return r.pairs; });
  fields_.bind(kMax_, [](auto& r) -> auto& { return r.kMax; });
  fields_.bind(seed_, [](auto& r) -> auto& { return r.block.seed; });
  fields_.bind(relaxation_, [](auto& r) -> auto& { return r.block.relaxation; });
  fields_.onChange(this, [this] { fieldsChanged(); });
  connect(runner_, &LatestWins::errorOccurred, this, [this](const QString& m) { info_->setText(tr("Cannot run: %1").arg(m)); });
  followRunner(runner_, info_, cancel_, &invalid_);
}

bool FiniteKView::request(FiniteKRequest* out, QString* error) const {
  FiniteKRequest r;
  if (!readBlock(dim_, heads_, seed_, attLipId(), &r.block, error)) return false;
  fields_.read(r);
  *out = r;
  return true;
}

void FiniteKView::setRequest(const FiniteKRequest& r) {
  fields_.write(r);
  fieldsChanged();
}

void FiniteKView::recompute() {
  dirty_ = false;
  FiniteKRequest r;
  QString error;
  // Bad fields: drop the computation in flight, so its result cannot replace the message.
  invalid_ = !request(&r, &error);
  if (invalid_) {
    runner_->cancel();
    info_->setText(error.toHtmlEscaped());
    return;
  }
  info_->setText(tr("Measuring %1 pairs at K = 1 … %2…").arg(r.pairs).arg(r.kMax));
  runner_->submit([this, r](const CancelFlag& cancel) -> LatestWins::Continuation {
    auto rows = lab::finiteKRatios(r.block, r.tokens, r.pairs, r.kMax, &cancel);
    return [this, rows = std::move(rows), relaxation = r.block.relaxation]() mutable {
      if (invalid_) return;
      rows_ = std::move(rows);
      shownRelaxation_ = relaxation;
      hasResult_ = true;
      showRows();
      Q_EMIT ratiosReady();
    };
  });
}

void FiniteKView::cancel() { runner_->cancel(); }
QString FiniteKView::infoText() const { return info_->text(); }

void FiniteKView::showRows() {
  std::vector<double> k, armijo, fixed;
  double worstArmijo = 0, worstFixed = 0;
  QStringList above;
  for (const auto& row : rows_) {
    k.push_back(row.K);
    armijo.push_back(row.armijoRatio);
    fixed.push_back(row.fixedRatio);
    worstArmijo = std::max(worstArmijo, row.armijoRatio);
    worstFixed = std::max(worstFixed, row.fixedRatio);
    if (row.armijoRatio > 1) above << QString::number(row.K);
  }
  plot_->setCurve(tr("Armijo line search"), k, armijo, {widgets::runColor(0), Qt::SolidLine, 2.0, true});
  plot_->setCurve(tr("fixed safe step"), k, fixed, {widgets::runColor(3), Qt::SolidLine, 2.0, true});
  plot_->setReferenceLines({{1.0, tr("ratio = 1"), QColor()}});
  plot_->requestReplot();
  info_->setText((above.isEmpty() ? tr("Armijo stays ≤ 1 on these pairs (largest %L1); try more pairs, larger N or another seed.")
                                        .arg(widgets::displayNumber(worstArmijo, 'g', 4))
                                  : tr("Armijo exceeds 1 at K = %1 (largest %L2).").arg(above.join(QStringLiteral(", "))).arg(widgets::displayNumber(worstArmijo, 'g', 4))) +
                 QLatin1Char(' ') + tr("Fixed step: largest %L1.").arg(widgets::displayNumber(worstFixed, 'g', 7)) +
                 (shownRelaxation_ == 1.0
                      ? QString()
                      : QLatin1Char(' ') + tr("These are the relaxed maps x + α(y_K − x) with α = %L1: only the converged "
                                              "prox's relaxation is certified (bound max(1, α − 1)).")
                                               .arg(shownRelaxation_)));
}

bool FiniteKView::exportCsv(const QString& path, QString* error) const {
  widgets::CsvTable t;
  t.header = {QStringLiteral("K"), QStringLiteral("armijo_ratio"), QStringLiteral("fixed_ratio")};
  for (const auto& row : rows_) t.rows << QStringList{QString::number(row.K), widgets::csvNumber(row.armijoRatio), widgets::csvNumber(row.fixedRatio)};
  return writeCsvFile(path, t, error);
}

bool FiniteKView::savePlot(const QString& path, QString* error) { return savePlotSet(path, {{plot_, QStringLiteral("ratio")}}, error); }

void FiniteKView::replotNow() { plot_->replotNow(); }

}  // namespace lwb::app::pages
