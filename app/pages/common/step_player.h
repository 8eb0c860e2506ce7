// A step-through control: a slider over steps 0…n with previous/next buttons and Play (one
// step every 600 ms, stopping at the last). The Attention Lab's prox iterations use it.
#pragma once

#include <QWidget>

class QPushButton;
class QSlider;
class QTimer;

namespace lwb::app::pages {

class StepPlayer : public QWidget {
  Q_OBJECT

 public:
  explicit StepPlayer(QWidget* parent = nullptr);

  int value() const;
  void setValue(int k);  // clamped to 0…maximum()
  int maximum() const;
  void setMaximum(int last);  // the value is clamped into the new range
  QSlider* slider() const { return slider_; }

 Q_SIGNALS:
  void valueChanged(int k);

 private:
  void togglePlay();

  QSlider* slider_ = nullptr;
  QPushButton* prev_ = nullptr;
  QPushButton* next_ = nullptr;
  QPushButton* play_ = nullptr;
  QTimer* timer_ = nullptr;
};

}  // namespace lwb::app::pages
