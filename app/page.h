// A page of the workbench as the main window sees it. As Tiled's editors do, a page builds
// and wires its own children from the services it is given (PageServices); the window only
// registers pages and builds the View menu, the "Pages" tool bar, the shortcuts, the menu
// bar and the command line's routes from this interface, and never reaches into a page's
// children.
#pragma once

#include "app/runs/preset_catalog.h"

#include <QKeySequence>
#include <QList>
#include <QString>

#include <functional>

class QAction;
class QDockWidget;
class QMenu;
class QSettings;
class QUndoStack;
class QWidget;

namespace lwb::app {

struct AppOptions;
struct PageRow;
class DeviceQuery;
class RunManager;
class StatusPanel;

// What the window lends its pages; all outlive them.
struct PageServices {
  RunManager* runs = nullptr;      // this session's runs and the current one
  StatusPanel* status = nullptr;   // the status bar: a page's one-line messages
  DeviceQuery* devices = nullptr;  // the devices LibTorch offers (queried once, off the GUI thread)
  PresetCatalog presets;           // run presets (resources/presets)
  // Shows another page by id (the Inspector's "Open in Clip Lab").
  std::function<void(const QString& pageId)> showPage;
};

// One entry of Help → Tour: a panel's title as its dock shows it, and what it shows.
struct TourStop {
  QString title;
  QString text;
};

class Page {
 public:
  virtual ~Page() = default;

  // From the page's row of the page table (app/pages/page_registry.cpp), which
  // pages::createPages hands each page it builds; empty for a page built without it.
  QString id() const;               // "train": --page, settings keys
  QKeySequence shortcut() const;    // Ctrl+1 … Ctrl+7
  void setRow(const PageRow* row) { row_ = row; }
  const PageRow* row() const { return row_; }

  virtual QString title() const = 0;        // View menu and "Pages" tool bar, with its & mnemonic
  virtual QWidget* widget() = 0;            // what the window stacks

  // Docks the View menu lists under "<title> panels" (a closed one can be shown again), with
  // "Reset layout" calling resetLayout(). None: no submenu.
  virtual QList<QDockWidget*> docks() const { return {}; }
  // Where the keyboard starts the first time the page is shown (the Train page: its preset
  // box; Tab once went through 8–9 plot check boxes first); nullptr: Qt's own choice.
  virtual QWidget* firstFocus() const { return nullptr; }
  virtual void resetLayout() {}
  // Help → Tour (shown once on a first launch): what each panel of the page is. The
  // window tours the first page that has stops.
  virtual QList<TourStop> tourStops() const { return {}; }
  // Menus the page adds to the window's menu bar (before View), and actions on the window's
  // main tool bar; both stay there whichever page is shown (the Train page's Run menu: F5
  // starts a run from any page).
  virtual QList<QMenu*> menus() const { return {}; }
  // The page's undo history: the window's Edit → Undo/Redo (Ctrl+Z) act on the stack of the
  // page shown (a QUndoGroup), so one key never means two things. nullptr: nothing to undo.
  virtual QUndoStack* undoStack() const { return nullptr; }
  virtual QList<QAction*> toolBarActions() const { return {}; }

  // Takes the command-line options meant for this page (--preset/--set/--start, --inspect,
  // --compare). False, with *error set, for input it refuses.
  virtual bool applyOptions(const AppOptions& /*options*/, QString* /*error*/) { return true; }
  // Work the page runs outside the RunManager (the Sweeps page's sweep process): named in the
  // quit question ("a sweep"), empty when none; stopped (its runs write checkpoints) before
  // the window closes, which waits until runningWork() is empty again.
  virtual QString runningWork() const { return {}; }
  virtual void stopRunningWork() {}
  virtual void saveSettings(QSettings& /*settings*/) const {}
  virtual void restoreSettings(const QSettings& /*settings*/) {}
  // Called before the window is grabbed (--screenshot): plots whose data waits for a
  // throttle (the Train page's dashboard) take it and replot now. The other pages' plots
  // replot as their results arrive.
  virtual void beforeScreenshot() {}

 private:
  const PageRow* row_ = nullptr;
};

}  // namespace lwb::app
