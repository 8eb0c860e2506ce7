// The Train page's remembered dock layout never comes back degenerate: a page that was
// never shown writes no layout, a saved layout that would squeeze a plot below
// TrainPage::kMinDockSize at 1600×1000 is replaced by the default one when the page is
// first shown, and View → Reset layout puts every panel back.
#include "app/app_options.h"
#include "app/pages/page_registry.h"
#include "app/main_window.h"
#include "app/pages/train/run_list.h"
#include "app/pages/train/train_page.h"
#include "app/runs/run_manager.h"
#include "support/german_scope.h"
#include "support/scratch_home.h"
#include "support/train_page_host.h"

#include <QComboBox>
#include <QDockWidget>
#include <QHeaderView>
#include <QScrollBar>
#include <QTreeWidget>
#include <QScreen>
#include <QSettings>
#include <QtTest>

using namespace lwb::app;

namespace {

const QString kLayoutKey = QStringLiteral("trainPage/layout");
const QStringList kPlots{QStringLiteral("loss"), QStringLiteral("norms"), QStringLiteral("bound"),
                         QStringLiteral("spectrum"), QStringLiteral("activations"), QStringLiteral("scalar_map")};

// Shown at the size a first launch gets (MainWindow::restoreSettings), laid out.
void showAt1600x1000(MainWindow& w) {
  w.resize(1600, 1000);
  w.show();
  QVERIFY(QTest::qWaitForWindowExposed(&w));
  QCoreApplication::processEvents();  // the page's queued settleLayout()
}

QString sizes(const TrainPage* page) {
  QStringList out;
  for (QDockWidget* d : page->docks())
    out << QStringLiteral("%1 %2x%3%4").arg(d->objectName()).arg(d->width()).arg(d->height()).arg(d->isVisible() ? "" : " hidden");
  return out.join(QStringLiteral(", "));
}

// Every plot visible and at least a usable size, in the default 2 × 3 grid's area.
void verifyUsable(const TrainPage* page) {
  QVERIFY2(page->layoutIsUsable(), qPrintable(sizes(page)));
  for (const QString& id : kPlots) {
    const QDockWidget* d = page->dock(id);
    QVERIFY2(d->isVisible(), qPrintable(id));
    QVERIFY2(d->width() >= TrainPage::kMinDockSize.width() && d->height() >= TrainPage::kMinDockSize.height(),
             qPrintable(sizes(page)));
  }
}

// The default grid's proportions: Run setup about 340 px wide, the two plot columns
// sharing the rest in halves, the plots the height in thirds (give or take separators).
void verifyDefaultProportions(const TrainPage* page) {
  verifyUsable(page);
  QVERIFY2(page->dock(QStringLiteral("run_setup"))->width() < 420, qPrintable(sizes(page)));
  const int column = (page->width() - 340) / 2;
  for (const QString& id : kPlots) {
    QVERIFY2(page->dock(id)->width() > column - 60, qPrintable(id + QStringLiteral(": ") + sizes(page)));
    QVERIFY2(page->dock(id)->height() > page->height() / 4, qPrintable(id + QStringLiteral(": ") + sizes(page)));
  }
}

// As main() does: show the window, then apply the command line (which may switch pages
// before the event loop has laid anything out).
void launch(MainWindow& w, const QStringList& args) {
  const ParsedOptions p = pages::parseOptions(QStringList{QStringLiteral("lipschitz-workbench")} + args);
  QVERIFY2(p.error.isEmpty(), qPrintable(p.error));
  w.resize(1600, 1000);
  w.show();
  QString error;
  QVERIFY2(w.applyOptions(p.options, &error), qPrintable(error));
  QVERIFY(QTest::qWaitForWindowExposed(&w));
  QCoreApplication::processEvents();
}

}  // namespace

class TestAppLayout : public QObject {
  Q_OBJECT

  lwb::test::ScratchHome home_;  // settings and runs, never the user's

 private Q_SLOTS:
  void initTestCase() {
    QCoreApplication::setOrganizationName(QStringLiteral("LipschitzWorkbenchTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_app_layout"));
    QSettings().setValue(QStringLiteral("tour/shown"), true);  // no overlay over the docks
  }
  void init() { QSettings().remove(kLayoutKey); }

