// Modular arithmetic (grokking): every pair (a, b) in [0, p)^2 labelled (a op b) mod p.
#include "data/array_dataset.h"

#include <ATen/ops/empty.h>

#include <cmath>
#include <random>
#include <utility>

namespace lwb::data {
namespace {

[[noreturn]] void fail(const std::string& msg) { throw InputError("modular dataset: " + msg); }

// Uniform in [0, n) without modulo bias: accept only x >= 2^64 mod n, so the accepted
// range holds a whole number of copies of [0, n).
uint64_t uniformBelow(std::mt19937_64& rng, uint64_t n) {
  const uint64_t threshold = (0 - n) % n;
  uint64_t x = rng();
  while (x < threshold) x = rng();
  return x % n;
}

}  // namespace

std::unique_ptr<Dataset> makeModularDataset(ModularOp op, int64_t p, double trainFraction, uint64_t seed) {
  if (p < 2 || p > 1000) fail("modulus p = " + std::to_string(p) + " must be in 2..1000");
  if (!(trainFraction > 0.0 && trainFraction < 1.0))
    fail("train fraction " + std::to_string(trainFraction) + " must be in (0, 1)");
  const int64_t n = p * p;
  const auto nTrain = static_cast<int64_t>(std::floor(static_cast<double>(n) * trainFraction));
  if (nTrain < 1 || nTrain >= n)
    fail("train fraction " + std::to_string(trainFraction) + " of " + std::to_string(n) +
         " pairs leaves a split empty");

  // Fisher-Yates with mt19937_64, whose output the C++ standard fixes: the split for a
  // seed is the same on every platform and LibTorch version (at::randperm is not promised
  // to be), so a run's seed reproduces its split anywhere.
  std::vector<int64_t> order(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) order[i] = i;
  std::mt19937_64 rng(seed);
  for (int64_t i = n - 1; i > 0; --i)
    std::swap(order[i], order[uniformBelow(rng, static_cast<uint64_t>(i + 1))]);

  Examples all{at::empty({n, 2}, at::kLong), at::empty({n}, at::kLong)};
  int64_t* ab = all.inputs.data_ptr<int64_t>();
  int64_t* y = all.targets.data_ptr<int64_t>();
  for (int64_t i = 0; i < n; ++i) {
    const int64_t a = order[i] / p, b = order[i] % p;
    ab[2 * i] = a;
    ab[2 * i + 1] = b;
    y[i] = op == ModularOp::Addition ? (a + b) % p : (a * b) % p;
  }
  auto [train, val] = splitExamples(all, nTrain);
  return std::make_unique<ArrayDataset>(
      train, val, p,
      "modular: (a " + std::string(op == ModularOp::Addition ? "+" : "*") + " b) mod " +
          std::to_string(p) + ", " + std::to_string(nTrain) + " train / " + std::to_string(n - nTrain) +
          " val pairs, seed " + std::to_string(seed));
}

}  // namespace lwb::data
