// The robustness job on a saved classifier, as `lipschitz-cli robustness` and the app's
// Robustness page both run it (000 §3.3, Fig. 3): load a run's newest checkpoint (or a
// checkpoint file), check that it is an image classifier with a Lipschitz bound, take the
// held-out examples of its data, evaluate PGD-l2 and certified accuracy vs eps
// (run/robustness.h) and, when asked, attack one example at each eps for Fig. 3 left.
// No LibTorch in this header: the app holds its results.
#pragma once

#include "common/cancel.h"
#include "run/robustness_types.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace lwb::run {

struct CheckpointRobustnessRequest {
  std::string target;    // run directory (its newest checkpoint) or checkpoint file
  std::string dataPath;  // the data folder; empty: the run's data_path
  int64_t examples = 2000;  // the last N of the validation split (robustnessExamples)
  RobustnessOptions options;  // eps grid, attack steps, seed
  bool attackExample = false;  // also attack the first example at each eps (Fig. 3 left)
};

// One attacked example at one eps: the attack's worst point for the true label.
struct AttackedExample {
  double eps = 0;
  std::vector<float> pixels;  // in [0, 1]: 784 grey (MNIST) or 3072 in R, G, B planes (CIFAR-10)
  int64_t predicted = -1;     // class after the attack
  double pCorrect = 0;        // softmax probability of the true class there
};

struct CheckpointRobustness {
  std::string file;  // the checkpoint evaluated
  std::string task;
  int64_t step = 0;
  int64_t first = 0, count = 0, splitSize = 0;  // the examples: [first, first + count) of the val split
  bool heldOut = false;  // disjoint from the trainer's validation examples
  std::string sigmaMethod;  // how sigma1 of the matrices was bounded (bounds::toString of each method used)
  RobustnessResult result;
  int64_t label = -1;  // true class of the attacked example (attackExample)
  std::vector<AttackedExample> attacked;  // one per eps (attackExample)
};

// `progress(done, total)` after every (eps, batch) of the evaluation. Throws InputError (bad
// target, non-classifier task, no bound, missing data, bad eps or example count) and
// lwb::Cancelled (common/cancel.h) once `cancel` is set.
CheckpointRobustness robustnessOfCheckpoint(const CheckpointRobustnessRequest& request,
                                            const std::function<void(int64_t, int64_t)>& progress = {},
                                            const CancelFlag* cancel = nullptr);

}  // namespace lwb::run
