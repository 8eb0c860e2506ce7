// The controls of one constraint method and its parameters (σmax, σmin, α or α* from η, λ,
// clip implementation, Newton–Schulz coefficients and steps, precision), shared by the Clip
// Lab and the Inspector's "what if" preview. Rows a method does not use are hidden.
#pragma once

#include "lab/constraint_lab.h"

#include <QWidget>

#include <string_view>

class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QSpinBox;

namespace lwb::app::pages {

class NsStepsField;

class SliderField;

class MethodForm : public QWidget {
  Q_OBJECT

 public:
  explicit MethodForm(QWidget* parent = nullptr);

  lab::ConstraintRequest request() const;
  // Sets every control (emits changed() once).
  void setRequest(const lab::ConstraintRequest& r);
  // Empty when the request is valid, else what is wrong.
  QString validationError() const;
  // True while the user holds one of the sliders.
  bool sliderDown() const;

  // The method's title from the registry, translated.
  static QString methodTitle(spectral::ConstraintMethod m);

  QComboBox* methodBox() const { return method_; }
  QComboBox* implBox() const { return impl_; }
  SliderField* sigmaMaxField() const { return sigmaMax_; }
  SliderField* alphaField() const { return alpha_; }
  SliderField* lambdaField() const { return lambda_; }
  QSpinBox* nsStepsField() const;

 Q_SIGNALS:
  void changed();
  void sliderReleased();

 private:
  void updateRows();
  void updateAlphaStar();
  void emitChanged();

  QFormLayout* form_ = nullptr;
  QComboBox* method_ = nullptr;
  SliderField* sigmaMax_ = nullptr;
  SliderField* sigmaMin_ = nullptr;
  SliderField* alpha_ = nullptr;
  QCheckBox* alphaAuto_ = nullptr;
  QLabel* alphaStar_ = nullptr;
  SliderField* lr_ = nullptr;
  SliderField* lambda_ = nullptr;
  QComboBox* impl_ = nullptr;
  QComboBox* coeffs_ = nullptr;
  NsStepsField* ns_ = nullptr;
  QComboBox* dtype_ = nullptr;
  QWidget* alphaRow_ = nullptr;
  QWidget* nsRow_ = nullptr;
  bool applying_ = false;
};

}  // namespace lwb::app::pages
