// Compare page (offscreen) on two small run directories written here: the table's final
// figures, the frontier scatter's points, the metric overlay, CSV and PNG/PDF export.
#include "app/pages/compare/compare_page.h"
#include "app/pages/compare/lr_robustness_demo.h"
#include "app/pages/compare/run_record.h"
#include "app/runs/run_manager.h"
#include "run/run_directory.h"
#include "sweep/run_index.h"
#include "app/runs/run_session.h"
#include "app/pages/compare/compare_table_model.h"
#include "support/german_scope.h"
#include "support/scratch_home.h"
#include "support/tfevents_writer.h"
#include "widgets/frontier_scatter_plot.h"
#include "widgets/metric_plot.h"
#include "widgets/palette.h"

#include <QHeaderView>
#include <QPushButton>
#include <QUndoStack>
#include <QTableView>
#include <QComboBox>
#include <QDir>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <cmath>

using namespace lwb::app::pages;

namespace {

constexpr int kTimeoutMs = 60000;

void write(const QString& path, const QByteArray& text) {
  QFile f(path);
  QVERIFY(f.open(QIODevice::WriteOnly));
  f.write(text);
}

// A finished soft-cap run with summary.json, and a running weight-decay run without one (the
// caller holds run_b's folder lock as its writer would: without one, "running" reads as interrupted).
void writeRuns(const QDir& root) {
  QVERIFY(root.mkpath(QStringLiteral("run_a")));
  QVERIFY(root.mkpath(QStringLiteral("run_b")));
  QVERIFY(root.mkpath(QStringLiteral("not_a_run")));
  const QDir a(root.filePath(QStringLiteral("run_a"))), b(root.filePath(QStringLiteral("run_b")));
  write(a.filePath(QStringLiteral("config.json")),
        R"({"task": "mnist", "model": {"kind": "mlp"}, "optimizer": {"kind": "muon", "lr": 0.1},
            "constraint": {"method": "spectral_soft_cap", "sigma_max": 2, "alpha": "auto"}})");
  write(a.filePath(QStringLiteral("metrics.jsonl")),
        "{\"step\": 10, \"train_loss\": 2.0, \"lipschitz_bound\": 6.0, \"rms_norms\": {\"layers.0\": 1.5}}\n"
        "{\"step\": 20, \"train_loss\": 1.0, \"val_loss\": 0.8, \"lipschitz_bound\": 7.0, \"rms_norms\": {\"layers.0\": 1.8}}\n"
        "{\"step\": 30, \"train_loss\": 0.6, \"val_loss\": 0.55, \"lipschitz_bound\": 8.0, \"rms_norms\": {\"layers.0\": 2.0}}\n");
  write(a.filePath(QStringLiteral("summary.json")),
        R"({"status": "finished", "steps": 30, "val_loss": 0.5, "val_acc": 0.9, "lipschitz_bound": 8.0,
            "val_loss_paper": 0.45, "val_loss_full": 0.52,
            "max_act_entry": 3.5, "max_act_rms": 1.25, "steps_per_s": 40.0})");
  write(a.filePath(QStringLiteral("status")), "finished\n");
  write(b.filePath(QStringLiteral("config.json")),
        R"({"task": "mnist", "optimizer": {"kind": "adamw", "lr": 0.001, "weight_decay": 0.1},
            "constraint": {"method": "weight_decay"}})");
  write(b.filePath(QStringLiteral("metrics.jsonl")),
        "{\"step\": 10, \"train_loss\": 2.2, \"lipschitz_bound\": 90.0, \"steps_per_s\": 100.0}\n"
        "{\"step\": 20, \"train_loss\": 1.4, \"val_loss\": 0.7, \"val_loss_paper\": 0.66, \"val_acc\": 0.8, \"lipschitz_bound\": 120.0, \"max_act_entry\": 9.0, \"max_act_rms\": 2.0, \"steps_per_s\": 110.0}\n"
        "{\"step\": 30, \"tra");  // torn last line: a run still writing
  write(b.filePath(QStringLiteral("status")), "running\n");
}

QString cell(ComparePage& page, int row, int column) { return page.tableModel()->index(row, column).data().toString(); }

}  // namespace

class TestPagesCompare : public QObject {
  Q_OBJECT

  lwb::test::ScratchHome home_;  // settings and runs, never the user's

 private Q_SLOTS:
  // Issue 14: the learning-rate robustness demo is the three CPU ICL presets at their best
  // lr and at 10×, shortened to kDemoSteps.
  void lrRobustnessDemoRuns() {
    QString error;
    const auto runs = lrRobustnessRuns(lwb::app::PresetCatalog::load(), &error);
    QVERIFY2(runs.size() == 6, qPrintable(error));
    QCOMPARE(runs[0].config["optimizer"]["kind"].get<std::string>(), std::string("adamw"));
    QCOMPARE(runs[5].config["optimizer"]["kind"].get<std::string>(), std::string("manifold_muon"));
    QCOMPARE(runs[5].config["optimizer"]["lr"].get<double>(), 10 * runs[4].config["optimizer"]["lr"].get<double>());
    QCOMPARE(runs[5].config["steps"].get<int>(), kDemoSteps);
    QVERIFY(runs[5].label.contains(QStringLiteral("10×")));
    QVERIFY(lrRobustnessRuns(lwb::app::PresetCatalog::loadFrom(QStringLiteral("/nonexistent")), &error).isEmpty());
    QVERIFY(!error.isEmpty());
  }

