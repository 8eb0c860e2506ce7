// PGD-l2 attack and Lipschitz certificates for classifiers (000 §3.3, Fig. 3; SEEDS §E).
#include "run/robustness.h"

#include "common/cancel.h"
#include "io/json_fields.h"
#include "io/input_error.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/TensorOperators.h>
#include <ATen/core/grad_mode.h>
#include <ATen/ops/cat.h>
#include <ATen/ops/clamp.h>
#include <ATen/ops/clamp_max.h>
#include <ATen/ops/clamp_min.h>
#include <ATen/ops/exp.h>
#include <ATen/ops/gather.h>
#include <ATen/ops/log_softmax.h>
#include <ATen/ops/minimum.h>
#include <ATen/ops/pow.h>
#include <ATen/ops/rand.h>
#include <ATen/ops/randn.h>
#include <ATen/ops/topk.h>

#include <cmath>
#include <string>

namespace lwb::run {
namespace {

// ||z_b||_2 per row, as a column [B, 1] (clamped away from 0 for divisions).
at::Tensor rowNorm(const at::Tensor& z) { return z.square().sum(1, true).sqrt(); }

// Projection onto the eps-ball, then onto the box: x + delta in [0, 1].
at::Tensor project(const at::Tensor& x, const at::Tensor& delta, double eps) {
  const auto scale = at::clamp_max(eps / rowNorm(delta).clamp_min(1e-30), 1.0);
  return at::clamp(x + delta * scale, 0.0, 1.0) - x;
}

at::Tensor logProbCorrect(models::Model& model, const at::Tensor& x, const at::Tensor& targets) {
  return at::log_softmax(model.forward(x), 1).gather(1, targets.unsqueeze(1)).squeeze(1);
}

}  // namespace

double l2FromRmsBound(double rmsBound, int64_t inputDim, int64_t numClasses) {
  return rmsBound * std::sqrt(static_cast<double>(numClasses) / static_cast<double>(inputDim));
}

// The largest radius accepted (pixel units), far above any two images' distance.
constexpr double kMaxEps = 1000;

void validateEps(const std::vector<double>& eps) {
  if (eps.empty()) throw InputError("eps: the list is empty");
  for (size_t i = 0; i < eps.size(); ++i) {
    if (!std::isfinite(eps[i]) || eps[i] < 0)
      throw InputError("eps: " + fields::numberText(eps[i]) + " is not a finite radius >= 0");
    // An ℓ2 radius in pixel units: no two images in [0, 1]^3072 are farther apart than √3072
    // ≈ 55; 1e308 would only overflow the certificate's arithmetic.
    if (eps[i] > kMaxEps)
      throw InputError("eps: " + fields::numberText(eps[i]) + " is larger than " + fields::numberText(kMaxEps) +
                       " (an ℓ2 radius in pixel units; images are at most √3072 ≈ 55 apart)");
    if (i > 0 && !(eps[i] > eps[i - 1])) throw InputError("eps: the list must be strictly increasing");
  }
}

void pgdL2(models::Model& model, const at::Tensor& x, const at::Tensor& targets, double eps, int steps,
           double stepSize, at::Generator& gen, const std::function<void(const at::Tensor&)>& visit) {
  if (eps <= 0) {
    visit(x);
    return;
  }
  const int64_t d = x.size(1);
  // Uniform in the ball: Gaussian direction, radius eps * U^(1/d).
  const auto dir = at::randn(x.sizes(), gen, x.options());
  const auto radius = eps * at::pow(at::rand({x.size(0), 1}, gen, x.options()), 1.0 / static_cast<double>(d));
  auto delta = project(x, dir / rowNorm(dir).clamp_min(1e-30) * radius, eps);
  for (int s = 0;; ++s) {
    at::Tensor xAdv;
    at::Tensor grad;
    {
      at::AutoGradMode enable(true);
      auto leaf = delta.detach().requires_grad_(true);
      xAdv = x + leaf;
      // Untargeted: ascend the cross-entropy = -log p_correct.
      const auto loss = -logProbCorrect(model, xAdv, targets).sum();
      if (s < steps) {
        const std::vector<at::Tensor> inputs{leaf};
        loss.backward({}, {}, false, at::TensorList(inputs));
        grad = leaf.grad();
      }
    }
    visit(xAdv.detach());
    if (s >= steps || !grad.defined()) break;
    delta = project(x, delta + stepSize * grad / rowNorm(grad).clamp_min(1e-30), eps);
  }
}

RobustnessResult evaluateRobustness(models::Model& model, const at::Tensor& inputs, const at::Tensor& targets,
                                    double rmsBound, const RobustnessOptions& o,
                                    const std::function<bool(int64_t, int64_t)>& progress) {
  validateEps(o.eps);
  if (o.attackSteps < 1) throw InputError("attack steps must be >= 1");
  if (o.batchSize < 1) throw InputError("batch size must be >= 1");
  if (inputs.dim() != 2 || targets.dim() != 1 || inputs.size(0) != targets.size(0) || inputs.size(0) < 1)
    throw InputError("robustness needs examples [N, D] with N >= 1 labels");
  if (!std::isfinite(rmsBound) || rmsBound < 0) throw InputError("robustness needs a finite Lipschitz bound >= 0");
  at::NoGradGuard noGrad;
  const int64_t n = inputs.size(0);
  const int64_t classes = model.forward(inputs.narrow(0, 0, 1)).size(1);
  RobustnessResult r;
  r.examples = n;
  r.bound = rmsBound;
  r.l2Bound = l2FromRmsBound(rmsBound, inputs.size(1), classes);

  // Clean pass: accuracy and the margin top1 - runner-up of correctly classified examples.
  std::vector<at::Tensor> correct, margin;
  for (int64_t b = 0; b < n; b += o.batchSize) {
    const int64_t m = std::min(o.batchSize, n - b);
    const auto logits = model.forward(inputs.narrow(0, b, m));
    const auto top = at::topk(logits, 2, 1);
    const auto values = std::get<0>(top), idx = std::get<1>(top);
    correct.push_back(idx.select(1, 0).eq(targets.narrow(0, b, m)));
    margin.push_back(values.select(1, 0) - values.select(1, 1));
  }
  const auto cleanCorrect = at::cat(correct), margins = at::cat(margin);
  r.cleanAcc = cleanCorrect.to(at::kDouble).mean().item<double>();

  auto gen = at::make_generator<at::CPUGeneratorImpl>(o.seed);
  const int64_t total = static_cast<int64_t>(o.eps.size()) * ((n + o.batchSize - 1) / o.batchSize);
  int64_t done = 0;
  for (const double eps : o.eps) {
    RobustnessPoint p;
    p.eps = eps;
    // Certified (Tsuzuku et al. 2018): ||f(x') - f(x)||_2 <= L2 eps moves the margin by at
    // most sqrt(2) L2 eps, so margin > sqrt(2) L2 eps keeps the class in the whole ball.
    p.certifiedAcc = (cleanCorrect & margins.gt(std::sqrt(2.0) * r.l2Bound * eps)).to(at::kDouble).mean().item<double>();
    double robust = 0, pSum = 0;
    for (int64_t b = 0; b < n; b += o.batchSize) {
      const int64_t m = std::min(o.batchSize, n - b);
      const auto x = inputs.narrow(0, b, m), y = targets.narrow(0, b, m);
      // An example counts as robust only if x itself and every point the attack visited are
      // classified correctly (so PGD accuracy <= clean accuracy at every eps), and its
      // p_correct is the smallest one seen.
      auto stillCorrect = cleanCorrect.narrow(0, b, m).clone();
      auto minLogP = logProbCorrect(model, x, y);
      pgdL2(model, x, y, eps, o.attackSteps, o.stepFactor * eps / o.attackSteps, gen, [&](const at::Tensor& xa) {
        const auto logits = model.forward(xa);
        stillCorrect = stillCorrect & logits.argmax(1).eq(y);
        minLogP = at::minimum(minLogP, at::log_softmax(logits, 1).gather(1, y.unsqueeze(1)).squeeze(1));
      });
      robust += stillCorrect.to(at::kDouble).sum().item<double>();
      pSum += at::exp(minLogP).to(at::kDouble).sum().item<double>();
      if (progress && !progress(++done, total)) throw Cancelled();
    }
    p.pgdAcc = robust / static_cast<double>(n);
    p.meanPCorrect = pSum / static_cast<double>(n);
    r.points.push_back(p);
  }
  return r;
}

HeldOutExamples robustnessExamples(const data::Dataset& dataset, int64_t count, int64_t trainerValExamples) {
  const int64_t size = dataset.size(data::Split::Val);
  if (count < 1) throw InputError("examples: must be >= 1");
  if (count > size)
    throw InputError("examples: " + std::to_string(count) + " requested but the validation split holds " +
                     std::to_string(size));
  HeldOutExamples e;
  e.first = size - count;
  e.count = count;
  e.splitSize = size;
  e.heldOut = trainerValExamples <= e.first;
  auto batch = dataset.slice(data::Split::Val, e.first, count);
  e.inputs = batch.inputs;
  e.targets = batch.targets;
  return e;
}

}  // namespace lwb::run
