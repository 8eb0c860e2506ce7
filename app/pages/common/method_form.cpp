#include "app/pages/common/method_form.h"

#include "app/pages/common/slider_field.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>

#include <cmath>

namespace lwb::app::pages {
namespace {

QComboBox* idCombo(const std::vector<std::string>& ids, QWidget* parent, bool titles = false) {
  auto* box = new QComboBox(parent);
  for (const auto& id : ids) {
    const QString q = QString::fromStdString(id);
    box->addItem(titles ? MethodForm::methodTitle(q) : q, q);
  }
  return box;
}

void selectData(QComboBox* box, const std::string& id) {
  const int i = box->findData(QString::fromStdString(id));
  if (i >= 0) box->setCurrentIndex(i);
}

std::string currentId(const QComboBox* box) { return box->currentData().toString().toStdString(); }

}  // namespace

QString MethodForm::methodTitle(const QString& id) {
  static const QHash<QString, const char*> titles = {
      {QStringLiteral("none"), QT_TR_NOOP("none")},
      {QStringLiteral("weight_decay"), QT_TR_NOOP("weight decay")},
      {QStringLiteral("spectral_weight_decay"), QT_TR_NOOP("spectral weight decay")},
      {QStringLiteral("spectral_normalize"), QT_TR_NOOP("spectral normalize")},
      {QStringLiteral("spectral_hammer"), QT_TR_NOOP("spectral hammer")},
      {QStringLiteral("stiefel"), QT_TR_NOOP("Stiefel (all σ → σmax)")},
      {QStringLiteral("spectral_soft_cap"), QT_TR_NOOP("spectral soft cap")},
      {QStringLiteral("spectral_hard_cap"), QT_TR_NOOP("spectral hard cap")},
      {QStringLiteral("spectral_clip"), QT_TR_NOOP("spectral clip [σmin, σmax]")},
      {QStringLiteral("spectral_relu"), QT_TR_NOOP("spectral ReLU (σ ≥ σmin)")},
      {QStringLiteral("spectral_clipped_weight_decay"), QT_TR_NOOP("spectral clipped weight decay")},
      {QStringLiteral("svd_clip"), QT_TR_NOOP("SVD clip (exact)")},
  };
  const auto it = titles.find(id);
  return it == titles.end() ? id : tr(it.value());
}

MethodForm::MethodForm(QWidget* parent) : QWidget(parent) {
  form_ = new QFormLayout(this);
  form_->setContentsMargins(0, 0, 0, 0);
  form_->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);

  method_ = idCombo(lab::constraintMethodIds(), this, true);
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
  impl_ = idCombo(lab::clipImplIds(), this);
  impl_->setObjectName(QStringLiteral("implBox"));
  coeffs_ = idCombo(lab::nsCoefficientIds(), this);
  steps_ = new QSpinBox(this);
  steps_->setRange(0, 30);
  steps_->setValue(10);
  polish_ = new QSpinBox(this);
  polish_->setRange(0, 10);
  polish_->setValue(4);
  dtype_ = idCombo(lab::labDtypeIds(), this);

  alphaRow_ = new QWidget(this);
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
  nsLayout->addWidget(steps_);
  nsLayout->addWidget(new QLabel(tr("+ polish"), nsRow_));
  nsLayout->addWidget(polish_);
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
  for (auto* s : {steps_, polish_}) connect(s, &QSpinBox::valueChanged, this, &MethodForm::emitChanged);
  connect(alphaAuto_, &QCheckBox::toggled, this, &MethodForm::emitChanged);

  selectData(method_, "spectral_hard_cap");
  updateRows();
  updateAlphaStar();
}

lab::ConstraintRequest MethodForm::request() const {
  lab::ConstraintRequest r;
  r.method = currentId(method_);
  r.sigmaMax = sigmaMax_->value();
  r.sigmaMin = std::min(sigmaMin_->value(), sigmaMax_->value());
  if (!alphaAuto_->isChecked()) r.alpha = alpha_->value();
  r.lr = lr_->value();
  r.lambda = lambda_->value();
  r.impl = currentId(impl_);
  r.coefficients = currentId(coeffs_);
  r.nsSteps = steps_->value();
  r.polishSteps = polish_->value();
  r.dtype = currentId(dtype_);
  return r;
}

void MethodForm::setRequest(const lab::ConstraintRequest& r) {
  applying_ = true;
  selectData(method_, r.method);
  sigmaMax_->setValue(r.sigmaMax);
  sigmaMin_->setValue(r.sigmaMin);
  alphaAuto_->setChecked(!r.alpha.has_value());
  if (r.alpha) alpha_->setValue(*r.alpha);
  lr_->setValue(r.lr);
  lambda_->setValue(r.lambda);
  selectData(impl_, r.impl);
  selectData(coeffs_, r.coefficients);
  steps_->setValue(r.nsSteps);
  polish_->setValue(r.polishSteps);
  selectData(dtype_, r.dtype);
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
  const std::string m = currentId(method_);
  const bool softCap = m == "spectral_soft_cap";
  const bool clipFamily = lab::usesClipImpl(m);
  const bool usesMax = lab::usesSigmaMax(m);
  const bool usesMin = lab::usesSigmaMin(m);
  const bool usesLambda = m == "weight_decay" || m == "spectral_weight_decay" || m == "spectral_clipped_weight_decay" ||
                          (softCap && alphaAuto_->isChecked());
  const bool usesLr = m == "weight_decay" || (softCap && alphaAuto_->isChecked());
  form_->setRowVisible(sigmaMax_, usesMax);
  form_->setRowVisible(sigmaMin_, usesMin);
  form_->setRowVisible(alphaRow_, softCap);
  form_->setRowVisible(lr_, usesLr);
  form_->setRowVisible(lambda_, usesLambda);
  form_->setRowVisible(impl_, clipFamily);
  form_->setRowVisible(nsRow_, clipFamily || m == "stiefel");
  alpha_->setEnabled(!alphaAuto_->isChecked());
}

void MethodForm::updateAlphaStar() {
  const lab::ConstraintRequest r = request();
  if (r.method != "spectral_soft_cap") return;
  try {
    lab::ConstraintRequest autoReq = r;
    autoReq.alpha.reset();
    const double star = lab::resolvedSoftCapAlpha(autoReq);
    alphaStar_->setText(tr("α* = %1").arg(QString::number(star, 'g', 4)));
    if (alphaAuto_->isChecked()) {
      const QSignalBlocker block(alpha_);
      alpha_->setValue(std::max(star, 1e-5));
    }
  } catch (const std::exception& e) {
    alphaStar_->setText(QString::fromUtf8(e.what()));
  }
}

}  // namespace lwb::app::pages
