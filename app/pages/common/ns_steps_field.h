// A Newton–Schulz schedule's length as the Clip Lab's method form, its Newton–Schulz view and
// its cap sweep ask for it: "[steps] + polish [polish steps]". One range for all three, the
// engine's (constraint_methods.cpp: ns_steps ≥ 0, ns_polish_steps ≥ 0, at least one step in
// all; the request's check names a 0 + 0 schedule), capped at what a lecture shows: 30 steps
// of the coefficient set and 10 polishing steps.
#pragma once

#include <QObject>

class QBoxLayout;
class QSpinBox;
class QWidget;

namespace lwb::app::pages {

// Not a widget of its own: its three pieces go into the caller's row (addTo), so they share
// the row's width as the other fields there do.
class NsStepsField : public QObject {
  Q_OBJECT

 public:
  static constexpr int kMaxSteps = 30, kMaxPolish = 10;

  // The spin boxes and the "+ polish" label are children of `parent`.
  explicit NsStepsField(QWidget* parent);
  void addTo(QBoxLayout* row) const;

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
  QWidget* label_ = nullptr;
};

}  // namespace lwb::app::pages
