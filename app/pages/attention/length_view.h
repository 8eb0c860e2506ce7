// Attention Lab, "Lipschitz vs sequence length" (004 Table 1): for chosen d, H and token
// counts N, the PGD estimate of each attention kind's Lipschitz constant and its theoretical
// bound (AttLip 1, ℓ2 Kim's bound growing as √N·log N, standard none) on a log axis; for ℓ2
// also 004's Eq. 6 as printed, labelled as the paper's number and not a bound. One worker
// computes (N, kind) after (N, kind); each point reaches the plot and the table as soon as it
// is done, with a progress bar and Cancel.
#pragma once

#include "lab/lab.h"

#include <QWidget>

#include <string>
#include <vector>

class QCheckBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QDoubleSpinBox;
class QSpinBox;
class QTableWidget;

namespace lwb::widgets {
class CurvePlot;
}  // namespace lwb::widgets

namespace lwb::app::pages {

class LatestWins;

struct LengthRequest {
  lab::AttentionBlockSpec block;  // kind is set per point
  std::vector<int> tokens;
  std::vector<std::string> kinds;
  lab::PgdSettings pgd;
};

struct LengthPoint {
  std::string kind;
  lab::TokensPoint point;
};

class LengthView : public QWidget {
  Q_OBJECT

 public:
  explicit LengthView(QWidget* parent = nullptr);
  ~LengthView() override;

  // The fields as a request; false with *error naming the field.
  bool request(LengthRequest* out, QString* error) const;
  void setRequest(const LengthRequest& r);
  void setPaperOverlay(bool on);
  // Validates the fields and starts the computation (the previous points are cleared).
  void run();
  void cancel();
  bool isBusy() const;

  const std::vector<LengthPoint>& points() const { return points_; }
  QString messageText() const;
  widgets::CurvePlot* plot() const { return plot_; }
  QTableWidget* table() const { return table_; }
  // One row per (N, kind): the numbers of the plot at full precision.
  bool exportCsv(const QString& path, QString* error = nullptr) const;
  bool savePlot(const QString& path, QString* error = nullptr);
  void replotNow();

 Q_SIGNALS:
  void pointAdded(const lwb::app::pages::LengthPoint& point);
  void finished();

 private:
  void createFields();
  void createResults();
  void layOut();
  void connectActions();
  void addPoint(int generation, const LengthPoint& p);
  void replot();
  void showMessage(const QString& text, bool error);

  LatestWins* runner_ = nullptr;
  QSpinBox* dim_ = nullptr;
  QSpinBox* heads_ = nullptr;
  QLineEdit* tokens_ = nullptr;
  QSpinBox* iters_ = nullptr;
  QSpinBox* restarts_ = nullptr;
  QSpinBox* seed_ = nullptr;
  QDoubleSpinBox* relaxation_ = nullptr;
  std::vector<QCheckBox*> kindBoxes_;
  QCheckBox* paper_ = nullptr;
  QPushButton* run_ = nullptr;
  QPushButton* cancel_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QLabel* message_ = nullptr;
  widgets::CurvePlot* plot_ = nullptr;
  QTableWidget* table_ = nullptr;
  std::vector<LengthPoint> points_;
  int generation_ = 0;
};

}  // namespace lwb::app::pages

Q_DECLARE_METATYPE(lwb::app::pages::LengthPoint)
