// The Train page's dashboard fed by several runs at once (synthetic data through the
// mailboxes): every plot shows every run, the single-run plots (σmax lines, f(σ)) follow
// the current run (the newest, or the run list's selection), and a removed run leaves
// every plot. The page is built from its services as the main window builds it.
#include "app/pages/train/dashboard.h"
#include "app/runs/mailbox.h"
#include "app/pages/train/run_list.h"
#include "data/icl_levels.h"
#include "support/scratch_home.h"
#include "support/train_page_host.h"
#include "widgets/activation_plot.h"
#include "widgets/lipschitz_bound_plot.h"
#include "widgets/loss_accuracy_plot.h"
#include "widgets/scalar_map_plot.h"
#include "widgets/spectrum_plot.h"
#include "widgets/qcp.h"
#include "widgets/weight_norm_plot.h"

#include <QDockWidget>
#include <QFileInfo>
#include <QTreeWidget>
#include <QtTest>

using namespace lwb;
using namespace lwb::app;

namespace {

// A run with `layers` matrices named prefix0, prefix1, ...; every 10th step evaluates.
void feed(RunSession* s, const QString& prefix, int layers, int steps, double sigmaMax) {
  Mailbox& box = *s->mailbox();
  ConstraintInfo c;
  c.method = lwb::spectral::ConstraintMethod::SpectralHardCap;
  c.sigmaMax = sigmaMax;
  c.norm = lwb::spectral::ThresholdNorm::Rms;  // as run::trainingConstraint gives by default
  box.postTotalSteps(steps);
  box.postConstraint(c);
  box.postState(RunState::Running);
  for (int step = 1; step <= steps; ++step) {
    run::StepMetrics m;
    m.step = step;
    m.trainLoss = 3.0 / step;
    m.trainAcc = 0.1;
    m.lipschitzBound = 1.0 + step;
    m.boundTrace.bound = *m.lipschitzBound;
    for (int l = 0; l < layers; ++l) {
      const std::string name = (prefix + QString::number(l)).toStdString();
      m.norms.push_back({name, "hidden", 1.0 + 0.01 * step, 2.0 + 0.02 * step});
      m.boundTrace.layers.push_back({name, 1.5, 1.5 * (l + 1), 1.0});
    }
    if (step % 10 == 0) {
      m.valLoss = m.trainLoss;
      m.valAcc = 0.2;
      m.activations.emplace();
      for (int l = 0; l < layers; ++l) {
        m.activations->names.push_back((prefix + QStringLiteral("block") + QString::number(l)).toStdString());
        m.activations->maxAbsEntry.push_back(4.0 + l);
        m.activations->maxTokenRms.push_back(1.0);
      }
    }
    box.postStep(m);
    if (step % 10 == 0) {
      run::SpectraRecord sp;
      sp.step = step;
      for (int l = 0; l < layers; ++l) {
        std::vector<float> sv(8 + l);
        for (size_t i = 0; i < sv.size(); ++i) sv[i] = 3.0f / static_cast<float>(i + 1);
        sp.after[(prefix + QString::number(l)).toStdString()] = sv;
        for (float& v : sv) v *= 1.1f;
        sp.before[(prefix + QString::number(l)).toStdString()] = sv;
      }
      box.postSpectra(sp);
    }
  }
}

}  // namespace

class TestAppDashboard : public QObject {
  Q_OBJECT

  lwb::test::ScratchHome home_;  // settings and runs, never the user's

 private Q_SLOTS:
  void severalRunsReachEveryPlot();
  void seed002PanelsAndReferenceLevels();
  void attlipSolverPanel();
  void embeddingIsLabelledWithItsOwnCap();
  void runListKeepsItsColumnsReadable();
};

