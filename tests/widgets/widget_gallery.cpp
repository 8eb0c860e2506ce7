// lwb-widget-gallery DIR: renders every plot of libwidgets, populated with realistic
// synthetic data, to DIR/<plot>.png (docs/screenshots/widgets/ in the repository), so the
// plots can be looked at without running a training. Exit 1 if a file is missing or blank.
#include "widgets/activation_plot.h"
#include "widgets/bar_chart_plot.h"
#include "widgets/frontier_scatter_plot.h"
#include "widgets/lipschitz_bound_plot.h"
#include "widgets/loss_accuracy_plot.h"
#include "widgets/palette.h"
#include "widgets/scalar_map_plot.h"
#include "widgets/spectrum_plot.h"
#include "widgets/weight_norm_plot.h"

#include <QApplication>
#include <QDir>
#include <QImage>
#include <QTextStream>

#include <cmath>
#include <functional>
#include <random>

using namespace lwb::widgets;

namespace {

std::mt19937_64 rng(2024);
double gauss() { return std::normal_distribution<double>()(rng); }

// Sorted-descending singular values of a d_out x d_in Gaussian matrix with std s
// (Marchenko–Pastur edge s(√m + √n)), plus a few outliers that training grew.
std::vector<double> gaussianSpectrum(int m, int n, double s, std::vector<double> outliers) {
  std::vector<double> sv;
  const int k = std::min(m, n);
  const double a = std::sqrt(static_cast<double>(std::max(m, n))), b = std::sqrt(static_cast<double>(k));
  for (int i = 0; i < k; ++i) {
    // Quantiles of the MP law, approximated by a quarter-circle shape between a-b and a+b.
    const double t = (i + 0.5) / k;
    sv.push_back(s * (a - b + 2 * b * std::sqrt(1 - t)));
  }
  for (std::size_t i = 0; i < outliers.size() && i < sv.size(); ++i) sv[i] = outliers[i];
  return sv;
}

bool save(QWidget& w, const QString& path, QTextStream& out) {
  w.resize(920, 540);
  w.show();
  QApplication::processEvents();
  if (auto* plot = qobject_cast<PlotView*>(&w)) plot->replotNow();
  QApplication::processEvents();
  const QImage image = w.grab().toImage();
  if (!image.save(path)) {
    out << "cannot write " << path << "\n";
    return false;
  }
  // Blank check: a rendered plot has many distinct colours.
  QSet<QRgb> colours;
  for (int y = 0; y < image.height(); y += 7)
    for (int x = 0; x < image.width(); x += 7) colours.insert(image.pixel(x, y));
  out << path << " " << image.width() << "x" << image.height() << " colours " << colours.size() << "\n";
  return colours.size() > 8;
}

const QStringList kRuns = {QStringLiteral("shakespeare_softcap"), QStringLiteral("shakespeare_normalize"),
                           QStringLiteral("shakespeare_adamw_wd")};

void fillLoss(LossAccuracyPlot& p) {
  for (int r = 0; r < kRuns.size(); ++r) {
    p.setRun(kRuns[r], kRuns[r], runColor(r));
    const double floor = 1.45 + 0.12 * r, rate = 700 + 250 * r;
    for (int step = 10; step <= 3000; step += 10) {
      const double loss = floor + 2.8 * std::exp(-step / rate);
      p.appendPoint(kRuns[r], LossAccuracyPlot::Metric::TrainLoss, step, loss * (1 + 0.05 * gauss()));
      p.appendPoint(kRuns[r], LossAccuracyPlot::Metric::TrainAcc, step, std::min(0.99, 0.62 - 0.5 * std::exp(-step / rate) - 0.04 * r + 0.02 * gauss()));
      if (step % 250 == 0) {
        p.appendPoint(kRuns[r], LossAccuracyPlot::Metric::ValLoss, step, loss + 0.05 + 0.02 * gauss());
        p.appendPoint(kRuns[r], LossAccuracyPlot::Metric::ValAcc, step, 0.6 - 0.5 * std::exp(-step / rate) - 0.04 * r);
      }
    }
  }
  p.setSmoothing(0.8);
  p.setTitle(QStringLiteral("Loss and accuracy"));
}

void fillNorms(WeightNormPlot& p) {
  const QStringList layers = {QStringLiteral("blocks.0.attn.q"), QStringLiteral("blocks.0.attn.k"),
                              QStringLiteral("blocks.0.attn.v"), QStringLiteral("blocks.0.attn.o"),
                              QStringLiteral("blocks.0.mlp.in"), QStringLiteral("blocks.0.mlp.out"),
                              QStringLiteral("head")};
  p.setRun(kRuns[0], kRuns[0], runColor(0));
  for (int step = 0; step <= 3000; step += 20) {
    std::vector<double> norms;
    for (int l = 0; l < layers.size(); ++l) {
      // Norms grow from their initial value and settle just under σmax = 1 (soft cap).
      const double start = 0.35 + 0.07 * l;
      const double grown = 1.0 - (1.0 - start) * std::exp(-step / (300.0 + 60 * l));
      norms.push_back(std::min(0.995, grown * (1 + 0.006 * gauss())));
    }
    p.appendStep(kRuns[0], step, layers, norms);
  }
  p.setTarget(1.0, 0.5);
  p.setTitle(QStringLiteral("RMS→RMS weight norms (σmin 0.5, σmax 1)"));
}

void fillSpectrum(SpectrumPlot& p) {
  p.setRun(kRuns[0], kRuns[0], runColor(0));
  for (int step = 250; step <= 3000; step += 250) {
    const double growth = 1 + step / 1500.0;
    std::vector<double> before = gaussianSpectrum(128, 256, 0.045, {2.6 * growth, 1.9 * growth, 1.3 * growth});
    std::vector<double> after = before;
    for (double& s : after) s = std::min(s, 1.2);  // hard-capped at σmax = 1.2
    p.addSnapshot(kRuns[0], QStringLiteral("blocks.0.mlp.in"), step, after, before);
    p.addSnapshot(kRuns[0], QStringLiteral("blocks.0.attn.q"), step, gaussianSpectrum(128, 128, 0.06, {}), {});
  }
  p.setSigmaMax(1.2);
  p.setCurrentStep(2000);
  p.setTitle(QStringLiteral("Singular values of blocks.0.mlp.in"));
}

void fillBound(LipschitzBoundPlot& p) {
  const QStringList names = {QStringLiteral("embed"), QStringLiteral("block0.attn"), QStringLiteral("block0.mlp"),
                             QStringLiteral("block1.attn"), QStringLiteral("block1.mlp"), QStringLiteral("block2.attn"),
                             QStringLiteral("block2.mlp"), QStringLiteral("head")};
  for (int r = 0; r < 2; ++r) {
    p.setRun(kRuns[r], kRuns[r], runColor(r));
    for (int step = 10; step <= 3000; step += 10) {
      const double bound = (r == 0 ? 40 : 300) * (1 - 0.8 * std::exp(-step / 500.0));
      p.appendBound(kRuns[r], step, bound);
    }
    std::vector<TraceFactor> trace;
    double running = 1;
    for (int i = 0; i < names.size(); ++i) {
      const double factor = i == 0 ? 1.0 : (r == 0 ? 1.25 + 0.05 * i : 1.6 + 0.1 * i);
      running *= factor;
      trace.push_back({names[i], factor, running});
    }
    p.setTrace(kRuns[r], 3000, trace);
  }
  p.setTitle(QStringLiteral("Lipschitz upper bound"));
}

void fillActivations(ActivationPlot& p) {
  QStringList blocks;
  for (int b = 0; b < 4; ++b) blocks << QStringLiteral("block%1.attn").arg(b) << QStringLiteral("block%1.mlp").arg(b);
  for (int r = 0; r < 2; ++r) {
    p.setRun(kRuns[r], kRuns[r], runColor(r));
    std::vector<double> entry, rms;
    for (int b = 0; b < blocks.size(); ++b) {
      const double scale = r == 0 ? 1.5 + 0.25 * b : 2.0 * std::pow(1.9, b);
      rms.push_back(scale);
      entry.push_back(scale * (r == 0 ? 3.5 : 9.0));
    }
    p.setActivations(kRuns[r], blocks, entry, rms);
  }
  p.setTitle(QStringLiteral("Activation magnitudes per block"));
}

void fillScalarMap(ScalarMapPlot& p) {
  std::vector<double> xs, hard, soft, clip;
  const double sigmaMax = 1.0, alpha = 0.3;
  for (int i = 0; i <= 300; ++i) {
    const double s = 2.5 * i / 300.0;
    xs.push_back(s);
    hard.push_back(std::min(s, sigmaMax));
    clip.push_back(std::clamp(s, 0.4, sigmaMax));
    // Soft cap: a smooth saturation that follows y = x at small σ.
    soft.push_back(s / std::pow(1 + std::pow(s / (sigmaMax + alpha), 4), 0.25));
  }
  p.setCurve(QStringLiteral("spectral_hard_cap"), xs, hard);
  p.setCurve(QStringLiteral("spectral_soft_cap"), xs, soft);
  p.setCurve(QStringLiteral("spectral_clip [0.4, 1]"), xs, clip);
  std::vector<double> sigmas = gaussianSpectrum(32, 64, 0.12, {2.2, 1.7, 1.3}), f;
  for (double s : sigmas) f.push_back(s / std::pow(1 + std::pow(s / (sigmaMax + alpha), 4), 0.25));
  p.setMarkers(sigmas, f, QStringLiteral("spectral_soft_cap"));
  p.setSigmaMax(sigmaMax);
  p.setTitle(QStringLiteral("Scalar map f(σ) with the layer's singular values"));
}

void fillBars(BarChartPlot& p) {
  QStringList names;
  std::vector<double> values;
  for (int b = 0; b < 6; ++b)
    for (const char* m : {"attn.qkv.weight", "attn.out.weight", "mlp.fc_in.weight", "mlp.fc_out.weight"}) {
      names << QStringLiteral("transformer.blocks.%1.%2").arg(b).arg(QLatin1String(m));
      values.push_back(0.6 + 0.5 * std::abs(gauss()) + 0.08 * b);
    }
  names << QStringLiteral("lm_head.weight");
  values.push_back(2.4);
  p.setBars(names, values);
  p.setValueLabel(QStringLiteral("σ₁"));
  p.setReferenceLine(1.0, QStringLiteral("σmax = 1"));
  p.setHighlighted(5);
  p.setTitle(QStringLiteral("σ₁ of every matrix"));
}

void fillScatter(FrontierScatterPlot& p) {
  std::vector<ScatterPoint> pts;
  const QStringList methods = {QStringLiteral("spectral_soft_cap"), QStringLiteral("spectral_normalize"),
                               QStringLiteral("spectral_hammer"), QStringLiteral("weight_decay")};
  for (int m = 0; m < methods.size(); ++m)
    for (int i = 0; i < 10; ++i) {
      const double logBound = 0.3 + 0.35 * i + 0.4 * m + 0.1 * gauss();
      const double bound = std::pow(10.0, logBound);
      const double loss = 1.45 + 1.6 / (1 + logBound) + 0.06 * m + 0.04 * std::abs(gauss());
      pts.push_back({methods[m], QStringLiteral("%1 #%2").arg(methods[m]).arg(i), bound, loss});
    }
  p.setPoints(pts);
  p.setTitle(QStringLiteral("Lipschitz bound vs validation loss"));
}

}  // namespace

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QTextStream out(stdout);
  const QString dir = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QStringLiteral("widget_gallery");
  if (!QDir().mkpath(dir)) {
    out << "cannot create " << dir << "\n";
    return 1;
  }
  bool ok = true;
  auto render = [&](QWidget& w, const char* name) { ok = save(w, dir + QLatin1Char('/') + QLatin1String(name), out) && ok; };

  LossAccuracyPlot loss;
  fillLoss(loss);
  render(loss, "loss_accuracy.png");
  loss.setLogY(true);
  render(loss, "loss_accuracy_log.png");
  WeightNormPlot norms;
  fillNorms(norms);
  render(norms, "weight_norms.png");
  SpectrumPlot spectrum;
  fillSpectrum(spectrum);
  render(spectrum, "spectrum_ranked.png");
  spectrum.setMode(SpectrumPlot::Mode::Density);
  render(spectrum, "spectrum_density.png");
  LipschitzBoundPlot bound;
  fillBound(bound);
  render(bound, "lipschitz_bound.png");
  ActivationPlot activations;
  fillActivations(activations);
  render(activations, "activations.png");
  ScalarMapPlot scalarMap;
  fillScalarMap(scalarMap);
  render(scalarMap, "scalar_map.png");
  BarChartPlot bars;
  fillBars(bars);
  render(bars, "bar_chart.png");
  FrontierScatterPlot scatter;
  fillScatter(scatter);
  render(scatter, "frontier_scatter.png");
  return ok ? 0 : 1;
}
