// lwb-widget-bench: what a dashboard replot costs (docs/BENCHMARKS.md, "Plot rendering").
// Times are medians over repetitions on the offscreen platform (software raster), so they
// are upper bounds for a desktop with a GPU-backed compositor. Not a test: prints a table.
#include "widgets/decimation.h"
#include "widgets/loss_accuracy_plot.h"
#include "widgets/metric_plot.h"
#include "widgets/qcp.h"
#include "widgets/spectrum_plot.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QTextStream>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <functional>
#include <limits>
#include <vector>

using namespace lwb::widgets;

namespace {

// Process CPU time, not wall time: the bench shares 2 cores with compilers, and CPU time
// is what a replot costs the GUI thread when the machine is otherwise idle.
double medianMs(int reps, const std::function<void()>& f) {
  std::vector<double> ms;
  for (int i = 0; i < reps; ++i) {
    const std::clock_t start = std::clock();
    f();
    ms.push_back(1000.0 * static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC);
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QTextStream out(stdout);
  out << "case | median CPU ms\n";

  {
    // Live dashboard: 3 runs x 4 metrics, 10^4 logged steps each, EMA on, then one step
    // appended per replot (what the throttled GUI does).
    LossAccuracyPlot plot;
    plot.resize(900, 500);
    plot.show();
    QApplication::processEvents();
    int step = 0;
    for (; step < 10000; ++step)
      for (int r = 0; r < 3; ++r)
        for (auto m : {LossAccuracyPlot::Metric::TrainLoss, LossAccuracyPlot::Metric::TrainAcc})
          plot.appendPoint(QStringLiteral("run%1").arg(r), m, step, 1 + std::sin(step * 0.01 + r));
    plot.setSmoothing(0.6);
    plot.replotNow();
    const double ms = medianMs(30, [&] {
      for (int r = 0; r < 3; ++r) plot.appendPoint(QStringLiteral("run%1").arg(r), LossAccuracyPlot::Metric::TrainLoss, step, 1.0);
      ++step;
      plot.replotNow();
    });
    out << "loss plot, 3 runs x 2 series x 10^4 points, EMA, append + replot | " << ms << "\n";
    // Without QCP::phFastPolylines (PlotView turns it on): wide pens stroked as paths.
    plot.customPlot()->setPlottingHint(QCP::phFastPolylines, false);
    const double slow = medianMs(5, [&] {
      for (int r = 0; r < 3; ++r) plot.appendPoint(QStringLiteral("run%1").arg(r), LossAccuracyPlot::Metric::TrainLoss, step, 1.0);
      ++step;
      plot.replotNow();
    });
    out << "same, phFastPolylines off | " << slow << "\n";
  }
  {
    MetricPlot plot;
    plot.resize(900, 500);
    plot.setCapacity(2000000);
    plot.show();
    QApplication::processEvents();
    const std::size_t n = 1000000;
    std::vector<double> xs(n), ys(n);
    for (std::size_t i = 0; i < n; ++i) {
      xs[i] = static_cast<double>(i);
      ys[i] = std::sin(i * 1e-4) + 0.1 * std::sin(i * 0.7);
    }
    plot.setSeries(QStringLiteral("r"), xs, ys);
    plot.replotNow();
    double next = static_cast<double>(n);
    auto appendAndReplot = [&] {
      plot.appendPoint(QStringLiteral("r"), next, std::sin(next * 1e-4));
      next += 1;
      plot.replotNow();
    };
    double ms = medianMs(15, appendAndReplot);
    out << "metric plot, 10^6 points (decimated per pixel), append + replot | " << ms << "\n";
    // The same without our decimation: QCustomPlot gets all 10^6 points every time (its own
    // adaptive sampling still thins the drawing).
    plot.setDecimationThreshold(std::numeric_limits<std::size_t>::max());
    ms = medianMs(15, appendAndReplot);
    out << "same, decimation off, append + replot | " << ms << "\n";
  }
  {
    std::vector<double> xs(1000000), ys(1000000);
    for (std::size_t i = 0; i < xs.size(); ++i) {
      xs[i] = static_cast<double>(i);
      ys[i] = std::sin(i * 1e-3);
    }
    const double ms = medianMs(20, [&] { (void)decimateMinMax(xs, ys, 0, 1e6, 800); });
    out << "decimateMinMax, 10^6 points -> 800 columns | " << ms << "\n";
  }
  {
    SpectrumPlot plot;
    plot.resize(900, 500);
    plot.show();
    QApplication::processEvents();
    std::vector<double> sv(1024);
    for (int step = 0; step < 100; ++step) {
      for (std::size_t i = 0; i < sv.size(); ++i) sv[i] = 3.0 * (1.0 - static_cast<double>(i) / sv.size()) + step * 1e-3;
      plot.addSnapshot(QStringLiteral("r"), QStringLiteral("w"), step * 100, sv, sv);
    }
    plot.replotNow();
    int s = 0;
    const double ms = medianMs(30, [&] {
      plot.setCurrentStep((s++ % 100) * 100);
      plot.replotNow();
    });
    out << "spectrum plot, 1024 singular values + before, scrub + replot | " << ms << "\n";
  }
  return 0;
}
