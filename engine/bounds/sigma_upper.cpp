// sigma1 as a certificate needs it: an upper bound (exact float64 SVD, or the Gram
// iteration bound of Delattre et al. 2023 for matrices too large to decompose quickly).
#include "bounds/lipschitz_bound.h"

#include "common/torch_compat.h"

#include <ATen/TensorOperators.h>
#include <ATen/core/grad_mode.h>
#include <ATen/ops/matmul.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace lwb::bounds {

const char* toString(SigmaMethod m) {
  return m == SigmaMethod::ExactSvd ? "exact SVD (float64)" : "Gram iteration upper bound";
}

SigmaUpper sigmaMaxUpper(const at::Tensor& w, int gramSteps) {
  if (!w.defined() || w.dim() != 2) throw std::invalid_argument("sigmaMaxUpper needs a (d_out, d_in) matrix");
  if (gramSteps < 1) throw std::invalid_argument("sigmaMaxUpper needs gramSteps >= 1");
  if (w.numel() == 0) return {0.0, SigmaMethod::ExactSvd};
  at::NoGradGuard noGrad;
  const auto g0 = w.detach().to(at::kDouble);
  if (std::min(w.size(0), w.size(1)) <= kExactSvdMaxSide)
    return {lwb::compat::svdvals(g0).max().item<double>(), SigmaMethod::ExactSvd};

  // Start from the smaller Gram side: sigma1(W)^2 = sigma1(W W^T) = sigma1(W^T W).
  at::Tensor g = w.size(0) < w.size(1) ? g0.matmul(g0.t()) : g0.t().matmul(g0);
  // Invariant: sigma1(W)^(2^t) = scale_t * sigma1(g_t), kept as logScale = log scale_t.
  // sigma1(g) <= ||g||_F, so sigma1(W) <= (scale_t ||g_t||_F)^(1 / 2^t); each squaring of
  // g / ||g||_F halves the exponent's slack (the F-norm converges to sigma1 geometrically).
  double logScale = 0.0;
  int t = 1;
  for (; t < gramSteps; ++t) {
    const double f = g.norm().item<double>();
    if (!(f > 0)) return {0.0, SigmaMethod::GramIteration};
    g = g / f;
    logScale = 2.0 * (logScale + std::log(f));
    g = g.t().matmul(g);
  }
  const double f = g.norm().item<double>();
  if (!(f > 0)) return {0.0, SigmaMethod::GramIteration};
  const double logSigma = (logScale + std::log(f)) / std::ldexp(1.0, t);
  // A relative 1e-12 for float64 rounding in the products.
  return {std::exp(logSigma) * (1.0 + 1e-12), SigmaMethod::GramIteration};
}

}  // namespace lwb::bounds
