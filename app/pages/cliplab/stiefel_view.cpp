#include "app/pages/cliplab/stiefel_view.h"

#include "app/pages/common/page_frame.h"
#include "widgets/flow_layout.h"
#include "widgets/number_format.h"

#include "widgets/curve_plot.h"
#include "app/pages/common/id_combo.h"
#include "app/pages/common/latest_wins.h"
#include "widgets/palette.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>

#include <algorithm>
#include <cmath>

namespace lwb::app::pages {

StiefelView::StiefelView(QWidget* parent) : QWidget(parent) {
  runner_ = new LatestWins(this);
  rows_ = new QSpinBox(this);
  rows_->setRange(2, 2048);
  rows_->setValue(128);
  cols_ = new QSpinBox(this);
  cols_->setRange(2, 2048);
  cols_->setValue(64);
  eta_ = new QDoubleSpinBox(this);
  eta_->setObjectName(QStringLiteral("stiefelEta"));
  eta_->setDecimals(3);
  eta_->setRange(0.001, 10.0);
  eta_->setSingleStep(0.05);
  eta_->setValue(0.1);
  seed_ = new QSpinBox(this);
  seed_->setRange(0, 1000000);
  dtype_ = idCombo(lab::labDtypeIds(), this);
  info_ = new QLabel(this);
  info_->setWordWrap(true);
  info_->setTextFormat(Qt::RichText);

  sigma_ = new widgets::CurvePlot(this);
  sigma_->setTitle(tr("Singular values after the retraction msign(W − ηA)"));
  sigma_->setAxisLabels(tr("rank i"), tr("σᵢ"));
  deviation_ = new widgets::CurvePlot(this);
  deviation_->setTitle(tr("Distance from the manifold |σᵢ − 1|"));
  deviation_->setAxisLabels(tr("rank i"), tr("|σᵢ − 1|"));
  deviation_->setLogY(true);

  auto* controls = new widgets::FlowLayout;  // wraps in a narrow window
  controls->addWidget(group({new QLabel(tr("W"), this), rows_, new QLabel(tr("×"), this), cols_}, this));
  controls->addWidget(group({new QLabel(tr("Step η"), this), eta_}, this));
  controls->addWidget(group({new QLabel(tr("Seed"), this), seed_}, this));
  controls->addWidget(group({new QLabel(tr("Precision"), this), dtype_}, this));
  auto* grid = new QGridLayout(this);
  grid->setContentsMargins(0, 0, 0, 0);
  grid->addLayout(controls, 0, 0, 1, 2);
  grid->addWidget(info_, 1, 0, 1, 2);
  grid->addWidget(sigma_, 2, 0);
  grid->addWidget(deviation_, 2, 1);
  grid->setRowStretch(2, 1);

  const auto changed = [this] {
    dirty_ = true;
    if (isVisible()) recompute();
  };
  fields_.bind(rows_, [](auto& r) -> auto& { return r.rows; });
  fields_.bind(cols_, [](auto& r) -> auto& { return r.cols; });
  fields_.bind(eta_, [](auto& r) -> auto& { return r.eta; });
  fields_.bind(seed_, [](auto& r) -> auto& { return r.seed; });
  fields_.onChange(this, changed);
  connect(dtype_, &QComboBox::currentIndexChanged, this, changed);
  connect(runner_, &LatestWins::errorOccurred, this, [this](const QString& m) { info_->setText(tr("Cannot run: %1").arg(m)); });
}

lab::StiefelRetractionRequest StiefelView::request() const {
  lab::StiefelRetractionRequest r;
  fields_.read(r);
  r.dtype = dtype_->currentData().toString().toStdString();
  return r;
}

void StiefelView::setRequest(const lab::StiefelRetractionRequest& r) {
  fields_.write(r, /*blockSignals=*/false);  // each field recomputes, as when typed
  dtype_->setCurrentIndex(std::max(0, dtype_->findData(QString::fromStdString(r.dtype))));
}

void StiefelView::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  if (dirty_) recompute();
}

void StiefelView::recompute() {
  dirty_ = false;
  info_->setText(tr("Retracting with every coefficient set…"));
  const auto r = request();
  runner_->submit([this, r](const CancelFlag& cancel) -> LatestWins::Continuation {
    auto out = lab::stiefelRetraction(r, &cancel);
    return [this, out = std::move(out)] { show(out); };
  });
}

void StiefelView::show(const lab::StiefelRetraction& r) {
  result_ = r;
  hasResult_ = true;
  sigma_->clearCurves();
  deviation_->clearCurves();
  const auto ranks = [](size_t n) {
    std::vector<double> x(n);
    for (size_t i = 0; i < n; ++i) x[i] = static_cast<double>(i + 1);
    return x;
  };
  sigma_->setCurve(tr("W − ηA (before)"), ranks(r.before.size()), r.before, {widgets::referenceColor(), Qt::DashLine, 1.4, false});
  QString text = tr("W on the Stiefel manifold (all σ = 1), A = msign(Gaussian), η = %L1: σ(W − ηA) ∈ [%L2, %L3]. "
                    "After msign, max |σ − 1|:")
                     .arg(eta_->value())
                     .arg(widgets::displayNumber(r.before.empty() ? 0.0 : r.before.back(), 'g', 4))
                     .arg(widgets::displayNumber(r.before.empty() ? 0.0 : r.before.front(), 'g', 4));
  int colour = 0;
  QStringList readings;  // "jordan5 × 5 0.32 (off)", joined with " · " after the colon
  for (const auto& o : r.after) {
    // The registry's short label, not the long title: the legend has four side by side.
    const QString name = tr("%1 × %2").arg(registryLabel(spectral::nsCoefficientSets(), o.coefficients)).arg(o.steps);
    const QColor c = widgets::runColor(colour++);
    sigma_->setCurve(name, ranks(o.singularValues.size()), o.singularValues, {c, Qt::SolidLine, 1.8, false});
    std::vector<double> dev;
    for (double s : o.singularValues) dev.push_back(std::max(std::abs(s - 1.0), 1e-12));
    deviation_->setCurve(name, ranks(dev.size()), dev, {c, Qt::SolidLine, 1.8, false});
    const bool holds = o.maxDeviation <= 1e-5;
    readings << tr("<b>%1</b> %L2 %3").arg(name).arg(widgets::displayNumber(o.maxDeviation, 'g', 2)).arg(holds ? tr("(on the manifold)") : tr("(off)"));
  }
  text += QStringLiteral(" ") + readings.join(QStringLiteral(" · "));
  sigma_->setReferenceLines({{1.0, tr("1"), QColor()}});
  deviation_->setReferenceLines({{1e-5, tr("10⁻⁵"), QColor()}});
  info_->setText(text);
  sigma_->requestReplot();
  deviation_->requestReplot();
  Q_EMIT resultReady();
}

void StiefelView::replotNow() {
  sigma_->replotNow();
  deviation_->replotNow();
}

}  // namespace lwb::app::pages
