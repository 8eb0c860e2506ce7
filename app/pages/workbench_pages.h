// Adds the Clip Lab, Checkpoint Inspector and Compare pages to the main window (View menu
// entries with Ctrl+2/3/4, a "Pages" toolbar) and wires them to each other and to the run
// list, so MainWindow stays a coordinator: it calls this once and keeps the handles.
#pragma once

#include <QStringList>

#include <functional>

namespace lwb::app {
class MainWindow;
}

namespace lwb::app::pages {

class ClipLabPage;
class ComparePage;
class InspectorPage;

struct WorkbenchPages {
  ClipLabPage* clipLab = nullptr;
  InspectorPage* inspector = nullptr;
  ComparePage* compare = nullptr;
};

// `sessionRuns` lists the run directories of the window's run list (Compare's "Add this
// session's runs").
WorkbenchPages addWorkbenchPages(MainWindow& window, std::function<QStringList()> sessionRuns);

// The page ids the command line's --page accepts, the Train page's included.
QStringList pageIds();

}  // namespace lwb::app::pages
