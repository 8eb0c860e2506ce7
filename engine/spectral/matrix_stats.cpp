#include "spectral/matrix_stats.h"

#include "spectral/symmetric_product.h"

#include <ATen/ops/clamp_min.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/linalg_eigvalsh.h>

#include <algorithm>
#include <cmath>
#include <optional>

namespace lwb::spectral {

namespace {

// Ascending eigenvalues of the symmetric float64 Gram -> descending singular values.
std::vector<double> singularValuesOfGram(const at::Tensor& gram) {
  const auto eig = at::clamp_min(at::linalg_eigvalsh(gram), 0.0).contiguous();  // ascending
  const double* e = eig.data_ptr<double>();
  std::vector<double> out(static_cast<size_t>(eig.numel()));
  for (size_t i = 0; i < out.size(); ++i) out[i] = std::sqrt(e[out.size() - 1 - i]);
  return out;
}

// The float64 Gram of a narrower-than-float64 matrix, accumulated over slices of its long side
// that are converted into one reused float64 buffer (sliceEntries entries: 8 MB by default): converting the whole matrix
// first (w.to(kDouble)) allocates 8 bytes per entry anew for every matrix, and on this class of
// VM first-touching fresh pages costs as much as the GEMM (GPT-2's 50257×768 embedding: 309 MB).
// The sums are the same float64 products, in slices.
std::optional<at::Tensor> slicedGram(const at::Tensor& w, int64_t sliceEntries) {
  const int64_t m = w.size(0), n = w.size(1);
  const bool tall = m >= n;
  const int64_t k = tall ? n : m, len = tall ? m : n;
  const int64_t slice = std::max<int64_t>(1, sliceEntries / std::max<int64_t>(k, 1));
  at::Tensor gram = at::empty({k, k}, w.options().dtype(at::kDouble));
  // Tall: slices of rows [s, k] (contiguous copies), Gram += sᵀs; wide: slices of columns [k, s].
  at::Tensor buffer = at::empty(tall ? std::vector<int64_t>{std::min(slice, len), k} : std::vector<int64_t>{k, std::min(slice, len)},
                                gram.options());
  for (int64_t start = 0; start < len; start += slice) {
    const int64_t count = std::min(slice, len - start);
    at::Tensor part = tall ? buffer.narrow(0, 0, count) : buffer.narrow(1, 0, count);
    part.copy_(tall ? w.narrow(0, start, count) : w.narrow(1, start, count));
    if (!addGramOfRowsInto(gram, tall ? part.t() : part, start == 0 ? 0.0 : 1.0, 1.0)) return std::nullopt;
  }
  return gram;
}

}  // namespace

std::vector<double> singularValuesViaGram(const at::Tensor& w, int64_t sliceEntries) {
  const int64_t m = w.size(0), n = w.size(1);
  if (m == 0 || n == 0) return {};
  if (w.scalar_type() != at::kDouble && w.device().is_cpu())
    if (const auto gram = slicedGram(w, sliceEntries)) return singularValuesOfGram(*gram);
  at::Tensor w64 = w.to(at::kDouble);
  // The Gram squares the entries: float64 holds 1e308 but not its square, so eigvalsh of an
  // inf Gram failed ("failed to converge") for an .npy of large float64 values, and 1e-300's
  // square underflowed to σ = 0. Such a matrix is scaled by a power of two that brings its
  // largest entry near 1 (exact) and its singular values scaled back; others are untouched.
  int exponent = 0;
  const double peak = w64.abs().max().item<double>();
  if (std::isfinite(peak) && peak > 0) std::frexp(peak, &exponent);
  const bool rescale = exponent > 200 || exponent < -200;
  if (rescale) w64 = w64 * std::ldexp(1.0, -exponent / 2) * std::ldexp(1.0, -(exponent - exponent / 2));  // 2^1073 alone is inf
  // Gram of the smaller side: n x n when tall, m x m when wide.
  std::vector<double> sv = singularValuesOfGram(gramOfRows(m >= n ? w64.t() : w64));
  if (rescale)
    for (double& v : sv) v = std::ldexp(v, exponent);
  return sv;
}

MatrixStats matrixStats(const at::Tensor& w) {
  MatrixStats s;
  s.singularValues = singularValuesViaGram(w);
  if (s.singularValues.empty()) return s;
  s.sigma1 = s.singularValues.front();
  // Σ(σᵢ/σ₁)², not Σσᵢ²: σ₁ = 1e200 is a float64, its square is not.
  double relSq = 0;
  if (s.sigma1 > 0)
    for (double v : s.singularValues) relSq += (v / s.sigma1) * (v / s.sigma1);
  s.frobenius = s.sigma1 * std::sqrt(relSq);
  s.stableRank = relSq;
  s.rmsNorm = s.sigma1 * std::sqrt(static_cast<double>(w.size(1)) / static_cast<double>(w.size(0)));
  return s;
}

}  // namespace lwb::spectral
