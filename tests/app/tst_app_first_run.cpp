// A first launch as a new user sees it, and what a test run must leave alone: the user's
// settings file is never written by the suites; with no settings the Train page shows a
// bundled preset that can start at once, with the Help → Tour overlay naming each panel,
// shown once and dismissable; Start (from any page, or --preset … --start) shows the Train
// page with the new run selected.
#include "app/app_options.h"
#include "app/main_window.h"
#include "app/pages/train/run_list.h"
#include "app/runs/run_manager.h"
#include "app/pages/train/run_panel.h"
#include "app/pages/train/train_page.h"
#include "support/scratch_home.h"
#include "support/tiny_run.h"

#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QTreeWidget>
#include <QtTest>

using namespace lwb::app;

namespace {

// Read before main() runs, i.e. before ScratchHome moves HOME: where this process would
// have written the app's settings had nothing isolated it.
const QString kOriginalConfigHome = [] {
  const QString xdg = qEnvironmentVariable("XDG_CONFIG_HOME");
  return xdg.isEmpty() ? qEnvironmentVariable("HOME") + QStringLiteral("/.config") : xdg;
}();

struct FileState {
  bool exists = false;
  qint64 size = -1;
  QDateTime modified;
  bool operator==(const FileState&) const = default;
};

FileState stateOf(const QString& path) {
  const QFileInfo fi(path);
  return {fi.exists(), fi.exists() ? fi.size() : -1, fi.exists() ? fi.lastModified() : QDateTime()};
}

using lwb::test::tinyConfig;

// A new window, shown, with its queued first-show work (the tour) done.
void showAndSettle(MainWindow& w) {
  w.show();
  QVERIFY(QTest::qWaitForWindowExposed(&w));
  QCoreApplication::processEvents();
}

void waitUntilIdle(MainWindow& w) {
  w.runs()->stopAll();
  QTRY_VERIFY_WITH_TIMEOUT(!w.runs()->anyThreadRunning(), 60000);
}

}  // namespace

class TestAppFirstRun : public QObject {
  Q_OBJECT

  lwb::test::ScratchHome home_;  // settings and runs, never the user's

 private Q_SLOTS:
  void initTestCase() {
    QVERIFY(home_.isValid());
    // The names main() gives the app: a leak would land in the user's real settings file.
    QCoreApplication::setOrganizationName(QStringLiteral("LipschitzWorkbench"));
    QCoreApplication::setApplicationName(QStringLiteral("lipschitz-workbench"));
  }
  void init() { QSettings().clear(); }  // every case is a first launch unless it says otherwise

  void settingsStayOutOfTheUsersHome() {
    const QString userFile = kOriginalConfigHome + QStringLiteral("/LipschitzWorkbench/lipschitz-workbench.conf");
    const FileState before = stateOf(userFile);
    {
      MainWindow w;
      showAndSettle(w);
      w.showPage(QStringLiteral("inspector"));
      w.close();
    }
    QSettings s;
    s.sync();
    QVERIFY2(s.fileName().startsWith(home_.path()), qPrintable(s.fileName()));
    QCOMPARE(s.value(QStringLiteral("mainWindow/page")).toString(), QStringLiteral("inspector"));
    QVERIFY2(stateOf(userFile) == before, qPrintable(userFile + QStringLiteral(" changed")));
    // The default runs folder (no $LWB_RUNS_DIR) is in the scratch home too.
    const QByteArray runsDir = qgetenv("LWB_RUNS_DIR");
    qunsetenv("LWB_RUNS_DIR");
    const QString defaultRuns = RunManager().runsFolder();
    qputenv("LWB_RUNS_DIR", runsDir);
    QVERIFY2(defaultRuns.startsWith(home_.path()), qPrintable(defaultRuns));
  }