  // The demo button's action starts the six runs in this session (stopped at once here) and
  // reads their folders into the page as they appear.
  void lrRobustnessDemoStartsSixRuns() {
    lwb::app::RunManager runs;
    ComparePage page(&runs);
    QString error;
    QVERIFY2(page.startLrRobustnessDemo(&error), qPrintable(error));
    QCOMPARE(runs.sessions().size(), 6);
    QCOMPARE(page.demoRunDirs().size(), 6);
    QTRY_COMPARE_WITH_TIMEOUT(static_cast<int>(page.runs().size()), 6, kTimeoutMs);
    for (lwb::app::RunSession* s : runs.sessions()) s->stop();
    // sessions() returns a copy: take it once, so begin() and end() belong to the same list.
    const auto anyRunning = [&runs] {
      const QList<lwb::app::RunSession*> all = runs.sessions();
      return std::any_of(all.begin(), all.end(), [](const lwb::app::RunSession* s) { return s->threadRunning(); });
    };
    QTRY_VERIFY_WITH_TIMEOUT(!anyRunning(), kTimeoutMs);
  }

  // "Remove selected" (and Delete in the table) was final: a run read from a large index was
  // gone until read again. Now each removal is one undo step; undo puts the runs back in
  // their rows even after the table was re-sorted, and never doubles a run read again.
  void removedRunsComeBackWithUndo() {
    QTemporaryDir tmp;
    const QDir root(tmp.path());
    writeRuns(root);
    ComparePage page;
    page.resize(1400, 900);
    page.show();
    const QString a = root.filePath(QStringLiteral("run_a")), b = root.filePath(QStringLiteral("run_b"));
    page.addRunDirectories({a, b});
    QTRY_VERIFY_WITH_TIMEOUT(page.runs().size() == 2 && !page.isLoading(), kTimeoutMs);
    const auto dirs = [&page] {
      QStringList out;
      for (const auto& r : page.runs()) out << r.dir;
      return out;
    };
    QUndoStack* undo = page.undoStack();
    QVERIFY(undo && !undo->canUndo());

    // Delete in the table, on the second row shown (sorted by run name descending: run_a).
    page.table()->sortByColumn(CompareTableModel::Run, Qt::DescendingOrder);
    page.table()->selectRow(1);
    page.table()->setFocus();
    QTest::keyClick(page.table(), Qt::Key_Delete);
    QCOMPARE(dirs(), QStringList{b});
    QCOMPARE(page.tableModel()->rowCount(), 1);
    QVERIFY(undo->canUndo());
    QCOMPARE(undo->undoText(), QStringLiteral("Remove 1 run from the comparison"));
    undo->undo();
    QCOMPARE(dirs(), (QStringList{a, b}));  // back in its row (and colour), not appended
    undo->redo();
    QCOMPARE(dirs(), QStringList{b});

    // The removed run read again meanwhile: undo does not show it twice.
    page.addRunDirectories({a});
    QTRY_VERIFY_WITH_TIMEOUT(page.runs().size() == 2 && !page.isLoading(), kTimeoutMs);
    undo->undo();
    QCOMPARE(dirs(), (QStringList{b, a}));

    // Both selected, the button: one step.
    page.table()->selectAll();
    page.findChild<QPushButton*>(QStringLiteral("removeRunsButton"))->click();
    QVERIFY(page.runs().empty());
    QCOMPARE(undo->undoText(), QStringLiteral("Remove 2 runs from the comparison"));
    undo->undo();
    QCOMPARE(dirs(), (QStringList{b, a}));
  }

  // A hard-cap run's implementation in the registry's words, as the Clip Lab's form names it
  // (the table said "implementation = nested"); another version's word stays as written.
  void parametersNameTheImplementationInWords() {
    QTemporaryDir tmp;
    const QDir root(tmp.path());
    QVERIFY(root.mkpath(QStringLiteral("cap")));
    const QDir cap(root.filePath(QStringLiteral("cap")));
    write(cap.filePath(QStringLiteral("config.json")),
          R"({"task": "mnist", "constraint": {"method": "spectral_hard_cap", "sigma_max": 1, "impl": "abd_block"}})");
    write(cap.filePath(QStringLiteral("metrics.jsonl")), "{\"step\": 1, \"train_loss\": 2.0}\n");
    QCOMPARE(loadRunRecord(cap.path()).parameters,
             QStringLiteral("σmax = 1, implementation = anti-block-diagonal, blocks (001 §4.3)"));
    write(cap.filePath(QStringLiteral("config.json")),
          R"({"task": "mnist", "constraint": {"method": "spectral_hard_cap", "sigma_max": 1, "impl": "cholesky"}})");
    QCOMPARE(loadRunRecord(cap.path()).parameters, QStringLiteral("σmax = 1, implementation = cholesky"));
  }

