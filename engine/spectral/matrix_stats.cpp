#include "spectral/matrix_stats.h"

#include "spectral/symmetric_product.h"

#include <ATen/ops/clamp_min.h>
#include <ATen/ops/linalg_eigvalsh.h>

#include <algorithm>
#include <cmath>

namespace lwb::spectral {

std::vector<double> singularValuesViaGram(const at::Tensor& w) {
  const int64_t m = w.size(0), n = w.size(1);
  if (m == 0 || n == 0) return {};
  const auto w64 = w.to(at::kDouble);
  // Gram of the smaller side: n x n when tall, m x m when wide.
  const auto gram = gramOfRows(m >= n ? w64.t() : w64);
  const auto eig = at::clamp_min(at::linalg_eigvalsh(gram), 0.0).contiguous();  // ascending
  const double* e = eig.data_ptr<double>();
  std::vector<double> out(static_cast<size_t>(eig.numel()));
  for (size_t i = 0; i < out.size(); ++i) out[i] = std::sqrt(e[out.size() - 1 - i]);
  return out;
}

MatrixStats matrixStats(const at::Tensor& w) {
  MatrixStats s;
  s.singularValues = singularValuesViaGram(w);
  if (s.singularValues.empty()) return s;
  s.sigma1 = s.singularValues.front();
  double sumSq = 0;
  for (double v : s.singularValues) sumSq += v * v;
  s.frobenius = std::sqrt(sumSq);
  s.stableRank = s.sigma1 > 0 ? sumSq / (s.sigma1 * s.sigma1) : 0.0;
  s.rmsNorm = s.sigma1 * std::sqrt(static_cast<double>(w.size(1)) / static_cast<double>(w.size(0)));
  return s;
}

}  // namespace lwb::spectral
