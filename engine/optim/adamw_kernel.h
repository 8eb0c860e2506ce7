#pragma once

#include <cstdint>

namespace lwb::optim {

// One AdamW update of n float32 values in a single pass (torch-free). The step as LibTorch
// in-place ops reads and writes w, m and v six to eight times (decay, two EMAs, sqrt, scale,
// +eps, addcdiv); this loop reads w, g, m, v once and writes w, m, v once. A 784x256 MNIST
// layer's four tensors (3.2 MB) do not stay in cache between those passes, so the update is
// memory-bound and the pass count is its cost (docs/BENCHMARKS.md, "Issue 17").
struct AdamScalars {
  float decay = 1;          // w *= decay first (decoupled weight decay; 1 = none)
  float beta1 = 0.9f, beta2 = 0.999f;
  float sqrtC2 = 1;         // sqrt of the second moment's bias correction
  float eps = 1e-8f;
  float stepScale = 0;      // -eta / c1
};

// For i in [begin, end): w = w*decay; m = beta1 m + (1-beta1) g; v = beta2 v + (1-beta2) g^2;
// w += stepScale * m / (sqrt(v) / sqrtC2 + eps): the same formulas, in the same order, as
// AdamState's LibTorch path (optim/adamw.cpp), so results differ only by rounding.
void adamwUpdate(float* w, const float* g, float* m, float* v, int64_t begin, int64_t end, const AdamScalars& s);

}  // namespace lwb::optim
