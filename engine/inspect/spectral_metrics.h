// WeightWatcher-parity spectral metrics of one weight matrix (issue 29 §1), from the
// eigenvalues λ = σ² of the raw W (no 1/N normalisation), with WeightWatcher 0.7.5.5's key
// names. The exact procedures (power-law fit, Marchenko–Pastur fit) are in docs/DESIGN.md
// "WeightWatcher-parity spectral metrics". Note the two "spectral norms": WeightWatcher's
// `spectral_norm` is λmax = σ₁², the workbench's bounds use σ₁.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace lwb::inspect {

// Every number is NaN where it is undefined for the matrix (no eigenvalue above 1e-5 for the
// power law, rank ≤ 1 for the entropy, fewer than two eigenvalues for the MP fit); the JSON
// writes NaN as null.
struct SpectralMetrics {
  double spectralNorm = 0;     // λmax = σ₁² (WeightWatcher's spectral_norm)
  double alpha = 0;            // power-law exponent of the tail (Hill estimate at the best xmin)
  double alphaXmin = 0;        // the xmin chosen by the KS distance
  double alphaKsDistance = 0;  // its one-sided KS distance D
  int64_t numPlSpikes = 0;     // #{λ ≥ xmin}
  double alphaWeighted = 0;    // α·log10 λmax
  double logSpectralNorm = 0;  // log10 λmax
  double logNorm = 0;          // log10 Σλ
  double logAlphaNorm = 0;     // log10 Σλ^α
  double stableRank = 0;       // Σλ / λmax
  int64_t matrixRank = 0;      // #{λ > λmax·max(N, M)·ε}
  double spectralEntropy = 0;  // −Σ p ln(p + 1e-10) / ln(rank), p = λ/Σλ
  double mpSoftrank = 0;       // bulk edge / λmax
  int64_t mpNumSpikes = 0;     // eigenvalues beyond the bulk edge + Tracy–Widom margin
  double mpSigma = 0;          // fitted MP σ (eigenvalues rescaled to mean 1)
};

// The power-law fit alone: x = λ > 1e-5 sorted ascending, candidate xmin = x_i for
// i = 0 … n−2, Hill α_i, one-sided KS D_i, the first minimum of D.
struct PowerLawFit {
  double alpha = 0, xmin = 0, ksDistance = 0;
  int64_t numSpikes = 0;
};
PowerLawFit fitPowerLaw(std::span<const double> eigenvalues);

// The Marchenko–Pastur fit alone, for the M = min(rows, cols) eigenvalues of an N×M matrix.
struct MarchenkoPasturFit {
  double sigma = 0, bulkEdge = 0, twMargin = 0, softrank = 0;  // bulkEdge in mean-1 units
  int64_t numSpikes = 0;
};
MarchenkoPasturFit fitMarchenkoPastur(std::span<const double> eigenvalues, int64_t rows, int64_t cols);

// All metrics from the descending singular values of a rows×cols matrix.
SpectralMetrics spectralMetrics(std::span<const double> singularValues, int64_t rows, int64_t cols);

// One row per metric: the JSON/CSV key (WeightWatcher's name), a column title and a tooltip
// (English; the app translates them in the "Registry" context). One home: the CLI, the
// Inspector's columns, its bar-chart choice and the CSV export all list these rows.
struct SpectralMetricInfo {
  std::string_view key;
  std::string_view title;
  std::string_view description;
  double (*value)(const SpectralMetrics&);
  bool integer;
};
std::span<const SpectralMetricInfo> spectralMetricTable();

// The usual reading of α (a heuristic, not a law): < 2 over-fit, > 6 under-trained.
enum class AlphaReading { Typical, OverFit, UnderTrained, Undefined };
AlphaReading readAlpha(double alpha);

}  // namespace lwb::inspect
