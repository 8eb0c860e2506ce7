// Attention Lab, "Tokens in the plane": tokens of width d = 2 as points, a perturbed copy, and
// their images under each attention kind, one panel per kind on the same axes (small
// multiples), an arrow from each token to its image, and the measured ratio
// ‖f(X) − f(X′)‖/‖X − X′‖ in each panel's title: AttLip's images of the two inputs stay at
// most as far apart as the inputs.
#pragma once

#include "app/pages/common/request_fields.h"

#include "lab/lab.h"

#include "app/pages/attention/live_view.h"

#include <cstdint>
#include <vector>

class QDoubleSpinBox;
class QLabel;
class QSpinBox;

namespace lwb::widgets {
class TokenPlanePlot;
}  // namespace lwb::widgets

namespace lwb::app::pages {

class LatestWins;

struct PlaneRequest {
  int tokens = 6;
  int heads = 1;
  uint64_t seed = 0;
  double perturbation = 0.5;
};

class PlaneView : public LiveView {
  Q_OBJECT

 public:
  explicit PlaneView(QWidget* parent = nullptr);

  PlaneRequest request() const;
  void setRequest(const PlaneRequest& r);
  void recompute() override;
  bool hasResult() const { return hasResult_; }
  const lab::PlanePicture& picture() const { return picture_; }
  QString infoText() const;
  // One panel per kind, in lab::attentionKindIds() order.
  const std::vector<widgets::TokenPlanePlot*>& panels() const { return panels_; }
  LatestWins* runner() const { return runner_; }
  bool exportCsv(const QString& path, QString* error = nullptr) const;
  bool savePlots(const QString& path, QString* error = nullptr);
  void replotNow();

 Q_SIGNALS:
  void pictureReady();

 private:
  RequestFields<PlaneRequest> fields_;
  void showPicture();

  LatestWins* runner_ = nullptr;
  QSpinBox* tokens_ = nullptr;
  QSpinBox* heads_ = nullptr;
  QSpinBox* seed_ = nullptr;
  QDoubleSpinBox* perturbation_ = nullptr;
  QLabel* info_ = nullptr;
  std::vector<widgets::TokenPlanePlot*> panels_;
  lab::PlanePicture picture_;
  bool hasResult_ = false;
};

}  // namespace lwb::app::pages
