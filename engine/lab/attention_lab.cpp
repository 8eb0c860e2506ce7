// The Attention Lab's computations (SEEDS-002-004 §C–D, F "scaled PGD"): tensors stay here.
#include "lab/attention_lab.h"

#include "attention/attention_kinds.h"
#include "attention/attlip.h"
#include "attention/l2_attention.h"
#include "attention/standard_attention.h"
#include "bounds/pgd_lipschitz.h"
#include "io/input_error.h"
#include "run/memory_estimate.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Context.h>
#include <ATen/TensorOperators.h>
#include <ATen/core/grad_mode.h>
#include <ATen/ops/randn.h>

#include <algorithm>
#include <stdexcept>
#include <chrono>
#include <cmath>

namespace lwb::lab {
namespace {

using attention::ProxOptions;
using attention::ProxRule;
using Block = std::function<at::Tensor(const at::Tensor&)>;

const auto kF64 = at::TensorOptions().dtype(at::kDouble);

void validate(const AttentionBlockSpec& s) {
  const auto kinds = attentionKindIds();
  if (std::find(kinds.begin(), kinds.end(), s.kind) == kinds.end()) {
    std::string choices;
    for (const auto& k : kinds) choices += (choices.empty() ? "" : ", ") + k;
    throw InputError("kind: expected one of " + choices + ", got '" + s.kind + "'");
  }
  if (s.dim < 2 || s.dim > 512) throw InputError("dim: must be in 2..512");
  if (s.heads < 1 || s.heads > s.dim || s.dim % s.heads != 0) throw InputError("heads: must divide dim");
  if (!(s.eta > 0 && s.eta <= 10)) throw InputError("η: must be in (0, 10]");
  if (!(s.relaxation > 0 && s.relaxation <= 4)) throw InputError("α: must be in (0, 4]");
  if (s.device != "cpu" && s.device.rfind("cuda", 0) != 0)
    throw InputError("device: expected cpu or cuda, got '" + s.device + "'");
  if (s.device != "cpu" && !at::hasCUDA())
    throw InputError("device: " + s.device + " requested, but this build has no CUDA or no GPU is visible");
}

// The block's weights on the spec's device (they are made on the CPU from the seed, so every
// device measures the same block).
at::Device blockDevice(const AttentionBlockSpec& s) { return at::Device(s.device); }

void validateTokens(int tokens) {
  if (tokens < 1 || tokens > 4096) throw InputError("tokens: must be in 1..4096");
}

at::Tensor gaussian(at::IntArrayRef shape, uint64_t seed) {
  auto gen = at::make_generator<at::CPUGeneratorImpl>(seed);
  return at::randn(shape, gen, kF64);
}

// The converged prox of C.4: ‖g‖ ≤ max(1e−9, 1e−12‖g⁰‖) (so ε ≤ 1e−6‖g⁰‖ whenever
// ‖g⁰‖ ≥ 1e−3), at most 1000 steps.
ProxOptions convergedProx(const AttentionBlockSpec& s, double fixedStep = 0) {
  ProxOptions o;
  o.eta = s.eta;
  o.maxSteps = 1000;
  o.tolerance = 1e-9;
  o.relTolerance = 1e-12;
  o.rule = s.proxRule;
  o.fixedStep = fixedStep;
  return o;
}

double seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

double ratio(const at::Tensor& fx, const at::Tensor& fy, const at::Tensor& x, const at::Tensor& y) {
  return (fx - fy).norm().item<double>() / (x - y).norm().item<double>();
}

// PGD runs all restarts as one batch of 2·R inputs (x and its partner) in float64: per input
// the H score and probability matrices (N² each) with their gradients, and a few [N, d]
// activations. In range (R = 1000, N = 4096) that is terabytes; refused up front.
run::MemoryEstimate pgdMemory(const AttentionBlockSpec& spec, int tokens, int restarts) {
  const double n = tokens, d = spec.dim, inputs = 2.0 * restarts;
  const double perInput = 6 * static_cast<double>(spec.heads) * n * n + 12 * n * d;
  run::MemoryEstimate e;
  e.bytes = 8 * inputs * perInput;
  e.breakdown = std::to_string(restarts) + " PGD restarts of " + std::to_string(tokens) + " tokens";
  return e;
}

}  // namespace

std::vector<std::string> attentionKindIds() { return attention::attentionBlockIds(); }

void validateBlockSpec(const AttentionBlockSpec& spec) { validate(spec); }

TokensPoint lipschitzAtTokens(const AttentionBlockSpec& spec, int tokens, const PgdSettings& pgd,
                              const CancelFlag* cancel, const std::function<void(int, int)>& progress) {
  validate(spec);
  validateTokens(tokens);
  if (pgd.iters < 1 || pgd.iters > 10000) throw InputError("PGD iterations: must be in 1..10000");
  if (pgd.restarts < 1 || pgd.restarts > 1000) throw InputError("restarts: must be in 1..1000");
  if (!(pgd.radius >= 0) || !std::isfinite(pgd.radius)) throw InputError("radius: must be finite and >= 0");
  bounds::PgdOptions po;
  try {
    po.norm = bounds::pgdNormFromString(pgd.norm);
  } catch (const std::invalid_argument& e) {
    throw InputError(e.what());
  }
  po.iters = pgd.iters;
  po.restarts = pgd.restarts;
  run::requireMemory(pgdMemory(spec, tokens, pgd.restarts), "attention N=" + std::to_string(tokens));
  po.radius = pgd.radius;
  po.seed = pgd.seed + 1;
  po.cancel = cancel;
  po.progress = progress;

  const auto start = std::chrono::steady_clock::now();
  const auto dev = blockDevice(spec);
  const auto x0 = gaussian({1, tokens, spec.dim}, pgd.seed).to(dev);
  TokensPoint p;
  p.tokens = tokens;
  switch (attention::attentionKindFromString(spec.kind)) {  // validate() checked it is a block
    case attention::AttentionKind::AttLip: {
      const auto w = attention::attlipInitWeights(spec.dim, spec.heads, spec.seed).to(dev);
      // A fixed step must be one λ for every input of the search: the one safe on the ball
      // that holds all of them (‖x0‖ + 2r covers x0 + δ for either radius choice).
      double fixedStep = 0;
      if (spec.proxRule == ProxRule::Fixed) {
        const double r = pgd.radius > 0 ? pgd.radius : x0.norm().item<double>();
        fixedStep = attention::safeFixedStep(w, tokens, x0.norm().item<double>() + 2 * r, spec.eta);
      }
      const auto options = convergedProx(spec, fixedStep);
      const auto r = bounds::pgdLipschitz(
          [&](const at::Tensor& x) {
            return attention::relaxProx(x, attention::attlipProxImplicit(x, w, options), spec.relaxation);
          },
          x0, po);
      p.pgdEstimate = r.best;
      p.bound = attention::relaxedProxBound(spec.relaxation);
      // The residual at the estimate's pair, so an unconverged solve is never taken as a certificate.
      at::NoGradGuard ng;
      const auto check = attention::attlipProx(at::stack({r.x, r.y}), w, options);
      p.residual = check.residual;
      p.converged = check.converged;
      break;
    }
    case attention::AttentionKind::L2: {
      auto w = attention::l2AttentionInit(spec.dim, spec.heads, spec.seed);
      for (auto* t : {&w.query, &w.value, &w.out}) *t = t->to(dev);
      p.pgdEstimate = bounds::pgdLipschitz([&](const at::Tensor& x) { return attention::l2Attention(x, w); }, x0, po).best;
      p.bound = attention::l2AttentionBound(w, tokens);
      p.eq6AsPrinted = attention::l2AttentionBoundAsPrinted(w, tokens);
      break;
    }
    case attention::AttentionKind::Standard: {
      auto w = attention::standardAttentionInit(spec.dim, spec.heads, spec.seed);
      for (auto* t : {&w.query, &w.key, &w.value, &w.out}) *t = t->to(dev);
      p.pgdEstimate =
          bounds::pgdLipschitz([&](const at::Tensor& x) { return attention::standardAttention(x, w); }, x0, po).best;
      break;
    }
    case attention::AttentionKind::None: throw std::logic_error("validate() accepts blocks only");
  }
  p.seconds = seconds(start);
  return p;
}

ProxTraceResult proxTrace(const AttentionBlockSpec& spec, int tokens, double inputScale, int maxSteps,
                          const CancelFlag* cancel) {
  validate(spec);
  validateTokens(tokens);
  if (!(inputScale > 0 && inputScale <= 100)) throw InputError("input scale: must be in (0, 100]");
  if (maxSteps < 1 || maxSteps > 10000) throw InputError("steps: must be in 1..10000");
  const auto w = attention::attlipInitWeights(spec.dim, spec.heads, spec.seed);
  const auto x = gaussian({tokens, spec.dim}, spec.seed + 1) * inputScale;
  at::NoGradGuard ng;
  ProxTraceResult result;
  for (const auto rule : {ProxRule::Armijo, ProxRule::Fixed}) {
    throwIfCancelled(cancel);
    ProxOptions o;
    o.eta = spec.eta;
    o.maxSteps = maxSteps;
    o.rule = rule;
    o.recordTrace = true;
    if (rule == ProxRule::Fixed) o.fixedStep = attention::safeFixedStep(w, tokens, x.norm().item<double>(), spec.eta);
    const auto r = attention::attlipProx(x, w, o);
    // The block's output at iterate k is x + α(y_k − x): it moves α times as far as y_k.
    auto movement = r.movementTrace;
    for (double& m : movement) m *= spec.relaxation;
    result.runs.push_back({std::string(attention::toString(rule)), rule == ProxRule::Fixed ? o.fixedStep : o.eta,
                           r.residualTrace, r.potentialTrace, r.stepTrace, movement, r.stepMean, r.stepMin,
                           r.residualRatio});
  }
  return result;
}

std::vector<FiniteKRow> finiteKRatios(const AttentionBlockSpec& spec, int tokens, int pairs, int kMax,
                                      const CancelFlag* cancel) {
  validate(spec);
  validateTokens(tokens);
  if (pairs < 1 || pairs > 1000) throw InputError("pairs: must be in 1..1000");
  if (kMax < 1 || kMax > 100) throw InputError("K: must be in 1..100");
  const auto w = attention::attlipInitWeights(spec.dim, spec.heads, spec.seed);
  const auto x = gaussian({pairs, tokens, spec.dim}, spec.seed + 2);
  const auto y = x + 1e-3 * gaussian({pairs, tokens, spec.dim}, spec.seed + 3);
  const double radius = std::max(x.norm(2, {1, 2}).max().item<double>(), y.norm(2, {1, 2}).max().item<double>());
  const double fixedStep = attention::safeFixedStep(w, tokens, radius, spec.eta);
  at::NoGradGuard ng;
  auto maxRatio = [&](const ProxOptions& o) {
    const auto fx = attention::relaxProx(x, attention::attlipProx(x, w, o).output, spec.relaxation);
    const auto fy = attention::relaxProx(y, attention::attlipProx(y, w, o).output, spec.relaxation);
    return ((fx - fy).norm(2, {1, 2}) / (x - y).norm(2, {1, 2})).max().item<double>();
  };
  std::vector<FiniteKRow> rows;
  for (int k = 1; k <= kMax; ++k) {
    throwIfCancelled(cancel);
    ProxOptions armijo;
    armijo.eta = spec.eta;
    armijo.maxSteps = k;
    ProxOptions fixed = armijo;
    fixed.rule = ProxRule::Fixed;
    fixed.fixedStep = fixedStep;
    rows.push_back({k, maxRatio(armijo), maxRatio(fixed)});
  }
  return rows;
}

PlanePicture planePicture(int tokens, int heads, uint64_t seed, double perturbation) {
  if (tokens < 2 || tokens > 256) throw InputError("tokens: must be in 2..256");
  if (heads != 1 && heads != 2) throw InputError("heads: must be 1 or 2 in the plane");
  if (!(perturbation > 0 && perturbation <= 10)) throw InputError("perturbation: must be in (0, 10]");
  const auto x = gaussian({tokens, 2}, seed + 1);
  const auto z = gaussian({tokens, 2}, seed + 2);
  const auto xp = x + z * (perturbation / z.norm().item<double>());
  auto points = [](const at::Tensor& t) {
    const auto c = t.contiguous();
    std::vector<PlanePoint> out;
    for (int64_t i = 0; i < c.size(0); ++i) out.push_back({c[i][0].item<double>(), c[i][1].item<double>()});
    return out;
  };
  PlanePicture pic;
  pic.input = points(x);
  pic.perturbed = points(xp);
  at::NoGradGuard ng;
  for (const auto& kind : attentionKindIds()) {
    Block f;
    AttentionBlockSpec spec;
    spec.kind = kind;
    switch (attention::attentionKindFromString(kind)) {
      case attention::AttentionKind::AttLip: {
        const auto w = attention::attlipInitWeights(2, heads, seed);
        const auto o = convergedProx(spec);
        f = [w, o](const at::Tensor& t) { return attention::attlipProx(t, w, o).output; };
        break;
      }
      case attention::AttentionKind::L2: {
        const auto w = attention::l2AttentionInit(2, heads, seed);
        f = [w](const at::Tensor& t) { return attention::l2Attention(t, w); };
        break;
      }
      case attention::AttentionKind::Standard: {
        const auto w = attention::standardAttentionInit(2, heads, seed);
        f = [w](const at::Tensor& t) { return attention::standardAttention(t, w); };
        break;
      }
      case attention::AttentionKind::None: throw std::logic_error("attentionKindIds() lists blocks only");
    }
    const auto fx = f(x), fxp = f(xp);
    pic.kinds.push_back({kind, points(fx), points(fxp), ratio(fx, fxp, x, xp)});
  }
  return pic;
}

}  // namespace lwb::lab
