// Adversarial and certified robustness of a classifier (000 §3.3, Fig. 3; SEEDS §E):
// accuracy and mean probability of the correct class under an untargeted PGD-l2 attack, and
// accuracy certified by the Lipschitz bound, at each l2 radius eps of the input.
#pragma once

#include "data/dataset.h"
#include "models/model.h"
#include "run/robustness_types.h"

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace lwb::run {

// bound * sqrt(numClasses / inputDim): 000 §3.1's conversion of an RMS->RMS constant.
double l2FromRmsBound(double rmsBound, int64_t inputDim, int64_t numClasses);

// Untargeted PGD-l2 on the cross-entropy (SEEDS §E): start uniformly in the eps-ball, then
// `steps` steps of size stepSize along the l2-normalised gradient, each followed by the
// projection onto ||delta||_2 <= eps and the clamp of x + delta to [0, 1] (which keeps
// ||delta|| <= eps: it moves every coordinate towards x). `visit(xAdv)` sees the start and
// every iterate. inputs [B, D] in [0, 1], targets [B].
void pgdL2(models::Model& model, const at::Tensor& inputs, const at::Tensor& targets, double eps, int steps,
           double stepSize, at::Generator& gen, const std::function<void(const at::Tensor&)>& visit);

// Robustness of `model` on examples [B, D] in [0, 1] with labels [B]. `progress(done,
// total)` is called after every (eps, batch) and returns false to cancel (then throws
// lwb::Cancelled, common/cancel.h). InputError for an empty or non-increasing eps list, negative eps, bad steps.
RobustnessResult evaluateRobustness(models::Model& model, const at::Tensor& inputs, const at::Tensor& targets,
                                    double rmsBound, const RobustnessOptions& options,
                                    const std::function<bool(int64_t, int64_t)>& progress = {});

// Checks an eps list: non-empty, finite, >= 0, strictly increasing. InputError otherwise.
void validateEps(const std::vector<double>& eps);

// The examples robustness is measured on: the LAST `count` examples of the dataset's
// validation split, so that they are disjoint from the trainer's validation examples (the
// first eval_batches * batch_size of that split) whenever the split is large enough.
// `heldOut` tells whether they are disjoint. InputError when count < 1 or > the split.
struct HeldOutExamples {
  at::Tensor inputs, targets;
  int64_t first = 0, count = 0, splitSize = 0;
  bool heldOut = false;
};
HeldOutExamples robustnessExamples(const data::Dataset& dataset, int64_t count, int64_t trainerValExamples);

}  // namespace lwb::run
