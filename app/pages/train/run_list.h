// The run list: one row per run in its colour, with state, progress, speed and (a column
// the header's menu shows; the name's tooltip) where it writes. The selected row is the
// RunManager's current run (status bar, σmax lines, f(σ)); the context menu pauses, resumes,
// stops, removes or reveals a run. It follows the RunManager by itself.
#pragma once

#include <QHash>
#include <QPointer>
#include <QWidget>

class QTreeWidget;
class QTreeWidgetItem;

namespace lwb::app {

class RunManager;
class RunSession;

class RunList : public QWidget {
  Q_OBJECT

 public:
  explicit RunList(RunManager* runs, QWidget* parent = nullptr);

  void setCurrentRun(RunSession* session);
  QTreeWidget* tree() const { return tree_; }

 Q_SIGNALS:
  // "Use its settings for a new run" on a run's context menu.
  void settingsRequested(const QString& runDir);

 private:
  void addRun(RunSession* session);
  void removeRun(RunSession* session);
  void refresh(RunSession* session);  // state, step, speed
  void showContextMenu(const QPoint& pos);
  void showHeaderMenu(const QPoint& pos);  // which columns show (all but the name)

  QPointer<RunManager> runs_;  // the window deletes its runs before its pages
  QTreeWidget* tree_ = nullptr;
  QHash<RunSession*, QTreeWidgetItem*> items_;
};

}  // namespace lwb::app
