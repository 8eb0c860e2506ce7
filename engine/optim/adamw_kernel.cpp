#include "optim/adamw_kernel.h"

#include <cmath>

namespace lwb::optim {

// Built twice on x86-64 (AVX2+FMA and the baseline); the loader picks the one the CPU runs.
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target_clones("arch=x86-64-v3", "default")))
#endif
void adamwUpdate(float* __restrict w, const float* __restrict g, float* __restrict m, float* __restrict v, int64_t begin,
                 int64_t end, const AdamScalars& s) {
  const float decay = s.decay, b1 = s.beta1, b2 = s.beta2, a1 = 1.0f - s.beta1, a2 = 1.0f - s.beta2;
  const float sqrtC2 = s.sqrtC2, eps = s.eps, scale = s.stepScale;
  for (int64_t i = begin; i < end; ++i) {
    const float gi = g[i];
    const float mi = m[i] * b1 + a1 * gi;
    const float vi = v[i] * b2 + a2 * (gi * gi);
    m[i] = mi;
    v[i] = vi;
    w[i] = w[i] * decay + scale * (mi / (std::sqrt(vi) / sqrtC2 + eps));
  }
}

}  // namespace lwb::optim