  void aPageNeverShownSavesNoLayout() {
    lwb::test::TrainPageHost host;
    QSettings s;
    host.page->saveSettings(s);
    QVERIFY(!s.contains(kLayoutKey));
    // The window does not write one either when the user closed it on another page.
    QSettings().setValue(QStringLiteral("mainWindow/page"), QStringLiteral("compare"));
    {
      MainWindow w;
      showAt1600x1000(w);
      QCOMPARE(w.currentPageId(), QStringLiteral("compare"));
      w.close();
    }
    QVERIFY(!QSettings().contains(kLayoutKey));
    QSettings().remove(QStringLiteral("mainWindow/page"));
  }

  // Issue 32: `--page cliplab`, quit, then `--page train` came up with Run setup at half
  // the window and the plots in ~250-px strips: the Train page, current when the window
  // was shown, was hidden before it was laid out and its unshown layout was saved.
  void aSessionStartedOnAnotherPageLeavesTheDefaultLayout() {
    QSettings().remove(QStringLiteral("mainWindow/page"));
    {
      MainWindow w;
      launch(w, {QStringLiteral("--page"), QStringLiteral("cliplab")});
      QCOMPARE(w.currentPageId(), QStringLiteral("cliplab"));
      w.close();
    }
    MainWindow again;
    launch(again, {QStringLiteral("--page"), QStringLiteral("train")});
    QCOMPARE(again.currentPageId(), QStringLiteral("train"));
    verifyDefaultProportions(again.page<TrainPage>());
    // And the same once more, now that a layout was saved from a shown page.
    again.close();
    MainWindow third;
    launch(third, {QStringLiteral("--page"), QStringLiteral("train")});
    verifyDefaultProportions(third.page<TrainPage>());
    QSettings().remove(QStringLiteral("mainWindow/page"));
  }

  void degenerateLayoutIsReplacedOnRestore_data() {
    QTest::addColumn<QByteArray>("state");
    // What the window used to save when closed on another page: the state of a page that
    // was never laid out at a real size.
    {
      lwb::test::TrainPageHost hidden;
      QTest::newRow("saved while hidden") << hidden.page->saveState(TrainPage::kLayoutVersion);
    }
    // Made by hand: the loss, norm and bound plots squeezed into strips (as narrow as their
    // minimum size lets them be).
    {
      MainWindow w;
      showAt1600x1000(w);
      TrainPage* page = w.page<TrainPage>();
      page->resizeDocks({page->dock(QStringLiteral("loss")), page->dock(QStringLiteral("norms")), page->dock(QStringLiteral("bound"))},
                        {940, 10, 10}, Qt::Vertical);
      page->resizeDocks({page->dock(QStringLiteral("run_setup")), page->dock(QStringLiteral("spectrum"))}, {1500, 10},
                        Qt::Horizontal);
      QCoreApplication::processEvents();
      QVERIFY2(!page->layoutIsUsable(), qPrintable(sizes(page)));  // else this row would prove nothing
      QTest::newRow("squeezed by hand") << page->saveState(TrainPage::kLayoutVersion);
    }
  }
  void degenerateLayoutIsReplacedOnRestore() {
    QFETCH(QByteArray, state);
    QSettings().setValue(kLayoutKey, state);
    MainWindow w;
    showAt1600x1000(w);
    QCOMPARE(w.currentPageId(), QStringLiteral("train"));
    verifyUsable(w.page<TrainPage>());
    // The good layout is what is remembered now.
    w.close();
    MainWindow again;
    showAt1600x1000(again);
    verifyUsable(again.page<TrainPage>());
  }

  void aUsableLayoutIsKept() {
    {
      MainWindow w;
      showAt1600x1000(w);
      TrainPage* page = w.page<TrainPage>();
      page->dock(QStringLiteral("activations"))->close();
      w.close();
    }
    MainWindow again;
    showAt1600x1000(again);
    QVERIFY(!again.page<TrainPage>()->dock(QStringLiteral("activations"))->isVisible());  // not reset
    QVERIFY(again.page<TrainPage>()->layoutIsUsable());
  }

