// The workbench's cost while training (issue 5): the same run trained headless (engine
// worker thread, no window) and with the dashboard open, alternating, in one process; and
// the GUI event loop's latency meanwhile, from a 0-ms QTimer probe (how late it fires is
// how long the loop was busy). Targets: p99 < 50 ms, dashboard >= 0.95x headless.
//
//   lwb-bench-app [--preset ID] [--set key=value]... [--reps N] [--threads N] [--json]
//   Defaults: chars_small_cpu with steps=200, 3 repetitions of each mode.
//   Run with a display (xvfb-run -a) or QT_QPA_PLATFORM=offscreen.
#include "common/blas_core.h"
#include "app/main_window.h"
#include "app/runs/run_manager.h"
#include "app/pages/train/run_panel.h"
#include "app/pages/train/train_page.h"
#include "common/malloc_policy.h"
#include "common/threads.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTemporaryDir>
#include <QTimer>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace lwb::app;

namespace {

double percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t i = std::min(v.size() - 1, static_cast<size_t>(q * static_cast<double>(v.size() - 1) + 0.5));
  return v[i];
}

double median(std::vector<double> v) { return percentile(std::move(v), 0.5); }

// A chain of 0-ms single-shot timers, 5 ms apart: each records how late it fired.
class LatencyProbe : public QObject {
 public:
  void start() {
    running_ = true;
    arm();
  }
  void stop() { running_ = false; }
  std::vector<double> takeMs() { return std::exchange(samples_, {}); }

 private:
  void arm() {
    QTimer::singleShot(5, this, [this] {
      if (!running_) return;
      clock_.start();
      QTimer::singleShot(0, this, [this] {
        samples_.push_back(static_cast<double>(clock_.nsecsElapsed()) / 1e6);
        if (running_) arm();
      });
    });
  }
  bool running_ = false;
  QElapsedTimer clock_;
  std::vector<double> samples_;
};

struct Result {
  double stepsPerSecond = 0;
  std::vector<double> latencyMs;
};

// Runs the event loop (sleeping while idle, as the app does) until every run has ended.
void waitForRuns(RunManager& runs) {
  QEventLoop loop;
  QTimer poll;
  QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
    if (!runs.anyThreadRunning()) loop.quit();
  });
  poll.start(100);
  loop.exec();
  runs.flush();  // the runs' ends are still in their mailboxes
}

Result runHeadless(const nlohmann::json& config, LatencyProbe& probe) {
  RunManager runs;
  QString error;
  probe.start();
  RunSession* s = runs.startRun(lwb::run::parseRunConfig(config), QStringLiteral("headless"), &error);
  if (!s) qFatal("%s", qPrintable(error));
  waitForRuns(runs);
  probe.stop();
  if (!s->end() || s->end()->status != lwb::run::RunStatus::Finished)
    qFatal("headless run did not finish: %s", s->end() ? s->end()->message.c_str() : "");
  return {s->end()->stepsPerSecond, probe.takeMs()};
}

Result runWithDashboard(MainWindow& w, const nlohmann::json& config, LatencyProbe& probe) {
  w.page<TrainPage>()->runPanel()->form()->setConfig(config);
  const int before = w.runs()->sessions().size();
  probe.start();
  w.page<TrainPage>()->runPanel()->requestStart();
  if (w.runs()->sessions().size() != before + 1) qFatal("dashboard run did not start");
  RunSession* s = w.runs()->sessions().last();
  waitForRuns(*w.runs());
  probe.stop();
  if (!s->end() || s->end()->status != lwb::run::RunStatus::Finished)
    qFatal("dashboard run did not finish: %s", s->end() ? s->end()->message.c_str() : "");
  return {s->end()->stepsPerSecond, probe.takeMs()};
}

}  // namespace

