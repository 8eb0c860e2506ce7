#include "inspect/spectral_metrics.h"

#include "common/tr_noop.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numbers>
#include <numeric>

namespace lwb::inspect {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kPowerLawFloor = 1e-5;  // WeightWatcher's EVALS_THRESH

// Marchenko–Pastur density of the eigenvalues of X^T X / N for an N×M X (N ≥ M, Q = N/M)
// with i.i.d. entries of variance σ²: supported on [λ−, λ+], λ± = σ²(1 ± 1/√Q)².
double mpDensity(double x, double sigma, double q) {
  const double s2 = sigma * sigma, r = 1.0 / std::sqrt(q);
  const double lo = s2 * (1 - r) * (1 - r), hi = s2 * (1 + r) * (1 + r);
  if (x <= lo || x >= hi) return 0.0;
  return q / (2 * std::numbers::pi * s2 * x) * std::sqrt((hi - x) * (x - lo));
}

}  // namespace

PowerLawFit fitPowerLaw(std::span<const double> eigenvalues) {
  std::vector<double> x;
  for (double l : eigenvalues)
    if (l > kPowerLawFloor) x.push_back(l);
  std::sort(x.begin(), x.end());
  PowerLawFit fit{kNaN, kNaN, kNaN, 0};
  const size_t n = x.size();
  if (n < 2) return fit;
  std::vector<double> logs(n);
  for (size_t i = 0; i < n; ++i) logs[i] = std::log(x[i]);
  // Suffix sums of ln x make every Hill estimate O(1); each KS distance is O(m).
  std::vector<double> tail(n + 1, 0.0);
  for (size_t i = n; i-- > 0;) tail[i] = tail[i + 1] + logs[i];
  double bestD = std::numeric_limits<double>::infinity();
  for (size_t i = 0; i + 1 < n; ++i) {
    const double m = static_cast<double>(n - i);
    const double denom = tail[i] - m * logs[i];
    // An all-equal tail (x sorted, so x_{n-1} = x_i) has no α; rounding would make it ~1e16.
    const double alpha = x[n - 1] > x[i] && denom > 0 ? 1.0 + m / denom : kNaN;
    double d = 1.0;
    if (alpha > 1.0) {
      d = 0.0;
      for (size_t k = 0; k < n - i; ++k) {
        const double model = 1.0 - std::exp((1.0 - alpha) * (logs[i + k] - logs[i]));  // (x/xmin)^(1-α)
        d = std::max(d, std::abs(model - static_cast<double>(k) / m));
      }
    }
    if (d < bestD) {  // strict: the first minimum wins
      bestD = d;
      fit = {alpha, x[i], d, static_cast<int64_t>(n - i)};
    }
  }
  return fit;
}

