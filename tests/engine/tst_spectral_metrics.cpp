// WeightWatcher-parity metrics (engine/inspect/spectral_metrics.h, issue 29 §1) against a
// second implementation of the formulas written here (plain loops over the exact
// float64 SVD, no engine call), on matrices with known spectra; closed-form checks (a Pareto
// tail fits its α, Gaussian noise fits MP σ = 1 with no spikes, planted spikes are counted);
// and the comparison itself seen failing on broken input.
#include "common/torch_compat.h"
#include "inspect/spectral_metrics.h"
#include "spectral/matrix_stats.h"
#include "spectral/synthetic.h"
#include "support/random_tensors.h"

#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <set>
#include <string>

using namespace lwb;

namespace {

using Metrics = std::map<std::string, double>;
const double kNaN = std::numeric_limits<double>::quiet_NaN();

std::vector<double> exactEigenvalues(const at::Tensor& w) {
  const auto s = compat::svdvals(w.to(at::kDouble)).contiguous();
  std::vector<double> l;
  for (int64_t i = 0; i < s.numel(); ++i) l.push_back(s.data_ptr<double>()[i] * s.data_ptr<double>()[i]);
  return l;  // descending
}

// ---- The reference: the formulas, written out a second time. ----

void referencePowerLaw(const std::vector<double>& lambda, Metrics& out) {
  std::vector<double> x;
  for (double l : lambda)
    if (l > 1e-5) x.push_back(l);
  std::sort(x.begin(), x.end());
  const int n = static_cast<int>(x.size());
  double bestD = 2, bestA = kNaN, bestX = kNaN;
  int bestSpikes = 0;
  for (int i = 0; i <= n - 2; ++i) {
    const int m = n - i;
    double s = 0;
    for (int j = i; j < n; ++j) s += std::log(x[j]);
    const double a = x[n - 1] > x[i] ? 1.0 + m / (s - m * std::log(x[i])) : kNaN;  // an all-equal tail has no α
    double d = 1;
    if (a > 1) {
      d = 0;
      for (int k = 0; k < m; ++k) d = std::max(d, std::abs(1 - std::pow(x[i + k] / x[i], 1 - a) - static_cast<double>(k) / m));
    }
    if (d < bestD) bestD = d, bestA = a, bestX = x[i], bestSpikes = m;
  }
  out["alpha"] = n >= 2 ? bestA : kNaN;
  out["alpha_xmin"] = n >= 2 ? bestX : kNaN;
  out["alpha_ks_distance"] = n >= 2 ? bestD : kNaN;
  int spikes = 0;
  for (double l : lambda) spikes += n >= 2 && l >= bestX ? 1 : 0;
  out["num_pl_spikes"] = spikes;
  (void)bestSpikes;
}

double referenceMpDensity(double x, double sigma, double q) {
  const double a = sigma * sigma * std::pow(1 - std::sqrt(1 / q), 2), b = sigma * sigma * std::pow(1 + std::sqrt(1 / q), 2);
  if (x <= a || x >= b) return 0;
  return std::sqrt((b - x) * (x - a)) / (2 * std::numbers::pi * sigma * sigma * x / q);
}

// docs/DESIGN.md "WeightWatcher-parity spectral metrics", Marchenko–Pastur fit, step by step.
void referenceMarchenkoPastur(const std::vector<double>& lambda, int64_t rows, int64_t cols, Metrics& out) {
  const double n = std::max(rows, cols), m = std::min(rows, cols), q = n / m;
  double mean = 0;
  for (double l : lambda) mean += l / lambda.size();
  std::vector<double> x;
  for (double l : lambda) x.push_back(l / mean);
  std::sort(x.begin(), x.end());
  const double hi = x[static_cast<size_t>(std::floor(0.95 * (x.size() - 1)))];
  const int bins = std::min(80, std::max(8, static_cast<int>(std::ceil(2 * std::sqrt(static_cast<double>(x.size()))))));
  const double w = hi / bins;
  double bestErr = 1e300, bestSigma = 0;
  for (int g = 1; g <= 300; ++g) {
    const double sigma = 1.5 * std::sqrt(hi) / (1 + 1 / std::sqrt(q)) * g / 300;
    double err = 0;
    for (int b = 0; b < bins; ++b) {
      double count = 0;
      for (double v : x) count += (v >= b * w && (v < (b + 1) * w || (b == bins - 1 && v <= hi))) ? 1 : 0;
      // ∫ over the bin of ρ(x) dx = ∫ 2u ρ(u²) du, midpoint rule in u (16 points), per unit x.
      const double lo = std::sqrt(b * w), hi2 = std::sqrt((b + 1) * w);
      double model = 0;
      for (int s = 0; s < 16; ++s) {
        const double u = lo + (s + 0.5) * (hi2 - lo) / 16;
        model += 2 * u * referenceMpDensity(u * u, sigma, q) * (hi2 - lo) / 16 / w;
      }
      err += std::pow(count / (x.size() * w) - model, 2);
    }
    if (err < bestErr) bestErr = err, bestSigma = sigma;
  }
  const double edge = std::pow(bestSigma * (1 + 1 / std::sqrt(q)), 2);
  const double tw = bestSigma * bestSigma * (1 + 1 / std::sqrt(q)) * std::pow(1 / std::sqrt(n) + 1 / std::sqrt(m), 1.0 / 3) / std::sqrt(n);
  int spikes = 0;
  for (double v : x) spikes += v > edge + tw ? 1 : 0;
  out["mp_sigma"] = bestSigma;
  out["mp_num_spikes"] = spikes;
  out["mp_softrank"] = edge / x.back();
}

Metrics reference(const std::vector<double>& lambda, int64_t rows, int64_t cols) {
  Metrics out;
  referencePowerLaw(lambda, out);
  const double lmax = *std::max_element(lambda.begin(), lambda.end());
  double sum = 0, sumAlpha = 0;
  for (double l : lambda) sum += l, sumAlpha += std::pow(l, out["alpha"]);
  out["spectral_norm"] = lmax;
  out["alpha_weighted"] = out["alpha"] * std::log10(lmax);
  out["log_spectral_norm"] = std::log10(lmax);
  out["log_norm"] = std::log10(sum);
  out["log_alpha_norm"] = std::log10(sumAlpha);
  out["stable_rank"] = sum / lmax;
  int rank = 0;
  for (double l : lambda) rank += l > lmax * std::max(rows, cols) * 2.220446049250313e-16 ? 1 : 0;
  out["matrix_rank"] = rank;
  double h = 0;
  for (double l : lambda) h += -(l / sum) * std::log(l / sum + 1e-10);
  out["spectral_entropy"] = rank > 1 ? h / std::log(rank) : kNaN;
  referenceMarchenkoPastur(lambda, rows, cols, out);
  return out;
}

// ---- The engine, through the Inspector's path (Gram-route singular values). ----

Metrics engine(const at::Tensor& w) {
  const auto sv = spectral::singularValuesViaGram(w);
  const auto m = inspect::spectralMetrics(sv, w.size(0), w.size(1));
  Metrics out;
  for (const auto& row : inspect::spectralMetricTable()) out[std::string(row.key)] = row.value(m);
  return out;
}

// Keys whose values differ beyond the tolerance: relative 1e-6 for real values (the Gram route
// is accurate to ~1e-12 relative in the large λ), exact for counts, NaN only against NaN.
std::set<std::string> mismatches(const Metrics& got, const Metrics& want) {
  std::set<std::string> bad;
  for (const auto& [key, w] : want) {
    const auto it = got.find(key);
    if (it == got.end()) {
      bad.insert(key);
      continue;
    }
    const double g = it->second;
    if (std::isnan(w) || std::isnan(g)) {
      if (std::isnan(w) != std::isnan(g)) bad.insert(key);
    } else if (std::abs(g - w) > 1e-6 * std::max(1.0, std::abs(w))) {
      bad.insert(key);
    }
  }
  return bad;
}

QString describe(const std::set<std::string>& keys, const Metrics& got, const Metrics& want) {
  QStringList parts;
  for (const auto& k : keys) parts << QStringLiteral("%1: engine %2, reference %3").arg(QString::fromStdString(k)).arg(got.at(k), 0, 'g', 12).arg(want.at(k), 0, 'g', 12);
  return parts.join(QStringLiteral("; "));
}

// Pareto(α) eigenvalues by their quantiles: λ_i = (1 − u_i)^(−1/(α−1)), a power-law density
// p(λ) ∝ λ^(−α) for λ ≥ 1.
std::vector<double> paretoSingularValues(int count, double alpha) {
  std::vector<double> s;
  for (int i = 0; i < count; ++i) {
    const double u = (i + 0.5) / count;
    s.push_back(std::sqrt(std::pow(1 - u, -1 / (alpha - 1))));
  }
  std::sort(s.rbegin(), s.rend());
  return s;
}

at::Tensor gaussian(int64_t rows, int64_t cols, uint64_t seed) { return test::gaussian({rows, cols}, seed); }

at::Tensor testMatrix(int which) {
  switch (which) {
    case 0: return gaussian(400, 100, 1);
    case 1: return gaussian(80, 300, 2);
    case 2: return spectral::matrixWithSpectrum(300, 200, paretoSingularValues(200, 3.0), 3);
    case 3: return spectral::matrixWithSpectrum(128, 128, spectral::logSpacedSpectrum(128, 5.0, 0.01), 4);
    case 4: return spectral::matrixWithSpectrum(150, 90, spectral::logSpacedSpectrum(20, 3.0, 1.0), 5);
    default: return gaussian(500, 120, 6) + spectral::matrixWithSpectrum(500, 120, {200.0, 150.0, 120.0}, 7);
  }
}

}  // namespace

