// Clip Lab, "Constraint" tab: what one method does to the matrix, all at once — the scalar
// map f(σ) with the input's singular values on it, the spectrum before and after, the error
// of every singular value against the exact SVD result, and the figures (σ₁ after vs exact,
// largest error, matrix error, time of the method and of the whole update).
#pragma once

#include "lab/constraint_lab.h"

#include <QWidget>

class QLabel;

namespace lwb::widgets {
class CurvePlot;
class ScalarMapPlot;
class SpectrumPlot;
}  // namespace lwb::widgets

namespace lwb::app::pages {


class ConstraintView : public QWidget {
  Q_OBJECT

 public:
  explicit ConstraintView(QWidget* parent = nullptr);

  // A result of `request`; latencyMs is the time from the request to now.
  void showOutcome(const lab::ConstraintOutcome& outcome, const lab::ConstraintRequest& request, double latencyMs);
  // At once, on the GUI thread, before the worker's result: f(σ) of `request` with the input
  // singular values on it (plain double arithmetic), so the curve follows a slider without
  // waiting for the method.
  void showPreview(const lab::ConstraintRequest& request, const std::vector<double>& sigmas);
  int previewCount() const { return previews_; }
  void clear();
  // Redraws every plot at once (screenshots, tests, benchmarks).
  void replotNow();

  widgets::ScalarMapPlot* scalarMapPlot() const { return map_; }
  widgets::SpectrumPlot* spectrumPlot() const { return spectrum_; }
  widgets::CurvePlot* errorPlot() const { return error_; }
  QLabel* figuresLabel() const { return figures_; }
  int shownCount() const { return shown_; }
  // The result shown last and the request it answered.
  const lab::ConstraintOutcome& lastOutcome() const { return lastOutcome_; }
  const lab::ConstraintRequest& lastRequest() const { return lastRequest_; }

 Q_SIGNALS:
  void shown();  // after showOutcome() has handed the data to the plots

 private:
  widgets::ScalarMapPlot* map_ = nullptr;
  widgets::SpectrumPlot* spectrum_ = nullptr;
  widgets::CurvePlot* error_ = nullptr;
  QLabel* figures_ = nullptr;
  void drawScalarMap(const lab::ConstraintRequest& r, const std::vector<double>& sigmas, const std::vector<double>& exact,
                     double alpha, const std::vector<double>* measured);

  int shown_ = 0;
  int previews_ = 0;
  lab::ConstraintOutcome lastOutcome_;
  lab::ConstraintRequest lastRequest_;
};

}  // namespace lwb::app::pages