  // The Runs dock at its default width shows every visible column whole, with no horizontal
  // scroll bar (the folder column was cut to "Fo" and pushed one in); the folder is the
  // name's tooltip and a column the header's menu can show.
  void runListColumnsFitTheDock() {
    MainWindow w;
    showAt1600x1000(w);
    const QString dir = home_.path() + QStringLiteral("/runs/20261127-110000-mnist_muon_softcap");
    QVERIFY(QDir().mkpath(dir));
    w.runs()->addRun(QStringLiteral("mnist_muon_softcap"), dir);
    QCoreApplication::processEvents();
    QTreeWidget* tree = w.page<TrainPage>()->runList()->tree();
    const QHeaderView* header = tree->header();
    QVERIFY(tree->isVisible());
    for (int c = 0; c < tree->columnCount(); ++c) {
      if (tree->isColumnHidden(c)) continue;
      const int need = header->fontMetrics().horizontalAdvance(tree->headerItem()->text(c));
      QVERIFY2(header->sectionSize(c) >= need, qPrintable(QStringLiteral("column %1 '%2': %3 px of %4")
                                                              .arg(c).arg(tree->headerItem()->text(c))
                                                              .arg(header->sectionSize(c)).arg(need)));
    }
    QVERIFY2(!tree->horizontalScrollBar()->isVisible(), "horizontal scroll bar in the Runs dock");
    QCOMPARE(tree->topLevelItem(0)->toolTip(0), dir);
  }

  void resetLayoutRestoresTheDefaults() {
    MainWindow w;
    showAt1600x1000(w);
    TrainPage* page = w.page<TrainPage>();
    QVERIFY(w.resetLayoutAction() && w.resetLayoutAction()->isEnabled());
    page->dock(QStringLiteral("activations"))->close();
    page->dock(QStringLiteral("loss"))->setFloating(true);
    page->addDockWidget(Qt::LeftDockWidgetArea, page->dock(QStringLiteral("scalar_map")));
    w.resetLayoutAction()->trigger();  // View → Reset layout
    QCoreApplication::processEvents();
    verifyUsable(page);
    for (const QString& id : kPlots) {
      QVERIFY2(!page->dock(id)->isFloating(), qPrintable(id));
      QCOMPARE(page->dockWidgetArea(page->dock(id)), Qt::RightDockWidgetArea);
    }
    // The plots share the height in thirds and the width in halves (give or take separators).
    const int h = page->dock(QStringLiteral("loss"))->height();
    QVERIFY2(h > page->height() / 4, qPrintable(sizes(page)));
    QVERIFY2(qAbs(page->dock(QStringLiteral("loss"))->width() - page->dock(QStringLiteral("spectrum"))->width()) < 40,
             qPrintable(sizes(page)));
    // Only pages with docks have a layout to reset.
    w.showPage(QStringLiteral("compare"));
    QCOMPARE(w.resetLayoutAction()->isEnabled(), !w.currentPage()->docks().isEmpty());
  }

  // A 1024×768 projector (a 1008×720 window), German, a run loaded: the singular values'
  // control row (layer, scrubber, step, Before, Ranked, Log x, Log y) was one line of ≥ 560 px,
  // so the loss plot beside it got 175 px, its ticks ran together ("50100150200") and the page
  // scrolled sideways. The row now wraps; every plot of the two rows keeps a usable width.
  void trainPageFitsA1024Projector_data() { lwb::test::addLanguageRows(); }
  void trainPageFitsA1024Projector() {
    QFETCH(bool, german);
    const lwb::test::GermanScope language(german);
    QVERIFY(language.ok());
    QSettings().remove(QStringLiteral("mainWindow/geometry"));
    MainWindow small;
    small.resize(1008, 720);
    small.show();
    QVERIFY(QTest::qWaitForWindowExposed(&small));
    auto* page = small.page<TrainPage>();
    // The layer box sizes itself to its names: a run's (as when one is open).
    auto* spectrum = page->dock(QStringLiteral("spectrum"))->widget();
    for (auto* box : spectrum->findChildren<QComboBox*>())
      if (box->sizeAdjustPolicy() == QComboBox::AdjustToContents) box->addItem(QStringLiteral("blocks.0.attn.o"));
    page->resetLayout();
    QCoreApplication::processEvents();
    QVERIFY2(page->minimumSizeHint().width() <= 1008, qPrintable(QString::number(page->minimumSizeHint().width())));
    for (const QString& id : {QStringLiteral("loss"), QStringLiteral("bound"), QStringLiteral("spectrum"), QStringLiteral("activations")})
      QVERIFY2(page->dock(id)->width() >= 300, qPrintable(sizes(page)));
    QSettings().remove(kLayoutKey);
  }

