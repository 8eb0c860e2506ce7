#include "app/pages/common/method_form.h"

#include "app/pages/common/ns_steps_field.h"

#include "widgets/number_format.h"

#include "app/pages/common/id_combo.h"
#include "app/pages/common/slider_field.h"

#include <QCheckBox>
#include <QCoreApplication>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>

#include <cmath>

namespace lwb::app::pages {

QString MethodForm::methodTitle(spectral::ConstraintMethod m) {
  return QCoreApplication::translate("Registry", std::string(spectral::traits(m).title).c_str());
}

QSpinBox* MethodForm::nsStepsField() const { return ns_->stepsBox(); }

MethodForm::MethodForm(QWidget* parent) : QWidget(parent) {
  form_ = new QFormLayout(this);
  form_->setContentsMargins(0, 0, 0, 0);
  form_->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  // Rows are not wrapped: with WrapLongRows Qt 6.4's form kept the height-for-width it had for
  // the rows shown before, so after a change of method rows came out squeezed to nothing (the
  // soft-cap lecture preset's α, η and λ; a newcomer's trial). The Clip Lab's panel is wide
  // enough for label and field side by side at 1024 px, in German too.
  form_->setRowWrapPolicy(QFormLayout::DontWrapRows);

  method_ = registryCombo(spectral::constraintMethods(), this, true);
  method_->setObjectName(QStringLiteral("methodBox"));
  sigmaMax_ = new SliderField(0.01, 100, 1.0, 4, true, this);
  sigmaMax_->setObjectName(QStringLiteral("sigmaMaxField"));
  sigmaMin_ = new SliderField(0, 10, 0.25, 3, false, this);
  alpha_ = new SliderField(1e-5, 1, 0.05, 5, true, this);
  alphaAuto_ = new QCheckBox(tr("α* from η, λ"), this);
  alphaAuto_->setToolTip(tr("Use the smallest α that keeps σmax a fixed point of decay + an update of norm η + soft cap (paper App. B)"));
  alphaAuto_->setChecked(true);
  alphaStar_ = new QLabel(this);
  lr_ = new SliderField(1e-3, 1, 0.1, 4, true, this);
  lambda_ = new SliderField(0, 1, 0.1, 3, false, this);
  impl_ = registryCombo(spectral::clipImpls(), this, true);
  impl_->setObjectName(QStringLiteral("implBox"));
  coeffs_ = registryCombo(spectral::nsCoefficientSets(), this, false);
  ns_ = new NsStepsField(this);
  dtype_ = idCombo(lab::labDtypeIds(), this);

  lr_->setObjectName(QStringLiteral("lrField"));
  lambda_->setObjectName(QStringLiteral("lambdaField"));
  alphaRow_ = new QWidget(this);
  alphaRow_->setObjectName(QStringLiteral("alphaRow"));
  auto* alphaLayout = new QVBoxLayout(alphaRow_);
  alphaLayout->setContentsMargins(0, 0, 0, 0);
  alphaLayout->setSpacing(1);
  auto* autoLine = new QHBoxLayout;
  autoLine->addWidget(alphaAuto_);
  autoLine->addWidget(alphaStar_, 1);
  alphaLayout->addLayout(autoLine);
  alphaLayout->addWidget(alpha_);

  nsRow_ = new QWidget(this);
  auto* nsLayout = new QHBoxLayout(nsRow_);
  nsLayout->setContentsMargins(0, 0, 0, 0);
  nsLayout->addWidget(coeffs_);
  nsLayout->addWidget(new QLabel(tr("×"), nsRow_));
  ns_->addTo(nsLayout);
  nsRow_->setToolTip(tr("Newton–Schulz schedule: steps of the coefficient set, then polishing steps of (15/8, −10/8, 3/8)"));

  form_->addRow(tr("Method"), method_);
  form_->addRow(tr("σmax"), sigmaMax_);
  form_->addRow(tr("σmin"), sigmaMin_);
  form_->addRow(tr("α"), alphaRow_);
  form_->addRow(tr("η (lr)"), lr_);
  form_->addRow(tr("λ"), lambda_);
  form_->addRow(tr("Implementation"), impl_);
  form_->addRow(tr("Newton–Schulz"), nsRow_);
  form_->addRow(tr("Precision"), dtype_);

  for (auto* f : {sigmaMax_, sigmaMin_, alpha_, lr_, lambda_}) {
    connect(f, &SliderField::valueChanged, this, &MethodForm::emitChanged);
    connect(f, &SliderField::sliderReleased, this, &MethodForm::sliderReleased);
  }
  for (auto* b : {method_, impl_, coeffs_, dtype_}) connect(b, &QComboBox::currentIndexChanged, this, &MethodForm::emitChanged);
  connect(ns_, &NsStepsField::changed, this, &MethodForm::emitChanged);
  connect(alphaAuto_, &QCheckBox::toggled, this, &MethodForm::emitChanged);

  selectId(method_, spectral::toString(lab::ConstraintRequest{}.method));
  updateRows();
  updateAlphaStar();
}

lab::ConstraintRequest MethodForm::request() const {
  lab::ConstraintRequest r;
  r.method = spectral::parseConstraintMethod(currentId(method_)).value_or(spectral::ConstraintMethod::None);
  r.sigmaMax = sigmaMax_->value();
  r.sigmaMin = std::min(sigmaMin_->value(), sigmaMax_->value());
  if (!alphaAuto_->isChecked()) r.alpha = alpha_->value();
  r.lr = lr_->value();
  r.lambda = lambda_->value();
  r.impl = spectral::parseClipImpl(currentId(impl_)).value_or(r.impl);
  r.ns.coefficients = spectral::parseNsCoefficients(currentId(coeffs_)).value_or(r.ns.coefficients);
  r.ns.steps = ns_->steps();
  r.ns.polishSteps = ns_->polishSteps();
  r.dtype = currentId(dtype_);
  return r;
}

void MethodForm::setRequest(const lab::ConstraintRequest& r) {
  applying_ = true;
  selectId(method_, spectral::toString(r.method));
  sigmaMax_->setValue(r.sigmaMax);
  sigmaMin_->setValue(r.sigmaMin);
  alphaAuto_->setChecked(!r.alpha.has_value());
  if (r.alpha) alpha_->setValue(*r.alpha);
  lr_->setValue(r.lr);
  lambda_->setValue(r.lambda);
  selectId(impl_, spectral::toString(r.impl));
  selectId(coeffs_, spectral::toString(r.ns.coefficients));
  ns_->setSteps(r.ns.steps);
  ns_->setPolishSteps(r.ns.polishSteps);
  selectId(dtype_, r.dtype);
  applying_ = false;
  emitChanged();
}

QString MethodForm::validationError() const { return QString::fromStdString(lab::validateRequest(request())); }

bool MethodForm::sliderDown() const {
  for (auto* f : {sigmaMax_, sigmaMin_, alpha_, lr_, lambda_})
    if (f->isSliderDown()) return true;
  return false;
}

void MethodForm::emitChanged() {
  if (applying_) return;
  updateRows();
  updateAlphaStar();
  Q_EMIT changed();
}

void MethodForm::updateRows() {
  using spectral::reads;
  const spectral::ConstraintMethod m = request().method;
  const bool alphaAuto = alphaAuto_->isChecked();
  // λ and η are read by α* only while α is automatic.
  const bool autoReads = !reads(m, spectral::kAlpha) || alphaAuto;
  form_->setRowVisible(sigmaMax_, reads(m, spectral::kSigmaMax));
  form_->setRowVisible(sigmaMin_, reads(m, spectral::kSigmaMin));
  form_->setRowVisible(alphaRow_, reads(m, spectral::kAlpha));
  form_->setRowVisible(lr_, reads(m, spectral::kLr) && autoReads);
  form_->setRowVisible(lambda_, reads(m, spectral::kLambda) && autoReads);
  form_->setRowVisible(impl_, reads(m, spectral::kImpl));
  form_->setRowVisible(nsRow_, reads(m, spectral::kNs));
  alpha_->setEnabled(!alphaAuto);
}

void MethodForm::updateAlphaStar() {
  const lab::ConstraintRequest r = request();
  if (!spectral::reads(r.method, spectral::kAlpha)) return;
  try {
    lab::ConstraintRequest autoReq = r;
    autoReq.alpha.reset();
    const double star = lab::resolvedSoftCapAlpha(autoReq);
    alphaStar_->setText(tr("α* = %1").arg(widgets::displayNumber(star, 'g', 4)));
    if (alphaAuto_->isChecked()) {
      const QSignalBlocker block(alpha_);
      alpha_->setValue(std::max(star, 1e-5));
    }
  } catch (const std::exception& e) {
    alphaStar_->setText(QString::fromUtf8(e.what()));
  }
}

}  // namespace lwb::app::pages
