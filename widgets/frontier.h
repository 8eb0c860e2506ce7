// The paper's Figure 2 frontier: among runs with a Lipschitz bound in the same log-spaced
// bin, the one with the best validation loss.
#pragma once

#include <cstddef>
#include <vector>

namespace lwb::widgets {

// Bins are [10^(k/b), 10^((k+1)/b)) for integer k, b = binsPerDecade (>= 1; smaller is
// treated as 1). Returns the index of the best point of each non-empty bin, ordered by x:
// best = smallest y (largest when lowerIsBetter is false); ties keep the first index.
// Points with x <= 0 or a non-finite x or y are skipped.
std::vector<std::size_t> bestPerLogBin(const std::vector<double>& xs, const std::vector<double>& ys,
                                       int binsPerDecade = 4, bool lowerIsBetter = true);

}  // namespace lwb::widgets
