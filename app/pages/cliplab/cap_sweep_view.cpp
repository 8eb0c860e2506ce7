#include "app/pages/cliplab/cap_sweep_view.h"

#include "app/pages/common/id_combo.h"
#include "app/pages/common/page_frame.h"
#include "widgets/flow_layout.h"

#include "app/pages/common/ns_steps_field.h"
#include "widgets/number_format.h"

#include "widgets/curve_plot.h"
#include "app/pages/common/latest_wins.h"
#include "widgets/palette.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QMetaObject>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>

#include <algorithm>

namespace lwb::app::pages {

CapSweepView::CapSweepView(QWidget* parent) : QWidget(parent) {
  runner_ = new LatestWins(this);
  size_ = new QComboBox(this);
  for (const auto& [m, n] : {std::pair{64, 128}, {128, 256}, {256, 512}, {512, 1024}}) size_->addItem(QStringLiteral("%1×%2").arg(m).arg(n), QSize(n, m));
  size_->setCurrentIndex(2);
  dtype_ = new QComboBox(this);
  for (const auto& d : lab::labDtypeIds()) dtype_->addItem(QString::fromStdString(d), QString::fromStdString(d));
  dtype_->setCurrentIndex(1);
  sigmaMax_ = new QDoubleSpinBox(this);
  sigmaMax_->setRange(0.01, 100);
  sigmaMax_->setValue(1.0);
  ns_ = new NsStepsField(this);
  runButton_ = new QPushButton(tr("R&un sweep"), this);
  runButton_->setObjectName(QStringLiteral("runSweepButton"));
  cancelButton_ = new QPushButton(tr("&Cancel"), this);
  cancelButton_->setEnabled(false);
  progress_ = new QProgressBar(this);
  progress_->setRange(0, 1);
  progress_->setValue(0);
  info_ = new QLabel(tr("Hard cap of matrices whose singular values are log-spaced from σ₁ down to 0.01, in every implementation "
                        "(jordan5 schedule). The spectral-clipping paper, §4: the nested form must cancel ½W with low-precision products."),
                     this);
  info_->setWordWrap(true);

  sigma_ = new widgets::CurvePlot(this);
  sigma_->setTitle(tr("σ₁ after the hard cap"));
  sigma_->setAxisLabels(tr("σ₁ of the input"), tr("σ₁ of the result"));
  sigma_->setLogXAvailable(true);
  sigma_->setLogX(true);
  sigma_->setLogY(true);
  error_ = new widgets::CurvePlot(this);
  error_->setTitle(tr("Largest singular-value error / σmax"));
  error_->setAxisLabels(tr("σ₁ of the input"), tr("max |σᵢ − min(σᵢ, σmax)| / σmax"));
  error_->setLogXAvailable(true);
  error_->setLogX(true);
  error_->setLogY(true);

  // Wraps in a narrow window (a projector's 1280 px): the row was the Clip Lab's widest part.
  auto* controls = new widgets::FlowLayout;
  controls->addWidget(group({new QLabel(tr("Size"), this), size_}, this));
  controls->addWidget(group({new QLabel(tr("Precision"), this), dtype_}, this));
  controls->addWidget(group({new QLabel(tr("σmax"), this), sigmaMax_}, this));
  auto* nsRow = new QHBoxLayout;
  nsRow->addWidget(new QLabel(tr("jordan5 ×"), this));
  ns_->addTo(nsRow);
  controls->addWidget(group(nsRow, this));
  controls->addWidget(group({runButton_, cancelButton_}, this));
  progress_->setMinimumWidth(160);
  controls->addWidget(progress_);
  auto* grid = new QGridLayout(this);
  grid->setContentsMargins(0, 0, 0, 0);
  grid->addLayout(controls, 0, 0, 1, 2);
  grid->addWidget(info_, 1, 0, 1, 2);
  grid->addWidget(sigma_, 2, 0);
  grid->addWidget(error_, 2, 1);
  grid->setRowStretch(2, 1);

  connect(runButton_, &QPushButton::clicked, this, &CapSweepView::run);
  connect(cancelButton_, &QPushButton::clicked, this, &CapSweepView::cancel);
  connect(runner_, &LatestWins::busyChanged, this, [this](bool busy) {
    runButton_->setEnabled(!busy);
    cancelButton_->setEnabled(busy);
  });
  connect(runner_, &LatestWins::errorOccurred, this, [this](const QString& m) { info_->setText(tr("Cannot run the sweep: %1").arg(m)); });
  connect(runner_, &LatestWins::cancelled, this, [this] { info_->setText(tr("Sweep cancelled.")); });
}

lab::CapSweepRequest CapSweepView::request() const {
  lab::CapSweepRequest r;
  const QSize s = size_->currentData().toSize();
  r.rows = s.height();
  r.cols = s.width();
  r.dtype = dtype_->currentData().toString().toStdString();
  r.sigmaMax = sigmaMax_->value();
  r.nsSteps = ns_->steps();
  r.polishSteps = ns_->polishSteps();
  // σ₁ from just above σmax to 1000 σmax, as in 001 §6.1 and docs/BENCHMARKS.md.
  r.sigma1s.clear();
  for (double f : {1.5, 3.0, 10.0, 30.0, 100.0, 300.0, 1000.0}) r.sigma1s.push_back(f * r.sigmaMax);
  return r;
}

void CapSweepView::setRequest(const lab::CapSweepRequest& r) {
  for (int i = 0; i < size_->count(); ++i)
    if (size_->itemData(i).toSize() == QSize(static_cast<int>(r.cols), static_cast<int>(r.rows))) size_->setCurrentIndex(i);
  dtype_->setCurrentIndex(std::max(0, dtype_->findData(QString::fromStdString(r.dtype))));
  sigmaMax_->setValue(r.sigmaMax);
  ns_->setSteps(r.nsSteps);
  ns_->setPolishSteps(r.polishSteps);
}

void CapSweepView::run() {
  const lab::CapSweepRequest r = request();
  progress_->setRange(0, static_cast<int>(r.sigma1s.size() * r.impls.size()));
  progress_->setValue(0);
  info_->setText(tr("Running %1 hard caps in %2…").arg(progress_->maximum()).arg(QString::fromStdString(r.dtype)));
  QPointer<QProgressBar> bar = progress_;
  runner_->submit([this, r, bar](const CancelFlag& cancel) -> LatestWins::Continuation {
    const auto report = [bar](int done, int) {
      QMetaObject::invokeMethod(bar, [bar, done] { if (bar) bar->setValue(done); }, Qt::QueuedConnection);
    };
    lab::CapSweep sweep = lab::sweepHardCap(r, report, &cancel);
    return [this, r, sweep = std::move(sweep)]() mutable {
      result_ = std::move(sweep);
      shownRequest_ = r;
      hasResult_ = true;
      showResult();
      Q_EMIT finished();
    };
  });
}

void CapSweepView::cancel() { runner_->cancel(); }

void CapSweepView::showResult() {
  sigma_->clearCurves();
  error_->clearCurves();
  QStringList summary;
  for (size_t i = 0; i < result_.series.size(); ++i) {
    const auto& s = result_.series[i];
    const QString name = registryLabel(spectral::clipImpls(), s.impl);
    const widgets::CurvePlot::Style style{widgets::runColor(static_cast<int>(i)), Qt::SolidLine, 1.8, true};
    sigma_->setCurve(name, result_.sigma1s, s.sigma1After, style);
    std::vector<double> rel;
    for (double e : s.maxError) rel.push_back(std::max(e / result_.sigmaMax, 1e-9));
    error_->setCurve(name, result_.sigma1s, rel, style);
    if (!s.sigma1After.empty())
      summary << tr("%1 %L2").arg(name).arg(widgets::displayNumber(s.sigma1After.back() / result_.sigmaMax, 'f', 3));
  }
  sigma_->setReferenceLines({{result_.sigmaMax, tr("σmax"), QColor()}});
  error_->setReferenceLines({{0.02, tr("target 0.02"), QColor()}});
  info_->setText(tr("%1×%2 in %3: σ₁ of the result / σmax at σ₁ = %L4 σmax: %5. The exact answer is 1.")
                     .arg(shownRequest_.rows)
                     .arg(shownRequest_.cols)
                     .arg(QString::fromStdString(shownRequest_.dtype))
                     .arg(widgets::displayNumber(result_.sigma1s.empty() ? 0.0 : result_.sigma1s.back() / result_.sigmaMax, 'g', 4))
                     .arg(summary.join(QStringLiteral(", "))));
  sigma_->requestReplot();
  error_->requestReplot();
}

void CapSweepView::replotNow() {
  sigma_->replotNow();
  error_->replotNow();
}

}  // namespace lwb::app::pages
