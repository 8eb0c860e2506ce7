// Wall-clock helpers shared by the benchmarks: time one call, median of repeats.
#pragma once

#include <algorithm>
#include <chrono>
#include <functional>
#include <vector>

namespace lwb::bench {

inline double seconds(const std::function<void()>& f) {
  const auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace lwb::bench
