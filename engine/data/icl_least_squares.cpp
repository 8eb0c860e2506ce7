#include "data/icl_least_squares.h"

#include "common/torch_compat.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/TensorOperators.h>
#include <ATen/ops/arange.h>
#include <ATen/ops/bernoulli.h>
#include <ATen/ops/cat.h>
#include <ATen/ops/gather.h>
#include <ATen/ops/ones.h>
#include <ATen/ops/randn.h>
#include <ATen/ops/stack.h>
#include <ATen/ops/where.h>
#include <ATen/ops/zeros.h>

#include <cmath>
#include <limits>

namespace lwb::data {
namespace {

[[noreturn]] void fail(const std::string& msg) { throw InputError("icl_least_squares: " + msg); }

// X [n, T, D] with every sequence's 2-norm condition number ≤ maxCond (redrawn otherwise).
at::Tensor wellConditionedX(const IclConfig& c, int64_t n, at::Generator& gen) {
  const auto f32 = at::TensorOptions().dtype(at::kFloat);
  auto x = at::randn({n, c.pairs, c.dim}, gen, f32);
  for (int round = 0; round < 1000; ++round) {
    const auto s = compat::svdvals(x);
    const auto bad = (s.select(-1, 0) > s.select(-1, -1) * c.maxCond).nonzero().flatten();
    if (bad.numel() == 0) return x;
    x.index_put_({bad}, at::randn({bad.numel(), c.pairs, c.dim}, gen, f32));
  }
  fail("could not draw inputs with condition number <= " + std::to_string(c.maxCond));
}

class IclDataset final : public Dataset {
 public:
  explicit IclDataset(const IclConfig& c) : c_(c) {
    auto gen = at::make_generator<at::CPUGeneratorImpl>(c.seed ^ 0x1c1u);
    // The validation set is drawn once, without the training input noise.
    val_ = sampleIcl(c_, c_.valSequences, gen, /*withNoise=*/false);
  }
  Batch sample(Split split, int64_t batchSize, at::Generator& gen) const override {
    if (split == Split::Val) return slice(Split::Val, 0, batchSize);
    return sampleIcl(c_, batchSize, gen);
  }
  Batch slice(Split, int64_t start, int64_t count) const override {
    start = std::clamp<int64_t>(start, 0, c_.valSequences);
    count = std::clamp<int64_t>(count, 0, c_.valSequences - start);
    return {val_.inputs.narrow(0, start, count), val_.targets.narrow(0, start, count),
            val_.positions.narrow(0, start, count)};
  }
  // Training draws fresh data every step: there is no finite training set.
  int64_t size(Split split) const override {
    return split == Split::Val ? c_.valSequences : std::numeric_limits<int64_t>::max();
  }
  int64_t numClasses() const override { return c_.dim; }
  int64_t inputDim() const override { return iclTokenDim(c_); }
  std::string describe() const override {
    return "icl_least_squares: T = " + std::to_string(c_.pairs) + " pairs of dimension " + std::to_string(c_.dim) +
           (c_.xFirst ? ", x first" : ", random order") + ", fresh batches every step";
  }

 private:
  IclConfig c_;
  Batch val_;
};

}  // namespace

int64_t iclTokenDim(const IclConfig& c) { return 2 + 2 * c.dim + (c.biasFeature ? 1 : 0); }

Batch sampleIcl(const IclConfig& c, int64_t b, at::Generator& gen, bool withNoise) {
  const auto f32 = at::TensorOptions().dtype(at::kFloat);
  const int64_t t = c.pairs, d = c.dim, tok = iclTokenDim(c);
  const auto x = wellConditionedX(c, b, gen);
  const auto w = at::randn({b, d, d}, gen, f32) * (1.0 / std::sqrt(static_cast<double>(d)));
  const auto y = x.matmul(w);
  // Order flag per sequence: 1 = y first (the x-token then sits at 2t + 1).
  const auto flag = c.xFirst ? at::zeros({b}, f32) : at::bernoulli(at::zeros({b}, f32) + 0.5, gen);
  const auto noisy = withNoise && c.noise > 0 ? x + at::randn({b, t, d}, gen, f32) * c.noise : x;

  auto xTok = at::zeros({b, t, tok}, f32), yTok = at::zeros({b, t, tok}, f32);
  xTok.select(-1, 0).fill_(1.0);
  yTok.select(-1, 1).fill_(1.0);
  xTok.narrow(-1, 2, d).copy_(noisy);
  yTok.narrow(-1, 2 + d, d).copy_(y);
  if (c.biasFeature) {
    xTok.select(-1, tok - 1).fill_(1.0);
    yTok.select(-1, tok - 1).fill_(1.0);
  }
  const auto yFirst = flag.view({b, 1, 1}) > 0.5;
  const auto first = at::where(yFirst, yTok, xTok), second = at::where(yFirst, xTok, yTok);
  Batch out;
  out.inputs = at::stack({first, second}, 2).reshape({b, 2 * t, tok});
  out.targets = y;
  out.positions = at::arange(t, at::kLong).mul(2).unsqueeze(0) + flag.to(at::kLong).unsqueeze(1);
  return out;
}

at::Tensor iclLoss(const at::Tensor& outputs, const Batch& batch) {
  const auto& pos = batch.positions;
  const auto idx = pos.to(outputs.device()).unsqueeze(-1).expand({pos.size(0), pos.size(1), outputs.size(-1)});
  const auto atX = at::gather(outputs, 1, idx);
  return (atX - batch.targets.to(outputs.device())).square().sum(-1).mean();
}

std::unique_ptr<Dataset> makeIclDataset(const IclConfig& c) {
  if (c.pairs < 1 || c.pairs > 100000) fail("icl.pairs must be in 1..100000");
  if (c.dim < 1 || c.dim > 1024) fail("icl.dim must be in 1..1024");
  if (c.dim > c.pairs) fail("icl.dim (" + std::to_string(c.dim) + ") must not exceed icl.pairs (" + std::to_string(c.pairs) + ")");
  if (!(c.noise >= 0) || !std::isfinite(c.noise)) fail("icl.noise must be >= 0");
  if (!(c.maxCond >= 1)) fail("icl.max_cond must be >= 1");
  return std::make_unique<IclDataset>(c);
}

}  // namespace lwb::data
