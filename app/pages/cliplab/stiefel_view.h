// Clip Lab, "Stiefel retraction" tab (seed 002, issue 14): a matrix W on the Stiefel
// manifold, a step W − ηA off it, and the spectrum after msign with each Newton–Schulz
// coefficient set. Manifold Muon uses msign as its retraction, so only a set that converges
// to σ = 1 keeps the matrices on the manifold: the left plot shows σᵢ, the right |σᵢ − 1|.
#pragma once

#include "app/pages/common/request_fields.h"

#include "lab/lab.h"

#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;

namespace lwb::widgets {
class CurvePlot;
}  // namespace lwb::widgets

namespace lwb::app::pages {

class LatestWins;

class StiefelView : public QWidget {
  Q_OBJECT

 public:
  explicit StiefelView(QWidget* parent = nullptr);
  void setRequest(const lab::StiefelRetractionRequest& r);
  bool hasResult() const { return hasResult_; }
  const lab::StiefelRetraction& result() const { return result_; }
  widgets::CurvePlot* sigmaPlot() const { return sigma_; }
  LatestWins* runner() const { return runner_; }
  void replotNow();

 Q_SIGNALS:
  void resultReady();

 protected:
  void showEvent(QShowEvent* event) override;

 private:
  RequestFields<lab::StiefelRetractionRequest> fields_;
  lab::StiefelRetractionRequest request() const;
  void recompute();
  void show(const lab::StiefelRetraction& r);

  lab::StiefelRetraction result_;
  bool hasResult_ = false;
  bool dirty_ = true;
  LatestWins* runner_ = nullptr;
  QSpinBox* rows_ = nullptr;
  QSpinBox* cols_ = nullptr;
  QDoubleSpinBox* eta_ = nullptr;
  QSpinBox* seed_ = nullptr;
  QComboBox* dtype_ = nullptr;
  QLabel* info_ = nullptr;
  widgets::CurvePlot* sigma_ = nullptr;
  widgets::CurvePlot* deviation_ = nullptr;
};

}  // namespace lwb::app::pages
