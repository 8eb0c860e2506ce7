#include "app/pages/cliplab/constraint_view.h"

#include "widgets/number_format.h"

#include "widgets/curve_plot.h"
#include "app/pages/common/id_combo.h"
#include "app/pages/common/method_form.h"
#include "app/scalar_map.h"
#include "widgets/palette.h"
#include "widgets/qcp.h"
#include "widgets/scalar_map_plot.h"
#include "widgets/spectrum_plot.h"

#include <QGridLayout>
#include <QLabel>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

namespace lwb::app::pages {
namespace {

const QString kRun = QStringLiteral("lab");
const QString kLayer = QStringLiteral("W");

QString fmt(double v, int digits = 4) { return std::isfinite(v) ? widgets::displayNumber(v, 'g', digits) : QStringLiteral("–"); }


// With σ₁ far above σmax the identity line y = x would set the y range and flatten the map
// against the axis: this adapter fits y to the map's own values instead, on every refit.
class LabScalarMapPlot : public widgets::ScalarMapPlot {
 public:
  // The legend under the plot, two entries a row: beside it (the widget's default) the Clip
  // Lab's narrow panel cut both the title and long method names ("normalize σ·σmax/max(σ₁,
  // σma"; issue 32 §3).
  explicit LabScalarMapPlot(QWidget* parent) : ScalarMapPlot(parent) { placeLegend(LegendPlace::Below, 2); }
  void setValueRange(double lo, double hi) { lo_ = lo, hi_ = hi; }

 protected:
  void fitView() override {
    ScalarMapPlot::fitView();
    if (hi_ > lo_) customPlot()->yAxis->setRange(lo_ - 0.05 * (hi_ - lo_), hi_ + 0.15 * (hi_ - lo_));
  }

