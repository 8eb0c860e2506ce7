// In-context least squares (seed 002 §4.1, App. 8.2; SEEDS-002-004 §B.1): every sequence has
// its own W ~ N(0, I/D) and T pairs (x_t, y_t = x_t W) shown as 2T tokens; the causal model
// must predict y_t at the x_t token. Fresh batches every step; a fixed validation set.
#pragma once

#include "data/dataset.h"
#include "data/icl_config.h"

namespace lwb::data {

// Token layout: [x_flag, y_flag, x (D), y (D), 1]; token dim 2 + 2D (+ 1).
int64_t iclTokenDim(const IclConfig& c);

// Batch fields: inputs [B, 2T, token dim] float32, targets [B, T, D] float32 (clean y),
// positions [B, T] int64 (the x-token index of each pair: 2t, or 2t + 1 in y-first sequences).
// numClasses() is D (the output size), inputDim() the token dim. InputError for bad settings.
std::unique_ptr<Dataset> makeIclDataset(const IclConfig& c);

// One batch drawn with `gen` (the generator behind sample()); exposed for tests.
Batch sampleIcl(const IclConfig& c, int64_t batchSize, at::Generator& gen, bool withNoise = true);

// L = mean over (b, t) of Σ_k (o[b, pos(b, t), k] − y[b, t, k])², outputs o [B, 2T, D].
at::Tensor iclLoss(const at::Tensor& outputs, const Batch& batch);

}  // namespace lwb::data
