// Clip Lab, "Nested vs ABD" tab: 001 §6.1's experiment. Hard cap at σmax of matrices with
// σ₁ from 1.5 to 1000 in every implementation and the chosen precision; σ₁ of the result
// and the largest singular-value error against the exact clip, per implementation. Runs on
// a worker with progress and Cancel.
#pragma once

#include "lab/lab.h"

#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace lwb::widgets {
class CurvePlot;
}  // namespace lwb::widgets

namespace lwb::app::pages {

class NsStepsField;

class LatestWins;

class CapSweepView : public QWidget {
  Q_OBJECT

 public:
  explicit CapSweepView(QWidget* parent = nullptr);

  lab::CapSweepRequest request() const;
  void setRequest(const lab::CapSweepRequest& r);
  void run();
  void cancel();
  bool hasResult() const { return hasResult_; }
  const lab::CapSweep& result() const { return result_; }
  void replotNow();

  widgets::CurvePlot* errorPlot() const { return error_; }

 Q_SIGNALS:
  void finished();

 private:
  void showResult();

  LatestWins* runner_ = nullptr;
  QComboBox* size_ = nullptr;
  QComboBox* dtype_ = nullptr;
  QDoubleSpinBox* sigmaMax_ = nullptr;
  NsStepsField* ns_ = nullptr;
  QPushButton* runButton_ = nullptr;
  QPushButton* cancelButton_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QLabel* info_ = nullptr;
  widgets::CurvePlot* sigma_ = nullptr;
  widgets::CurvePlot* error_ = nullptr;
  lab::CapSweep result_;
  lab::CapSweepRequest shownRequest_;
  bool hasResult_ = false;
};

}  // namespace lwb::app::pages