// An AttLip run (issue 26): the solver panel gets the movement, λ and residual-ratio series
// (the evaluation's on evaluation steps only) and comes to the front; a run without them
// leaves it closed.
void TestAppDashboard::attlipSolverPanel() {
  test::TrainPageHost host;
  host.page->resize(1600, 1000);
  host.page->show();
  RunManager& runs = *host.runs;
  Dashboard& dash = *host.page->dashboard();
  RunSession* plain = runs.addRun(QStringLiteral("mlp"));
  feed(plain, QStringLiteral("layers."), 2, 10, 2.0);
  QTRY_COMPARE(plain->history().steps().size(), size_t{10});
  QTest::qWait(100);
  QVERIFY(dash.attentionPlot()->layers().isEmpty());
  QVERIFY(!host.page->dock(QStringLiteral("attention"))->isVisible());

  RunSession* s = runs.addRun(QStringLiteral("attlip"));
  Mailbox& box = *s->mailbox();
  box.postTotalSteps(20);
  box.postState(RunState::Running);
  for (int step = 1; step <= 20; ++step) {
    run::StepMetrics m;
    m.step = step;
    m.trainLoss = 3.0;
    m.attlipResidual = 1.0;
    m.attlipSteps = 3;
    m.attlipMovement = 0.2;
    m.attlipStepMean = 0.5;
    m.attlipStepMin = 0.25;
    m.attlipResidualRatio = 1e-2;
    if (step % 10 == 0) {
      m.valAttlipMovement = 0.21;
      m.valAttlipResidualRatio = 1e-7;
    }
    box.postStep(m);
  }
  QTRY_COMPARE(s->history().steps().size(), size_t{20});
  QTest::qWait(100);
  QCOMPARE(dash.attentionPlot()->layers().size(), 6);
  QCOMPARE(dash.attentionPlot()->seriesSize(s->id(), Dashboard::tr("λ min")), size_t{20});
  QCOMPARE(dash.attentionPlot()->seriesSize(s->id(), Dashboard::tr("evaluation movement")), size_t{2});
  QTRY_VERIFY(!host.page->dock(QStringLiteral("attention"))->visibleRegion().isEmpty());
}

// Issue 32: "stopped: stopped at step 145" pushed the run list's columns out and the Folder
// column was always cut. The state word stays in the column, the message in its tooltip;
// the folder shows its own name, the full path in the tooltip. Steps/s is the status bar's
// number: the last interval's while running, the whole run's once ended (the list once kept
// the last interval's 61.2 beside the status bar's 53.8).
void TestAppDashboard::runListKeepsItsColumnsReadable() {
  test::TrainPageHost host;
  host.page->resize(1600, 1000);
  host.page->show();
  RunSession* s = host.runs->addRun(QStringLiteral("chars"), QStringLiteral("/data/lwb/runs/chars_small_cpu-20261125-1"));
  Mailbox& box = *s->mailbox();
  box.postState(RunState::Running);
  run::StepMetrics last;
  last.step = 140;
  last.trainLoss = 1.0;
  last.stepsPerSecond = 61.2;  // the last logged interval
  box.postStep(last);
  QTreeWidget* tree = host.page->runList()->tree();
  QTRY_COMPARE(tree->topLevelItem(0)->text(3), QStringLiteral("61.2"));
  run::RunSummary end;
  end.status = run::RunStatus::Stopped;
  end.steps = 145;
  end.stepsPerSecond = 53.8;  // the whole run: what the status bar shows once it ended
  end.message = "stopped at step 145";
  box.postEnd(end);
  box.postState(RunState::Stopped);
  QTRY_COMPARE(tree->topLevelItem(0)->text(1), QStringLiteral("stopped"));
  QCOMPARE(s->stepsPerSecond(), 53.8);
  QCOMPARE(tree->topLevelItem(0)->text(3), QStringLiteral("53.8"));
  QVERIFY(tree->topLevelItem(0)->toolTip(1).contains(QStringLiteral("stopped at step 145")));
  QCOMPARE(tree->topLevelItem(0)->text(4), QStringLiteral("chars_small_cpu-20261125-1"));
  QCOMPARE(tree->topLevelItem(0)->toolTip(4), s->runDir());
}

