// Seed 004 (issue 15): the forward cost of AttLip against standard attention, measured side
// by side so the ratios hold on a busy machine. d 64, H 4 (d_h 16), float32, x ~ N(0, 1):
//  1. standard multi-head softmax attention;
//  2. AttLip with K = 3 Armijo steps (the training setting of 004 §5.2);
//  3. AttLip to tolerance, ‖g‖ ≤ 1e−6·‖g⁰‖ (at most 1000 steps);
// the three alternate within every repetition and medians are printed; then the steps the
// prox needs for ‖g‖ ≤ 1e−6 (absolute, float64) vs N.
//
//   lwb-bench-attention [--reps R] [--threads T] [--max-tokens N]
#include "attention/attlip.h"
#include "attention/standard_attention.h"
#include "bench_timing.h"
#include "common/threads.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/TensorOperators.h>
#include <ATen/core/grad_mode.h>
#include <ATen/ops/randn.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

using namespace lwb;
using bench::median;
using bench::seconds;

namespace {


}  // namespace

int main(int argc, char** argv) {
  int reps = 5, threads = 0, maxTokens = 1024;
  for (int i = 1; i + 1 < argc; ++i) {
    if (!std::strcmp(argv[i], "--reps")) reps = std::max(1, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--threads")) threads = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--max-tokens")) maxTokens = std::atoi(argv[++i]);
  }
  setIntraOpThreads(threads);
  at::NoGradGuard ng;
  const int64_t d = 64, h = 4;
  const auto wAtt = attention::attlipInitWeights(d, h, 0, at::kFloat);
  const auto wStd = attention::standardAttentionInit(d, h, 0, at::kFloat);
  auto gen = at::make_generator<at::CPUGeneratorImpl>(1);

  std::printf("d %lld, H %lld, float32, median of %d alternating repeats\n", static_cast<long long>(d),
              static_cast<long long>(h), reps);
  std::printf("%6s %12s %12s %12s %9s %9s %7s %11s\n", "N", "standard_ms", "attlipK3_ms", "attlipTol_ms", "K3/std",
              "tol/std", "steps", "residual");
  for (int64_t n = 64; n <= maxTokens; n *= 2) {
    const auto x = at::randn({n, d}, gen, at::TensorOptions().dtype(at::kFloat));
    attention::ProxOptions k3;
    k3.maxSteps = 3;
    attention::ProxOptions tol;
    tol.maxSteps = 1000;
    tol.relTolerance = 1e-6;
    std::vector<double> tStd, tK3, tTol;
    attention::ProxResult last;
    for (int r = 0; r < reps; ++r) {
      tStd.push_back(seconds([&] { attention::standardAttention(x, wStd); }));
      tK3.push_back(seconds([&] { attention::attlipProx(x, wAtt, k3); }));
      tTol.push_back(seconds([&] { last = attention::attlipProx(x, wAtt, tol); }));
    }
    const double s = median(tStd), a3 = median(tK3), at = median(tTol);
    std::printf("%6lld %12.3f %12.3f %12.1f %9.1f %9.1f %7d %11.3g\n", static_cast<long long>(n), 1e3 * s, 1e3 * a3,
                1e3 * at, a3 / s, at / s, last.steps, last.residual);
    std::fflush(stdout);
  }

  std::printf("\nprox steps for ‖g‖ ≤ 1e-6 (absolute, float64, Armijo, λ_init = η = 1), x ~ N(0, 1)\n");
  std::printf("%6s %7s %11s %11s\n", "N", "steps", "‖g⁰‖", "residual");
  const auto w64 = wAtt.to(at::kDouble);
  for (int64_t n = 64; n <= maxTokens; n *= 2) {
    const auto x = at::randn({n, d}, gen, at::TensorOptions().dtype(at::kDouble));
    attention::ProxOptions o;
    o.maxSteps = 2000;
    o.tolerance = 1e-6;
    o.recordTrace = true;
    const auto r = attention::attlipProx(x, w64, o);
    std::printf("%6lld %7d %11.3g %11.3g\n", static_cast<long long>(n), r.steps, r.residualTrace.front(), r.residual);
    std::fflush(stdout);
  }
  return 0;
}