  // A sweep point that failed before its first step showed its configured steps (a
  // newcomer's trial): the column is steps done; an ended run of an index older than
  // step_done keeps its configured count.
  void indexRowsShowStepsDone() {
    QTemporaryDir tmp;
    const std::string file = tmp.filePath(QStringLiteral("index.sqlite")).toStdString();
    {
      lwb::sweep::RunIndex index(file);
      const auto add = [&](const char* id, const char* status, int64_t stepDone) {
        lwb::sweep::IndexRow r;
        r.id = id;
        r.path = std::string("/runs/") + id;
        r.status = status;
        r.steps = 20;
        r.stepDone = stepDone;
        index.upsert(r);
      };
      add("never_ran", "failed", 0);
      add("old_index", "finished", 0);
      add("stopped", "stopped", 7);
    }
    std::map<QString, long long> steps;
    for (const RunRecord& r : loadIndexRecords(QString::fromStdString(file))) steps[r.name] = r.steps;
    QCOMPARE(steps[QStringLiteral("never_ran")], 0LL);
    QCOMPARE(steps[QStringLiteral("old_index")], 20LL);
    QCOMPARE(steps[QStringLiteral("stopped")], 7LL);
  }

  void tableScatterAndMetricsMatchTheRuns() {
    QTemporaryDir tmp;
    const QDir root(tmp.path());
    writeRuns(root);
    const lwb::run::RunFolderLock writer(root.filePath(QStringLiteral("run_b")).toStdString());  // run_b trains: its writer holds the folder
    ComparePage page;
    page.resize(1400, 900);
    page.show();
    // Before any run, a column is at least as wide as its header (they were cut at both ends).
    {
      QHeaderView* h = page.table()->horizontalHeader();
      for (int c = 0; c + 1 < CompareTableModel::ColumnCount; ++c)  // the last one stretches
        QVERIFY2(h->sectionSize(c) >= h->sectionSizeHint(c), qPrintable(QString::number(c)));
    }
    QSignalSpy changed(&page, &ComparePage::runsChanged);
    page.addRunDirectories({root.filePath(QStringLiteral("run_a")), root.filePath(QStringLiteral("run_b")),
                            root.filePath(QStringLiteral("not_a_run"))});
    QTRY_VERIFY_WITH_TIMEOUT(changed.count() == 1 && !page.isLoading(), kTimeoutMs);
    QVERIFY(page.errorText().contains(root.filePath(QStringLiteral("not_a_run"))));
    QCOMPARE(page.tableModel()->rowCount(), 2);

    using C = CompareTableModel;
    QCOMPARE(cell(page, 0, C::Run), QStringLiteral("run_a"));
    QCOMPARE(cell(page, 0, C::Status), QStringLiteral("finished"));
    // The registry's words in the table, the config's id in the tooltip (and the CSV, below).
    QCOMPARE(cell(page, 0, C::Method), QStringLiteral("spectral soft cap"));
    QCOMPARE(page.tableModel()->index(0, C::Method).data(Qt::ToolTipRole).toString(), QStringLiteral("spectral_soft_cap"));
    QCOMPARE(cell(page, 0, C::Parameters), QStringLiteral("σmax = 2, α = auto"));
    QCOMPARE(cell(page, 0, C::Optimizer), QStringLiteral("Muon, η 0.1"));
    // The filter reads the shown words and the config's ids alike.
    QVERIFY(page.setFilter(QStringLiteral("spectral_soft_cap"), C::Method));
    QCOMPARE(page.visibleRunCount(), 1);
    QVERIFY(page.setFilter(QStringLiteral("soft cap"), C::Method));
    QCOMPARE(page.visibleRunCount(), 1);
    QVERIFY(page.setFilter(QStringLiteral("adamw lr 0.001"), -1));
    QCOMPARE(page.visibleRunCount(), 1);
    QVERIFY(page.setFilter(QString(), -1));
    QCOMPARE(page.visibleRunCount(), 2);
    {
      // In German: the registry's German words and a decimal comma (a German window read
      // "spectral_soft_cap" and "muon lr 0.3"); the colour legend too.
      const lwb::test::GermanScope german(true);
      QVERIFY(german.ok());
      QCOMPARE(cell(page, 0, C::Method), QStringLiteral("spektrale weiche Kappung"));
      QCOMPARE(cell(page, 0, C::Optimizer), QStringLiteral("Muon, η 0,1"));
      QCOMPARE(configValueText(page.runs()[0], QStringLiteral("optimizer.lr")), QStringLiteral("0,1"));
    }
    QCOMPARE(cell(page, 0, C::ValLoss), QStringLiteral("0.5"));  // summary.json wins over the last row
    QCOMPARE(cell(page, 0, C::ValAcc), QStringLiteral("0.9"));
    QCOMPARE(cell(page, 0, C::ValLossPaper), QStringLiteral("0.45"));
    QCOMPARE(cell(page, 0, C::ValLossFull), QStringLiteral("0.52"));
    QCOMPARE(cell(page, 1, C::ValLossPaper), QStringLiteral("0.66"));  // no summary yet: the last row's
    QCOMPARE(cell(page, 1, C::ValLossFull), QString());
    QCOMPARE(cell(page, 0, C::Bound), QStringLiteral("8"));
    QCOMPARE(cell(page, 0, C::MaxActEntry), QStringLiteral("3.5"));
    QCOMPARE(cell(page, 0, C::MaxActRms), QStringLiteral("1.25"));
    QCOMPARE(cell(page, 0, C::StepsPerSecond), QStringLiteral("40"));
    QCOMPARE(cell(page, 1, C::Status), QStringLiteral("running"));
    QCOMPARE(cell(page, 1, C::Method), QStringLiteral("weight decay"));
    QCOMPARE(cell(page, 1, C::Optimizer), QStringLiteral("AdamW, η 0.001, λ 0.1"));
    QCOMPARE(cell(page, 1, C::ValLoss), QStringLiteral("0.7"));  // no summary: the last logged value
    QCOMPARE(cell(page, 1, C::Bound), QStringLiteral("120"));
    QCOMPARE(cell(page, 1, C::Steps), QStringLiteral("20"));     // the torn row is ignored
    QCOMPARE(cell(page, 1, C::StepsPerSecond), QStringLiteral("110"));
    // Columns no run fills are hidden (neither run has attention figures); filled ones show.
    QVERIFY(page.table()->isColumnHidden(C::Attention));
    QVERIFY(page.table()->isColumnHidden(C::AttentionPgd));
    QVERIFY(!page.table()->isColumnHidden(C::ValLossFull));  // run_a has one
    QVERIFY(!page.table()->isColumnHidden(C::Bound));

    const auto& points = page.scatterPlot()->points();
    QCOMPARE(points.size(), size_t{2});
    QCOMPARE(points[0].group, QStringLiteral("spectral soft cap"));
    QCOMPARE(points[0].x, 8.0);
    QCOMPARE(points[0].y, 0.5);
    QCOMPARE(points[1].group, QStringLiteral("weight decay"));
    QCOMPARE(points[1].x, 120.0);
    QCOMPARE(points[1].y, 0.7);
    QCOMPARE(page.scatterPlot()->frontierIndices(), (std::vector<std::size_t>{0, 1}));  // one per bound bin
    QVERIFY(page.scatterPlot()->logX());

    QCOMPARE(page.currentMetric(), QStringLiteral("val_loss"));
    QCOMPARE(page.metricPlot()->seriesSize(page.runs()[0].dir, QString()), std::size_t{2});
    QVERIFY(page.metricBox()->findData(QStringLiteral("rms_norms.layers.0")) >= 0);
    // The box names metrics as a reader would, not by their metrics.jsonl keys (it showed
    // "val_loss" and "rms_norms.layers.0"); the key stays the item's data and tooltip.
    QCOMPARE(page.metricBox()->currentText(), QStringLiteral("validation loss"));
    QCOMPARE(page.metricBox()->itemText(page.metricBox()->findData(QStringLiteral("rms_norms.layers.0"))),
             QStringLiteral("RMS→RMS norm: layers.0"));
    page.setMetric(QStringLiteral("train_loss"));
    QCOMPARE(page.metricBox()->currentText(), QStringLiteral("train loss"));
    QCOMPARE(page.metricPlot()->seriesSize(page.runs()[0].dir, QString()), std::size_t{3});
    QCOMPARE(page.metricPlot()->seriesSize(page.runs()[1].dir, QString()), std::size_t{2});

    // Adding the parent folder finds both runs again and keeps one row each.
    page.addRunDirectories({root.path()});
    QTRY_VERIFY_WITH_TIMEOUT(changed.count() == 2 && !page.isLoading(), kTimeoutMs);
    QCOMPARE(page.tableModel()->rowCount(), 2);
  }

