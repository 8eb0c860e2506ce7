// The icl_least_squares task's settings (data/icl_least_squares.h builds the dataset). No
// LibTorch: the task registry's dataset request carries it.
#pragma once

#include <cstdint>

namespace lwb::data {

struct IclConfig {
  int64_t pairs = 64;        // T
  int64_t dim = 5;           // D
  bool xFirst = false;       // false: each sequence's order is random (faithful), true: x then y
  double noise = 0.01;       // std of the training input noise on x-tokens (targets stay clean)
  double maxCond = 1e3;      // redraw X when σ_max / σ_min exceeds this
  bool biasFeature = true;   // constant 1 as the last token entry
  int64_t valSequences = 512;
  uint64_t seed = 0;         // validation set
};

}  // namespace lwb::data