  void firstLaunchShowsTrainPageWithAStartablePresetAndTheTourOnce() {
    {
      MainWindow w;
      showAndSettle(w);
      QCOMPARE(w.currentPageId(), QStringLiteral("train"));
      RunPanel* panel = w.page<TrainPage>()->runPanel();
      QCOMPARE(panel->findChild<QComboBox*>(QStringLiteral("presetBox"))->currentData().toString(), QStringLiteral("chars_small_cpu"));
      QVERIFY2(panel->canStart(), qPrintable(panel->form()->validationError()));  // its data is bundled
      QVERIFY(panel->startButton()->isEnabled());

      QTRY_VERIFY(w.tourOverlay());
      QVERIFY(w.tourOverlay()->isVisible());
      // The tour names every panel of the page by its dock title.
      const QString stops = w.tourOverlay()->findChild<QLabel*>(QStringLiteral("tourStops"))->text();
      for (QDockWidget* d : w.page<TrainPage>()->docks())
        QVERIFY2(stops.contains(d->windowTitle().toHtmlEscaped()), qPrintable(d->windowTitle()));
      QTest::keyClick(w.tourOverlay(), Qt::Key_Escape);
      QTRY_VERIFY(!w.tourOverlay());
      w.close();
    }
    {
      MainWindow again;  // second launch: remembered
      showAndSettle(again);
      QVERIFY(!again.tourOverlay());
      // Help → Tour brings it back from any page; "Got it" dismisses it.
      again.showPage(QStringLiteral("compare"));
      again.tourAction()->trigger();
      QVERIFY(again.tourOverlay() && again.tourOverlay()->isVisible());
      QCOMPARE(again.currentPageId(), QStringLiteral("train"));
      QSignalSpy dismissed(again.tourOverlay(), &TourOverlay::dismissed);
      QTest::mouseClick(again.tourOverlay()->dismissButton(), Qt::LeftButton);
      QCOMPARE(dismissed.count(), 1);
      QTRY_VERIFY(!again.tourOverlay());
    }
  }

  void aCommandLineThatAsksForSomethingSkipsTheTour() {
    MainWindow w;
    w.show();
    AppOptions o;
    o.page = QStringLiteral("cliplab");
    QString error;
    QVERIFY2(w.applyOptions(o, &error), qPrintable(error));  // as main() does: after show()
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QCoreApplication::processEvents();
    QVERIFY(!w.tourOverlay());
    QVERIFY(!QSettings().value(QStringLiteral("tour/shown")).toBool());  // still due next time
  }

  void startFromAnyPageShowsTheTrainPageWithTheNewRunSelected() {
    MainWindow w;
    showAndSettle(w);
    TrainPage* train = w.page<TrainPage>();
    train->runPanel()->form()->setConfig(tinyConfig(20));
    QVERIFY(train->runPanel()->canStart());
    w.showPage(QStringLiteral("inspector"));
    train->toolBarActions().first()->trigger();  // Run → Start (F5), on the main tool bar
    QCOMPARE(w.runs()->sessions().size(), 1);
    RunSession* s = w.runs()->sessions().first();
    QCOMPARE(w.currentPageId(), QStringLiteral("train"));
    QCOMPARE(w.runs()->currentRun(), s);
    QTreeWidgetItem* selected = train->runList()->tree()->currentItem();
    QVERIFY(selected);
    QCOMPARE(selected->text(0), s->label());
    waitUntilIdle(w);
  }

  void presetStartFromTheCommandLineShowsTheTrainPage() {
    QSettings().setValue(QStringLiteral("mainWindow/page"), QStringLiteral("compare"));  // last session's page
    QSettings().setValue(QStringLiteral("tour/shown"), true);  // (the tour would show the Train page)
    MainWindow w;
    showAndSettle(w);
    QCOMPARE(w.currentPageId(), QStringLiteral("compare"));
    AppOptions o;
    o.preset = QStringLiteral("modular_addition_grokking");
    o.overrides = QStringList{QStringLiteral("steps=10"), QStringLiteral("modulus=23"), QStringLiteral("model.embed_dim=23"),
                              QStringLiteral("model.width=32"), QStringLiteral("batch_size=64")};
    o.start = true;
    QString error;
    QVERIFY2(w.applyOptions(o, &error), qPrintable(error));
    QCOMPARE(w.currentPageId(), QStringLiteral("train"));
    QCOMPARE(w.runs()->sessions().size(), 1);
    QCOMPARE(w.page<TrainPage>()->runList()->tree()->currentItem()->text(0), QStringLiteral("modular_addition_grokking"));
    waitUntilIdle(w);
  }
};

QTEST_MAIN(TestAppFirstRun)
#include "tst_app_first_run.moc"