  // A lecture's projector (1280×720, 1024×768): the window fits the screen whatever its pages
  // hold, since a page wider than the window scrolls inside it (a row of buttons once made
  // the window 1,355 px wide at its smallest, 1,477 in German, on every page); and the pages
  // a lecture shows live fit a 1280-px screen without scrolling.
  void windowFitsAProjector() {
    {
      // A first launch takes 1600×1000 where the screen has room, else the screen's size
      // (the offscreen test screen is 800×800).
      QSettings().remove(QStringLiteral("mainWindow/geometry"));
      MainWindow fresh;
      const QSize available = fresh.screen()->availableGeometry().size();
      QVERIFY2(fresh.width() <= available.width() && fresh.height() <= available.height(),
               qPrintable(QStringLiteral("%1x%2 on %3x%4").arg(fresh.width()).arg(fresh.height()).arg(available.width()).arg(available.height())));
      QVERIFY(fresh.width() >= std::min(1600, available.width() - 16));
    }
    MainWindow w;
    showAt1600x1000(w);
    const QSize min = w.minimumSizeHint().expandedTo(w.minimumSize());
    QVERIFY2(min.width() <= 1000 && min.height() <= 700, qPrintable(QStringLiteral("%1x%2").arg(min.width()).arg(min.height())));
    QStringList widths;
    for (Page* page : w.pages()) {
      const int needs = page->widget()->minimumSizeHint().width();
      widths << QStringLiteral("%1 %2").arg(page->id()).arg(needs);
    }
    qInfo("page minimum widths: %s", qPrintable(widths.join(QStringLiteral(", "))));
    for (Page* page : w.pages())
      QVERIFY2(page->widget()->minimumSizeHint().width() <= 1240, qPrintable(widths.join(QStringLiteral(", "))));
    // On a 1024×768 projector (a 1008-px window) every page fits without scrolling sideways:
    // the Attention Lab (1,050 px), the Inspector (1,015) and the Clip Lab (1,150) did not.
    for (Page* page : w.pages())
      QVERIFY2(page->widget()->minimumSizeHint().width() <= 1008, qPrintable(widths.join(QStringLiteral(", "))));
    // The Train page on a 1280×720 screen: two rows of two plots, the weight norms and the
    // constraint map in tabs, every visible plot a usable size.
    {
      QSettings().remove(kLayoutKey);
      QSettings().remove(QStringLiteral("mainWindow/geometry"));
      MainWindow small;
      small.resize(1264, 672);
      small.show();
      QVERIFY(QTest::qWaitForWindowExposed(&small));
      QCoreApplication::processEvents();
      auto* page = small.page<TrainPage>();
      QVERIFY(page->tabifiedDockWidgets(page->dock(QStringLiteral("loss"))).contains(page->dock(QStringLiteral("norms"))));
      for (const QString& id : {QStringLiteral("loss"), QStringLiteral("bound"), QStringLiteral("spectrum"), QStringLiteral("activations")})
        QVERIFY2(page->dock(id)->width() >= 380 && page->dock(id)->height() >= 220, qPrintable(sizes(page)));
      QSettings().remove(kLayoutKey);
    }
    // Narrower than a page: it scrolls, the window does not grow.
    w.resize(1000, 700);
    QCoreApplication::processEvents();
    QVERIFY2(w.width() <= 1000, qPrintable(QString::number(w.width())));
  }
};

QTEST_MAIN(TestAppLayout)
#include "tst_app_layout.moc"
