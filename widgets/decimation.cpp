#include "widgets/decimation.h"

#include <algorithm>
#include <cmath>

namespace lwb::widgets {

XYData decimateMinMax(const std::vector<double>& xs, const std::vector<double>& ys, double xLower,
                      double xUpper, std::size_t columns, bool logX) {
  const std::size_t n = std::min(xs.size(), ys.size());
  XYData out;
  const bool usable = columns > 0 && xLower < xUpper && n > 2 * columns + 2 &&
                      std::is_sorted(xs.begin(), xs.begin() + static_cast<std::ptrdiff_t>(n)) &&
                      (!logX || xUpper > 0);
  if (!usable) {
    out.xs.assign(xs.begin(), xs.begin() + static_cast<std::ptrdiff_t>(n));
    out.ys.assign(ys.begin(), ys.begin() + static_cast<std::ptrdiff_t>(n));
    return out;
  }
  if (logX && xLower <= 0) xLower = xUpper * 1e-12;
  const double lo = logX ? std::log10(xLower) : xLower;
  const double hi = logX ? std::log10(xUpper) : xUpper;
  const double perColumn = static_cast<double>(columns) / (hi - lo);

  out.xs.reserve(2 * columns + 2);
  out.ys.reserve(2 * columns + 2);
  auto emit = [&](std::size_t i) {
    out.xs.push_back(xs[i]);
    out.ys.push_back(ys[i]);
  };

  // Visible points are [first, last); the neighbours outside keep lines entering/leaving.
  const auto first = static_cast<std::size_t>(std::lower_bound(xs.begin(), xs.begin() + static_cast<std::ptrdiff_t>(n), xLower) - xs.begin());
  const auto last = static_cast<std::size_t>(std::upper_bound(xs.begin(), xs.begin() + static_cast<std::ptrdiff_t>(n), xUpper) - xs.begin());
  if (first > 0) emit(first - 1);

  std::size_t i = first;
  while (i < last) {
    const double u = logX ? (xs[i] > 0 ? std::log10(xs[i]) : lo) : xs[i];
    const auto column = std::min(columns - 1, static_cast<std::size_t>(std::max(0.0, (u - lo) * perColumn)));
    std::size_t minI = n, maxI = n;
    std::size_t j = i;
    for (; j < last; ++j) {
      const double uj = logX ? (xs[j] > 0 ? std::log10(xs[j]) : lo) : xs[j];
      if (std::min(columns - 1, static_cast<std::size_t>(std::max(0.0, (uj - lo) * perColumn))) != column) break;
      if (!std::isfinite(ys[j])) continue;
      if (minI == n || ys[j] < ys[minI]) minI = j;
      if (maxI == n || ys[j] > ys[maxI]) maxI = j;
    }
    if (minI != n) {
      if (minI == maxI) {
        emit(minI);
      } else {
        emit(std::min(minI, maxI));
        emit(std::max(minI, maxI));
      }
    }
    i = j;
  }
  if (last < n) emit(last);
  return out;
}

}  // namespace lwb::widgets
