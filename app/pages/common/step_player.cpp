#include "app/pages/common/step_player.h"

#include <QHBoxLayout>
#include <QPushButton>
#include <QSlider>
#include <QTimer>

namespace lwb::app::pages {

StepPlayer::StepPlayer(QWidget* parent) : QWidget(parent) {
  slider_ = new QSlider(Qt::Horizontal, this);
  slider_->setRange(0, 0);
  prev_ = new QPushButton(tr("◀"), this);
  prev_->setToolTip(tr("Previous step"));
  next_ = new QPushButton(tr("▶"), this);
  next_->setToolTip(tr("Next step"));
  play_ = new QPushButton(tr("Pla&y"), this);
  for (QPushButton* b : {prev_, next_}) b->setMaximumWidth(36);
  timer_ = new QTimer(this);
  timer_->setInterval(600);
  auto* row = new QHBoxLayout(this);
  row->setContentsMargins(0, 0, 0, 0);
  row->addWidget(prev_);
  row->addWidget(slider_, 1);
  row->addWidget(next_);
  row->addWidget(play_);
  connect(slider_, &QSlider::valueChanged, this, &StepPlayer::valueChanged);
  connect(prev_, &QPushButton::clicked, this, [this] { setValue(value() - 1); });
  connect(next_, &QPushButton::clicked, this, [this] { setValue(value() + 1); });
  connect(play_, &QPushButton::clicked, this, &StepPlayer::togglePlay);
  connect(timer_, &QTimer::timeout, this, [this] {
    if (value() >= maximum()) return togglePlay();
    setValue(value() + 1);
  });
}

int StepPlayer::value() const { return slider_->value(); }
void StepPlayer::setValue(int k) { slider_->setValue(k); }
int StepPlayer::maximum() const { return slider_->maximum(); }

void StepPlayer::setMaximum(int last) { slider_->setRange(0, last); }

void StepPlayer::togglePlay() {
  if (timer_->isActive()) {
    timer_->stop();
    play_->setText(tr("Pla&y"));
    return;
  }
  if (value() >= maximum()) setValue(0);
  timer_->start();
  play_->setText(tr("Sto&p"));
}

}  // namespace lwb::app::pages
