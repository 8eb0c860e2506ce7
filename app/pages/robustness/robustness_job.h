// The Robustness page's computation on a worker thread: the engine's robustness job
// (engine/run/robustness_job.h, the one `lipschitz-cli robustness` runs) on one target, its
// results in the page's Qt types. No LibTorch here.
#pragma once

#include "common/cancel.h"

#include <QImage>
#include <QString>

#include <cstdint>
#include <functional>
#include <vector>

namespace lwb::app::pages {

struct RobustnessRequest {
  std::vector<double> eps;
  int64_t examples = 500;
  int attackSteps = 50;
  uint64_t seed = 0;
};

struct RobustnessRow {
  double eps = 0, pgdAcc = 0, certifiedAcc = 0, meanPCorrect = 0;
};

// One attacked example at one eps of the grid (000 Fig. 3 left).
struct AttackedImage {
  double eps = 0;
  QImage image;       // 28x28 grey (MNIST) or 32x32 RGB (CIFAR-10)
  int predicted = -1;  // class after the attack
  double pCorrect = 0;
};

struct RobustnessOutcome {
  QString target;  // run directory or checkpoint file, as given
  QString file;    // the checkpoint evaluated
  QString task;
  int64_t step = 0, examples = 0;
  bool heldOut = false;
  double cleanAcc = 0, bound = 0, l2Bound = 0;
  QString sigmaMethod;
  std::vector<RobustnessRow> rows;
  int label = -1;  // true class of the attacked example
  std::vector<AttackedImage> images;
};

// progress(done, total) over the (eps, batch) steps of this target. Throws InputError (bad
// run, non-classifier task, missing data, bad eps), Cancelled when `cancel` is set.
RobustnessOutcome computeRobustness(const QString& target, const RobustnessRequest& request,
                                    const std::function<void(int64_t, int64_t)>& progress,
                                    const CancelFlag* cancel);

}  // namespace lwb::app::pages
