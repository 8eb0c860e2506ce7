#include "app/pages/common/ns_steps_field.h"

#include <QBoxLayout>
#include <QLabel>
#include <QSpinBox>

namespace lwb::app::pages {

NsStepsField::NsStepsField(QWidget* parent) : QObject(parent) {
  steps_ = new QSpinBox(parent);
  steps_->setRange(0, kMaxSteps);
  steps_->setValue(10);
  label_ = new QLabel(tr("+ polish"), parent);
  polish_ = new QSpinBox(parent);
  polish_->setRange(0, kMaxPolish);
  polish_->setValue(4);
  for (auto* s : {steps_, polish_}) connect(s, &QSpinBox::valueChanged, this, &NsStepsField::changed);
}

void NsStepsField::addTo(QBoxLayout* row) const {
  row->addWidget(steps_);
  row->addWidget(label_);
  row->addWidget(polish_);
}

int NsStepsField::steps() const { return steps_->value(); }
int NsStepsField::polishSteps() const { return polish_->value(); }
void NsStepsField::setSteps(int steps) { steps_->setValue(steps); }
void NsStepsField::setPolishSteps(int polish) { polish_->setValue(polish); }

}  // namespace lwb::app::pages