  // Colour by "what differs (auto)", the default: runs with one method and optimizer that
  // differ in the attention are coloured by model.attention; runs that differ only by seed
  // fall back to the method (the seed is "Group seeds"' business).
  void colourByFollowsWhatDiffers() {
    QTemporaryDir tmp;
    const QDir root(tmp.path());
    const auto addRun = [&](const QString& name, const QString& attention, int seed) {
      QVERIFY(root.mkpath(name));
      const QDir d(root.filePath(name));
      write(d.filePath(QStringLiteral("config.json")),
            QStringLiteral(R"({"task": "chars_masked", "seed": %1, "model": {"kind": "attlip", "attention": "%2"},
                "optimizer": {"kind": "adamw", "lr": 0.01}, "constraint": {"method": "none"}})")
                .arg(seed)
                .arg(attention)
                .toUtf8());
      write(d.filePath(QStringLiteral("summary.json")), R"({"status": "finished", "steps": 10, "val_loss": 3.0, "lipschitz_bound": 5.0})");
      write(d.filePath(QStringLiteral("status")), "finished\n");
    };
    addRun(QStringLiteral("mc_standard"), QStringLiteral("standard"), 0);
    addRun(QStringLiteral("mc_attlip"), QStringLiteral("attlip"), 0);
    ComparePage page;
    QSignalSpy changed(&page, &ComparePage::runsChanged);
    page.addRunDirectories({root.filePath(QStringLiteral("mc_standard")), root.filePath(QStringLiteral("mc_attlip"))});
    QTRY_VERIFY_WITH_TIMEOUT(changed.count() == 1 && !page.isLoading(), kTimeoutMs);
    QCOMPARE(page.findChild<QComboBox*>(QStringLiteral("colorBy"))->currentData().toString(), QStringLiteral("auto"));
    QSet<QString> groups;
    for (const auto& p : page.scatterPlot()->points()) groups.insert(p.group);
    QCOMPARE(groups, (QSet<QString>{QStringLiteral("Attention = standard"), QStringLiteral("Attention = attlip")}));  // the form's label, not model.attention
    page.setColorBy(QStringLiteral("method"));  // the user's choice still applies
    QCOMPARE(page.scatterPlot()->points().front().group, QStringLiteral("no constraint"));

