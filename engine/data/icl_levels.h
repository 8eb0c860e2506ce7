// Reference loss levels of the in-context least-squares task (seed 002 §4.1; derivation in
// SEEDS-002-004 §B.1), for plots to draw as labelled lines. No LibTorch.
#pragma once

#include "data/reference_level.h"

#include <cstdint>
#include <vector>

namespace lwb::data {

// With D = dim and T = pairs: predicting 0 costs D; in random order half the sequences show
// y_t right before x_t (a leak), so copying alone costs D/2; the noise-free Bayes floor
// (prior N(0, I/D), t−1 earlier pairs leave D − min(t−1, D)) is D(D+1)/2 / (2T) in random
// order and D(D+1)/2 / T with x first.
std::vector<ReferenceLevel> iclReferenceLevels(int64_t pairs, int64_t dim, bool xFirst);

}  // namespace lwb::data
