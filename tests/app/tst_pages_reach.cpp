// Reaching the pages: the command line (--page, --inspect, --compare), the main window's
// View menu shortcuts and "Pages" toolbar, and the Inspector's "Open in Clip Lab".
#include "app/app_options.h"
#include "app/main_window.h"
#include "app/pages/cliplab/cliplab_page.h"
#include "app/pages/cliplab/matrix_source_panel.h"
#include "app/pages/compare/compare_page.h"
#include "app/pages/inspector/inspector_page.h"
#include "app/pages/workbench_pages.h"

#include <QAction>
#include <QTemporaryDir>
#include <QToolBar>
#include <QtTest/QtTest>

using namespace lwb::app;

namespace {
constexpr int kTimeoutMs = 120000;
const QString kFixture = QStringLiteral(LWB_FIXTURES_DIR "/attention.safetensors");

ParsedOptions parse(const QStringList& args) { return parseAppOptions(QStringList{QStringLiteral("lipschitz-workbench")} + args); }
}  // namespace

class TestPagesReach : public QObject {
  Q_OBJECT

  QTemporaryDir home_;

 private Q_SLOTS:
  void initTestCase() {
    qputenv("LWB_RUNS_DIR", home_.filePath(QStringLiteral("runs")).toUtf8());
    QCoreApplication::setOrganizationName(QStringLiteral("LipschitzWorkbenchPagesTest"));
    QStandardPaths::setTestModeEnabled(true);
  }

  void commandLine() {
    QCOMPARE(parse({QStringLiteral("--page"), QStringLiteral("cliplab")}).options.page, QStringLiteral("cliplab"));
    QVERIFY(parse({QStringLiteral("--page"), QStringLiteral("lab")}).error.contains(QStringLiteral("unknown page 'lab'")));

    const ParsedOptions inspect = parse({QStringLiteral("--inspect"), kFixture, QStringLiteral("--screenshot"), QStringLiteral("x.png"),
                                         QStringLiteral("--after"), QStringLiteral("2")});
    QVERIFY2(inspect.error.isEmpty(), qPrintable(inspect.error));
    QCOMPARE(inspect.options.inspectFile, kFixture);
    QCOMPARE(inspect.options.page, QStringLiteral("inspector"));  // implied
    QCOMPARE(inspect.options.screenshotAfter, 2.0);
    QVERIFY(parse({QStringLiteral("--inspect"), QStringLiteral("/nonexistent.pt")}).error.contains(QStringLiteral("/nonexistent.pt")));

    QTemporaryDir runs;
    QDir(runs.path()).mkpath(QStringLiteral("a"));
    QDir(runs.path()).mkpath(QStringLiteral("b"));
    const QString a = runs.filePath(QStringLiteral("a")), b = runs.filePath(QStringLiteral("b"));
    const ParsedOptions compare = parse({QStringLiteral("--compare"), a, b});
    QVERIFY2(compare.error.isEmpty(), qPrintable(compare.error));
    QCOMPARE(compare.options.compareDirs, (QStringList{a, b}));
    QCOMPARE(compare.options.page, QStringLiteral("compare"));
    QVERIFY(parse({QStringLiteral("--compare"), a, kFixture}).error.contains(QStringLiteral("is not a folder")));
    // Without --compare a stray argument is still an error.
    QVERIFY(parse({a}).error.contains(QStringLiteral("unexpected argument")));
    // --page wins over the page --inspect implies.
    QCOMPARE(parse({QStringLiteral("--inspect"), kFixture, QStringLiteral("--page"), QStringLiteral("cliplab")}).options.page,
             QStringLiteral("cliplab"));
  }

  void mainWindowHasThePages() {
    MainWindow w;
    w.show();
    for (const QString& id : pages::pageIds()) QVERIFY2(w.pageIds().contains(id), qPrintable(id));
    QVERIFY(w.workbenchPages().clipLab && w.workbenchPages().inspector && w.workbenchPages().compare);
    // View menu shortcuts Ctrl+1 … Ctrl+4, and the same actions on the "Pages" toolbar.
    auto* bar = w.findChild<QToolBar*>(QStringLiteral("pagesToolBar"));
    QVERIFY(bar);
    QStringList ids;
    for (QAction* a : bar->actions()) ids << a->data().toString();
    QCOMPARE(ids, pages::pageIds());
    for (QAction* a : bar->actions()) {
      const int n = static_cast<int>(pages::pageIds().indexOf(a->data().toString())) + 1;
      QCOMPARE(a->shortcut(), QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_0 + n)));
      a->trigger();
      QCOMPARE(w.currentPageId(), a->data().toString());
    }
    QVERIFY(w.showPage(QStringLiteral("inspector")));
    QCOMPARE(w.currentPageId(), QStringLiteral("inspector"));
  }

  void inspectorHandsATensorToTheClipLab() {
    MainWindow w;
    w.show();
    pages::InspectorPage* inspector = w.workbenchPages().inspector;
    QSignalSpy loaded(inspector, &pages::InspectorPage::loaded);
    inspector->openFile(kFixture);
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, kTimeoutMs);
    QVERIFY(inspector->selectTensor(QStringLiteral("blocks.0.attn.q.weight")));
    Q_EMIT inspector->openInClipLab(inspector->inspected().file, QStringLiteral("blocks.0.attn.q.weight"));
    QCOMPARE(w.currentPageId(), QStringLiteral("cliplab"));
    pages::ClipLabPage* lab = w.workbenchPages().clipLab;
    QTRY_VERIFY_WITH_TIMEOUT(lab->matrix() && lab->matrix()->name() == "blocks.0.attn.q.weight", kTimeoutMs);
    QCOMPARE(lab->matrix()->rows(), 4);
    QCOMPARE(lab->matrix()->cols(), 8);
    QVERIFY(std::abs(lab->matrix()->singularValues().front() - 4.0) < 1e-4);  // designed σ₁ (expected.json)
  }
};

QTEST_MAIN(TestPagesReach)
#include "tst_pages_reach.moc"
