// Sweeps page (offscreen): the grid/seed text fields, the point count and the errors that
// name the key, a sweep launched from the page running to the end through lipschitz-cli
// (every point finished in the table), and Compare opening that sweep through its run
// index: filter (regex), colour by a config key, seeds grouped into mean ± std, the
// frontier per group.
#include "app/pages/compare/compare_page.h"
#include "app/pages/sweeps/sweep_points_model.h"
#include "app/pages/sweeps/sweep_spec_text.h"
#include "app/pages/sweeps/sweep_form.h"
#include "app/pages/sweeps/sweeps_page.h"
#include "support/scratch_home.h"
#include "support/tiny_run.h"
#include "widgets/metric_plot.h"
#include "widgets/frontier_scatter_plot.h"

#include <QComboBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest/QtTest>

using namespace lwb::app;
using namespace lwb::app::pages;
using nlohmann::json;

class TestPagesSweeps : public QObject {
  Q_OBJECT

  lwb::test::ScratchHome home_;
  QTemporaryDir presets_;

  PageServices services() {
    PageServices s;
    s.presets = PresetCatalog::loadFrom(presets_.path());
    return s;
  }

 private Q_SLOTS:
  void initTestCase() {
    QFile f(presets_.path() + "/tiny.json");
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QByteArray::fromStdString(lwb::test::tinyConfig(20).dump()));
    // A second preset, listed first: an opened sweep must find its own again.
    QFile g(presets_.path() + "/a_longer.json");
    QVERIFY(g.open(QIODevice::WriteOnly));
    g.write(QByteArray::fromStdString(lwb::test::tinyConfig(30).dump()));
  }

  void textFields() {
    QString error;
    QCOMPARE(*parseGridValues("0.1, 0.2, spectral_hammer", &error), json({0.1, 0.2, "spectral_hammer"}));
    QCOMPARE(*parseGridValues("0.001..0.1 x3 log", &error),
             json({{"from", 0.001}, {"to", 0.1}, {"count", 3}, {"scale", "log"}}));
    QCOMPARE(*parseGridValues("1..4 x4", &error), json({{"from", 1.0}, {"to", 4.0}, {"count", 4}, {"scale", "linear"}}));
    QVERIFY(!parseGridValues("0.1,,0.2", &error));
    QVERIFY2(error.contains("empty value"), qPrintable(error));
    QVERIFY(!parseGridValues("  ", &error));
    QCOMPARE(*parseSeeds("0..3", &error), json({0, 1, 2, 3}));
    QCOMPARE(*parseSeeds("4, 7", &error), json({4, 7}));
    QVERIFY(parseSeeds("", &error)->is_null());
    QVERIFY(!parseSeeds("1, x", &error));
    QVERIFY2(error.contains("'x'"), qPrintable(error));
  }

  void pointCountAndErrorsNameTheKey() {
    SweepsPage page(services());
    page.form()->setPreset("tiny");
    QString error;
    QCOMPARE(page.form()->pointCount(&error), 0LL);
    QVERIFY2(error.contains("grid: empty"), qPrintable(error));
    auto* launch = page.findChild<QPushButton*>(QStringLiteral("sweepLaunch"));
    QVERIFY(launch && !launch->isEnabled());  // nothing to launch: the preview line says why
    page.form()->addGridRow("optimizer.lr", "0.05, 0.1, 0.2");
    QVERIFY(launch->isEnabled());
    page.form()->addGridRow("constraint.sigma_max", "1..4 x4");
    page.form()->setSeeds("0, 1");
    QCOMPARE(page.form()->pointCount(&error), 24LL);
    page.form()->addGridRow("optimizer.weight_decay", "-1");
    QCOMPARE(page.form()->pointCount(&error), 0LL);
    QVERIFY2(error.contains("grid.optimizer.weight_decay: value -1"), qPrintable(error));
  }

  void launchRunsEveryPointThenCompareReadsTheIndex() {
    QTemporaryDir tmp;
    const QString out = tmp.path() + "/sweep";
    SweepsPage page(services());
    page.form()->setPreset("tiny");
    page.form()->addGridRow("optimizer.lr", "0.05, 0.1");
    page.form()->setSeeds("0, 1");
    page.form()->setSteps(20);
    page.form()->setOutputFolder(out);
    page.form()->setJobs(2);
    QSignalSpy finished(&page, &SweepsPage::sweepFinished);
    QString error;
    QVERIFY2(page.launch(&error), qPrintable(error));
    QVERIFY(page.isRunning());
    QVERIFY(finished.wait(180000));
    QCOMPARE(finished.first().first().toInt(), 0);
    QTRY_COMPARE_WITH_TIMEOUT(page.pointsModel()->countWithStatus(lwb::run::RunStatus::Finished), 4, 10000);
    QCOMPARE(page.pointsModel()->rowCount(), 4);
    QVERIFY(page.pointsModel()->points()[3].assignment.contains("optimizer.lr=0.1"));

    // Opened again (a new window, the CLI's spec.json with its list of grids): the form shows
    // the sweep's preset, grid, seeds and steps (it was left empty: "grid: empty").
    SweepsPage reopened(services());
    QVERIFY2(reopened.openSweep(out, &error), qPrintable(error));
    QVERIFY2(reopened.errorText().isEmpty(), qPrintable(reopened.errorText()));
    QCOMPARE(reopened.form()->pointCount(&error), 4LL);
    const auto spec = reopened.form()->spec(&error);
    QVERIFY2(spec.has_value(), qPrintable(error));
    QCOMPARE(reopened.form()->findChild<QComboBox*>(QStringLiteral("sweepPreset"))->currentText(), QStringLiteral("tiny"));
    QCOMPARE((*spec)["base"], (*page.form()->spec(&error))["base"]);
    QCOMPARE((*spec)["grid"], json({{"optimizer.lr", {0.05, 0.1}}}));
    QCOMPARE((*spec)["seeds"], json({0, 1}));
    QCOMPARE((*spec)["steps"], json(20));

    ComparePage compare;
    compare.addRunDirectories({out});  // a sweep folder: read through its index.sqlite
    QTRY_VERIFY_WITH_TIMEOUT(!compare.isLoading(), 30000);
    QCOMPARE(static_cast<int>(compare.runs().size()), 4);
    QVERIFY2(compare.errorText().isEmpty(), qPrintable(compare.errorText()));
    QCOMPARE(compare.scatterPlot()->points().size(), size_t{4});
    // Listed, none selected yet (read on demand): the curve plot says to select, not "No runs yet".
    QVERIFY2(compare.metricPlot()->emptyText().contains(QStringLiteral("Select runs")), qPrintable(compare.metricPlot()->emptyText()));
    // The index has no max_act_rms; each run's summary.json does (issue 32: the column was empty).
    for (const auto& r : compare.runs()) QVERIFY2(r.maxActRms.has_value(), qPrintable(r.name));
    compare.setColorBy("optimizer.lr");
    QCOMPARE(compare.scatterPlot()->points().front().group, QString("Learning rate η = 0.05"));  // the run form's label
    compare.setGroupSeeds(true);
    const auto grouped = compare.scatterPlot()->points();
    QCOMPARE(grouped.size(), size_t{2});  // two learning rates, two seeds each
    QVERIFY(grouped[0].yStd > 0);
    QVERIFY(grouped[0].label.contains("2 seed"));
    QVERIFY(compare.setFilter("^000[01]$", 0));
    QCOMPARE(compare.visibleRunCount(), 2);
    QCOMPARE(compare.scatterPlot()->points().size(), size_t{1});
    QVERIFY(!compare.setFilter("([", -1));  // not a regular expression: refused, shown
    QCOMPARE(compare.visibleRunCount(), 2);

    // One more seed extends the sweep (it was refused as "a different sweep"): the preview
    // says so, the 4 points keep their ids, and the table lists the 2 new ones after them
    // (seeds vary fastest, so the spec alone would number the old lr 0.1 point 0003, not 0002).
    reopened.form()->setSeeds("0, 1, 2");
    QPushButton* preview = nullptr;
    for (auto* b : reopened.findChildren<QPushButton*>())
      if (b->text() == QStringLiteral("&Preview points")) preview = b;
    QVERIFY(preview);
    preview->click();
    QTRY_VERIFY2_WITH_TIMEOUT(reopened.progressText().contains(QStringLiteral("extends the sweep")),
                              qPrintable(reopened.progressText() + QStringLiteral(" / ") + reopened.errorText()), 30000);
    QVERIFY2(reopened.progressText().contains(QStringLiteral("6 points: 2 to run, 4 already done")) &&
                 reopened.progressText().contains(QStringLiteral("its 4 points keep their ids, 2 are new")),
             qPrintable(reopened.progressText()));
    QSignalSpy again(&reopened, &SweepsPage::sweepFinished);
    QVERIFY2(reopened.launch(&error), qPrintable(error));
    QVERIFY(again.wait(180000));
    QCOMPARE(again.first().first().toInt(), 0);
    QTRY_COMPARE_WITH_TIMEOUT(reopened.pointsModel()->countWithStatus(lwb::run::RunStatus::Finished), 6, 10000);
    const auto rows = reopened.pointsModel()->points();
    QCOMPARE(rows.size(), size_t{6});
    QCOMPARE(rows[2].id, QStringLiteral("0002"));
    QVERIFY2(rows[2].assignment.contains("optimizer.lr=0.1") && rows[2].assignment.contains("seed=0"), qPrintable(rows[2].assignment));
    QCOMPARE(rows[4].id, QStringLiteral("0004"));
    QVERIFY2(rows[4].assignment.contains("optimizer.lr=0.05") && rows[4].assignment.contains("seed=2"), qPrintable(rows[4].assignment));
  }

  void openSweepFolderErrors() {
    SweepsPage page(services());
    QString error;
    QVERIFY(!page.openSweep("/nonexistent/sweep", &error));
    QVERIFY2(error.contains("points.json"), qPrintable(error));
    // An empty folder is said to be no sweep folder (issue 32), not a missing file.
    QTemporaryDir empty;
    QVERIFY(!page.openSweep(empty.path(), &error));
    QVERIFY2(error.contains("not a sweep folder"), qPrintable(error));
  }

  // A sweep whose spec names its base as a file (written for the CLI) opened with the form
  // on the first preset ("a_longer") and no word: the preview then priced it with that
  // preset's steps. The config the sweep resolved the file to finds its preset.
  void openedSweepWithAFileBaseFindsItsPreset() {
    QTemporaryDir tmp;
    const auto write = [&](const QString& name, const json& j) {
      QFile f(tmp.path() + "/" + name);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(QByteArray::fromStdString(j.dump()));
    };
    write("spec.json", {{"base", "base.json"}, {"base_config", lwb::test::tinyConfig(20)}, {"grid", json::array({{{"optimizer.lr", {0.05}}}})}});
    write("points.json", json::array({{{"index", 0}, {"id", "0000"}, {"assignment", {{"optimizer.lr", 0.05}}}}}));
    SweepsPage page(services());
    page.show();  // the message line counts only when shown
    QString error;
    QVERIFY2(page.openSweep(tmp.path(), &error), qPrintable(error));
    QCOMPARE(page.form()->findChild<QComboBox*>(QStringLiteral("sweepPreset"))->currentText(), QStringLiteral("tiny"));
    QVERIFY2(page.errorText().isEmpty(), qPrintable(page.errorText()));
    // A base file that is no preset: said, not silently replaced.
    write("spec.json", {{"base", "base.json"}, {"base_config", lwb::test::tinyConfig(77)}, {"grid", json::array({{{"optimizer.lr", {0.05}}}})}});
    QVERIFY2(page.openSweep(tmp.path(), &error), qPrintable(error));
    QVERIFY2(page.errorText().contains(QStringLiteral("none of the presets")), qPrintable(page.errorText()));
  }
};

QTEST_MAIN(TestPagesSweeps)
#include "tst_pages_sweeps.moc"
