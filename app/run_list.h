// The run list: one row per run in its colour, with state, progress, speed and where it
// writes. Selecting a row makes that run current (status bar, σmax lines, f(σ)); the
// context menu pauses, resumes, stops, removes or reveals a run.
#pragma once

#include <QHash>
#include <QWidget>

class QTreeWidget;
class QTreeWidgetItem;

namespace lwb::app {

class RunSession;

class RunList : public QWidget {
  Q_OBJECT

 public:
  explicit RunList(QWidget* parent = nullptr);

  void addRun(RunSession* session);
  void removeRun(RunSession* session);
  void refresh(RunSession* session);  // state, step, speed
  void setCurrentRun(RunSession* session);
  RunSession* currentRun() const;
  QTreeWidget* tree() const { return tree_; }

 Q_SIGNALS:
  void currentRunChanged(lwb::app::RunSession* session);
  void pauseRequested(lwb::app::RunSession* session);
  void resumeRequested(lwb::app::RunSession* session);
  void stopRequested(lwb::app::RunSession* session);
  void removeRequested(lwb::app::RunSession* session);

 private:
  void showContextMenu(const QPoint& pos);

  QTreeWidget* tree_ = nullptr;
  QHash<RunSession*, QTreeWidgetItem*> items_;
};

}  // namespace lwb::app
