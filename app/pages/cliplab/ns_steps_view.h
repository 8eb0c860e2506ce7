// Clip Lab, "Newton–Schulz steps" tab: msign(W) one iteration at a time. Each step applies
// the odd polynomial p(x) = ax + bx³ + cx⁵ to every singular value of X = W/‖W‖_F in
// parallel: the left plot shows the composed polynomial p_k∘…∘p₁ with the input's singular
// values on it, the right plot the singular values of the matrix iterate X_k (in the chosen
// precision) against the same polynomials applied in float64. A slider (and Play) walks k.
#pragma once

#include "lab/lab.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QPushButton;
class QSlider;
class QSpinBox;
class QTimer;

namespace lwb::widgets {
class CurvePlot;
}  // namespace lwb::widgets

namespace lwb::app::pages {

class NsStepsField;

class LatestWins;

class NsStepsView : public QWidget {
  Q_OBJECT

 public:
  explicit NsStepsView(QWidget* parent = nullptr);

  void setMatrix(lab::LabMatrixPtr matrix);
  void setSettings(const lab::NsTraceRequest& r);
  void setStep(int k);
  int step() const;
  // Whether the trace for the current matrix and settings has arrived.
  bool hasTrace() const { return hasTrace_; }
  void replotNow();

  widgets::CurvePlot* polynomialPlot() const { return poly_; }
  widgets::CurvePlot* rankedPlot() const { return ranked_; }
  LatestWins* runner() const { return runner_; }

 Q_SIGNALS:
  void traceReady();

 protected:
  void showEvent(QShowEvent* event) override;

 private:
  lab::NsTraceRequest settings() const;
  void recompute();
  void showStep();

  lab::LabMatrixPtr matrix_;
  lab::NsTrace trace_;
  bool hasTrace_ = false;
  bool dirty_ = true;
  LatestWins* runner_ = nullptr;
  QComboBox* coeffs_ = nullptr;
  NsStepsField* ns_ = nullptr;
  QComboBox* dtype_ = nullptr;
  QSlider* stepSlider_ = nullptr;
  QPushButton* play_ = nullptr;
  QTimer* playTimer_ = nullptr;
  QLabel* info_ = nullptr;
  widgets::CurvePlot* poly_ = nullptr;
  widgets::CurvePlot* ranked_ = nullptr;
};

}  // namespace lwb::app::pages