class TestSpectralMetrics : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void everyMetricMatchesTheReference_data() {
    QTest::addColumn<int>("which");
    QTest::newRow("gaussian 400x100") << 0;
    QTest::newRow("gaussian wide 80x300") << 1;
    QTest::newRow("pareto alpha 3, 300x200") << 2;
    QTest::newRow("log-spaced 128x128") << 3;
    QTest::newRow("rank 20 of 150x90") << 4;
    QTest::newRow("gaussian + 3 spikes 500x120") << 5;
  }
  void everyMetricMatchesTheReference() {
    QFETCH(int, which);
    const at::Tensor w = testMatrix(which);
    const Metrics got = engine(w);
    const Metrics want = reference(exactEigenvalues(w), w.size(0), w.size(1));
    QCOMPARE(got.size(), want.size());
    const auto bad = mismatches(got, want);
    QVERIFY2(bad.empty(), qPrintable(describe(bad, got, want)));
  }

  // The comparison above fails when the engine's answer is wrong: the reference of a broken
  // spectrum (one eigenvalue changed, the tail cut, small ones zeroed) disagrees with the
  // engine's answer for the intact matrix, and across the breakages every key is caught.
  void theComparisonCatchesBrokenInput() {
    const at::Tensor w = testMatrix(5);
    const Metrics got = engine(w);
    const auto lambda = exactEigenvalues(w);
    std::set<std::string> caught;
    const std::vector<std::function<void(std::vector<double>&)>> breakages{
        [](std::vector<double>& l) { l[0] *= 1.5; },                               // λmax wrong
        [](std::vector<double>& l) { std::fill(l.end() - 30, l.end(), 0.0); },    // rank wrong
        [](std::vector<double>& l) { l.resize(l.size() - 20); },                  // spectrum cut
        [](std::vector<double>& l) { for (size_t i = 3; i < l.size(); ++i) l[i] *= 1 + 0.3 * (i % 2); },  // bulk reshaped
    };
    for (const auto& brk : breakages) {
      auto broken = lambda;
      brk(broken);
      const auto bad = mismatches(got, reference(broken, w.size(0), w.size(1)));
      QVERIFY2(!bad.empty(), "a broken spectrum passed the comparison");
      caught.insert(bad.begin(), bad.end());
    }
    for (const auto& row : inspect::spectralMetricTable())
      QVERIFY2(caught.count(std::string(row.key)), qPrintable(QStringLiteral("no breakage caught %1").arg(QString::fromUtf8(row.key.data(), static_cast<int>(row.key.size())))));
  }

  // Closed forms on known spectra.
  void paretoTailFitsItsAlpha() {
    for (double a : {2.5, 3.0, 4.0}) {
      const auto m = inspect::spectralMetrics(paretoSingularValues(400, a), 800, 400);
      QVERIFY2(std::abs(m.alpha - a) < 0.2 * a, qPrintable(QStringLiteral("alpha %1 for Pareto %2").arg(m.alpha).arg(a)));
      QVERIFY(m.alphaKsDistance < 0.1);
    }
  }

  void gaussianNoiseFitsMarchenkoPastur() {
    for (auto [rows, cols] : {std::pair<int64_t, int64_t>{1000, 250}, {600, 600}, {200, 800}}) {
      const auto w = gaussian(rows, cols, 11);
      const auto m = inspect::spectralMetrics(spectral::singularValuesViaGram(w), rows, cols);
      const auto sv = spectral::singularValuesViaGram(w);
      const auto fit = inspect::fitMarchenkoPastur(exactEigenvalues(w), rows, cols);
      const QString what = QStringLiteral("%1x%2 noise: MP sigma %3, edge %4 + TW %5, spikes %6, softrank %7")
                               .arg(rows).arg(cols).arg(fit.sigma).arg(fit.bulkEdge).arg(fit.twMargin).arg(fit.numSpikes).arg(fit.softrank);
      qInfo().noquote() << what;
      QVERIFY2(std::abs(m.mpSigma - 1.0) < 0.06, qPrintable(what));
      QVERIFY2(m.mpNumSpikes == 0, qPrintable(what));
      QVERIFY(m.mpSoftrank > 0.85);
    }
  }

  void plantedSpikesAreCounted() {
    for (int k : {1, 3, 5}) {
      std::vector<double> strengths;
      for (int i = 0; i < k; ++i) strengths.push_back(400.0 - 40 * i);  // far above the bulk edge √N(1 + 1/√Q) ≈ 51
      const at::Tensor w = gaussian(1000, 250, 13) + spectral::matrixWithSpectrum(1000, 250, strengths, 17);
      const auto m = inspect::spectralMetrics(spectral::singularValuesViaGram(w), 1000, 250);
      QCOMPARE(m.mpNumSpikes, int64_t{k});
    }
  }

  void flatAndRankOneSpectra() {
    // An orthogonal matrix times 3: every λ = 9. Σλ = 9M, stable rank M, entropy 1, rank M; all
    // x equal leaves no power-law tail (α undefined).
    const auto flat = inspect::spectralMetrics(std::vector<double>(64, 3.0), 64, 64);
    qInfo() << "flat: alpha" << flat.alpha << "D" << flat.alphaKsDistance << "mp sigma" << flat.mpSigma;
    QCOMPARE(flat.spectralNorm, 9.0);
    QVERIFY(std::abs(flat.stableRank - 64) < 1e-12);
    QCOMPARE(flat.matrixRank, int64_t{64});
    QVERIFY(std::abs(flat.spectralEntropy - 1.0) < 1e-8);
    QVERIFY(std::abs(flat.logNorm - std::log10(9.0 * 64)) < 1e-12);
    QVERIFY(std::isnan(flat.alpha));
    // Rank one: entropy undefined (ln 1 = 0), stable rank 1.
    std::vector<double> one(32, 0.0);
    one[0] = 2.0;
    const auto r1 = inspect::spectralMetrics(one, 50, 32);
    QCOMPARE(r1.matrixRank, int64_t{1});
    QVERIFY(std::isnan(r1.spectralEntropy));
    QCOMPARE(r1.stableRank, 1.0);
    QVERIFY(std::isnan(r1.alpha));  // one eigenvalue above 1e-5: nothing to fit
    // The zero matrix: nothing defined, nothing thrown.
    const auto zero = inspect::spectralMetrics(std::vector<double>(8, 0.0), 8, 8);
    QCOMPARE(zero.matrixRank, int64_t{0});
    QVERIFY(std::isnan(zero.logSpectralNorm) && std::isnan(zero.mpSigma));
  }

  // float64 entries whose squares leave float64's range: the Gram of 1e300-sized entries was
  // inf (eigvalsh "failed to converge", `inspect` of such an .npy failed) and of 1e-300-sized
  // ones 0 (σ read 0). A diagonal matrix's singular values are its |diagonal|, sorted.
  void extremeFloat64ValuesKeepTheirSpectrum() {
    for (double scale : {1e300, 1e-300, 1.0}) {
      at::Tensor w = at::zeros({5, 3}, at::kDouble);
      const double diag[] = {-2.0, 7.0, 0.5};
      for (int i = 0; i < 3; ++i) w[i][i] = diag[i] * scale;
      const auto sv = spectral::singularValuesViaGram(w);
      const double want[] = {7.0 * scale, 2.0 * scale, 0.5 * scale};
      QCOMPARE(sv.size(), size_t{3});
      for (int i = 0; i < 3; ++i)
        QVERIFY2(std::abs(sv[size_t(i)] - want[i]) <= 1e-12 * want[0], qPrintable(QStringLiteral("scale %1: σ%2 = %3, want %4").arg(scale).arg(i + 1).arg(sv[size_t(i)]).arg(want[i])));
    }
  }

  void alphaReadingIsTheUsualHeuristic() {
    QCOMPARE(inspect::readAlpha(1.5), inspect::AlphaReading::OverFit);
    QCOMPARE(inspect::readAlpha(4.0), inspect::AlphaReading::Typical);
    QCOMPARE(inspect::readAlpha(7.0), inspect::AlphaReading::UnderTrained);
    QCOMPARE(inspect::readAlpha(kNaN), inspect::AlphaReading::Undefined);
  }
};

QTEST_GUILESS_MAIN(TestSpectralMetrics)
#include "tst_spectral_metrics.moc"
