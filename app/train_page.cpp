#include "app/train_page.h"

#include "app/dashboard.h"
#include "app/run_list.h"
#include "app/run_panel.h"
#include "widgets/plot_view.h"

#include <QDockWidget>
#include <QTimer>

#include <algorithm>

namespace lwb::app {

TrainPage::TrainPage(PresetCatalog catalog, QWidget* parent) : QMainWindow(parent) {
  setObjectName(QStringLiteral("trainPage"));
  // Embedded as a page, not a top-level window.
  setWindowFlags(Qt::Widget);
  setDockNestingEnabled(true);
  setDockOptions(QMainWindow::AnimatedDocks | QMainWindow::AllowNestedDocks | QMainWindow::AllowTabbedDocks);

  runPanel_ = new RunPanel(std::move(catalog), this);
  runList_ = new RunList(this);
  dashboard_ = new Dashboard(this);
  addDock(QStringLiteral("run_setup"), tr("Run setup"), runPanel_);
  addDock(QStringLiteral("runs"), tr("Runs"), runList_);
  for (const auto& panel : dashboard_->panels()) addDock(panel.id, panel.title, panel.plot);
  resetLayout();
}

QDockWidget* TrainPage::addDock(const QString& id, const QString& title, QWidget* content) {
  auto* dock = new QDockWidget(title, this);
  dock->setObjectName(id + QStringLiteral("_dock"));  // saveState() keys on it
  dock->setWidget(content);
  dock->setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
  docks_.push_back(dock);
  return dock;
}

QDockWidget* TrainPage::dock(const QString& id) const {
  for (QDockWidget* d : docks_)
    if (d->objectName() == id + QStringLiteral("_dock")) return d;
  return nullptr;
}

void TrainPage::resetLayout() {
  for (QDockWidget* d : docks_) {
    removeDockWidget(d);
    d->setFloating(false);
  }
  QDockWidget* setup = dock(QStringLiteral("run_setup"));
  QDockWidget* runs = dock(QStringLiteral("runs"));
  QDockWidget* loss = dock(QStringLiteral("loss"));
  QDockWidget* norms = dock(QStringLiteral("norms"));
  QDockWidget* bound = dock(QStringLiteral("bound"));
  QDockWidget* spectrum = dock(QStringLiteral("spectrum"));
  QDockWidget* acts = dock(QStringLiteral("activations"));
  QDockWidget* map = dock(QStringLiteral("scalar_map"));
  addDockWidget(Qt::LeftDockWidgetArea, setup);
  addDockWidget(Qt::LeftDockWidgetArea, runs);
  splitDockWidget(setup, runs, Qt::Vertical);
  addDockWidget(Qt::RightDockWidgetArea, loss);
  splitDockWidget(loss, spectrum, Qt::Horizontal);
  splitDockWidget(loss, norms, Qt::Vertical);
  splitDockWidget(norms, bound, Qt::Vertical);
  splitDockWidget(spectrum, acts, Qt::Vertical);
  splitDockWidget(acts, map, Qt::Vertical);
  for (QDockWidget* d : docks_) d->show();
  if (isVisible()) applyDefaultSizes();
}

void TrainPage::applyDefaultSizes() {
  // The form needs ~330 px; the rest is split evenly between the two plot columns.
  const int plots = std::max(600, width() - 340);
  resizeDocks({dock(QStringLiteral("run_setup")), dock(QStringLiteral("loss")), dock(QStringLiteral("spectrum"))},
              {340, plots / 2, plots / 2}, Qt::Horizontal);
  resizeDocks({dock(QStringLiteral("run_setup")), dock(QStringLiteral("runs"))}, {std::max(300, height() - 220), 200},
              Qt::Vertical);
  const int row = std::max(150, height() / 3);
  resizeDocks({dock(QStringLiteral("loss")), dock(QStringLiteral("norms")), dock(QStringLiteral("bound"))}, {row, row, row},
              Qt::Vertical);
  resizeDocks({dock(QStringLiteral("spectrum")), dock(QStringLiteral("activations")), dock(QStringLiteral("scalar_map"))},
              {row, row, row}, Qt::Vertical);
}

void TrainPage::showEvent(QShowEvent* event) {
  QMainWindow::showEvent(event);
  if (shown_) return;
  shown_ = true;
  // After the event loop has laid the window out, so width() and height() are final.
  if (!restored_) QTimer::singleShot(0, this, &TrainPage::applyDefaultSizes);
}

QByteArray TrainPage::saveLayout() const { return saveState(kLayoutVersion); }

bool TrainPage::restoreLayout(const QByteArray& state) {
  restored_ = !state.isEmpty() && restoreState(state, kLayoutVersion);
  return restored_;
}

}  // namespace lwb::app
