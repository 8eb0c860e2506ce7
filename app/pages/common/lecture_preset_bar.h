// The lecture-preset bar of the Clip Lab and the Attention Lab: a box of presets ("Lecture
// presets…" first), ◀ Previous / Next ▶ (Ctrl+PgUp / Ctrl+PgDown) stepping through them, and
// the current preset's cue taking the rest of the row. The page applies a chosen preset and
// then calls select() and setCue().
#pragma once

#include <QList>
#include <QPair>
#include <QString>
#include <QWidget>

class QComboBox;
class QLabel;

namespace lwb::app::pages {

class LecturePresetBar : public QWidget {
  Q_OBJECT

 public:
  // `presets`: (title, id) in lecture order; `boxName`: the box's object name (tests find it).
  LecturePresetBar(const QList<QPair<QString, QString>>& presets, const QString& boxName, const QString& cue,
                   QWidget* parent = nullptr);

  void select(const QString& id);  // shows it in the box; emits nothing
  void setCue(const QString& cue);
  QString cue() const;

 Q_SIGNALS:
  void presetChosen(const QString& id);

 private:
  void step(int delta);

  QComboBox* box_ = nullptr;
  QLabel* cue_ = nullptr;
};

}  // namespace lwb::app::pages
