#include "app/pages/common/ns_steps_field.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>

namespace lwb::app::pages {

NsStepsField::NsStepsField(QWidget* parent) : QWidget(parent) {
  steps_ = new QSpinBox(this);
  steps_->setRange(0, kMaxSteps);
  steps_->setValue(10);
  polish_ = new QSpinBox(this);
  polish_->setRange(0, kMaxPolish);
  polish_->setValue(4);
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(steps_);
  layout->addWidget(new QLabel(tr("+ polish"), this));
  layout->addWidget(polish_);
  for (auto* s : {steps_, polish_}) connect(s, &QSpinBox::valueChanged, this, &NsStepsField::changed);
}

int NsStepsField::steps() const { return steps_->value(); }
int NsStepsField::polishSteps() const { return polish_->value(); }
void NsStepsField::setSteps(int steps) { steps_->setValue(steps); }
void NsStepsField::setPolishSteps(int polish) { polish_->setValue(polish); }

}  // namespace lwb::app::pages