int main(int argc, char** argv) {
  lwb::reexecWithOpenMpWaitPolicy(argv);  // as the app does (common/threads.h)
  lwb::configureAllocator();
  const std::string blasCore = lwb::blasCoreName();
  QApplication app(argc, argv);
  QCoreApplication::setOrganizationName(QStringLiteral("LipschitzWorkbenchBench"));
  QCoreApplication::setApplicationName(QStringLiteral("lwb-bench-app"));
  QCommandLineParser p;
  p.addHelpOption();
  const QCommandLineOption preset(QStringLiteral("preset"), QStringLiteral("preset id"), QStringLiteral("ID"), QStringLiteral("chars_small_cpu"));
  const QCommandLineOption set(QStringLiteral("set"), QStringLiteral("config override key=value"), QStringLiteral("key=value"));
  const QCommandLineOption reps(QStringLiteral("reps"), QStringLiteral("repetitions of each mode"), QStringLiteral("N"), QStringLiteral("3"));
  const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("print one JSON object"));
  const QCommandLineOption threadsOpt(QStringLiteral("threads"), QStringLiteral("intra-op threads (default: the app's policy)"),
                                      QStringLiteral("N"));
  p.addOptions({preset, set, reps, json, threadsOpt});
  p.process(app);
  // The app's thread policy (all cores but the GUI's), unless --threads says otherwise.
  const int threads = p.isSet(threadsOpt) ? lwb::setIntraOpThreads(p.value(threadsOpt).toInt()) : applyAppIntraOpThreads();

  QTemporaryDir scratch;
  qputenv("LWB_RUNS_DIR", scratch.filePath(QStringLiteral("runs")).toUtf8());
  qputenv("XDG_CONFIG_HOME", scratch.filePath(QStringLiteral("config")).toUtf8());

  MainWindow w;
  w.resize(1600, 1000);
  w.show();
  RunPanel* panel = w.page<TrainPage>()->runPanel();
  if (!panel->selectPreset(p.value(preset))) qFatal("unknown preset %s", qPrintable(p.value(preset)));
  QStringList overrides = p.values(set);
  if (overrides.isEmpty()) overrides << QStringLiteral("steps=200");
  if (const QString e = panel->applyOverrides(overrides); !e.isEmpty()) qFatal("%s", qPrintable(e));
  const nlohmann::json config = panel->form()->config();

  LatencyProbe probe;
  std::vector<double> headlessSps, dashSps, headlessLat, dashLat;
  const int n = std::max(1, p.value(reps).toInt());
  for (int r = 0; r < n; ++r) {
    // Alternating, so drifts in machine load hit both modes alike.
    const Result h = runHeadless(config, probe);
    const Result d = runWithDashboard(w, config, probe);
    headlessSps.push_back(h.stepsPerSecond);
    dashSps.push_back(d.stepsPerSecond);
    headlessLat.insert(headlessLat.end(), h.latencyMs.begin(), h.latencyMs.end());
    dashLat.insert(dashLat.end(), d.latencyMs.begin(), d.latencyMs.end());
    std::fprintf(stderr, "rep %d: headless %.2f steps/s, dashboard %.2f steps/s\n", r + 1, h.stepsPerSecond, d.stepsPerSecond);
  }
  const double ratio = median(dashSps) / median(headlessSps);
  const double p50 = percentile(dashLat, 0.5), p99 = percentile(dashLat, 0.99);
  if (p.isSet(json)) {
    const nlohmann::json out{{"preset", p.value(preset).toStdString()},
                             {"headless_steps_per_s", median(headlessSps)},
                             {"dashboard_steps_per_s", median(dashSps)},
                             {"ratio", ratio},
                             {"latency_p50_ms", p50},
                             {"latency_p99_ms", p99},
                             {"latency_max_ms", percentile(dashLat, 1.0)},
                             {"latency_samples", dashLat.size()},
                             {"headless_latency_p99_ms", percentile(headlessLat, 0.99)},
                             {"reps", n},
                             {"threads", threads}, {"blas_core", blasCore}};
    std::printf("%s\n", out.dump().c_str());
  } else {
    std::printf("preset %s (%s), %d intra-op threads, OpenBLAS core %s, %d repetitions, medians\n", qPrintable(p.value(preset)),
                qPrintable(overrides.join(QLatin1Char(' '))), threads, blasCore.c_str(), n);
    std::printf("  headless            %8.2f steps/s\n", median(headlessSps));
    std::printf("  dashboard open      %8.2f steps/s   (%.3fx headless; target >= 0.95x: %s)\n", median(dashSps), ratio,
                ratio >= 0.95 ? "met" : "MISSED");
    std::printf("  event-loop latency  p50 %.2f ms, p99 %.2f ms, max %.1f ms over %zu probes (target p99 < 50 ms: %s)\n", p50,
                p99, percentile(dashLat, 1.0), dashLat.size(), p99 < 50 ? "met" : "MISSED");
    std::printf("  (probe while headless: p99 %.2f ms)\n", percentile(headlessLat, 0.99));
  }
  w.close();
  return 0;
}
