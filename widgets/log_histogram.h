// Density of positive values (singular values) on log-spaced bins, for a log-log density
// plot of a spectrum: heavy tails show as straight lines.
#pragma once

#include <vector>

namespace lwb::widgets {

struct LogHistogram {
  std::vector<double> edges;    // bins + 1 ascending edges, geometrically spaced
  std::vector<double> centres;  // geometric centres sqrt(e_i e_{i+1})
  std::vector<double> counts;   // values per bin (last bin includes its upper edge)
  std::vector<double> density;  // counts / (N · bin width): integrates to 1 over σ
};

// Values <= 0 or non-finite are ignored (N counts the rest). Edges span [min, max] of the
// kept values; all-equal values get one bin [v/1.1, v·1.1]. bins < 1 is treated as 1.
// Empty input (or nothing positive) gives an empty histogram.
LogHistogram logHistogram(const std::vector<double>& values, int bins = 30);

}  // namespace lwb::widgets