// Issue 32: the embedding's norm (15.8 beside σmax = 3) read as a failed constraint. Its
// legend entry says it has its own cap; the constrained layers' entries are plain names.
void TestAppDashboard::embeddingIsLabelledWithItsOwnCap() {
  test::TrainPageHost host;
  host.page->resize(1600, 1000);
  host.page->show();
  QCOMPARE(host.page->dashboard()->boundPlot()->emptyText(), QStringLiteral("No run yet (F5 starts one)"));
  RunSession* s = host.runs->addRun(QStringLiteral("gpt"));
  Mailbox& box = *s->mailbox();
  ConstraintInfo c;
  c.method = lwb::spectral::ConstraintMethod::SpectralHardCap;
  c.sigmaMax = 2.0;
  c.norm = lwb::spectral::ThresholdNorm::Rms;
  box.postConstraint(c);
  box.postTotalSteps(3);
  box.postState(RunState::Running);
  for (int step = 1; step <= 3; ++step) {
    run::StepMetrics m;
    m.step = step;
    m.trainLoss = 1.0;
    m.norms.push_back({"embed", "embedding", 15.8, 15.8});
    m.norms.push_back({"blocks.0.attn.q", "q", 3.0, 3.0});
    box.postStep(m);
  }
  run::SpectraRecord sp;
  sp.step = 3;
  sp.after["embed"] = {15.8f, 9.0f, 4.0f};
  sp.after["blocks.0.attn.q"] = {3.0f, 2.0f, 1.0f};
  box.postSpectra(sp);
  QTRY_COMPARE(s->history().steps().size(), size_t{3});
  QTRY_COMPARE(s->history().spectra().size(), size_t{1});
  Dashboard& dash = *host.page->dashboard();
  // Its steps carry no bound: the bound panel says the model has none, not "No run yet".
  QVERIFY(dash.boundPlot()->showsEmptyText());
  QVERIFY2(dash.boundPlot()->emptyText().contains(QStringLiteral("no Lipschitz bound")), qPrintable(dash.boundPlot()->emptyText()));
  // Spectra are drawn in σmax's units (norm = rms): the axes say so, or they read as the
  // plain σᵢ the Inspector shows (a factor √(d_in/d_out) apart).
  QCOMPARE(dash.spectrumPlot()->customPlot()->yAxis->label(), QStringLiteral("σᵢ (RMS→RMS)"));
  QCOMPARE(dash.scalarMapPlot()->customPlot()->xAxis->label(), QStringLiteral("σ (RMS→RMS)"));
  // The constraint skips the embedding: its σᵢ are not placed on f, and the legend says why.
  const auto markerCount = [&] {
    int n = 0;
    QCustomPlot* cp = dash.scalarMapPlot()->customPlot();
    for (int i = 0; i < cp->graphCount(); ++i)
      if (cp->graph(i)->name().startsWith(QStringLiteral("σᵢ of the matrix"))) n += cp->graph(i)->data()->size();
    return n;
  };
  dash.spectrumPlot()->setCurrentLayer(QStringLiteral("embed"));
  QTRY_VERIFY(dash.scalarMapPlot()->curveNames().join(QString()).contains(QStringLiteral("embed: an embedding, not held to σmax")));
  QCOMPARE(markerCount(), 0);
  dash.spectrumPlot()->setCurrentLayer(QStringLiteral("blocks.0.attn.q"));
  QTRY_COMPARE(markerCount(), 3);
  QVERIFY(!dash.scalarMapPlot()->curveNames().join(QString()).contains(QStringLiteral("not held")));
  QTRY_COMPARE(host.page->dashboard()->normPlot()->seriesSize(s->id(), QStringLiteral("embed")), size_t{3});
  const widgets::WeightNormPlot* norms = host.page->dashboard()->normPlot();
  QVERIFY2(norms->legendName(QStringLiteral("embed")).contains(QStringLiteral("not held to σmax")),
           qPrintable(norms->legendName(QStringLiteral("embed"))));
  QCOMPARE(norms->legendName(QStringLiteral("blocks.0.attn.q")), QStringLiteral("blocks.0.attn.q"));
  // The legend shows it.
  bool shown = false;
  QCustomPlot* cp = norms->customPlot();
  for (int i = 0; i < cp->graphCount(); ++i)
    shown = shown || (cp->legend->hasItemWithPlottable(cp->graph(i)) && cp->graph(i)->name().contains(QStringLiteral("not held to σmax")));
  QVERIFY(shown);
}

