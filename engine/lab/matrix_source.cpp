#include "lab/matrix_source.h"

#include "io/input_error.h"
#include "io/tensor_convert.h"
#include "lab/lab_matrix_impl.h"
#include "spectral/synthetic.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/TensorOperators.h>
#include <ATen/ops/isfinite.h>
#include <ATen/ops/randn.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <sstream>

namespace lwb::lab {
namespace {

std::string shapeText(int64_t m, int64_t n) { return std::to_string(m) + "×" + std::to_string(n); }

bool positiveFinite(double v) { return std::isfinite(v) && v > 0; }

// Pareto(a) samples on [1, inf), largest first: u^(-1/a) for uniform u in (0, 1].
std::vector<double> paretoSpectrum(int64_t count, double a, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::vector<double> s(static_cast<size_t>(count));
  for (double& v : s) v = std::pow(1.0 - uniform(rng), -1.0 / a);  // 1 - u is in (0, 1]
  std::sort(s.begin(), s.end(), std::greater<>());
  return s;
}

at::Tensor buildMatrix(const MatrixSpec& spec) {
  const int64_t m = spec.rows, n = spec.cols, k = std::min(m, n);
  const auto f64 = at::TensorOptions().dtype(at::kDouble);
  switch (spec.kind) {
    case SourceKind::Gaussian: {
      auto gen = at::make_generator<at::CPUGeneratorImpl>(spec.seed);
      return at::randn({m, n}, gen, f64);
    }
    case SourceKind::LowRankNoise: {
      auto signal = spectral::matrixWithSpectrum(m, n, spectral::logSpacedSpectrum(spec.rank, 1.0, 0.5), spec.seed);
      auto gen = at::make_generator<at::CPUGeneratorImpl>(spec.seed + 0x9e3779b97f4a7c15ULL);
      // sqrt(m) + sqrt(n) is the top singular value of an m x n standard Gaussian matrix
      // (Marchenko–Pastur edge), so the noise's sigma1 is ~ spec.noise.
      const double scale = spec.noise / (std::sqrt(static_cast<double>(m)) + std::sqrt(static_cast<double>(n)));
      return signal + at::randn({m, n}, gen, f64) * scale;
    }
    case SourceKind::HeavyTailed:
      return spectral::matrixWithSpectrum(m, n, paretoSpectrum(k, spec.tailExponent, spec.seed), spec.seed);
    case SourceKind::Prescribed:
      if (!spec.values.empty()) return spectral::matrixWithSpectrum(m, n, spec.values, spec.seed);
      return spectral::matrixWithSpectrum(m, n, spectral::logSpacedSpectrum(k, spec.sigma1, spec.sigmaLow), spec.seed);
  }
  throw InputError("matrix source: unknown kind");
}

}  // namespace

std::string validateSpec(const MatrixSpec& spec) {
  if (spec.rows < 2 || spec.cols < 2) return "size: rows and columns must be at least 2, got " + shapeText(spec.rows, spec.cols);
  if (spec.rows > kMaxLabEntries / spec.cols)
    return "size: " + shapeText(spec.rows, spec.cols) + " has more than " + std::to_string(kMaxLabEntries) +
           " entries (the Clip Lab goes up to 1024×4096)";
  const int64_t k = std::min(spec.rows, spec.cols);
  const bool explicitValues = spec.kind == SourceKind::Prescribed && !spec.values.empty();
  if (!explicitValues && !positiveFinite(spec.sigma1)) return "σ₁: must be a positive number";
  switch (spec.kind) {
    case SourceKind::Gaussian: break;
    case SourceKind::LowRankNoise:
      if (spec.rank < 1 || spec.rank > k) return "rank: must be between 1 and " + std::to_string(k);
      if (!std::isfinite(spec.noise) || spec.noise < 0) return "noise: must be a number >= 0";
      break;
    case SourceKind::HeavyTailed:
      if (!positiveFinite(spec.tailExponent)) return "tail exponent: must be a positive number";
      break;
    case SourceKind::Prescribed:
      if (explicitValues) {
        if (static_cast<int64_t>(spec.values.size()) > k)
          return "singular values: " + std::to_string(spec.values.size()) + " given, a " + shapeText(spec.rows, spec.cols) +
                 " matrix has " + std::to_string(k);
        for (double v : spec.values)
          if (!std::isfinite(v) || v < 0) return "singular values: every value must be a number >= 0";
        if (*std::max_element(spec.values.begin(), spec.values.end()) <= 0) return "singular values: at least one must be > 0";
      } else if (!positiveFinite(spec.sigmaLow) || spec.sigmaLow > spec.sigma1) {
        return "smallest σ: must be positive and at most σ₁";
      }
      break;
  }
  return {};
}

LabMatrixPtr makeMatrix(const MatrixSpec& spec, const CancelFlag* cancel) {
  if (const std::string err = validateSpec(spec); !err.empty()) throw InputError(err);
  throwIfCancelled(cancel);
  at::Tensor w = buildMatrix(spec);
  throwIfCancelled(cancel);
  Decomposition d = decompose(w, /*vectors=*/true);
  // Scale to the requested sigma1 exactly (explicit prescribed values are taken as given).
  const bool scale = !(spec.kind == SourceKind::Prescribed && !spec.values.empty()) && !d.sigmas.empty() && d.sigmas[0] > 0;
  if (scale) {
    const double c = spec.sigma1 / d.sigmas[0];
    w = w * c;
    d.s = d.s * c;
    for (double& v : d.sigmas) v *= c;
  }
  auto impl = std::make_unique<LabMatrix::Impl>();
  impl->name = describeSpec(spec);
  impl->w = w.contiguous();
  impl->vectors = true;
  impl->exact = std::move(d);
  return std::make_shared<const LabMatrix>(std::move(impl));
}

LabMatrixPtr matrixFromRaw(const io::RawTensor& raw, bool singularVectors, int64_t maxEntries, const CancelFlag* cancel) {
  const std::string what = "tensor '" + raw.name + "'";
  if (raw.shape.size() != 2) throw InputError(what + ": not a matrix (rank " + std::to_string(raw.shape.size()) + ")");
  if (!io::isFloating(raw.dtype)) throw InputError(what + ": " + std::string(io::dtypeName(raw.dtype)) + " is not a floating-point type");
  const int64_t m = raw.shape[0], n = raw.shape[1];
  if (m < 1 || n < 1) throw InputError(what + ": empty matrix " + shapeText(m, n));
  if (m > maxEntries / n)
    throw InputError(what + ": " + shapeText(m, n) + " has more than " + std::to_string(maxEntries) + " entries, the limit here");
  const at::Tensor w = io::toTensor(raw).to(at::kDouble);
  if (!at::isfinite(w).all().item<bool>()) throw InputError(what + ": holds NaN or infinite values");
  throwIfCancelled(cancel);
  return makeLabMatrix(raw.name, w, singularVectors);
}

std::string describeSpec(const MatrixSpec& spec) {
  std::ostringstream s;
  s.precision(3);
  const std::string size = shapeText(spec.rows, spec.cols);
  switch (spec.kind) {
    case SourceKind::Gaussian: s << "Gaussian " << size << ", σ₁ = " << spec.sigma1; break;
    case SourceKind::LowRankNoise:
      s << "rank " << spec.rank << " + noise " << spec.noise << ", " << size << ", σ₁ = " << spec.sigma1;
      break;
    case SourceKind::HeavyTailed: s << "heavy-tailed (a = " << spec.tailExponent << ") " << size << ", σ₁ = " << spec.sigma1; break;
    case SourceKind::Prescribed:
      if (spec.values.empty()) s << "σ log-spaced " << spec.sigma1 << " → " << spec.sigmaLow << ", " << size;
      else s << spec.values.size() << " prescribed σ, " << size;
      break;
  }
  return s.str();
}

}  // namespace lwb::lab
