// Clip Lab, "Equilibrium" tab: repeated Muon-sized updates (‖ΔW‖ = η) under weight decay,
// spectral clipped weight decay and soft cap, with σ₁ settling at 1/λ, at β + (1 − λ)η/λ
// (000 App. C.2, 001 §3.4), or staying under σmax (App. B). Recomputed on every change.
#pragma once

#include "app/pages/common/request_fields.h"

#include "lab/lab.h"

#include <QWidget>

class QLabel;
class QSpinBox;

namespace lwb::widgets {
class CurvePlot;
}  // namespace lwb::widgets

namespace lwb::app::pages {

class LatestWins;
class SliderField;

class EquilibriumView : public QWidget {
  Q_OBJECT

 public:
  explicit EquilibriumView(QWidget* parent = nullptr);

  lab::EquilibriumRequest request() const;
  void setRequest(const lab::EquilibriumRequest& r);
  bool hasResult() const { return hasResult_; }
  const lab::EquilibriumResult& result() const { return result_; }
  widgets::CurvePlot* plot() const { return plot_; }
  void replotNow();

 Q_SIGNALS:
  void resultReady();

 protected:
  void showEvent(QShowEvent* event) override;

 private:
  RequestFields<lab::EquilibriumRequest> fields_;
  void recompute();
  void showResult();

  LatestWins* runner_ = nullptr;
  SliderField* lr_ = nullptr;
  SliderField* lambda_ = nullptr;
  SliderField* sigmaMax_ = nullptr;
  SliderField* alignment_ = nullptr;
  SliderField* start_ = nullptr;
  QSpinBox* steps_ = nullptr;
  QLabel* info_ = nullptr;
  widgets::CurvePlot* plot_ = nullptr;
  lab::EquilibriumResult result_;
  lab::EquilibriumRequest shown_;
  bool hasResult_ = false;
  bool dirty_ = true;
};

}  // namespace lwb::app::pages
