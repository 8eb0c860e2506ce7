#include "spectral/softcap_alpha.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace lwb::spectral {
namespace {

void requireFinite(double v, const char* name, bool positive) {
  if (!std::isfinite(v) || (positive ? !(v > 0.0) : !(v >= 0.0)))
    throw std::invalid_argument(std::string(name) + (positive ? " must be a finite number > 0"
                                                              : " must be a finite number >= 0"));
}

}  // namespace

double softCapPolynomial(double sigma, double alpha) {
  const double y = sigma - alpha * sigma * sigma * sigma;
  return y + alpha * y * y * y;
}

double softCapWorstCaseK(double sigmaMax, double lr, double weightDecay, double updateNorm) {
  return sigmaMax * (1.0 - weightDecay * lr) + updateNorm;
}

double softCapPeak(double alpha, double k) {
  if (!(alpha > 0.0)) return k;  // no cap: the identity on [0, k]
  return softCapPolynomial(std::min(k, 1.0 / std::sqrt(3.0 * alpha)), alpha);
}

double softCapQuartic(double alpha, double k, double sigmaMax) {
  const double k2 = k * k, k5 = k2 * k2 * k, k7 = k5 * k2, k9 = k7 * k2;
  const double a2 = alpha * alpha;
  return -k9 * a2 * a2 + 3.0 * k7 * a2 * alpha - 3.0 * k5 * a2 + k - sigmaMax;
}

double softCapAlphaStar(double sigmaMax, double lr, double weightDecay, double updateNorm) {
  requireFinite(sigmaMax, "sigma_max", true);
  requireFinite(lr, "lr", false);
  requireFinite(weightDecay, "weight decay", false);
  if (updateNorm < 0.0) updateNorm = lr;
  requireFinite(updateNorm, "update norm", false);
  if (weightDecay * lr >= 1.0)
    throw std::invalid_argument("weight decay times lr must be < 1 (the decay factor 1 - lambda*lr would be <= 0)");
  const double k = softCapWorstCaseK(sigmaMax, lr, weightDecay, updateNorm);
  if (k <= sigmaMax) return 0.0;
  // With t = alpha k^2 the equation reads f(t) = (1 - t)(1 + t (1 - t)^2) = sigmaMax / k.
  // f(0) = 1, f(1) = 0 and f'(t) = -t (4t^2 - 9t + 6) < 0 for t > 0 (negative discriminant),
  // so the smallest non-negative root is the unique root in (0, 1): bisect, then Newton.
  const double target = sigmaMax / k;
  auto f = [](double t) { const double u = 1.0 - t; return u * (1.0 + t * u * u); };
  double lo = 0.0, hi = 1.0;
  for (int i = 0; i < 200 && hi - lo > 1e-17; ++i) {
    const double mid = 0.5 * (lo + hi);
    (f(mid) > target ? lo : hi) = mid;
  }
  double t = 0.5 * (lo + hi);
  for (int i = 0; i < 3; ++i) {
    const double df = -t * (4.0 * t * t - 9.0 * t + 6.0);
    if (df == 0.0) break;
    const double next = t - (f(t) - target) / df;
    if (next > 0.0 && next < 1.0) t = next;
  }
  return t / (k * k);
}

double clippedWeightDecayEquilibrium(double beta, double lambda, double lr, DecayOrder order) {
  requireFinite(beta, "beta", false);
  requireFinite(lr, "lr", false);
  if (!(lambda > 0.0 && lambda <= 1.0)) throw std::invalid_argument("lambda must be in (0, 1]");
  return order == DecayOrder::UpdateThenProject ? beta + (1.0 - lambda) / lambda * lr
                                                : beta + lr / lambda;
}

}  // namespace lwb::spectral
