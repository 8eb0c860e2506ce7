#include "app/pages/workbench_pages.h"

#include "app/main_window.h"
#include "app/pages/cliplab/cliplab_page.h"
#include "app/pages/compare/compare_page.h"
#include "app/pages/inspector/inspector_page.h"

#include <QAction>
#include <QActionGroup>
#include <QToolBar>

namespace lwb::app::pages {

QStringList pageIds() {
  return {QStringLiteral("train"), QStringLiteral("cliplab"), QStringLiteral("inspector"), QStringLiteral("compare")};
}

WorkbenchPages addWorkbenchPages(MainWindow& window, std::function<QStringList()> sessionRuns) {
  WorkbenchPages p;
  p.clipLab = new ClipLabPage(&window);
  p.inspector = new InspectorPage(&window);
  p.compare = new ComparePage(&window);
  window.addPage(QStringLiteral("cliplab"), MainWindow::tr("Clip &Lab"), p.clipLab, QKeySequence(Qt::CTRL | Qt::Key_2));
  window.addPage(QStringLiteral("inspector"), MainWindow::tr("Checkpoint &Inspector"), p.inspector, QKeySequence(Qt::CTRL | Qt::Key_3));
  window.addPage(QStringLiteral("compare"), MainWindow::tr("&Compare runs"), p.compare, QKeySequence(Qt::CTRL | Qt::Key_4));
  p.compare->setSessionRuns(std::move(sessionRuns));

  // One button per page; the View menu's page actions (MainWindow::addPage) are the same
  // QActions, so shortcuts, check marks and buttons agree.
  auto* bar = window.addToolBar(MainWindow::tr("Pages"));
  bar->setObjectName(QStringLiteral("pagesToolBar"));
  bar->setToolButtonStyle(Qt::ToolButtonTextOnly);
  for (QActionGroup* group : window.findChildren<QActionGroup*>())
    for (QAction* a : group->actions())
      if (pageIds().contains(a->data().toString())) bar->addAction(a);

  ClipLabPage* lab = p.clipLab;
  QObject::connect(p.inspector, &InspectorPage::openInClipLab, &window,
                   [&window, lab](std::shared_ptr<const io::TensorFile> file, const QString& name) {
                     lab->useTensor(std::move(file), name);
                     window.showPage(QStringLiteral("cliplab"));
                   });
  return p;
}

}  // namespace lwb::app::pages
