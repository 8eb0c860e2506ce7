// The Inspector's run history (issue 29 §2, app/pages/inspector/history_panel.h), offscreen:
// opening a run directory reads every checkpoint on a worker and draws one line per layer
// over the steps (σ₁ and ‖W‖_F against the exact float64 SVD and a loop written here); two
// chosen checkpoints give the per-layer delta table (Δσ₁, ‖ΔW‖/‖W‖ against the same
// references); a corrupt checkpoint is reported and skipped; an empty checkpoints folder is
// a clear message; Cancel stops a load.
#include "widgets/curve_plot.h"
#include "app/pages/inspector/history_panel.h"
#include "app/pages/inspector/inspector_page.h"
#include "common/torch_compat.h"
#include "inspect/checkpoint_history.h"
#include "io/safetensors.h"
#include "io/tensor_convert.h"
#include "support/random_tensors.h"
#include "support/scratch_home.h"

#include <QComboBox>
#include <QLabel>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <cmath>
#include <filesystem>
#include <fstream>

using namespace lwb;
using namespace lwb::app::pages;
namespace fs = std::filesystem;

namespace {

constexpr int kTimeoutMs = 120000;

double exactSigma1(const at::Tensor& w) { return compat::svdvals(w.to(at::kDouble))[0].item<double>(); }

double loopFrobenius(const at::Tensor& w) {
  const auto c = w.to(at::kDouble).contiguous();
  double s = 0;
  for (int64_t i = 0; i < c.numel(); ++i) s += c.data_ptr<double>()[i] * c.data_ptr<double>()[i];
  return std::sqrt(s);
}

// Layer "a" (6×4) and "b" (5×7) of step s, as the float32 a checkpoint stores.
std::vector<std::pair<std::string, at::Tensor>> layersAt(int64_t s) {
  const double k = 1 + 0.05 * static_cast<double>(s);
  return {{"a", (test::gaussian({6, 4}, 1) * k).to(at::kFloat)}, {"b", (test::gaussian({5, 7}, 2) + 0.01 * static_cast<double>(s)).to(at::kFloat)}};
}

void writeCheckpoint(const fs::path& file, int64_t step) {
  std::vector<io::RawTensor> t;
  for (const auto& [name, w] : layersAt(step)) t.push_back(io::fromTensor("param." + name, w));
  t.push_back(io::fromTensor("optim.momentum.a", at::ones({6, 4}, at::kFloat)));
  io::writeSafetensors(file.string(), t, {{"step", std::to_string(step)}});
}

fs::path makeRun(const QTemporaryDir& dir, const std::vector<int64_t>& steps) {
  const fs::path run = fs::path(dir.path().toStdString()) / "run";
  fs::create_directories(run / "checkpoints");
  for (int64_t s : steps) writeCheckpoint(run / "checkpoints" / ("step_" + std::to_string(s) + ".safetensors"), s);
  return run;
}

bool waitLoaded(HistoryPanel* panel) {
  QSignalSpy loaded(panel, &HistoryPanel::historyLoaded);
  QSignalSpy failed(panel, &HistoryPanel::failed);
  return QTest::qWaitFor([&] { return loaded.count() + failed.count() > 0; }, kTimeoutMs) && loaded.count() == 1;
}

}  // namespace

class TestPagesInspectorHistory : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void initTestCase() { QVERIFY(home_.isValid()); }
  void linesPerLayerOverSteps();
  void deltaTableOfTwoCheckpoints();
  void corruptAndEmptyRuns();
  void cancelStopsTheLoad();

 private:
  lwb::test::ScratchHome home_;
};

void TestPagesInspectorHistory::linesPerLayerOverSteps() {
  QTemporaryDir dir;
  const fs::path run = makeRun(dir, {40, 5, 200});
  InspectorPage page;
  HistoryPanel* panel = page.historyPanel();
  QSignalSpy loaded(panel, &HistoryPanel::historyLoaded);
  page.openFile(QString::fromStdString(run.string()));
  QVERIFY(QTest::qWaitFor([&] { return loaded.count() == 1; }, kTimeoutMs));
  QCOMPARE(page.tabs()->currentWidget(), panel);
  // The Checkpoint tab holds the run's newest checkpoint (it said "No file" beside σmax 1),
  // and the history stays the tab in front.
  QVERIFY(QTest::qWaitFor([&] { return !page.isLoading(); }, kTimeoutMs));
  QVERIFY2(page.inspected().path.endsWith(QStringLiteral("step_200.safetensors")), qPrintable(page.inspected().path));
  QCOMPARE(page.tabs()->currentWidget(), panel);
  QCOMPARE(panel->plot()->curveNames(), (QStringList{QStringLiteral("a"), QStringLiteral("b")}));
  for (const auto& [metric, reference] : {std::make_pair(QStringLiteral("sigma1"), &exactSigma1), std::make_pair(QStringLiteral("frobenius"), &loopFrobenius)}) {
    panel->metricBox()->setCurrentIndex(panel->metricBox()->findData(metric));
    for (size_t l = 0; l < 2; ++l) {
      const QString name = l == 0 ? QStringLiteral("a") : QStringLiteral("b");
      const auto [xs, ys] = panel->plot()->curveData(name);
      QCOMPARE(xs, (std::vector<double>{5, 40, 200}));  // by step, not by file name
      for (size_t i = 0; i < 3; ++i) {
        const double ref = reference(layersAt(static_cast<int64_t>(xs[i]))[l].second);
        QVERIFY2(std::abs(ys[i] - ref) < 1e-9 * ref, qPrintable(metric + QStringLiteral(" ") + name));
      }
    }
  }
  // Every metric of the registry is offered (σ₁, RMS→RMS, ‖W‖_F and the WeightWatcher ones).
  QCOMPARE(panel->metricBox()->count(), static_cast<int>(inspect::historyMetrics().size()));
  QVERIFY(panel->metricBox()->findData(QStringLiteral("alpha")) >= 0);
}

