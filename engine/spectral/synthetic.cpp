#include "spectral/synthetic.h"

#include <ATen/TensorOperators.h>
#include <ATen/CPUGeneratorImpl.h>
#include <ATen/ops/diag_embed.h>
#include <ATen/ops/linalg_qr.h>
#include <ATen/ops/randn.h>
#include <ATen/ops/sign.h>
#include <ATen/ops/tensor.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>

namespace lwb::spectral {
namespace {

// Haar-distributed k orthonormal columns of R^rows: QR of a Gaussian with the sign fix.
at::Tensor randomOrthonormal(int64_t rows, int64_t k, at::Generator& gen) {
  const auto g = at::randn({rows, k}, gen, at::TensorOptions().dtype(at::kDouble));
  auto [q, r] = at::linalg_qr(g, "reduced");
  auto signs = at::sign(r.diagonal());
  signs = signs + (signs == 0).to(at::kDouble);
  return q * signs.unsqueeze(0);
}

}  // namespace

std::vector<double> logSpacedSpectrum(int64_t count, double hi, double lo) {
  if (count < 1 || !(hi > 0) || !(lo > 0)) throw std::invalid_argument("log spectrum needs count >= 1, hi, lo > 0");
  std::vector<double> s(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) {
    const double f = count == 1 ? 0.0 : static_cast<double>(i) / static_cast<double>(count - 1);
    s[static_cast<size_t>(i)] = std::exp(std::log(hi) + f * (std::log(lo) - std::log(hi)));
  }
  return s;
}

at::Tensor matrixWithSpectrum(int64_t m, int64_t n, const std::vector<double>& spectrum,
                              uint64_t seed) {
  if (m < 1 || n < 1) throw std::invalid_argument("matrix dimensions must be >= 1");
  const int64_t k = std::min(m, n);
  std::vector<double> s(spectrum.begin(), spectrum.begin() + std::min<int64_t>(k, static_cast<int64_t>(spectrum.size())));
  s.resize(static_cast<size_t>(k), 0.0);
  std::sort(s.begin(), s.end(), std::greater<>());
  auto gen = at::make_generator<at::CPUGeneratorImpl>(seed);
  const auto u = randomOrthonormal(m, k, gen);
  const auto v = randomOrthonormal(n, k, gen);
  const auto sig = at::tensor(s, at::TensorOptions().dtype(at::kDouble));
  return (u * sig.unsqueeze(0)).matmul(v.mT());
}

}  // namespace lwb::spectral