// A Manifold Muon ICL run (issue 14): the Stiefel band, tangency and activation RMS panels
// get one series per matrix (two for the band) and per module; the loss plot draws the
// task's reference levels while that run is current, and the band's panel comes to the front.
void TestAppDashboard::seed002PanelsAndReferenceLevels() {
  test::TrainPageHost host;
  host.page->resize(1600, 1000);
  host.page->show();
  RunManager& runs = *host.runs;
  Dashboard& dash = *host.page->dashboard();
  RunSession* s = runs.addRun(QStringLiteral("icl mm"));
  Mailbox& box = *s->mailbox();
  box.postTotalSteps(20);
  box.postLevels(data::iclReferenceLevels(32, 5, false));
  box.postState(RunState::Running);
  for (int step = 1; step <= 20; ++step) {
    run::StepMetrics m;
    m.step = step;
    m.trainLoss = 5.0 - 0.1 * step;
    for (const char* name : {"layers.0.attn.qkv", "layers.0.mlp.fc2"})
      m.stiefel.push_back({name, 0.01 / step, 1.0 - 2e-7, 1.0 + 3e-7});
    if (step % 10 == 0) {
      m.activations.emplace();
      for (const char* name : {"embed", "layers.0.attn", "layers.0.mlp"}) {
        m.activations->names.push_back(name);
        m.activations->maxAbsEntry.push_back(2.0);
        m.activations->maxTokenRms.push_back(1.0);
        m.activations->meanTokenRms.push_back(0.5);
      }
    }
    box.postStep(m);
  }
  QTRY_COMPARE(s->history().steps().size(), size_t{20});
  QTest::qWait(100);
  QCOMPARE(dash.stiefelPlot()->layers().size(), 4);  // σmin and σmax of two matrices
  QCOMPARE(dash.stiefelPlot()->seriesSize(s->id(), QStringLiteral("layers.0.attn.qkv σmax")), size_t{20});
  QCOMPARE(dash.stiefelPlot()->targetMax(), 1.0 + 1e-3);
  QCOMPARE(dash.tangencyPlot()->layers().size(), 2);
  QCOMPARE(dash.activationRmsPlot()->seriesSize(s->id(), QStringLiteral("layers.0.mlp")), size_t{2});
  QCOMPARE(s->history().referenceLevels().size(), size_t{3});
  QTRY_VERIFY(!host.page->dock(QStringLiteral("stiefel"))->visibleRegion().isEmpty());
}

void TestAppDashboard::severalRunsReachEveryPlot() {
  test::TrainPageHost host;
  host.page->resize(1600, 1000);
  host.page->show();
  RunManager& runs = *host.runs;
  Dashboard& dash = *host.page->dashboard();

  RunSession* a = runs.addRun(QStringLiteral("mlp"));
  RunSession* b = runs.addRun(QStringLiteral("gpt"));
  QCOMPARE(dash.currentRun(), b);  // the newest run is the one to watch
  for (int round = 0; round < 5; ++round) {
    feed(a, QStringLiteral("layers."), 3, 40, 2.0);
    feed(b, QStringLiteral("blocks."), 5, 40, 4.0);
    QTest::qWait(50);
  }
  QTRY_COMPARE(b->history().steps().size(), size_t{200});
  QTRY_COMPARE(a->history().steps().size(), size_t{200});
  QTest::qWait(100);
  const QString trainLoss = widgets::LossAccuracyPlot::metricKey(widgets::LossAccuracyPlot::Metric::TrainLoss);
  for (RunSession* s : {a, b}) {
    QCOMPARE(dash.lossPlot()->seriesSize(s->id(), trainLoss), size_t{200});
    QVERIFY(dash.boundPlot()->seriesSize(s->id(), QStringLiteral("lipschitz_bound")) == 200);
  }
  QCOMPARE(dash.normPlot()->layers().size(), 8);
  QCOMPARE(dash.activationPlot()->blocks().size(), 8);
  QCOMPARE(dash.spectrumPlot()->layers().size(), 8);
  QCOMPARE(dash.normPlot()->targetMax(), 4.0);
  QVERIFY(!dash.scalarMapPlot()->curveNames().isEmpty());

  // Selecting a row in the run list makes that run current.
  host.page->runList()->setCurrentRun(a);
  QCOMPARE(runs.currentRun(), a);
  QCOMPARE(dash.currentRun(), a);
  QCOMPARE(dash.normPlot()->targetMax(), 2.0);
  runs.setCurrentRun(b);
  QCOMPARE(dash.normPlot()->targetMax(), 4.0);
  dash.spectrumPlot()->setCurrentLayer(QStringLiteral("blocks.4"));
  dash.spectrumPlot()->setCurrentStep(20);
  dash.replotNow();

  const QString removed = a->id();
  runs.removeRun(a);
  QTest::qWait(50);
  QVERIFY(!dash.lossPlot()->hasRun(removed));
  QCOMPARE(dash.lossPlot()->runIds(), QStringList{b->id()});
  QCOMPARE(dash.currentRun(), b);
  dash.replotNow();
}

QTEST_MAIN(TestAppDashboard)
#include "tst_app_dashboard.moc"
