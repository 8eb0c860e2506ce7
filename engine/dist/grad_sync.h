// Gradient averaging for data-parallel training (issue 28). The C++ frontend has no DDP, so:
// each rank scales its gradients by its share of the global batch (b_r / B), the gradients are
// flattened into buckets (one copy per bucket instead of one collective per tensor), SUM
// all-reduced, and copied back. Every rank then holds sum_r (b_r / B) g_r, the gradient of the
// mean loss over the whole global batch, and takes the same optimizer step.
#pragma once

#include "dist/communicator.h"
#include "models/model.h"

#include <vector>

namespace lwb::dist {

// Bucket size in elements (4 M float32 = 16 MiB): large enough that the per-collective latency
// is amortised, small enough not to double the memory of large models at once.
inline constexpr int64_t kBucketElements = int64_t{1} << 22;

// The rows [first, first + count) of a global batch of `globalRows` that `rank` of `size` takes:
// contiguous, sizes differ by at most one, rank order.
struct Share {
  int64_t first = 0, count = 0;
};
Share shareOf(int64_t globalRows, int rank, int size);

// In place on every parameter's .grad() (parameters without a gradient are skipped on every
// rank alike: the same model and loss give the same set).
void averageGradients(std::vector<models::Param>& params, Communicator& comm, double localShare);

// Rank 0's values into every rank's parameters (the run starts from one set of weights).
void broadcastParameters(std::vector<models::Param>& params, Communicator& comm);

}  // namespace lwb::dist
