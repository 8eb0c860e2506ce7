#include "widgets/frontier.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace lwb::widgets {

std::vector<std::size_t> bestPerLogBin(const std::vector<double>& xs, const std::vector<double>& ys,
                                       int binsPerDecade, bool lowerIsBetter) {
  binsPerDecade = std::max(1, binsPerDecade);
  const std::size_t n = std::min(xs.size(), ys.size());
  std::map<long long, std::size_t> best;  // bin -> index, bins ascend with x
  for (std::size_t i = 0; i < n; ++i) {
    if (!(xs[i] > 0) || !std::isfinite(xs[i]) || !std::isfinite(ys[i])) continue;
    // The small epsilon puts exact powers (x = 10, b = 4 -> 4.0) in the bin they start,
    // not in the one below because log10 rounded to 3.9999999999999996.
    const auto bin = static_cast<long long>(std::floor(std::log10(xs[i]) * binsPerDecade + 1e-9));
    auto it = best.find(bin);
    if (it == best.end()) {
      best.emplace(bin, i);
    } else {
      const bool better = lowerIsBetter ? ys[i] < ys[it->second] : ys[i] > ys[it->second];
      if (better) it->second = i;
    }
  }
  std::vector<std::size_t> out;
  out.reserve(best.size());
  for (const auto& [bin, index] : best) out.push_back(index);
  // Within the map order bins ascend; order by x inside the result as documented.
  std::stable_sort(out.begin(), out.end(), [&](std::size_t a, std::size_t b) { return xs[a] < xs[b]; });
  return out;
}

}  // namespace lwb::widgets
