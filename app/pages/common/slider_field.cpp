#include "app/pages/common/slider_field.h"

#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QSignalBlocker>
#include <QSlider>

#include <algorithm>
#include <cmath>

namespace lwb::app::pages {
namespace {
constexpr int kSteps = 1000;
}

SliderField::SliderField(double lo, double hi, double value, int decimals, bool log, QWidget* parent)
    : QWidget(parent), lo_(lo), hi_(hi), log_(log && lo > 0) {
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  slider_ = new QSlider(Qt::Horizontal, this);
  slider_->setRange(0, kSteps);
  slider_->setMinimumWidth(110);
  spin_ = new QDoubleSpinBox(this);
  spin_->setDecimals(decimals);
  spin_->setRange(lo, hi);
  spin_->setKeyboardTracking(false);  // typed values apply on Enter / focus out, not per key
  spin_->setSingleStep(log_ ? std::max(std::pow(10.0, -decimals), lo) : (hi - lo) / 100.0);
  spin_->setMinimumWidth(78);
  layout->addWidget(slider_, 1);
  layout->addWidget(spin_);
  setValue(value);
  connect(slider_, &QSlider::valueChanged, this, [this](int pos) {
    const double v = fromSlider(pos);
    {
      const QSignalBlocker block(spin_);
      spin_->setValue(v);
    }
    Q_EMIT valueChanged(spin_->value());
  });
  connect(slider_, &QSlider::sliderReleased, this, &SliderField::sliderReleased);
  connect(spin_, &QDoubleSpinBox::valueChanged, this, [this](double v) {
    {
      const QSignalBlocker block(slider_);
      slider_->setValue(toSlider(v));
    }
    Q_EMIT valueChanged(v);
  });
}

double SliderField::value() const { return spin_->value(); }

void SliderField::setValue(double v) {
  if (!std::isfinite(v)) return;
  v = std::clamp(v, lo_, hi_);
  {
    const QSignalBlocker block(slider_);
    slider_->setValue(toSlider(v));
  }
  spin_->setValue(v);  // emits valueChanged (through the spin box) only if it changed
}

void SliderField::setRange(double lo, double hi) {
  lo_ = lo;
  hi_ = hi;
  log_ = log_ && lo > 0;
  spin_->setRange(lo, hi);
  const QSignalBlocker block(slider_);
  slider_->setValue(toSlider(spin_->value()));
}

bool SliderField::isSliderDown() const { return slider_->isSliderDown(); }

int SliderField::toSlider(double v) const {
  if (!(hi_ > lo_)) return 0;
  const double f = log_ ? std::log(std::max(v, lo_) / lo_) / std::log(hi_ / lo_) : (v - lo_) / (hi_ - lo_);
  return static_cast<int>(std::lround(std::clamp(f, 0.0, 1.0) * kSteps));
}

double SliderField::fromSlider(int pos) const {
  const double f = static_cast<double>(pos) / kSteps;
  return log_ ? lo_ * std::pow(hi_ / lo_, f) : lo_ + f * (hi_ - lo_);
}

}  // namespace lwb::app::pages
