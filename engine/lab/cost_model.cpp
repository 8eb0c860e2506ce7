#include "lab/cost_model.h"

#include <cmath>
#include <utility>

namespace lwb::lab {

namespace {
constexpr double kFloat32FlopsPerSecond = 1.5e11;
constexpr double kBfloat16FlopsPerSecond = 5e11;
}  // namespace

double constraintFlops(const ConstraintRequest& r, double m, double n) {
  if (m > n) std::swap(m, n);
  const double steps = r.ns.steps + r.ns.polishSteps;
  double flops = 8 * m * m * n;  // soft cap and the like
  if (spectral::reads(r.method, spectral::kImpl)) {
    switch (r.impl) {
      case spectral::ClipImpl::Nested: flops = 2 * steps * (4 * m * m * n + 2 * m * m * m); break;
      case spectral::ClipImpl::AbdDense:
      case spectral::ClipImpl::AbdBlock: flops = steps * 6 * std::pow(m + n, 3); break;
      case spectral::ClipImpl::Svd: flops = 20 * m * m * n; break;
    }
  }
  return flops;
}

double estimatedSeconds(const ConstraintRequest& r, double rows, double cols) {
  return constraintFlops(r, rows, cols) / (r.dtype == "bfloat16" ? kBfloat16FlopsPerSecond : kFloat32FlopsPerSecond);
}

}  // namespace lwb::lab