MarchenkoPasturFit fitMarchenkoPastur(std::span<const double> eigenvalues, int64_t rows, int64_t cols) {
  MarchenkoPasturFit fit{kNaN, kNaN, kNaN, kNaN, 0};
  const size_t count = eigenvalues.size();
  const double sum = std::accumulate(eigenvalues.begin(), eigenvalues.end(), 0.0);
  if (count < 2 || !(sum > 0)) return fit;
  const double bigN = static_cast<double>(std::max(rows, cols)), bigM = static_cast<double>(std::min(rows, cols));
  const double q = bigN / bigM, r = 1.0 / std::sqrt(q);
  // Rescale to mean 1 (the scale of W drops out; a pure-noise W fits σ ≈ 1).
  std::vector<double> x(eigenvalues.begin(), eigenvalues.end());
  for (double& v : x) v *= static_cast<double>(count) / sum;
  std::sort(x.begin(), x.end());
  // The density is compared on [0, x_hi], x_hi the 95% quantile, so that up to 5% spikes do
  // not stretch the bins; both sides are normalised by all `count` eigenvalues.
  const double xHi = x[static_cast<size_t>(0.95 * static_cast<double>(count - 1))];
  if (!(xHi > 0)) return fit;
  const int bins = std::clamp(static_cast<int>(std::ceil(2.0 * std::sqrt(static_cast<double>(count)))), 8, 80);
  const double width = xHi / bins;
  std::vector<double> hist(static_cast<size_t>(bins), 0.0);
  for (double v : x)
    if (v <= xHi) hist[static_cast<size_t>(std::min(bins - 1, static_cast<int>(v / width)))] += 1.0;
  for (double& h : hist) h /= static_cast<double>(count) * width;
  // σ grid: 300 steps up to 1.5× the σ whose bulk edge is x_hi; least squares between the
  // histogram and the MP density averaged over each bin (16 midpoints in u = √x).
  const double sigmaAtEdge = std::sqrt(xHi) / (1 + r);
  constexpr int kGrid = 300, kSub = 16;
  double bestErr = std::numeric_limits<double>::infinity();
  for (int g = 1; g <= kGrid; ++g) {
    const double sigma = 1.5 * sigmaAtEdge * g / kGrid;
    double err = 0;
    for (int b = 0; b < bins; ++b) {
      // Bin mass ∫ρ dx with x = u²: 2u·ρ(u²) is bounded at x = 0 even for Q = 1, where ρ has
      // an integrable 1/√x singularity (a midpoint rule in x would miss much of it).
      const double u0 = std::sqrt(b * width), du = (std::sqrt((b + 1) * width) - u0) / kSub;
      double mass = 0;
      for (int s = 0; s < kSub; ++s) {
        const double u = u0 + (s + 0.5) * du;
        mass += 2 * u * mpDensity(u * u, sigma, q) * du;
      }
      const double mean = mass / width;
      err += (hist[static_cast<size_t>(b)] - mean) * (hist[static_cast<size_t>(b)] - mean);
    }
    if (err < bestErr) {
      bestErr = err;
      fit.sigma = sigma;
    }
  }
  fit.bulkEdge = std::pow(fit.sigma * (1 + r), 2);
  // Tracy–Widom scale of the largest bulk eigenvalue (Johnstone 2001) in these units:
  // σ²(1 + 1/√Q)(1/√N + 1/√M)^{1/3}/√N.
  fit.twMargin = fit.sigma * fit.sigma * (1 + r) * std::cbrt(1 / std::sqrt(bigN) + 1 / std::sqrt(bigM)) / std::sqrt(bigN);
  fit.numSpikes = std::count_if(x.begin(), x.end(), [&](double v) { return v > fit.bulkEdge + fit.twMargin; });
  fit.softrank = fit.bulkEdge / x.back();
  return fit;
}

SpectralMetrics spectralMetrics(std::span<const double> singularValues, int64_t rows, int64_t cols) {
  SpectralMetrics m;
  std::vector<double> lambda;
  lambda.reserve(singularValues.size());
  for (double s : singularValues) lambda.push_back(s * s);
  const double lmax = lambda.empty() ? 0.0 : *std::max_element(lambda.begin(), lambda.end());
  const double sum = std::accumulate(lambda.begin(), lambda.end(), 0.0);
  m.spectralNorm = lmax;
  const auto pl = fitPowerLaw(lambda);
  m.alpha = pl.alpha;
  m.alphaXmin = pl.xmin;
  m.alphaKsDistance = pl.ksDistance;
  m.numPlSpikes = pl.numSpikes;
  m.logSpectralNorm = lmax > 0 ? std::log10(lmax) : kNaN;
  m.alphaWeighted = m.alpha * m.logSpectralNorm;
  m.logNorm = sum > 0 ? std::log10(sum) : kNaN;
  double alphaSum = 0;
  for (double l : lambda) alphaSum += std::pow(l, m.alpha);
  m.logAlphaNorm = std::isnan(m.alpha) ? kNaN : std::log10(alphaSum);
  m.stableRank = lmax > 0 ? sum / lmax : 0.0;
  // numpy's matrix_rank tolerance σ₁·max(N, M)·ε, applied to λ: the Gram route resolves λ to
  // about ε·λmax, so a σ-scale tolerance would count rounding noise as rank.
  const double tol = lmax * static_cast<double>(std::max(rows, cols)) * std::numeric_limits<double>::epsilon();
  m.matrixRank = std::count_if(lambda.begin(), lambda.end(), [&](double l) { return l > tol; });
  if (m.matrixRank > 1 && sum > 0) {
    double h = 0;
    for (double l : lambda) {
      const double p = l / sum;
      h -= p * std::log(p + 1e-10);
    }
    m.spectralEntropy = h / std::log(static_cast<double>(m.matrixRank));
  } else {
    m.spectralEntropy = kNaN;
  }
  const auto mp = fitMarchenkoPastur(lambda, rows, cols);
  m.mpSoftrank = mp.softrank;
  m.mpNumSpikes = mp.numSpikes;
  m.mpSigma = mp.sigma;
  return m;
}

