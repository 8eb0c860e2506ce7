// Clip Lab update latency (issue 6 target: < 50 ms per update at 256×512). Drives the real
// page offscreen: each sample moves σmax (as a slider step would), waits for the worker's
// result to reach the plots and forces the replot, and times request → pixels. Also reports
// the method call alone (engine time). Prints a Markdown table for docs/BENCHMARKS.md.
//   lwb-bench-cliplab [--samples N] [--large-samples N] [--quick]
//   --quick: 256×512 only. Threads: $LWB_THREADS, else the app's default (all cores but one).
#include "common/blas_core.h"
#include "app/pages/cliplab/cliplab_page.h"
#include "app/pages/cliplab/constraint_view.h"
#include "app/pages/cliplab/matrix_source_panel.h"
#include "app/pages/common/latest_wins.h"
#include "app/pages/common/method_form.h"
#include "app/pages/common/slider_field.h"
#include "widgets/scalar_map_plot.h"
#include "app/runs/run_manager.h"

#include <QApplication>
#include <QPushButton>
#include <QSpinBox>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QTimer>
#include <QtTest/QTest>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using namespace lwb;
using namespace lwb::app::pages;

namespace {

struct Stats {
  double median = 0, p95 = 0;
};

Stats stats(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  if (v.empty()) return {};
  const auto at = [&](double q) { return v[std::min(v.size() - 1, static_cast<size_t>(q * static_cast<double>(v.size() - 1) + 0.5))]; };
  return {at(0.5), at(0.95)};
}

bool waitIdle(ClipLabPage& page, int timeoutMs) {
  return QTest::qWaitFor([&] { return !page.matrixRunner()->busy() && !page.updateRunner()->busy(); }, timeoutMs);
}

// One benchmark row: a method, its implementation and the control a sample moves. σmax
// leaves msign(W) valid (the nested forms reuse it); the NS-steps box changes the schedule,
// so everything is computed again, as on the first update of a matrix.
struct Case {
  std::string method, impl;
  bool stepsKnob = false;
};

void measure(ClipLabPage& page, int rows, int cols, int samples, const std::vector<Case>& cases) {
  lab::MatrixSpec spec;
  spec.kind = lab::SourceKind::Prescribed;
  spec.rows = rows;
  spec.cols = cols;
  spec.sigma1 = 10;
  page.sourcePanel()->setSpec(spec);
  if (!QTest::qWaitFor([&] { return page.matrix() && page.matrix()->rows() == rows && page.matrix()->cols() == cols; }, 3600000) ||
      !waitIdle(page, 3600000)) {
    std::fprintf(stderr, "matrix %dx%d not built\n", rows, cols);
    return;
  }
  for (const auto& [method, impl, stepsKnob] : cases) {
    lab::ConstraintRequest r;
    r.method = *spectral::parseConstraintMethod(method);
    r.impl = *spectral::parseClipImpl(impl);
    r.sigmaMax = 1.0;
    page.methodForm()->setRequest(r);
    waitIdle(page, 3600000);
    if (auto* confirm = page.findChild<QPushButton*>(QStringLiteral("computeAnyway")); confirm && confirm->isVisible()) {
      confirm->click();  // the first request of a slow case, so the next one starts from idle
      (void)QTest::qWaitFor([&] { return page.updateRunner()->busy(); }, 1000);
      waitIdle(page, 3600000);
    }
    std::vector<double> latency, engine, worker, preview;
    std::vector<double> atDefault;  // NS-steps rows: the samples that moved back to the default 10
    for (int i = 0; i < samples; ++i) {
      const int before = page.constraintView()->shownCount();
      QElapsedTimer clock;
      clock.start();
      if (stepsKnob) page.methodForm()->nsStepsField()->setValue(i % 2 ? 10 : 11);
      else page.methodForm()->sigmaMaxField()->setValue(i % 2 ? 1.0 : 0.9);
      // Requests estimated at more than a few seconds wait for "Compute anyway".
      if (auto* confirm = page.findChild<QPushButton*>(QStringLiteral("computeAnyway")); confirm && confirm->isVisible()) confirm->click();
      // The scalar map is redrawn on the GUI thread at once (ConstraintView::showPreview).
      page.constraintView()->scalarMapPlot()->replotNow();
      preview.push_back(static_cast<double>(clock.nsecsElapsed()) / 1e6);
      // Wait for the result event-driven, as the app does: QTest::qWaitFor polls with 10 ms
      // sleeps, which added up to 10 ms to every figure.
      if (page.constraintView()->shownCount() == before) {
        QEventLoop loop;
        QObject::connect(page.constraintView(), &ConstraintView::shown, &loop, &QEventLoop::quit);
        QTimer::singleShot(3600000, &loop, &QEventLoop::quit);
        loop.exec();
      }
      if (page.constraintView()->shownCount() == before) break;
      page.constraintView()->replotNow();
      latency.push_back(static_cast<double>(clock.nsecsElapsed()) / 1e6);
      if (stepsKnob && i % 2) atDefault.push_back(latency.back());
      engine.push_back(page.constraintView()->lastOutcome().methodSeconds * 1e3);
      worker.push_back(page.constraintView()->lastOutcome().seconds * 1e3);
      waitIdle(page, 3600000);
    }
    const Stats l = stats(latency), e = stats(engine), w = stats(worker), p = stats(preview);
    std::string name = method == "spectral_soft_cap" ? std::string("soft cap") : "hard cap " + impl;
    if (impl == "nested" && method != "spectral_soft_cap")
      name += stepsKnob ? " (NS-steps box: all recomputed)" : " (σmax slider: msign(W) reused)";
    std::printf("| %d×%d | %s | %zu | %.1f / %.1f | %.1f / %.1f | %.1f / %.1f | %.1f / %.1f |\n", rows, cols, name.c_str(), latency.size(),
                p.median, p.p95, l.median, l.p95, w.median, w.p95, e.median, e.p95);
    if (!atDefault.empty()) {
      const Stats d = stats(atDefault);
      std::printf("|  | of which the samples back at the default 10 steps | %zu |  | %.1f / %.1f |  |  |\n", atDefault.size(), d.median, d.p95);
    }
    std::fflush(stdout);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::string blasCore = lwb::blasCoreName();
  int samples = 30, largeSamples = 3;
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--quick")) quick = true;
    else if (!std::strcmp(argv[i], "--samples") && i + 1 < argc) samples = std::max(1, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--large-samples") && i + 1 < argc) largeSamples = std::max(1, std::atoi(argv[++i]));
    else {
      std::fprintf(stderr, "usage: lwb-bench-cliplab [--samples N] [--large-samples N] [--quick]\n");
      return 2;
    }
  }
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  // The app's own setting ($LWB_THREADS, else all cores but the GUI's), so the figures are
  // what the page gets inside lipschitz-workbench.
  const int threads = lwb::app::applyAppIntraOpThreads();
  std::printf("intra-op threads: %d, OpenBLAS core: %s\n\n", threads, blasCore.empty() ? "(not OpenBLAS)" : blasCore.c_str());
  ClipLabPage page;
  page.resize(1600, 1000);
  page.show();
  std::printf("| matrix | method | samples | scalar map redrawn (median / p95 ms) | full update: request → all plots redrawn | worker (method + measurements) | method alone |\n");
  std::printf("|---|---|---:|---:|---:|---:|---:|\n");
  const std::vector<Case> all = {{"spectral_soft_cap", "nested"},         {"spectral_hard_cap", "nested"},
                                 {"spectral_hard_cap", "nested", true},   {"spectral_hard_cap", "abd_dense"},
                                 {"spectral_hard_cap", "abd_block"},      {"spectral_hard_cap", "svd"}};
  measure(page, 256, 512, samples, all);
  if (!quick) measure(page, 1024, 4096, largeSamples, all);
  return 0;
}
