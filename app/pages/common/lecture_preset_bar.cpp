#include "app/pages/common/lecture_preset_bar.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QPushButton>

#include <algorithm>

namespace lwb::app::pages {

LecturePresetBar::LecturePresetBar(const QList<QPair<QString, QString>>& presets, const QString& boxName, const QString& cue,
                                   QWidget* parent)
    : QWidget(parent) {
  box_ = new QComboBox(this);
  box_->setObjectName(boxName);
  box_->addItem(tr("Lecture presets…"), QString());
  for (const auto& [title, id] : presets) box_->addItem(title, id);
  auto* prev = new QPushButton(tr("◀ Prev&ious"), this);
  auto* next = new QPushButton(tr("&Next ▶"), this);
  prev->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_PageUp));
  next->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_PageDown));
  cue_ = new QLabel(cue, this);
  cue_->setWordWrap(true);
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(box_);
  layout->addWidget(prev);
  layout->addWidget(next);
  layout->addWidget(cue_, 1);
  connect(box_, &QComboBox::activated, this, [this](int i) { Q_EMIT presetChosen(box_->itemData(i).toString()); });
  connect(next, &QPushButton::clicked, this, [this] { step(1); });
  connect(prev, &QPushButton::clicked, this, [this] { step(-1); });
}

void LecturePresetBar::step(int delta) {
  const int i = std::clamp(box_->currentIndex() + delta, 1, box_->count() - 1);
  box_->setCurrentIndex(i);
  Q_EMIT presetChosen(box_->itemData(i).toString());
}

void LecturePresetBar::select(const QString& id) {
  const int i = box_->findData(id);
  if (i >= 0) box_->setCurrentIndex(i);
}

void LecturePresetBar::setCue(const QString& cue) { cue_->setText(cue); }
QString LecturePresetBar::cue() const { return cue_->text(); }

}  // namespace lwb::app::pages
