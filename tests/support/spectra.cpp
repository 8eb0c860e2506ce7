#include "support/spectra.h"

#include "common/torch_compat.h"
#include "spectral/synthetic.h"

#include <ATen/TensorOperators.h>
#include <ATen/ops/tensor.h>

#include <algorithm>
#include <cmath>

namespace lwb::test {

std::vector<double> singularValues(const at::Tensor& w) {
  const auto s = compat::svdvals(w.to(at::kCPU).to(at::kDouble)).contiguous();
  return {s.data_ptr<double>(), s.data_ptr<double>() + s.numel()};
}

at::Tensor applySpectralMap(const at::Tensor& w, const std::function<double(double)>& f) {
  const auto [u, s, vh] = compat::svdReduced(w.to(at::kCPU).to(at::kDouble));
  auto mapped = s.clone();
  auto* p = mapped.data_ptr<double>();
  for (int64_t i = 0; i < mapped.numel(); ++i) p[i] = f(p[i]);
  return (u * mapped.unsqueeze(-2)).matmul(vh);
}

double maxAbsDiff(const std::vector<double>& a, const std::vector<double>& b) {
  double d = 0;
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) d = std::max(d, std::abs(a[i] - b[i]));
  return a.size() == b.size() ? d : INFINITY;
}

double spectralDistance(const at::Tensor& a, const at::Tensor& b) {
  const auto d = a.to(at::kCPU).to(at::kDouble) - b.to(at::kCPU).to(at::kDouble);
  return singularValues(d).front();
}

at::Tensor spectrumMatrix(int64_t m, int64_t n, double sigma1, double lo, uint64_t seed) {
  return spectral::matrixWithSpectrum(m, n, spectral::logSpacedSpectrum(std::min(m, n), sigma1, lo), seed);
}

}  // namespace lwb::test
