// Attention Lab, "Why Armijo with small K is not 1-Lipschitz" (SEEDS-002-004 §C.4): the step
// the Armijo search accepts is a piecewise-constant function of the input, so K steps of it
// form a discontinuous map. On random near pairs (y = x + 1e−3·z) the measured ratio
// ‖f(x) − f(y)‖/‖x − y‖ for K = 1…Kmax, Armijo against the fixed safe step, with the line 1.
#pragma once

#include "app/pages/common/request_fields.h"

#include "lab/lab.h"

#include "app/pages/attention/live_view.h"

#include <vector>

class QLabel;
class QPushButton;
class QDoubleSpinBox;
class QSpinBox;

namespace lwb::widgets {
class CurvePlot;
}  // namespace lwb::widgets

namespace lwb::app::pages {

class LatestWins;

struct FiniteKRequest {
  lab::AttentionBlockSpec block;
  int tokens = 16;
  int pairs = 5;
  int kMax = 5;
};

class FiniteKView : public LiveView {
  Q_OBJECT

 public:
  explicit FiniteKView(QWidget* parent = nullptr);

  bool request(FiniteKRequest* out, QString* error) const;
  void setRequest(const FiniteKRequest& r);
  void recompute() override;
  void cancel();
  bool hasResult() const { return hasResult_; }
  const std::vector<lab::FiniteKRow>& rows() const { return rows_; }
  QString infoText() const;
  widgets::CurvePlot* plot() const { return plot_; }
  LatestWins* runner() const { return runner_; }
  bool exportCsv(const QString& path, QString* error = nullptr) const;
  bool savePlot(const QString& path, QString* error = nullptr);
  void replotNow();

 Q_SIGNALS:
  void ratiosReady();

 private:
  RequestFields<FiniteKRequest> fields_;
  void showRows();

  LatestWins* runner_ = nullptr;
  QSpinBox* tokens_ = nullptr;
  QSpinBox* dim_ = nullptr;
  QSpinBox* heads_ = nullptr;
  QSpinBox* pairs_ = nullptr;
  QSpinBox* kMax_ = nullptr;
  QSpinBox* seed_ = nullptr;
  QDoubleSpinBox* relaxation_ = nullptr;
  double shownRelaxation_ = 1.0;  // α of the rows shown
  QPushButton* cancel_ = nullptr;
  QLabel* info_ = nullptr;
  widgets::CurvePlot* plot_ = nullptr;
  std::vector<lab::FiniteKRow> rows_;
  bool hasResult_ = false;
};

}  // namespace lwb::app::pages