void TestPagesInspectorHistory::deltaTableOfTwoCheckpoints() {
  QTemporaryDir dir;
  const fs::path run = makeRun(dir, {1, 2, 3});
  HistoryPanel panel;
  panel.openRun(QString::fromStdString(run.string()));
  QVERIFY(waitLoaded(&panel));
  QCOMPARE(panel.checkpointA()->count(), 3);
  // Shown at once: the first against the newest checkpoint.
  QVERIFY(QTest::qWaitFor([&] { return !panel.isBusy(); }, kTimeoutMs));
  QCOMPARE(panel.deltaTable()->rowCount(), 2);
  // Choosing another pair shows its deltas: B = step 2, then A = step 1 and B = step 3 again.
  QSignalSpy ready(&panel, &HistoryPanel::deltaReady);
  panel.checkpointB()->setCurrentIndex(1);
  panel.checkpointA()->setCurrentIndex(1);
  panel.checkpointA()->setCurrentIndex(0);  // step 1
  panel.checkpointB()->setCurrentIndex(2);  // step 3
  QVERIFY(QTest::qWaitFor([&] { return ready.count() >= 1 && !panel.isBusy(); }, kTimeoutMs));
  QTableWidget* t = panel.deltaTable();
  QCOMPARE(t->rowCount(), 2);
  for (int r = 0; r < 2; ++r) {
    const QString name = t->item(r, HistoryPanel::Layer)->text();
    const size_t l = name == QStringLiteral("a") ? 0 : 1;
    const at::Tensor wa = layersAt(1)[l].second, wb = layersAt(3)[l].second;
    const double ds = exactSigma1(wb) - exactSigma1(wa);
    const double rel = loopFrobenius(wb.to(at::kDouble) - wa.to(at::kDouble)) / loopFrobenius(wa);
    QVERIFY(std::abs(ds) > 1e-3 || l == 1);
    QVERIFY2(std::abs(t->item(r, HistoryPanel::DeltaSigma1)->data(Qt::UserRole).toDouble() - ds) < 1e-9, qPrintable(name));
    QVERIFY2(std::abs(t->item(r, HistoryPanel::RelativeChange)->data(Qt::UserRole).toDouble() - rel) < 1e-9 * rel, qPrintable(name));
  }
}

void TestPagesInspectorHistory::corruptAndEmptyRuns() {
  QTemporaryDir dir;
  const fs::path run = makeRun(dir, {1, 3});
  { std::ofstream(run / "checkpoints" / "step_2.safetensors") << "torn"; }
  HistoryPanel panel;
  panel.openRun(QString::fromStdString(run.string()));
  QVERIFY(waitLoaded(&panel));
  QCOMPARE(panel.checkpointA()->count(), 2);
  QVERIFY(!panel.titleLabel()->text().contains(QStringLiteral("checkpoint_every")));
  QVERIFY(panel.skippedLabel()->isVisibleTo(&panel));
  QVERIFY2(panel.skippedLabel()->text().contains(QStringLiteral("step_2.safetensors")), qPrintable(panel.skippedLabel()->text()));

  // One checkpoint (what a run with the defaults keeps): the title says how to keep a history.
  QTemporaryDir single;
  panel.openRun(QString::fromStdString(makeRun(single, {4}).string()));
  QVERIFY(waitLoaded(&panel));
  QVERIFY2(panel.titleLabel()->text().contains(QStringLiteral("checkpoint_every")), qPrintable(panel.titleLabel()->text()));

  const fs::path empty = fs::path(dir.path().toStdString()) / "empty";
  fs::create_directories(empty / "checkpoints");
  QSignalSpy failed(&panel, &HistoryPanel::failed);
  panel.openRun(QString::fromStdString(empty.string()));
  QVERIFY(QTest::qWaitFor([&] { return failed.count() == 1; }, kTimeoutMs));
  QVERIFY2(failed.front().front().toString().contains(QStringLiteral("no step_N.safetensors")), qPrintable(failed.front().front().toString()));
}

void TestPagesInspectorHistory::cancelStopsTheLoad() {
  QTemporaryDir dir;
  std::vector<int64_t> steps;
  for (int64_t s = 1; s <= 40; ++s) steps.push_back(s);
  const fs::path run = makeRun(dir, steps);
  HistoryPanel panel;
  QSignalSpy cancelled(&panel, &HistoryPanel::cancelled);
  panel.openRun(QString::fromStdString(run.string()));
  panel.cancel();
  QVERIFY(QTest::qWaitFor([&] { return cancelled.count() == 1; }, kTimeoutMs));
  QVERIFY(!panel.isBusy());
  QVERIFY(panel.history() == nullptr);
}

QTEST_MAIN(TestPagesInspectorHistory)
#include "tst_pages_inspector_history.moc"
