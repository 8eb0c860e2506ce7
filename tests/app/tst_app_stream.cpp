// The live-data path of ARCHITECTURE.md "Threading": the app's MetricsSink on a producer
// thread -> mutex-guarded Mailbox -> one payload-free signal -> RunManager's single-shot
// throttle -> the Train page's Dashboard (built from its services as the main window builds
// it). 10 000 steps streamed through it must all arrive, in order, with
// at most 30 replots per second of wall time (+1 for the last partial interval).
#include "app/pages/train/dashboard.h"
#include "app/runs/mailbox.h"
#include "app/runs/mailbox_sink.h"
#include "support/scratch_home.h"
#include "support/train_page_host.h"
#include "widgets/loss_accuracy_plot.h"
#include "widgets/spectrum_plot.h"
#include "widgets/weight_norm_plot.h"

#include <QElapsedTimer>
#include <QtTest>

#include <atomic>
#include <chrono>
#include <thread>

using namespace lwb;
using namespace lwb::app;

namespace {

run::StepMetrics syntheticStep(int64_t step) {
  run::StepMetrics m;
  m.step = step;
  m.lr = 0.1;
  m.trainLoss = 2.0 / (1.0 + 0.001 * static_cast<double>(step));
  m.trainAcc = 0.5;
  m.stepsPerSecond = 1000;
  for (int l = 0; l < 4; ++l)
    m.norms.push_back({"layer" + std::to_string(l), "hidden", 1.0 + 0.1 * l, 2.0 + 0.2 * l});
  m.lipschitzBound = 3.0;
  m.boundTrace.bound = 3.0;
  m.boundTrace.layers.push_back({"layer0", 1.5, 1.5, 1.5});
  if (step % 100 == 0) {
    m.valLoss = m.trainLoss;
    m.valAcc = 0.5;
  }
  return m;
}

run::StepMetrics stepAt(int64_t step) {
  run::StepMetrics s;
  s.step = step;
  return s;
}

}  // namespace

class TestAppStream : public QObject {
  Q_OBJECT

  lwb::test::ScratchHome home_;  // settings and runs, never the user's

 private Q_SLOTS:
  void mailboxSignalsOncePerSwap();
  void throttleHoldsWhileTenThousandStepsStream();
  void throttleFiresDuringAContinuousStream();
};

// Posting into a mailbox nobody has emptied yet queues no further signal.
void TestAppStream::mailboxSignalsOncePerSwap() {
  Mailbox box;
  QSignalSpy ready(&box, &Mailbox::dataReady);
  for (int i = 1; i <= 1000; ++i) box.postStep(stepAt(i));
  QCOMPARE(ready.count(), 1);
  RunDelta d = box.take();
  QCOMPARE(d.steps.size(), size_t{1000});
  QCOMPARE(d.steps.back().step, int64_t{1000});
  box.postStep(stepAt(1001));
  QCOMPARE(ready.count(), 2);
  box.postReset();
  d = box.take();
  QVERIFY(d.reset);
  QVERIFY(d.steps.empty());  // a reset makes earlier pending rows obsolete
}

void TestAppStream::throttleHoldsWhileTenThousandStepsStream() {
  test::TrainPageHost host;
  Dashboard& dash = *host.page->dashboard();
  RunSession* s = host.runs->addRun(QStringLiteral("synthetic"));
  host.page->resize(800, 600);
  host.page->show();
  QCoreApplication::processEvents();

  QSignalSpy refreshes(&dash, &Dashboard::refreshed);
  QSignalSpy lossReplots(dash.lossPlot(), &widgets::PlotView::replotted);
  QSignalSpy mailboxSignals(s->mailbox().get(), &Mailbox::dataReady);
  constexpr int kSteps = 10000;
  QElapsedTimer wall;
  wall.start();
  std::atomic<bool> done{false};
  // The producer paces itself over ~2 s so the GUI sees a continuous stream, as from a
  // fast training run, rather than one burst.
  std::thread producer([&] {
    MailboxSink sink(*s->mailbox());
    for (int i = 1; i <= kSteps; ++i) {
      sink.onStep(syntheticStep(i));
      if (i % 500 == 0) {
        run::SpectraSnapshot after, before;
        for (int l = 0; l < 4; ++l) {
          after["layer" + std::to_string(l)] = std::vector<float>(64, 1.0f);
          before["layer" + std::to_string(l)] = std::vector<float>(64, 1.2f);
        }
        sink.onSpectra(i, after, before);
      }
      if (i % 50 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    done = true;
  });
  while (!done || (s->history().steps().size() < size_t{kSteps} && wall.elapsed() < 60000)) QTest::qWait(5);
  producer.join();
  QTest::qWait(100);  // the last throttle interval and queued replots
  const double seconds = static_cast<double>(wall.elapsed()) / 1000.0;

  QCOMPARE(s->history().steps().size(), size_t{kSteps});
  QCOMPARE(s->history().steps().front().step, int64_t{1});
  QCOMPARE(s->history().steps().back().step, int64_t{kSteps});
  QCOMPARE(dash.lossPlot()->seriesSize(s->id(), widgets::LossAccuracyPlot::metricKey(widgets::LossAccuracyPlot::Metric::TrainLoss)),
           size_t{kSteps});
  QCOMPARE(dash.spectrumPlot()->steps().size(), size_t{kSteps / 500});
  const double limit = 30.0 * seconds + 1.0;
  qInfo("%d steps in %.2f s: %lld refreshes, %lld loss-plot replots, %lld mailbox signals (limit %.0f)", kSteps, seconds,
        static_cast<long long>(refreshes.count()), static_cast<long long>(lossReplots.count()),
        static_cast<long long>(mailboxSignals.count()), limit);
  QVERIFY(refreshes.count() >= 1);
  QVERIFY2(refreshes.count() <= limit, "more than 30 dashboard refreshes per second");
  QVERIFY2(lossReplots.count() <= limit, "more than 30 replots per second");
  // One signal per mailbox swap at most: the event queue never holds 10 000 events.
  QVERIFY(mailboxSignals.count() <= refreshes.count() + 1);
}

// A debouncing timer (restarted per event) would not fire until the stream stops; the
// throttle must deliver data while the producer is still posting.
void TestAppStream::throttleFiresDuringAContinuousStream() {
  test::TrainPageHost host;
  Dashboard& dash = *host.page->dashboard();
  RunSession* s = host.runs->addRun(QStringLiteral("stream"));
  QSignalSpy refreshes(&dash, &Dashboard::refreshed);
  // Steps arrive every ~5 ms for ~1 s: much more often than the 34 ms interval.
  int firstRefreshAtStep = -1;
  for (int i = 1; i <= 200; ++i) {
    s->mailbox()->postStep(stepAt(i));
    QTest::qWait(5);
    if (firstRefreshAtStep < 0 && refreshes.count() > 0) firstRefreshAtStep = i;
  }
  QVERIFY2(firstRefreshAtStep > 0 && firstRefreshAtStep < 200, "no refresh while the stream was running");
  QTRY_COMPARE(s->history().steps().size(), size_t{200});
}

QTEST_MAIN(TestAppStream)
#include "tst_app_stream.moc"
