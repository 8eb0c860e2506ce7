// Reaching the pages: the page registry the window ships (View menu, shortcuts, "Pages"
// tool bar, panels), the command line (--page, --inspect, --compare), and the Inspector's
// "Open in Clip Lab".
#include "app/app_options.h"
#include "app/main_window.h"
#include "app/pages/cliplab/cliplab_page.h"
#include "app/pages/common/method_form.h"
#include "app/pages/compare/compare_page.h"
#include "app/pages/inspector/inspector_page.h"
#include "app/pages/page_registry.h"
#include "app/pages/train/run_panel.h"
#include "app/pages/train/train_page.h"
#include "app/shortcuts_dialog.h"
#include "support/mnemonics.h"
#include "support/scratch_home.h"

#include <algorithm>

#include <QAction>
#include <QDockWidget>
#include <QMenu>
#include <QMenuBar>
#include <QSet>
#include <QTemporaryDir>
#include <QTableWidget>
#include <QToolBar>
#include <QtTest/QtTest>

using namespace lwb::app;

namespace {
constexpr int kTimeoutMs = 120000;
const QString kFixture = QStringLiteral(LWB_FIXTURES_DIR "/attention.safetensors");

ParsedOptions parse(const QStringList& args) { return pages::parseOptions(QStringList{QStringLiteral("lipschitz-workbench")} + args); }
}  // namespace

class TestPagesReach : public QObject {
  Q_OBJECT

  lwb::test::ScratchHome home_;  // settings and runs, never the user's

