// The plain values of the robustness evaluation (run/robustness.h), without LibTorch, so that
// the app's Robustness page can hold them.
#pragma once

#include <cstdint>
#include <vector>

namespace lwb::run {

struct RobustnessOptions {
  std::vector<double> eps{0, 0.25, 0.5, 1, 1.5, 2, 3};  // l2 radii in input units (pixels in [0, 1])
  int attackSteps = 50;
  double stepFactor = 2.5;  // PGD step size = stepFactor * eps / attackSteps
  uint64_t seed = 0;
  int64_t batchSize = 250;
};

struct RobustnessPoint {
  double eps = 0;
  double pgdAcc = 0;        // correct at x and at every PGD iterate inside the eps-ball
  double certifiedAcc = 0;  // correct with margin > sqrt(2) l2Bound eps (Tsuzuku et al. 2018)
  double meanPCorrect = 0;  // mean over examples of the smallest p_correct the attack found
  bool operator==(const RobustnessPoint&) const = default;
};

struct RobustnessResult {
  int64_t examples = 0;
  double cleanAcc = 0;
  double bound = 0;    // RMS->RMS Lipschitz bound of the logit map
  double l2Bound = 0;  // bound * sqrt(d_out / d_in): the l2->l2 constant
  std::vector<RobustnessPoint> points;
};

}  // namespace lwb::run