std::span<const SpectralMetricInfo> spectralMetricTable() {
  static const std::array<SpectralMetricInfo, 15> table{{
      {"alpha", LWB_TR_NOOP("Registry", "α"), LWB_TR_NOOP("Registry", "power-law exponent of the eigenvalue tail (WeightWatcher's fit; heuristic: α < 2 over-fit, α > 6 under-trained)"),
       [](const SpectralMetrics& m) { return m.alpha; }, false},
      {"alpha_xmin", LWB_TR_NOOP("Registry", "α xmin"), LWB_TR_NOOP("Registry", "start of the power-law tail chosen by the KS distance (in λ = σ²)"),
       [](const SpectralMetrics& m) { return m.alphaXmin; }, false},
      {"alpha_ks_distance", LWB_TR_NOOP("Registry", "KS distance"), LWB_TR_NOOP("Registry", "one-sided Kolmogorov–Smirnov distance of the power-law fit"),
       [](const SpectralMetrics& m) { return m.alphaKsDistance; }, false},
      {"num_pl_spikes", LWB_TR_NOOP("Registry", "PL spikes"), LWB_TR_NOOP("Registry", "eigenvalues in the power-law tail (λ ≥ xmin)"),
       [](const SpectralMetrics& m) { return static_cast<double>(m.numPlSpikes); }, true},
      {"alpha_weighted", LWB_TR_NOOP("Registry", "α̂ (weighted)"), LWB_TR_NOOP("Registry", "α·log10 λmax"),
       [](const SpectralMetrics& m) { return m.alphaWeighted; }, false},
      {"spectral_norm", LWB_TR_NOOP("Registry", "λmax = σ₁²"), LWB_TR_NOOP("Registry", "WeightWatcher's \"spectral norm\" is the largest eigenvalue λmax = σ₁² of WᵀW; the workbench's bounds use σ₁"),
       [](const SpectralMetrics& m) { return m.spectralNorm; }, false},
      {"log_spectral_norm", LWB_TR_NOOP("Registry", "log10 λmax"), LWB_TR_NOOP("Registry", "log10 of λmax = σ₁² (WeightWatcher's log_spectral_norm)"),
       [](const SpectralMetrics& m) { return m.logSpectralNorm; }, false},
      {"log_norm", LWB_TR_NOOP("Registry", "log10 Σλ"), LWB_TR_NOOP("Registry", "log10 of the squared Frobenius norm Σλ"),
       [](const SpectralMetrics& m) { return m.logNorm; }, false},
      {"log_alpha_norm", LWB_TR_NOOP("Registry", "log10 Σλ^α"), LWB_TR_NOOP("Registry", "log10 of the α-norm Σλ^α"),
       [](const SpectralMetrics& m) { return m.logAlphaNorm; }, false},
      {"stable_rank", LWB_TR_NOOP("Registry", "Stable rank"), LWB_TR_NOOP("Registry", "Σλ / λmax = ‖W‖²_F / σ₁²"),
       [](const SpectralMetrics& m) { return m.stableRank; }, false},
      {"matrix_rank", LWB_TR_NOOP("Registry", "Rank"), LWB_TR_NOOP("Registry", "number of λ above λmax·max(N, M)·ε"),
       [](const SpectralMetrics& m) { return static_cast<double>(m.matrixRank); }, true},
      {"spectral_entropy", LWB_TR_NOOP("Registry", "Entropy"), LWB_TR_NOOP("Registry", "−Σ p ln p / ln(rank), p = λ/Σλ: 1 for a flat spectrum, 0 for rank one"),
       [](const SpectralMetrics& m) { return m.spectralEntropy; }, false},
      {"mp_softrank", LWB_TR_NOOP("Registry", "MP soft rank"), LWB_TR_NOOP("Registry", "Marchenko–Pastur bulk edge / λmax"),
       [](const SpectralMetrics& m) { return m.mpSoftrank; }, false},
      {"mp_num_spikes", LWB_TR_NOOP("Registry", "MP spikes"), LWB_TR_NOOP("Registry", "eigenvalues beyond the Marchenko–Pastur bulk edge plus its Tracy–Widom margin"),
       [](const SpectralMetrics& m) { return static_cast<double>(m.mpNumSpikes); }, true},
      {"mp_sigma", LWB_TR_NOOP("Registry", "MP σ"), LWB_TR_NOOP("Registry", "σ of the Marchenko–Pastur fit to the bulk (eigenvalues rescaled to mean 1)"),
       [](const SpectralMetrics& m) { return m.mpSigma; }, false},
  }};
  return table;
}

AlphaReading readAlpha(double alpha) {
  if (std::isnan(alpha)) return AlphaReading::Undefined;
  if (alpha < 2.0) return AlphaReading::OverFit;
  if (alpha > 6.0) return AlphaReading::UnderTrained;
  return AlphaReading::Typical;
}

}  // namespace lwb::inspect
