#include "spectral/basic_constraints.h"

#include "spectral/symmetric_product.h"

#include <ATen/TensorOperators.h>
#include <ATen/ops/clamp_min.h>

#include <stdexcept>

namespace lwb::spectral {
namespace {

// sigma u v^T as a stack, in W's dtype.
at::Tensor rankOne(const at::Tensor& scale, const TopSingular& top, const at::Tensor& like) {
  const auto outer = top.u.unsqueeze(-1) * top.v.unsqueeze(-2);
  return (outer * scale.unsqueeze(-1).unsqueeze(-1)).to(like.scalar_type());
}

void requireNonNegative(double value, const char* what) {
  if (!(value >= 0.0)) throw std::invalid_argument(std::string(what) + " must be >= 0");
}

void requirePositive(double value, const char* what) {
  if (!(value > 0.0)) throw std::invalid_argument(std::string(what) + " must be > 0");
}

}  // namespace

at::Tensor weightDecay(const at::Tensor& w, double lambda, double lr) {
  requireNonNegative(lambda, "lambda");
  requireNonNegative(lr, "lr");
  return w * (1.0 - lambda * lr);
}

at::Tensor spectralWeightDecay(const at::Tensor& w, double lambda, PowerIterationState& state,
                               int powerIterations) {
  requireNonNegative(lambda, "lambda");
  const auto top = powerIteration(w, state, powerIterations);
  return w - rankOne(top.sigma * lambda, top, w);
}

at::Tensor spectralNormalize(const at::Tensor& w, double sigmaMaxSpectral,
                             PowerIterationState& state, int powerIterations) {
  requirePositive(sigmaMaxSpectral, "sigma_max");
  const auto top = powerIteration(w, state, powerIterations);
  const auto scale = sigmaMaxSpectral / at::clamp_min(top.sigma, sigmaMaxSpectral);
  return w * scale.unsqueeze(-1).unsqueeze(-1).to(w.scalar_type());
}

at::Tensor spectralHammer(const at::Tensor& w, double sigmaMaxSpectral, PowerIterationState& state,
                          int powerIterations) {
  requireNonNegative(sigmaMaxSpectral, "sigma_max");
  const auto top = powerIteration(w, state, powerIterations);
  return w + rankOne(sigmaMaxSpectral - top.sigma, top, w);
}

at::Tensor stiefel(const at::Tensor& w, double sigmaSpectral, const NewtonSchulzConfig& ns) {
  requireNonNegative(sigmaSpectral, "sigma");
  return msign(w, ns) * sigmaSpectral;
}

at::Tensor spectralSoftCap(const at::Tensor& w, double alpha) {
  requireNonNegative(alpha, "alpha");
  const bool tall = w.size(-2) > w.size(-1);
  at::Tensor x = tall ? w.mT() : w;
  for (const double sign : {-1.0, 1.0}) {  // p1 then p2
    const auto gram = gramOfRows(x);  // symmetric: BLAS syrk computes one triangle (float32/64)
    x = addMatmul(x, gram, x, 1.0, sign * alpha);
  }
  return tall ? x.mT().contiguous() : x;
}

}  // namespace lwb::spectral
