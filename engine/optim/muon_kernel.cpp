#include "optim/muon_kernel.h"

namespace lwb::optim {

// Built twice on x86-64 (AVX2+FMA and the baseline); the loader picks the one the CPU runs.
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target_clones("arch=x86-64-v3", "default")))
#endif
double muonMomentum(float* buf, const float* g, float* u, int64_t begin, int64_t end, float beta, bool nesterov) {
  const float keep = beta, take = 1.0f - beta;
  // Partial sums in 8 double lanes (the loop still vectorises), then one total.
  double lanes[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  int64_t i = begin;
  for (; i + 8 <= end; i += 8)
    for (int k = 0; k < 8; ++k) {
      const float gi = g[i + k];
      const float bi = keep * buf[i + k] + take * gi;
      buf[i + k] = bi;
      const float ui = nesterov ? take * gi + keep * bi : bi;
      u[i + k] = ui;
      lanes[k] += static_cast<double>(ui) * ui;
    }
  double total = 0;
  for (; i < end; ++i) {
    const float bi = keep * buf[i] + take * g[i];
    buf[i] = bi;
    const float ui = nesterov ? take * g[i] + keep * bi : bi;
    u[i] = ui;
    total += static_cast<double>(ui) * ui;
  }
  for (double l : lanes) total += l;
  return total;
}

}  // namespace lwb::optim
