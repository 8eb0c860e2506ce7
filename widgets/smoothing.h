// Exponential moving average with bias correction, exactly as TensorBoard's scalar
// dashboard smooths: last = w·last + (1−w)·y, shown as last / (1 − w^k) after k finite values,
// so the first points are not pulled towards 0.
#pragma once

#include <vector>

namespace lwb::widgets {

// weight in [0, 1): 0 returns ys unchanged; values outside are clamped to [0, 0.999].
// Non-finite values pass through unchanged and do not enter the average.
std::vector<double> emaSmooth(const std::vector<double>& ys, double weight);

}  // namespace lwb::widgets
