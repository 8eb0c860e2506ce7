// Attention Lab, "Inside the prox" (004 Fig. 1): AttLip's output is argmin_Y φ_X(Y) =
// f(Y) + ‖Y − X‖²/(2η), found by gradient steps. For one input X (N tokens of width d, entries
// scale·N(0, 1)) this view plots the residual ‖g_k‖ = ‖∇φ(y_k)‖ (log axis) and the potential
// φ(y_k) per inner iteration for the Armijo line search and the fixed safe step, and steps
// through the iterations with a slider (and Play) like the Clip Lab's Newton–Schulz tab.
// Issue 26: a third plot shows how far the iterate has moved from its input,
// ‖y_k − X‖/‖X‖, and the text the accepted λ (mean, min) and ‖g_K‖/‖g_0‖ — a block that
// barely moves is nearly the identity. η is a field: a smaller η conditions the solve better.
#pragma once

#include "app/pages/common/request_fields.h"

#include "lab/lab.h"

#include "app/pages/attention/live_view.h"

class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSpinBox;

namespace lwb::widgets {
class CurvePlot;
}  // namespace lwb::widgets

namespace lwb::app::pages {

class LatestWins;
class StepPlayer;

struct ProxRequest {
  lab::AttentionBlockSpec block;
  int tokens = 64;
  double inputScale = 1.0;
  int maxSteps = 20;
};

class ProxView : public LiveView {
  Q_OBJECT

 public:
  explicit ProxView(QWidget* parent = nullptr);

  bool request(ProxRequest* out, QString* error) const;
  void setRequest(const ProxRequest& r);
  // Recomputes now (the view also recomputes by itself when a field changes while shown).
  void recompute() override;
  void cancel();
  void setStep(int k);
  int step() const;
  bool hasResult() const { return hasResult_; }
  const lab::ProxTraceResult& result() const { return result_; }
  QString infoText() const;
  widgets::CurvePlot* residualPlot() const { return residual_; }
  widgets::CurvePlot* potentialPlot() const { return potential_; }
  widgets::CurvePlot* movementPlot() const { return movement_; }
  LatestWins* runner() const { return runner_; }
  bool exportCsv(const QString& path, QString* error = nullptr) const;
  bool savePlots(const QString& path, QString* error = nullptr);
  void replotNow();

 Q_SIGNALS:
  void traceReady();

 private:
  void createFields();
  void createPlots();
  void layOut();
  void connectFields();
  RequestFields<ProxRequest> fields_;
  void showTrace();
  void showStep();

  LatestWins* runner_ = nullptr;
  QSpinBox* tokens_ = nullptr;
  QSpinBox* dim_ = nullptr;
  QSpinBox* heads_ = nullptr;
  QDoubleSpinBox* scale_ = nullptr;
  QDoubleSpinBox* eta_ = nullptr;
  QDoubleSpinBox* relaxation_ = nullptr;
  QSpinBox* steps_ = nullptr;
  QSpinBox* seed_ = nullptr;
  StepPlayer* player_ = nullptr;
  QPushButton* cancel_ = nullptr;
  QLabel* info_ = nullptr;
  widgets::CurvePlot* residual_ = nullptr;
  widgets::CurvePlot* potential_ = nullptr;
  widgets::CurvePlot* movement_ = nullptr;
  lab::ProxTraceResult result_;
  bool hasResult_ = false;
};

}  // namespace lwb::app::pages