    QTemporaryDir tmp2;
    const QDir seeds(tmp2.path());
    for (int seed = 0; seed < 2; ++seed) {
      const QString name = QStringLiteral("seed%1").arg(seed);
      QVERIFY(seeds.mkpath(name));
      const QDir d(seeds.filePath(name));
      write(d.filePath(QStringLiteral("config.json")),
            QStringLiteral(R"({"task": "mnist", "seed": %1, "optimizer": {"kind": "adamw"}, "constraint": {"method": "none"}})").arg(seed).toUtf8());
      write(d.filePath(QStringLiteral("summary.json")), R"({"status": "finished", "steps": 10, "val_loss": 1.0, "lipschitz_bound": 5.0})");
    }
    ComparePage bySeed;
    QSignalSpy changed2(&bySeed, &ComparePage::runsChanged);
    bySeed.addRunDirectories({seeds.filePath(QStringLiteral("seed0")), seeds.filePath(QStringLiteral("seed1"))});
    QTRY_VERIFY_WITH_TIMEOUT(changed2.count() == 1 && !bySeed.isLoading(), kTimeoutMs);
    QCOMPARE(bySeed.scatterPlot()->points().size(), size_t{2});
    for (const auto& p : bySeed.scatterPlot()->points()) QCOMPARE(p.group, QStringLiteral("no constraint"));
  }

  // The scatter's colours must not contradict the curves' and the table's. Three runs (σmax 1,
  // 2, 2; steps 200, 200, 60), as a reviewer loaded them: "what differs" coloured by steps,
  // and its two groups took the first two runs' colours, so chars_s1's colour meant "steps =
  // 200" on the scatter. Now σmax is chosen (the constraint first), a group of one run has that
  // run's colour, and groups of values of one number take an ordered ramp with none of the
  // runs' hues. With "Group seeds" the colour key was lost ("<seed group> = —").
  void scatterColoursAgreeWithTheRuns() {
    QTemporaryDir tmp;
    const QDir root(tmp.path());
    const auto addRun = [&](const QString& name, double sigma, int steps, int seed) {
      QVERIFY(root.mkpath(name));
      const QDir d(root.filePath(name));
      write(d.filePath(QStringLiteral("config.json")),
            QStringLiteral(R"({"task": "chars", "seed": %1, "steps": %2, "optimizer": {"kind": "muon", "lr": 0.25},
                "constraint": {"method": "spectral_soft_cap", "sigma_max": %3}})")
                .arg(seed)
                .arg(steps)
                .arg(sigma)
                .toUtf8());
      write(d.filePath(QStringLiteral("summary.json")),
            QStringLiteral(R"({"status": "finished", "steps": %1, "val_loss": %2, "lipschitz_bound": %3})").arg(steps).arg(3.0 - sigma).arg(sigma * 4).toUtf8());
      write(d.filePath(QStringLiteral("status")), "finished\n");
    };
    addRun(QStringLiteral("s1"), 1, 200, 0);
    addRun(QStringLiteral("s2"), 2, 200, 0);
    addRun(QStringLiteral("s2_short"), 2, 60, 0);
    const auto dirs = [&](const QStringList& names) {
      QStringList out;
      for (const QString& n : names) out << root.filePath(n);
      return out;
    };
    ComparePage page;
    QSignalSpy changed(&page, &ComparePage::runsChanged);
    page.addRunDirectories(dirs({QStringLiteral("s1"), QStringLiteral("s2"), QStringLiteral("s2_short")}));
    QTRY_VERIFY_WITH_TIMEOUT(changed.count() == 1 && !page.isLoading(), kTimeoutMs);
    lwb::widgets::FrontierScatterPlot* scatter = page.scatterPlot();
    QSet<QString> groups;
    for (const auto& p : scatter->points()) groups.insert(p.group);
    const QString one = QStringLiteral("σmax = 1"), two = QStringLiteral("σmax = 2");
    QCOMPARE(groups, (QSet<QString>{one, two}));
    QCOMPARE(scatter->points().front().group, one);  // the legend ascends
    QCOMPARE(scatter->colorOfGroup(one), lwb::widgets::rampColor(0));
    QCOMPARE(scatter->colorOfGroup(two), lwb::widgets::rampColor(1));
    for (int i = 0; i < 3; ++i)
      for (const QString& g : {one, two}) QVERIFY(scatter->colorOfGroup(g) != lwb::widgets::runColor(i));

    // One run per group: each group has its run's colour, as on the curves.
    ComparePage two_runs;
    QSignalSpy changed2(&two_runs, &ComparePage::runsChanged);
    two_runs.addRunDirectories(dirs({QStringLiteral("s2"), QStringLiteral("s1")}));
    QTRY_VERIFY_WITH_TIMEOUT(changed2.count() == 1 && !two_runs.isLoading(), kTimeoutMs);
    for (size_t i = 0; i < two_runs.runs().size(); ++i) {
      const QString g = two_runs.runs()[i].name == QLatin1String("s1") ? one : two;
      QCOMPARE(two_runs.scatterPlot()->colorOfGroup(g), lwb::widgets::runColor(static_cast<int>(i)));
    }

    // Group seeds keeps the colour key.
    addRun(QStringLiteral("s1_seed1"), 1, 200, 1);
    ComparePage seeds;
    QSignalSpy changed3(&seeds, &ComparePage::runsChanged);
    seeds.addRunDirectories(dirs({QStringLiteral("s1"), QStringLiteral("s1_seed1"), QStringLiteral("s2")}));
    QTRY_VERIFY_WITH_TIMEOUT(changed3.count() == 1 && !seeds.isLoading(), kTimeoutMs);
    seeds.setGroupSeeds(true);
    QCOMPARE(seeds.scatterPlot()->points().size(), size_t{2});
    QCOMPARE(seeds.scatterPlot()->points()[0].group, one);
    QCOMPARE(seeds.scatterPlot()->points()[1].group, two);
  }

  // A metric spanning more than four decades (a 10x-lr run that blew up) opens on a log axis;
  // the ordinary runs of writeRuns (0.55 … 2.2) stay linear.
  void blownUpRunOpensOnALogAxis() {
    QTemporaryDir tmp;
    const QDir root(tmp.path());
    writeRuns(root);
    const lwb::run::RunFolderLock writer(root.filePath(QStringLiteral("run_b")).toStdString());  // run_b trains: its writer holds the folder
    ComparePage page;
    page.resize(1200, 800);
    page.show();
    QSignalSpy changed(&page, &ComparePage::runsChanged);
    page.addRunDirectories({root.filePath(QStringLiteral("run_a")), root.filePath(QStringLiteral("run_b"))});
    QTRY_VERIFY_WITH_TIMEOUT(changed.count() == 1 && !page.isLoading(), kTimeoutMs);
    auto* plot = page.findChild<lwb::widgets::MetricPlot*>(QStringLiteral("compareMetricPlot"));
    QVERIFY(plot);
    QVERIFY(!plot->logY());
    QVERIFY(root.mkpath(QStringLiteral("run_c")));
    const QDir c(root.filePath(QStringLiteral("run_c")));
    write(c.filePath(QStringLiteral("config.json")), R"({"task": "mnist", "optimizer": {"kind": "adamw", "lr": 0.03}})");
    write(c.filePath(QStringLiteral("metrics.jsonl")),
          "{\"step\": 10, \"train_loss\": 3.0, \"val_loss\": 2.5}\n{\"step\": 20, \"train_loss\": 2e16, \"val_loss\": 1e16}\n");
    page.addRunDirectories({c.path()});
    QTRY_VERIFY_WITH_TIMEOUT(changed.count() == 2 && !page.isLoading(), kTimeoutMs);
    QVERIFY(plot->logY());
  }

  // Issue 29 §3: TensorBoard event files open as runs (tags mapped to Compare's columns); a
  // bad CRC skips one record and says so; a torn last record means "running" and Reload
  // reads on; a folder named like an event file is refused with a message.
  void tensorBoardRunsOpenAndFollow() {
    namespace tb = lwb::test::tfevents;
    QTemporaryDir tmp;
    const QDir root(tmp.path());
    QVERIFY(root.mkpath(QStringLiteral("tb_run")));
    std::string bad = tb::record(tb::scalarEvent(2, "Loss/val", tb::simpleValue(9.0f)));
    bad.back() ^= 0x10;
    const std::string next = tb::record(tb::scalarEvent(3, "Loss/val", tb::tensorContentDouble(0.25)));
    const std::string body = tb::fileVersion() + tb::record(tb::scalarEvent(1, "Loss/train", tb::simpleValue(2.0f))) +
                             tb::record(tb::scalarEvent(1, "Loss/val", tb::tensorFloatVal(1.5f))) + bad +
                             tb::record(tb::scalarEvent(2, "Loss/train", tb::simpleValue(1.0f))) + next.substr(0, 10);
    const QString file = root.filePath(QStringLiteral("tb_run/events.out.tfevents.1700000000.host.1.0"));
    write(file, QByteArray::fromStdString(body));
    QVERIFY(root.mkpath(QStringLiteral("events.out.tfevents.2.dir")));

    ComparePage page;
    page.resize(1400, 900);
    page.show();
    QSignalSpy changed(&page, &ComparePage::runsChanged);
    page.addRunDirectories({root.filePath(QStringLiteral("tb_run")), root.filePath(QStringLiteral("events.out.tfevents.2.dir"))});
    QTRY_VERIFY_WITH_TIMEOUT(changed.count() == 1 && !page.isLoading(), kTimeoutMs);
    QCOMPARE(page.runs().size(), size_t{1});
    QVERIFY2(page.errorText().contains(QStringLiteral("data CRC mismatch")), qPrintable(page.errorText()));
    QVERIFY2(page.errorText().contains(QStringLiteral("but it is a folder")), qPrintable(page.errorText()));
    const RunRecord& r = page.runs()[0];
    QCOMPARE(r.status, QStringLiteral("running"));
    QCOMPARE(r.series.at(QStringLiteral("train_loss")).values, (std::vector<double>{2.0, 1.0}));
    QCOMPARE(r.series.at(QStringLiteral("val_loss")).values, (std::vector<double>{1.5}));
    using C = CompareTableModel;
    QCOMPARE(cell(page, 0, C::ValLoss), QStringLiteral("1.5"));
    // The writer finishes its record: reading the folder again (what Reload does) reads it.
    write(file, QByteArray::fromStdString(body.substr(0, body.size() - 10) + next));
    page.addRunDirectories({page.runs()[0].dir});
    QTRY_VERIFY_WITH_TIMEOUT(changed.count() == 2 && !page.isLoading(), kTimeoutMs);
    QCOMPARE(page.runs()[0].status, QStringLiteral("unknown"));
    QCOMPARE(page.runs()[0].series.at(QStringLiteral("val_loss")).values, (std::vector<double>{1.5, 0.25}));
    QCOMPARE(cell(page, 0, C::ValLoss), QStringLiteral("0.25"));
  }

  // Issue 29 §3: a TensorBoard file is followed live. Records appended while Compare shows it
  // appear without a Reload; a torn last record waits (status "running") until its rest
  // arrives; only the appended bytes are read (the already-read prefix, changed in place, keeps
  // its old values); a file rewritten shorter is read again from its start.
  void tensorBoardFilesAreFollowedLive() {
    namespace tb = lwb::test::tfevents;
    QTemporaryDir tmp;
    const QString file = QDir(tmp.path()).filePath(QStringLiteral("events.out.tfevents.1700000001.host.2.0"));
    const auto loss = [](int64_t step, float v) { return tb::record(tb::scalarEvent(step, "train/loss", tb::simpleValue(v))); };
    const std::string start = tb::fileVersion() + loss(1, 2.0f) + loss(2, 1.5f);
    write(file, QByteArray::fromStdString(start));
    ComparePage page;
    page.setFollowInterval(50);
    QSignalSpy changed(&page, &ComparePage::runsChanged);
    page.addRunDirectories({file});
    QTRY_VERIFY_WITH_TIMEOUT(changed.count() >= 1 && !page.isLoading(), kTimeoutMs);
    QVERIFY(page.isFollowingTensorBoard());
    const auto values = [&] { return page.runs()[0].series.at(QStringLiteral("train_loss")).values; };
    QCOMPARE(values(), (std::vector<double>{2.0, 1.5}));

    const auto append = [&](const std::string& bytes) {
      QFile f(file);
      QVERIFY(f.open(QIODevice::Append));
      f.write(bytes.data(), static_cast<qint64>(bytes.size()));
    };
    // Half a record: still being written, no new point.
    const std::string third = loss(3, 1.0f);
    QSignalSpy followed(&page, &ComparePage::tensorBoardFollowed);
    append(third.substr(0, 7));
    QTRY_VERIFY_WITH_TIMEOUT(page.runs()[0].status == QStringLiteral("running"), kTimeoutMs);
    QCOMPARE(values().size(), size_t{2});
    // The prefix changes in place (same length) and the record's rest plus one more arrive:
    // the follower reads only what was appended, so the old points keep their values.
    {
      QFile f(file);
      QVERIFY(f.open(QIODevice::ReadWrite));
      const std::string changedPrefix = tb::fileVersion() + loss(1, 7.0f) + loss(2, 7.0f);
      QCOMPARE(changedPrefix.size(), start.size());
      f.write(changedPrefix.data(), static_cast<qint64>(changedPrefix.size()));
    }
    append(third.substr(7) + loss(4, 0.5f));
    QTRY_COMPARE_WITH_TIMEOUT(values().size(), size_t{4}, kTimeoutMs);
    QCOMPARE(values(), (std::vector<double>{2.0, 1.5, 1.0, 0.5}));
    QCOMPARE(page.runs()[0].status, QStringLiteral("unknown"));
    QCOMPARE(page.runs()[0].steps, 4LL);
    // The metric plot follows too.
    page.setMetric(QStringLiteral("train_loss"));
    page.replotNow();
    QCOMPARE(page.metricPlot()->seriesSize(page.runs()[0].dir, QString()), size_t{4});

    // Rewritten shorter (a new run into the same file): read again from the start.
    write(file, QByteArray::fromStdString(tb::fileVersion() + loss(1, 9.0f)));
    QTRY_COMPARE_WITH_TIMEOUT(values(), (std::vector<double>{9.0}), kTimeoutMs);
    QVERIFY(page.errorText().isEmpty());
  }

  void exportsTableAndPlots() {
    QTemporaryDir tmp;
    const QDir root(tmp.path());
    writeRuns(root);
    const lwb::run::RunFolderLock writer(root.filePath(QStringLiteral("run_b")).toStdString());  // run_b trains: its writer holds the folder
    // Seed 004's masked LM: the attention kind, its certificate and what the run measured.
    QVERIFY(root.mkpath(QStringLiteral("run_c")));
    const QDir c(root.filePath(QStringLiteral("run_c")));
    write(c.filePath(QStringLiteral("config.json")),
          R"({"task": "chars_masked", "model": {"kind": "attlip", "attention": "attlip", "prox_relaxation": 2},
              "optimizer": {"kind": "adamw", "lr": 0.01}, "constraint": {"method": "none"}})");
    write(c.filePath(QStringLiteral("metrics.jsonl")), "{\"step\": 10, \"train_loss\": 3.5}\n");
    write(c.filePath(QStringLiteral("summary.json")),
          R"({"status": "finished", "steps": 10, "val_loss": 3.1, "attention_pgd_estimate": 0.998, "attention_bound": 1.0,
              "attention_mixing_movement": 0.05, "attention_self_movement": 0.25, "attention_certificate": "converged"})");
    ComparePage page;
    page.resize(1200, 800);
    page.show();
    QSignalSpy changed(&page, &ComparePage::runsChanged);
    page.addRunDirectories({root.path()});
    QTRY_VERIFY_WITH_TIMEOUT(changed.count() == 1 && !page.isLoading(), kTimeoutMs);

    const QString csv = root.filePath(QStringLiteral("runs.csv"));
    QVERIFY(page.exportTableCsv(csv));
    QFile f(csv);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(f.readAll()).trimmed().split(QLatin1Char('\n'));
    QCOMPARE(lines.size(), 4);
    QCOMPARE(lines[0], QStringLiteral("run,dir,status,method,parameters,optimizer,attention,attention_certificate,steps,val_loss,"
                                      "val_loss_paper,val_loss_full,val_acc,lipschitz_bound,max_act_entry,max_act_rms,steps_per_s,"
                                      "attention_pgd_estimate,attention_bound,attention_mixing_movement,attention_self_movement"));
    QVERIFY2(lines[1].startsWith(QStringLiteral("run_a,")) && lines[1].endsWith(QStringLiteral(",finished,spectral_soft_cap,\"σmax = 2, α = auto\",muon lr 0.1,,,30,0.5,0.45,0.52,0.9,8,3.5,1.25,40,,,,")),
             qPrintable(lines[1]));
    QVERIFY(lines[2].endsWith(QStringLiteral(",running,weight_decay,,adamw lr 0.001 wd 0.1,,,20,0.7,0.66,,0.8,120,9,2,110,,,,")));
    QVERIFY2(lines[3].endsWith(QStringLiteral(",finished,none,,adamw lr 0.01,attlip,converged,10,3.1,,,,,,,,0.998,1,0.05,0.25")), qPrintable(lines[3]));
    // On screen: the kind with its certificate, the numbers in their own sortable columns.
    QCOMPARE(cell(page, 2, CompareTableModel::Attention), QStringLiteral("attlip · converged"));
    QCOMPARE(cell(page, 2, CompareTableModel::AttentionPgd), QStringLiteral("0.998"));
    QCOMPARE(cell(page, 2, CompareTableModel::AttentionBound), QStringLiteral("1"));
    QVERIFY(page.tableModel()->index(2, CompareTableModel::Attention).data(Qt::ToolTipRole).toString().contains(QStringLiteral("0.05")));
    QVERIFY(cell(page, 0, CompareTableModel::Attention).isEmpty());  // not the masked LM

    QString error;
    QVERIFY2(page.savePlots(root.filePath(QStringLiteral("cmp.png")), &error), qPrintable(error));
    QVERIFY(QFileInfo(root.filePath(QStringLiteral("cmp-metric.png"))).size() > 1000);
    QVERIFY(QFileInfo(root.filePath(QStringLiteral("cmp-frontier.png"))).size() > 1000);
    QVERIFY(page.savePlots(root.filePath(QStringLiteral("cmp.pdf")), &error));
    QVERIFY(QFileInfo(root.filePath(QStringLiteral("cmp-frontier.pdf"))).size() > 500);
    QVERIFY(!page.savePlots(root.filePath(QStringLiteral("cmp.jpg")), &error));
    QVERIFY(error.contains(QStringLiteral(".png or .pdf")));
    QVERIFY(!page.exportTableCsv(QStringLiteral("/nonexistent/dir/runs.csv"), &error));
    QVERIFY(error.contains(QStringLiteral("/nonexistent/dir/runs.csv")));
  }
};

QTEST_MAIN(TestPagesCompare)
#include "tst_pages_compare.moc"
