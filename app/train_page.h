// The "Train" page: the run panel, the run list and the six dashboard plots, each in a
// dock the user can move, tabify, float or close. A QMainWindow used as a page, so every
// page can have its own docks and its own saved layout.
#pragma once

#include "app/preset_catalog.h"

#include <QByteArray>
#include <QList>
#include <QMainWindow>

class QDockWidget;

namespace lwb::app {

class Dashboard;
class RunList;
class RunPanel;

class TrainPage : public QMainWindow {
  Q_OBJECT

 public:
  // Bump when docks are added or renamed, so an old saved layout is not restored.
  static constexpr int kLayoutVersion = 1;

  explicit TrainPage(PresetCatalog catalog, QWidget* parent = nullptr);

  Dashboard* dashboard() const { return dashboard_; }
  RunPanel* runPanel() const { return runPanel_; }
  RunList* runList() const { return runList_; }
  QList<QDockWidget*> docks() const { return docks_; }
  QDockWidget* dock(const QString& id) const;

  QByteArray saveLayout() const;
  bool restoreLayout(const QByteArray& state);
  // Run setup and run list on the left, the plots in a 2 × 3 grid.
  void resetLayout();

 protected:
  void showEvent(QShowEvent* event) override;

 private:
  // Dock sizes only take once the page has its real size.
  void applyDefaultSizes();

  QDockWidget* addDock(const QString& id, const QString& title, QWidget* content);

  Dashboard* dashboard_ = nullptr;
  RunPanel* runPanel_ = nullptr;
  RunList* runList_ = nullptr;
  QList<QDockWidget*> docks_;
  bool restored_ = false;
  bool shown_ = false;
};

}  // namespace lwb::app
