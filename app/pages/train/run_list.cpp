#include "app/pages/train/run_list.h"

#include "widgets/number_format.h"

#include "app/runs/run_manager.h"
#include "app/runs/run_session.h"

#include <QDesktopServices>
#include <QFileInfo>
#include <QHeaderView>
#include <QMenu>
#include <QPainter>
#include <QPixmap>
#include <QTreeWidget>
#include <QUrl>
#include <QVBoxLayout>

namespace lwb::app {
namespace {

enum Column { Name, State, Step, Speed, Folder, ColumnCount };

QIcon swatch(const QColor& color) {
  QPixmap pm(14, 14);
  pm.fill(Qt::transparent);
  QPainter p(&pm);
  p.setRenderHint(QPainter::Antialiasing);
  p.setBrush(color);
  p.setPen(color.darker(130));
  p.drawRoundedRect(QRectF(1, 1, 12, 12), 3, 3);
  return QIcon(pm);
}

}  // namespace

RunList::RunList(RunManager* runs, QWidget* parent) : QWidget(parent), runs_(runs) {
  tree_ = new QTreeWidget(this);
  tree_->setObjectName(QStringLiteral("runTree"));
  tree_->setColumnCount(ColumnCount);
  tree_->setHeaderLabels({tr("Run"), tr("State"), tr("Step"), tr("Steps/s"), tr("Folder")});
  tree_->setRootIsDecorated(false);
  tree_->setUniformRowHeights(true);
  tree_->setContextMenuPolicy(Qt::CustomContextMenu);
  // The name takes what the dock has left; the numbers keep their width. The folder column
  // starts hidden (the full path is the name's tooltip): in a dock of usual width it was cut
  // to two letters and pushed a horizontal scroll bar in. The header's menu shows it.
  QHeaderView* header = tree_->header();
  header->setSectionResizeMode(QHeaderView::ResizeToContents);
  header->setSectionResizeMode(Name, QHeaderView::Stretch);
  header->setStretchLastSection(false);
  tree_->setColumnHidden(Folder, true);
  header->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(header, &QHeaderView::customContextMenuRequested, this, &RunList::showHeaderMenu);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(tree_);
  connect(tree_, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
    if (runs_) runs_->setCurrentRun(items_.key(item, nullptr));
  });
  connect(tree_, &QTreeWidget::customContextMenuRequested, this, &RunList::showContextMenu);

  connect(runs, &RunManager::sessionAdded, this, &RunList::addRun);
  connect(runs, &RunManager::sessionRemoved, this, &RunList::removeRun);
  connect(runs, &RunManager::sessionStateChanged, this, &RunList::refresh);
  connect(runs, &RunManager::deltasReady, this, [this](const QList<SessionDelta>& batch) {
    for (const auto& sd : batch) refresh(sd.session);
  });
  connect(runs, &RunManager::currentRunChanged, this, &RunList::setCurrentRun);
}

void RunList::addRun(RunSession* s) {
  auto* item = new QTreeWidgetItem(tree_);
  item->setIcon(Name, swatch(s->color()));
  item->setText(Name, s->label());
  item->setToolTip(Name, s->runDir());
  // The folder's own name (the runs folder is the same for every run); the path in full in
  // the tooltip. The whole path was always cut.
  item->setText(Folder, QFileInfo(s->runDir()).fileName());
  item->setToolTip(Folder, s->runDir());
  items_.insert(s, item);
  refresh(s);
  if (!tree_->currentItem()) tree_->setCurrentItem(item);
}

void RunList::removeRun(RunSession* s) {
  delete items_.take(s);
}

void RunList::refresh(RunSession* s) {
  QTreeWidgetItem* item = items_.value(s);
  if (!item) return;
  // The state word in the column, the engine's message ("stopped at step 145") in the
  // tooltip: the message once pushed every other column out of view.
  const QString state = toDisplayString(s->state());
  QString detail = state;
  if (s->end() && !s->end()->message.empty()) detail += QStringLiteral(": ") + statusMessageText(s->end()->message);
  else if (!s->warnings().isEmpty()) detail += QStringLiteral("\n⚠ ") + s->warnings().join(QStringLiteral("\n⚠ "));
  item->setText(State, s->warnings().isEmpty() || s->end() ? state : state + QStringLiteral(" ⚠"));
  item->setToolTip(State, detail);
  const run::StepMetrics* latest = s->history().latest();
  const int64_t step = s->end() && s->end()->steps > 0 ? s->end()->steps : (latest ? latest->step : 0);
  const auto total = s->history().totalSteps();
  item->setText(Step, total ? QStringLiteral("%1 / %2").arg(step).arg(*total) : QString::number(step));
  const double speed = s->stepsPerSecond();  // the status bar's number
  item->setText(Speed, speed > 0 ? widgets::displayNumber(speed, 'f', 1) : QString());
  const bool bad = s->state() == RunState::Diverged || s->state() == RunState::Failed;
  item->setForeground(State, bad ? QBrush(QColor(0xd5, 0x5e, 0x00)) : QBrush());
}

void RunList::setCurrentRun(RunSession* s) {
  if (QTreeWidgetItem* item = items_.value(s)) tree_->setCurrentItem(item);
}

void RunList::showHeaderMenu(const QPoint& pos) {
  QMenu menu(this);
  for (int c = State; c < ColumnCount; ++c) {
    QAction* a = menu.addAction(tree_->headerItem()->text(c));
    a->setCheckable(true);
    a->setChecked(!tree_->isColumnHidden(c));
    connect(a, &QAction::toggled, this, [this, c](bool on) { tree_->setColumnHidden(c, !on); });
  }
  menu.exec(tree_->header()->viewport()->mapToGlobal(pos));
}

void RunList::showContextMenu(const QPoint& pos) {
  RunSession* s = items_.key(tree_->itemAt(pos), nullptr);
  if (!s) return;
  QMenu menu(this);
  const RunState st = s->state();
  if (s->canPause()) {
    menu.addAction(tr("Pause"), this, [s] { s->pause(); })->setEnabled(st == RunState::Running);
    menu.addAction(tr("Resume"), this, [s] { s->resume(); })->setEnabled(st == RunState::Paused);
  }
  menu.addAction(s->isFollowing() ? tr("Stop following") : tr("Stop"), this, [s] { s->stop(); })
      ->setEnabled(isActive(st) && st != RunState::Stopping);
  menu.addSeparator();
  menu.addAction(tr("Open run folder"), this, [s] { QDesktopServices::openUrl(QUrl::fromLocalFile(s->runDir())); });
  menu.addAction(tr("Use its settings for a new run"), this, [this, s] { Q_EMIT settingsRequested(s->runDir()); })
      ->setEnabled(!s->runDir().isEmpty());
  menu.addAction(tr("Remove from list"), this, [this, s] {
    if (runs_) runs_->removeRun(s);
  });
  menu.exec(tree_->viewport()->mapToGlobal(pos));
}

}  // namespace lwb::app