 private:
  double lo_ = 0, hi_ = 0;  // hi <= lo: the widget's own fit
};

}  // namespace

ConstraintView::ConstraintView(QWidget* parent) : QWidget(parent) {
  map_ = new LabScalarMapPlot(this);
  map_->setObjectName(QStringLiteral("scalarMapPlot"));
  map_->setTitle(tr("Scalar map f(σ) and the input's singular values"));
  spectrum_ = new widgets::SpectrumPlot(this);
  spectrum_->setObjectName(QStringLiteral("spectrumPlot"));
  spectrum_->setTitle(tr("Spectrum before (dashed) and after"));
  spectrum_->setRun(kRun, tr("after the method"), widgets::runColor(0));
  spectrum_->setLogY(true);
  spectrum_->setStepControlsVisible(false);
  spectrum_->setLayerChoiceVisible(false);
  error_ = new widgets::CurvePlot(this);
  error_->setObjectName(QStringLiteral("errorPlot"));
  error_->setTitle(tr("Error against the exact SVD result"));
  error_->setAxisLabels(tr("rank i"), tr("|σᵢ(W′) − σᵢ(U f(Σ) Vᵀ)|"));
  error_->setLogY(true);
  figures_ = new QLabel(this);
  figures_->setObjectName(QStringLiteral("figuresLabel"));
  figures_->setWordWrap(true);
  figures_->setTextFormat(Qt::RichText);
  figures_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  figures_->setMargin(8);
  QFont big = figures_->font();
  big.setPointSizeF(big.pointSizeF() * 1.15);
  figures_->setFont(big);

  auto* grid = new QGridLayout(this);
  grid->setContentsMargins(0, 0, 0, 0);
  grid->addWidget(map_, 0, 0);
  grid->addWidget(spectrum_, 0, 1);
  grid->addWidget(error_, 1, 0);
  grid->addWidget(figures_, 1, 1);
  grid->setRowStretch(0, 3);
  grid->setRowStretch(1, 2);
  grid->setColumnStretch(0, 1);  // the map gets half of a narrow view, not only its minimum
  grid->setColumnStretch(1, 1);
  clear();
}

void ConstraintView::clear() {
  map_->clearCurves();
  map_->clearMarkers();
  spectrum_->clearSnapshots();
  error_->clearCurves();
  figures_->setText(tr("Computing…"));
}

void ConstraintView::drawScalarMap(const lab::ConstraintRequest& r, const std::vector<double>& sigmas, const std::vector<double>& exact,
                                   double alpha, const std::vector<double>* measured) {
  const double sigma1 = sigmas.empty() ? 0.0 : sigmas.front();
  const double a = std::isfinite(alpha) ? alpha : 0.0;
  // f(σ) from 0 to a little beyond σ₁ (and σmax), with the input's singular values on it.
  std::vector<double> xs, ys;
  const double xMax = std::max({sigma1, r.sigmaMax, 1e-6}) * 1.15;
  sampleScalarMap(r, sigma1, a, xMax, 400, xs, ys);
  const QString curve = scalarMapName(r, a);
  map_->clearCurves();
  map_->clearMarkers();
  map_->setCurve(curve, xs, ys, widgets::runColor(0));
  map_->setMarkers(sigmas, exact, curve);
  // Where f is monotone the measured σᵢ(W′) pair with σᵢ by rank: show them too, so a
  // method that misses the curve (bfloat16, too few Newton–Schulz steps) is visible here.
  if (measured && std::is_sorted(exact.begin(), exact.end(), std::greater<>())) {
    const QString name = tr("measured σᵢ(W′)");
    map_->setCurve(name, {}, {}, widgets::runColor(1));
    map_->setMarkers(sigmas, std::vector<double>(measured->begin(), measured->begin() + std::min(measured->size(), sigmas.size())), name);
  }
  const double nan = std::numeric_limits<double>::quiet_NaN();
  map_->setSigmaMax(spectral::reads(r.method, spectral::kSigmaMax) ? r.sigmaMax : nan);
  map_->setSigmaMin(spectral::reads(r.method, spectral::kSigmaMin) ? r.sigmaMin : nan);
  double lo = 0, hi = 0;
  for (double y : ys) lo = std::min(lo, y), hi = std::max(hi, y);
  if (measured)
    for (double y : *measured) hi = std::max(hi, y);
  static_cast<LabScalarMapPlot*>(map_)->setValueRange(lo, hi > 0 && xMax > 2.5 * hi ? hi : lo);
  map_->requestReplot();
}

void ConstraintView::showPreview(const lab::ConstraintRequest& r, const std::vector<double>& sigmas) {
  double alpha = std::numeric_limits<double>::quiet_NaN();
  try {
    alpha = lab::resolvedSoftCapAlpha(r);
  } catch (const std::exception&) {
    return;  // an invalid request is reported by the page; keep the last picture
  }
  const double sigma1 = sigmas.empty() ? 0.0 : sigmas.front();
  std::vector<double> exact;
  exact.reserve(sigmas.size());
  for (double s : sigmas) exact.push_back(spectral::scalarMap(r, s, sigma1, alpha));
  drawScalarMap(r, sigmas, exact, alpha, nullptr);
  ++previews_;
}

void ConstraintView::showOutcome(const lab::ConstraintOutcome& o, const lab::ConstraintRequest& r, double latencyMs) {
  const double sigma1 = o.before.empty() ? 0.0 : o.before.front();
  drawScalarMap(r, o.before, o.exact, o.alpha, &o.after);
  const bool usesMax = spectral::reads(r.method, spectral::kSigmaMax), usesMin = spectral::reads(r.method, spectral::kSigmaMin);
  const double nan = std::numeric_limits<double>::quiet_NaN();

  spectrum_->addSnapshot(kRun, kLayer, 0, o.after, o.before);
  spectrum_->setSigmaMax(usesMax ? r.sigmaMax : nan);
  spectrum_->setSigmaMin(usesMin ? r.sigmaMin : nan);

  std::vector<double> exactSorted;
  for (double v : o.exact) exactSorted.push_back(std::abs(v));  // σᵢ(U f(Σ) Vᵀ) = |f(σᵢ)|
  std::sort(exactSorted.begin(), exactSorted.end(), std::greater<>());
  std::vector<double> ranks, errors;
  for (size_t i = 0; i < std::min(exactSorted.size(), o.after.size()); ++i) {
    ranks.push_back(static_cast<double>(i + 1));
    // Exact zeros cannot be drawn on log axes; the floor is far below float32's resolution.
    errors.push_back(std::max(std::abs(o.after[i] - exactSorted[i]), 1e-16));
  }
  error_->clearCurves();
  const bool usesImpl = spectral::reads(r.method, spectral::kImpl);
  const QString impl = registryLabel(spectral::clipImpls(), spectral::toString(r.impl));
  // The implementation only where the method has one to choose ("—, float32" read like a
  // missing value). The method is named in bold beside the plot; with it the entry ran past a
  // 1024-px window's panel.
  error_->setCurve(usesImpl ? tr("%1, %2").arg(impl, QString::fromStdString(r.dtype)) : QString::fromStdString(r.dtype),
                   std::move(ranks), std::move(errors), {widgets::runColor(1), Qt::SolidLine, 1.4, false});

  QString text = tr("<b>%1</b>").arg(MethodForm::methodTitle(r.method));
  if (usesImpl) text += tr(" · %1").arg(impl);
  text += tr(" · %1<br>").arg(QString::fromStdString(r.dtype));
  if (std::isfinite(o.alpha)) text += tr("α = %1%2<br>").arg(fmt(o.alpha), r.alpha ? QString() : tr(" (α* of App. B)"));
  text += tr("σ₁ before: <b>%1</b><br>σ₁ after: <b>%2</b> (exact %3)<br>").arg(fmt(sigma1), fmt(o.sigma1After, 6), fmt(o.sigma1Exact, 6));
  text += tr("largest |σᵢ − exact|: <b>%1</b><br>‖W′ − W*‖<sub>F</sub> / ‖W*‖<sub>F</sub>: <b>%2</b><br>")
              .arg(fmt(o.maxSpectrumError, 3), fmt(o.relativeMatrixError, 3));
  text += tr("method: <b>%1 ms</b>").arg(fmt(o.methodSeconds * 1e3, 3));
  // msign(W) does not depend on the thresholds: say when it came from an earlier update.
  if (o.signReused) text += tr(" + msign(W) reused (%1 ms when computed)").arg(fmt(o.signSeconds * 1e3, 3));
  text += tr(" · whole update: <b>%1 ms</b>").arg(fmt(latencyMs, 3));
  figures_->setText(text);

  spectrum_->requestReplot();
  error_->requestReplot();
  lastOutcome_ = o;
  lastRequest_ = r;
  ++shown_;
  Q_EMIT shown();
}

void ConstraintView::replotNow() {
  map_->replotNow();
  spectrum_->replotNow();
  error_->replotNow();
}

}  // namespace lwb::app::pages