 private Q_SLOTS:
  void initTestCase() { QCoreApplication::setOrganizationName(QStringLiteral("LipschitzWorkbenchPagesTest")); }

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
    const ParsedOptions sweep = parse({QStringLiteral("--sweep"), a});
    QVERIFY2(sweep.error.isEmpty(), qPrintable(sweep.error));
    QCOMPARE(sweep.options.page, QStringLiteral("sweeps"));
    QVERIFY(parse({QStringLiteral("--sweep"), kFixture}).error.contains(QStringLiteral("is not a folder")));
    // A missing path is said to be missing (it was "not a folder"; a newcomer's trial).
    const QString missing = runs.filePath(QStringLiteral("nonexist"));
    for (const char* flag : {"--sweep", "--compare", "--open"})
      QVERIFY2(parse({QLatin1String(flag), missing}).error.endsWith(QStringLiteral("'%1' does not exist").arg(missing)), flag);
    // --attention-preset implies the Attention Lab (the id is checked by the page, which lists the ids).
    const ParsedOptions attention = parse({QStringLiteral("--attention-preset"), QStringLiteral("table1")});
    QVERIFY2(attention.error.isEmpty(), qPrintable(attention.error));
    QCOMPARE(attention.options.attentionPreset, QStringLiteral("table1"));
    QCOMPARE(attention.options.page, QStringLiteral("attention"));
    // Without --compare a stray argument is still an error.
    QVERIFY(parse({a}).error.contains(QStringLiteral("unexpected argument")));
    // --page wins over the page --inspect implies.
    QCOMPARE(parse({QStringLiteral("--inspect"), kFixture, QStringLiteral("--page"), QStringLiteral("cliplab")}).options.page,
             QStringLiteral("cliplab"));
  }

  // Each row's options reach --help, and each option that implies its page shows it.
  void tableDrivesTheCommandLine() {
    const QString help = parse({QStringLiteral("--help")}).helpText;
    QTemporaryDir dir;
    for (const PageRow& row : pages::pageTable()) {
      QVERIFY2(help.contains(QString::fromLatin1(row.id)), row.id);
      for (const PageOption& o : row.options) {
        QVERIFY2(help.contains(QStringLiteral("--") + QString::fromLatin1(o.name)), o.name);
        if (!o.impliesPage) continue;
        const ParsedOptions p = parse({QStringLiteral("--") + QString::fromLatin1(o.name), dir.path()});
        QVERIFY2(p.error.isEmpty(), qPrintable(p.error));
        QCOMPARE(p.options.page, QString::fromLatin1(row.id));
      }
    }
  }

  // What the window registers is the registry, and the View menu is built from each page's
  // id, title and shortcut, with one "<title> panels" submenu per page that has docks.
  // Alt+letter: one letter per menu bar entry and per menu entry, none taken from the menu
  // bar by a page (English; tst_translations checks German). The View menu once had Clip
  // &Lab, Reset &layout and &Language.
  void altLettersDoNotClash() {
    MainWindow w;
    QList<QWidget*> pageWidgets;
    for (Page* p : w.pages()) pageWidgets << p->widget();
    const QStringList clashes = lwb::test::mnemonicClashes(w, pageWidgets);
    QVERIFY2(clashes.isEmpty(), qPrintable(clashes.join(QStringLiteral("\n"))));
  }

  // Every button of the pages in kPagesWithButtonLetters has its own Alt letter (they had none: the keyboard reached
  // them only by Tab); tst_translations checks the German letters.
  void pageButtonsHaveAltLetters() {
    MainWindow w;
    const QStringList problems = lwb::test::buttonLetterProblems(w.pages());
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QStringLiteral("\n"))));
  }

  // Help → Keyboard shortcuts (F1) lists every shortcut the window's actions have, and no
  // key sequence belongs to two actions (Qt then fires neither: "ambiguous shortcut").
  void shortcutListIsCompleteAndUnambiguous() {
    MainWindow w;
    w.show();
    auto* action = w.findChild<QAction*>(QStringLiteral("shortcutsAction"));
    QVERIFY(action);
    QCOMPARE(action->shortcut(), QKeySequence(QKeySequence::HelpContents));
    action->trigger();
    auto* dialog = w.findChild<ShortcutsDialog*>(QStringLiteral("shortcutsDialog"));
    QVERIFY(dialog && dialog->isVisible());
    QMap<QString, QString> byKeys;
    int listed = 0;
    for (int r = 0; r < dialog->table()->rowCount(); ++r)
      for (const QString& k : dialog->table()->item(r, 0)->text().split(QStringLiteral(", "))) {
        byKeys[k] = dialog->table()->item(r, 1)->text();
        ++listed;
      }
    // Ambiguous: two window-wide actions with one key, or a window-wide one and one that acts
    // in a single list or table (Qt::WidgetShortcut) when that has the focus. Two of the latter
    // on different widgets never meet (Delete in Compare's table and in Robustness' list).
    QMap<QString, QString> windowWide, scoped;
    QStringList clashes;
    for (QAction* a : w.findChildren<QAction*>()) {
      if (a->menu()) continue;
      const bool inOneWidget = a->shortcutContext() == Qt::WidgetShortcut || a->shortcutContext() == Qt::WidgetWithChildrenShortcut;
      for (const QKeySequence& seq : a->shortcuts()) {
        const QString k = seq.toString(QKeySequence::NativeText);
        if (windowWide.contains(k)) clashes << k + QStringLiteral(": ") + windowWide[k] + QStringLiteral(" / ") + a->text();
        else if (!inOneWidget && scoped.contains(k)) clashes << k + QStringLiteral(": ") + scoped[k] + QStringLiteral(" / ") + a->text();
        (inOneWidget ? scoped : windowWide)[k] = a->text();
      }
    }
    QVERIFY2(clashes.isEmpty(), qPrintable(clashes.join(QLatin1Char('\n'))));
    for (const QKeySequence& k : {QKeySequence(Qt::Key_F5), QKeySequence(QKeySequence::Open), QKeySequence(QKeySequence::Undo),
                                  QKeySequence(QKeySequence::HelpContents), QKeySequence(Qt::CTRL | Qt::Key_2)})
      QVERIFY2(byKeys.contains(k.toString(QKeySequence::NativeText)), qPrintable(k.toString()));
    int withShortcut = 0;
    for (QAction* a : w.findChildren<QAction*>())
      if (!a->shortcuts().isEmpty()) withShortcut += static_cast<int>(a->shortcuts().size());
    QCOMPARE(listed, withShortcut);  // every one listed, once
  }

  // The keyboard starts on the Train page's preset box: Tab once passed 8–9 plot check boxes
  // (with hardly a visible focus) before reaching Run setup.
  void keyboardStartsAtThePresetBox() {
    MainWindow w;
    w.show();
    QVERIFY(w.showPage(QStringLiteral("train")));
    QCOMPARE(w.focusWidget(), w.page<TrainPage>()->runPanel()->presetBox());
  }

  void viewMenuIsThePageRegistry() {
    MainWindow w;
    QStringList ids;
    for (const Page* p : w.pages()) ids << p->id();
    QCOMPARE(ids, pages::pageIds());
    QCOMPARE(ids, (QStringList{QStringLiteral("train"), QStringLiteral("cliplab"), QStringLiteral("inspector"), QStringLiteral("compare"),
                               QStringLiteral("robustness"), QStringLiteral("sweeps"), QStringLiteral("attention")}));

    auto* view = w.menuBar()->findChild<QMenu*>(QStringLiteral("viewMenu"));
    QVERIFY(view);
    QSet<QKeySequence> shortcuts;
    for (Page* p : w.pages()) {
      QVERIFY2(!p->shortcut().isEmpty() && !shortcuts.contains(p->shortcut()), qPrintable(p->id()));
      shortcuts.insert(p->shortcut());
      QAction* entry = nullptr;
      for (QAction* a : view->actions())
        if (a->data().toString() == p->id()) entry = a;
      QVERIFY2(entry, qPrintable(p->id()));
      QCOMPARE(entry->text(), p->title());
      QCOMPARE(entry->shortcut(), p->shortcut());
      if (p->docks().isEmpty()) continue;
      const QString panels = tr("%1 panels").arg(QString(p->title()).remove(QLatin1Char('&')));
      QMenu* sub = nullptr;
      for (QAction* a : view->actions())
        if (a->menu() && a->text() == panels) sub = a->menu();
      QVERIFY2(sub, qPrintable(panels));
      for (QDockWidget* d : p->docks()) QVERIFY(sub->actions().contains(d->toggleViewAction()));
    }
    // The other shortcuts of the window stay distinct from the pages'.
    for (const QKeySequence& k : {QKeySequence(Qt::Key_F5), QKeySequence(Qt::Key_F6), QKeySequence(Qt::SHIFT | Qt::Key_F5),
                                  QKeySequence(QKeySequence::Open)})
      QVERIFY(!shortcuts.contains(k));
    // The Train page's Edit (undo) and Run menus sit in the menu bar before View.
    QStringList menus;
    for (QAction* a : w.menuBar()->actions()) menus << a->text();
    QCOMPARE(menus, (QStringList{QStringLiteral("&File"), QStringLiteral("&Edit"), QStringLiteral("&Run"), QStringLiteral("&View"),
                                 QStringLiteral("&Help")}));
  }

  void mainWindowHasThePages() {
    MainWindow w;
    w.show();
    QVERIFY(w.page<TrainPage>() && w.page<pages::ClipLabPage>() && w.page<pages::InspectorPage>() && w.page<pages::ComparePage>());
    // View menu shortcuts Ctrl+1 … Ctrl+7, and the same actions on the "Pages" toolbar.
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

  // Found at 1024 px in German: "Sweeps" and "Attention Lab" sat behind the Pages bar's »
  // button. A window too narrow for both bars in one row gives the Pages bar a row of its own.
  void everyPageButtonShowsInANarrowWindow() {
    MainWindow w;
    w.resize(1600, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    auto* runBar = w.findChild<QToolBar*>(QStringLiteral("runToolBar"));
    auto* pagesBar = w.findChild<QToolBar*>(QStringLiteral("pagesToolBar"));
    QVERIFY(runBar && pagesBar);
    const auto allShown = [&] {
      for (QAction* a : pagesBar->actions()) {
        QWidget* button = pagesBar->widgetForAction(a);
        if (!button || !button->isVisible()) return false;
      }
      return true;
    };
    QCoreApplication::processEvents();
    QVERIFY(!w.toolBarBreak(pagesBar));  // wide: one row
    QCOMPARE(runBar->y(), pagesBar->y());
    QVERIFY(allShown());
    const int narrow = std::max(runBar->sizeHint().width(), pagesBar->sizeHint().width()) + 40;
    QVERIFY(narrow < runBar->sizeHint().width() + pagesBar->sizeHint().width());
    w.resize(narrow, 800);
    QTRY_VERIFY(w.toolBarBreak(pagesBar));
    QTRY_VERIFY(pagesBar->y() > runBar->y());
    QTRY_VERIFY(allShown());
    w.resize(1600, 800);
    QTRY_VERIFY(!w.toolBarBreak(pagesBar));  // wide again: one row again
  }

  // A newcomer's trial: `--page cliplab --lab-preset soft_cap` showed the α row as an empty
  // gap and no η or λ, while the cue says "move η and watch α* follow".
  void labPresetFromTheCommandLineShowsItsFields() {
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    const ParsedOptions parsed = parse({QStringLiteral("--page"), QStringLiteral("cliplab"), QStringLiteral("--lab-preset"), QStringLiteral("soft_cap")});
    QVERIFY2(parsed.error.isEmpty(), qPrintable(parsed.error));
    QString error;
    QVERIFY2(w.applyOptions(parsed.options, &error), qPrintable(error));
    QCoreApplication::processEvents();
    pages::MethodForm* form = w.page<pages::ClipLabPage>()->methodForm();
    for (const char* name : {"alphaRow", "lrField", "lambdaField"}) {
      auto* field = form->findChild<QWidget*>(QLatin1String(name));
      QVERIFY2(field && field->isVisibleTo(form), name);
      QTRY_VERIFY2(field->height() >= field->minimumSizeHint().height(), name);  // laid out, not squeezed to nothing
    }
    for (QWidget* child : form->findChild<QWidget*>(QStringLiteral("alphaRow"))->findChildren<QWidget*>())
      QVERIFY2(child->isVisibleTo(form), qPrintable(child->metaObject()->className()));
  }

  // The window routes command-line entry points to the pages through the Page interface.
  void commandLineReachesThePages() {
    MainWindow w;
    w.show();
    QTemporaryDir empty;
    const ParsedOptions parsed = parse({QStringLiteral("--inspect"), kFixture, QStringLiteral("--compare"), empty.path()});
    QVERIFY2(parsed.error.isEmpty(), qPrintable(parsed.error));
    auto* inspector = w.page<pages::InspectorPage>();
    auto* compare = w.page<pages::ComparePage>();
    QSignalSpy loaded(inspector, &pages::InspectorPage::loaded);
    QSignalSpy compared(compare, &pages::ComparePage::runsChanged);
    QString error;
    QVERIFY2(w.applyOptions(parsed.options, &error), qPrintable(error));
    QCOMPARE(w.currentPageId(), QStringLiteral("inspector"));  // --inspect implies it
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, kTimeoutMs);
    QCOMPARE(inspector->inspected().path, kFixture);
    QTRY_COMPARE_WITH_TIMEOUT(compared.count(), 1, kTimeoutMs);
    QVERIFY(w.showPage(QStringLiteral("compare")));
    QVERIFY(compare->errorText().contains(empty.path()));  // read, and found to hold no run
  }

  void inspectorHandsATensorToTheClipLab() {
    MainWindow w;
    w.show();
    auto* inspector = w.page<pages::InspectorPage>();
    QSignalSpy loaded(inspector, &pages::InspectorPage::loaded);
    inspector->openFile(kFixture);
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, kTimeoutMs);
    QVERIFY(inspector->selectTensor(QStringLiteral("blocks.0.attn.q.weight")));
    Q_EMIT inspector->openInClipLab(inspector->inspected().file, QStringLiteral("blocks.0.attn.q.weight"));
    QCOMPARE(w.currentPageId(), QStringLiteral("cliplab"));
    auto* lab = w.page<pages::ClipLabPage>();
    QTRY_VERIFY_WITH_TIMEOUT(lab->matrix() && lab->matrix()->name() == "blocks.0.attn.q.weight", kTimeoutMs);
    QCOMPARE(lab->matrix()->rows(), 4);
    QCOMPARE(lab->matrix()->cols(), 8);
    QVERIFY(std::abs(lab->matrix()->singularValues().front() - 4.0) < 1e-4);  // designed σ₁ (expected.json)
  }
};

QTEST_MAIN(TestPagesReach)
#include "tst_pages_reach.moc"
