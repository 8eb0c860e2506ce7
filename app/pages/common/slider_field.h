// A parameter as a slider with a spin box beside it: the slider for live demos (values
// change continuously while it is dragged), the spin box for exact values. Log-scaled
// sliders for thresholds spanning decades (σmax 0.01 … 100).
#pragma once

#include <QWidget>

class QDoubleSpinBox;
class QSlider;

namespace lwb::app::pages {

class SliderField : public QWidget {
  Q_OBJECT

 public:
  // [lo, hi] with `decimals` in the spin box; log: the slider moves geometrically (lo > 0).
  SliderField(double lo, double hi, double value, int decimals, bool log, QWidget* parent = nullptr);

  double value() const;
  void setValue(double v);  // clamped to the range; emits valueChanged when it changes
  void setRange(double lo, double hi);
  bool isSliderDown() const;


 Q_SIGNALS:
  void valueChanged(double value);  // every slider step and every spin-box edit
  void sliderReleased();

 private:
  int toSlider(double v) const;
  double fromSlider(int pos) const;

  QSlider* slider_ = nullptr;
  QDoubleSpinBox* spin_ = nullptr;
  double lo_, hi_;
  bool log_;
};

}  // namespace lwb::app::pages
