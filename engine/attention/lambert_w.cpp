// Lambert W₀ by Halley's iteration (no library in Debian's C++ stack offers it without
// pulling in Boost.Math for one function; docs/DESIGN.md "Seed 004").
#include "attention/lambert_w.h"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace lwb::attention {

double lambertW0(double x) {
  constexpr double e = 2.718281828459045235360287;
  const double branch = -1.0 / e;
  if (std::isnan(x) || x < branch - 1e-16) throw std::invalid_argument("lambertW0: x must be >= -1/e");
  if (std::isinf(x)) return x;
  if (x <= branch) return -1.0;
  if (x == 0) return 0.0;
  // Starting points: series at the branch point, log1p near 0, asymptotic log x − log log x.
  double w;
  if (x < -0.25) {
    const double p = std::sqrt(2.0 * (e * x + 1.0));
    w = -1.0 + p - p * p / 3.0 + 11.0 / 72.0 * p * p * p;
  } else if (x < 3.0) {
    w = std::log1p(x);
    w = w * (1.0 - std::log1p(w) / (2.0 + w));
  } else {
    const double l = std::log(x);
    w = l - std::log(l);
  }
  for (int i = 0; i < 100; ++i) {
    const double ew = std::exp(w);
    const double f = w * ew - x;
    const double wp1 = w + 1.0;
    if (wp1 == 0) break;  // exactly at the branch point
    const double step = f / (ew * wp1 - (w + 2.0) * f / (2.0 * wp1));
    w -= step;
    if (std::abs(step) <= 4 * std::numeric_limits<double>::epsilon() * (1.0 + std::abs(w))) break;
  }
  return w;
}

double l2BoundTokenFactor(int64_t tokens, double headDim) {
  if (tokens < 1 || !(headDim > 0) || !std::isfinite(headDim))
    throw std::invalid_argument("l2BoundTokenFactor: needs tokens >= 1 and d_h > 0");
  constexpr double e = 2.718281828459045235360287;
  const double n = static_cast<double>(tokens);
  return std::sqrt(n) / std::sqrt(headDim) * (4.0 * lambertW0((n - 1.0) / e) + 1.0);
}

}  // namespace lwb::attention
