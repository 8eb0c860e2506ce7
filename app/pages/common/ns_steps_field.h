// A Newton–Schulz schedule's length as the Clip Lab's method form, its Newton–Schulz view and
// its cap sweep ask for it: "[steps] + polish [polish steps]". One range for all three, the
// engine's (constraint_methods.cpp: ns_steps ≥ 0, ns_polish_steps ≥ 0, at least one step in
// all; the request's check names a 0 + 0 schedule), capped at what a lecture shows: 30 steps
// of the coefficient set and 10 polishing steps.
#pragma once

#include <QWidget>

class QSpinBox;

namespace lwb::app::pages {

class NsStepsField : public QWidget {
  Q_OBJECT

 public:
  static constexpr int kMaxSteps = 30, kMaxPolish = 10;

  explicit NsStepsField(QWidget* parent = nullptr);

  int steps() const;
  int polishSteps() const;
  void setSteps(int steps);
  void setPolishSteps(int polish);
  QSpinBox* stepsBox() const { return steps_; }

 Q_SIGNALS:
  void changed();

 private:
  QSpinBox* steps_ = nullptr;
  QSpinBox* polish_ = nullptr;
};

}  // namespace lwb::app::pages
