// Power iteration for the top singular triple sigma1 u1 v1^T (000 §3.1), with warm-start
// vectors that a training run carries from step to step.
#pragma once

#include <ATen/core/Tensor.h>
#include <cstdint>

namespace lwb::spectral {

// Persistent warm-start vectors. Empty until the first call; shapes [..., m] and [..., n]
// for W of shape [..., m, n]; kept in float32 (float64 for float64 weights) on W's device.
struct PowerIterationState {
  at::Tensor u;
  at::Tensor v;
  // Where a random start comes from: the global generator (0), or one seeded with `seed` alone,
  // so that the start depends on the matrix, not on the order of draws in the process (a
  // data-parallel run computes each matrix on one rank: the same start on whichever rank).
  uint64_t seed = 0;
  bool matches(const at::Tensor& w) const;
  // Uninitialised vectors of the shape and accumulate type matches(w) expects, for a state
  // that is filled from elsewhere (a checkpoint, another rank's broadcast).
  static PowerIterationState emptyFor(const at::Tensor& w);
};

struct TopSingular {
  at::Tensor sigma;  // [...]       estimate of sigma1 (a lower bound that tightens)
  at::Tensor u;      // [..., m]    unit left vector
  at::Tensor v;      // [..., n]    unit right vector
};

// Runs `iterations` alternating steps v <- W^T u / |.|, u <- W v / |.| starting from the
// state (random if empty or of the wrong shape/device) and writes the vectors back.
TopSingular powerIteration(const at::Tensor& w, PowerIterationState& state, int iterations);

}  // namespace lwb::spectral
