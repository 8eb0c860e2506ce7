#include "widgets/log_histogram.h"

#include <algorithm>
#include <cmath>

namespace lwb::widgets {

LogHistogram logHistogram(const std::vector<double>& values, int bins) {
  bins = std::max(1, bins);
  std::vector<double> kept;
  kept.reserve(values.size());
  for (double v : values)
    if (v > 0 && std::isfinite(v)) kept.push_back(v);
  LogHistogram h;
  if (kept.empty()) return h;
  const auto [minIt, maxIt] = std::minmax_element(kept.begin(), kept.end());
  double lo = *minIt, hi = *maxIt;
  if (lo == hi) {
    lo /= 1.1;
    hi *= 1.1;
    bins = 1;
  }
  const double logLo = std::log10(lo), logHi = std::log10(hi);
  const double step = (logHi - logLo) / bins;
  h.edges.resize(static_cast<std::size_t>(bins) + 1);
  for (int i = 0; i <= bins; ++i) h.edges[static_cast<std::size_t>(i)] = std::pow(10.0, logLo + step * i);
  // Exact end points, so min and max fall inside despite pow's rounding.
  h.edges.front() = lo;
  h.edges.back() = hi;
  h.counts.assign(static_cast<std::size_t>(bins), 0.0);
  for (double v : kept) {
    // upper_bound finds the first edge > v; the bin is the one before it. v == hi -> last bin.
    auto it = std::upper_bound(h.edges.begin(), h.edges.end(), v);
    auto bin = static_cast<std::size_t>(std::distance(h.edges.begin(), it));
    bin = bin == 0 ? 0 : std::min<std::size_t>(bin - 1, static_cast<std::size_t>(bins) - 1);
    h.counts[bin] += 1;
  }
  const double n = static_cast<double>(kept.size());
  for (std::size_t i = 0; i < h.counts.size(); ++i) {
    h.centres.push_back(std::sqrt(h.edges[i] * h.edges[i + 1]));
    h.density.push_back(h.counts[i] / (n * (h.edges[i + 1] - h.edges[i])));
  }
  return h;
}

}  // namespace lwb::widgets
