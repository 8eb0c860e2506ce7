#include "models/attlip_model.h"

#include "common/linear.h"
#include "models/factory.h"
#include "io/input_error.h"

#include "models/init.h"

#include <ATen/TensorOperators.h>
#include <ATen/core/grad_mode.h>
#include <ATen/ops/embedding.h>
#include <ATen/ops/gelu.h>
#include <ATen/ops/randint.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace lwb::models {
namespace {

// The attention modules draw their own Xavier weights from a seed (G.3.5); the seed comes from
// the model's generator so the whole model follows the run's seed.
uint64_t drawSeed(at::Generator& gen) {
  return static_cast<uint64_t>(at::randint(0, int64_t{1} << 62, {1}, gen, at::TensorOptions().dtype(at::kLong)).item<int64_t>());
}

at::Tensor as(const at::Tensor& t, at::ScalarType dtype, bool detach) {
  return detach ? t.detach().to(dtype) : t.to(dtype);
}

}  // namespace

at::Tensor AttLipModel::add(const std::string& name, Role role, const at::Tensor& t, const at::Device& device) {
  params_.push_back({name, role, asParameter(t, device), 0});
  return params_.back().tensor;
}

AttLipModel::AttLipModel(const AttLipShape& s, at::Generator& gen, const at::Device& device) : shape_(s) {
  if (s.vocab < 2 || s.seqLen < 1 || s.dModel < 1 || s.heads < 1 || s.dModel % s.heads != 0 || s.mlpRatio < 1 ||
      s.proxSteps < 1 || s.proxStepsEval < 1 || !(s.eta > 0) || !(s.wCap >= 0))
    throw std::invalid_argument("attlip: bad shape (heads must divide d_model; counts >= 1)");
  // Above 2 the relaxed prox is only (α − 1)-Lipschitz (attention::relaxedProxBound): the
  // model's attention bound 1 would be false.
  if (!(s.relaxation > 0 && s.relaxation <= 2)) throw std::invalid_argument("attlip: the prox relaxation must be in (0, 2]");
  const int64_t d = s.dModel, hidden = s.mlpRatio * d;
  // Token rows of unit ℓ2 norm (entries ~ N(0, 1/d), Table 1's input scale): AttLip's
  // potential has curvature growing with ‖x‖² (C.3), and with RMS-1 rows (‖x_i‖ = √d) the
  // solver's first residual is ~2e3 and 20 Armijo steps leave it at ~4 (measured, DESIGN.md).
  // Positions start at a tenth of that and are learned.
  const double unit = 1.0 / std::sqrt(static_cast<double>(d));
  tokenEmbed_ = add("embed", Role::Embedding, rmsUnitRows(s.vocab, d, gen) * unit, device);
  posEmbed_ = add("pos_embed", Role::Embedding, rmsUnitRows(s.seqLen, d, gen) * (0.1 * unit), device);
  switch (s.attention) {
    case AttentionKind::AttLip:
      w_ = add("attn.w", Role::Query, attention::attlipInitWeights(d, s.heads, drawSeed(gen), at::kFloat), device);
      break;
    case AttentionKind::L2: {
      const auto w = attention::l2AttentionInit(d, s.heads, drawSeed(gen), at::kFloat);
      query_ = add("attn.q", Role::Query, w.query, device);
      value_ = add("attn.v", Role::Value, w.value, device);
      out_ = add("attn.o", Role::AttnOut, w.out, device);
      break;
    }
    case AttentionKind::Standard: {
      const auto w = attention::standardAttentionInit(d, s.heads, drawSeed(gen), at::kFloat);
      query_ = add("attn.q", Role::Query, w.query, device);
      key_ = add("attn.k", Role::Key, w.key, device);
      value_ = add("attn.v", Role::Value, w.value, device);
      out_ = add("attn.o", Role::AttnOut, w.out, device);
      break;
    }
    case AttentionKind::None: break;
  }
  // Orthogonal, unit RMS->RMS norm (000 App. F), as the engine's other models.
  mlpIn_ = add("mlp.in", Role::MlpIn, orthogonalRmsUnit(hidden, d, gen), device);
  mlpOut_ = add("mlp.out", Role::MlpOut, orthogonalRmsUnit(d, hidden, gen), device);
  head_ = add("head", Role::Head, orthogonalRmsUnit(s.vocab, d, gen), device);
  params_.back().block = 1;
}

int64_t AttLipModel::scheduledProxSteps(int64_t maxSteps, int64_t step, int64_t steps) {
  if (steps <= 0) return maxSteps;
  return std::clamp<int64_t>(1 + maxSteps * step / steps, 1, maxSteps);
}

void AttLipModel::setTrainingProgress(int64_t step, int64_t steps) {
  trainK_ = scheduledProxSteps(shape_.proxSteps, step, steps);
}

ProxReport proxReportOf(const attention::ProxResult& r) {
  return {r.residual, r.steps, r.converged, r.movement, r.stepMean, r.stepMin, r.residualRatio};
}

at::Tensor AttLipModel::attlipWeights() const {
  if (!w_.defined() || !(shape_.wCap > 0)) return w_;
  // W^h · min(1, cap/‖W^h‖_F): σ₁(W^h) ≤ ‖W^h‖_F ≤ cap, so ‖A^h‖₂ ≤ cap² and the potential's
  // curvature (potentialSmoothnessBound) stays bounded however the optimizer moves W.
  const auto norms = w_.pow(2).sum({1, 2}, true).sqrt();
  return w_ * (shape_.wCap / norms.clamp_min(1e-30)).clamp_max(1.0);
}

attention::ProxOptions AttLipModel::proxOptions() const {
  attention::ProxOptions o;
  o.rule = shape_.rule;
  o.eta = shape_.eta;
  if (o.rule == attention::ProxRule::Fixed && shape_.tokenNorm && w_.defined()) {
    // One certified λ for every input: unit rows give ‖X‖_F = √T ≤ √seq_len, and the ball of
    // twice that radius also holds the PGD ball of radius ‖X‖_F around any such input.
    const double radius = 2 * std::sqrt(static_cast<double>(shape_.seqLen));
    o.fixedStep = attention::safeFixedStep(attlipWeights().detach().to(at::kDouble), shape_.seqLen, radius, o.eta);
  }
  if (evaluation_) {
    o.maxSteps = static_cast<int>(shape_.proxStepsEval);
    // A tolerance stop makes K depend on the input; the fixed rule's certificate needs one K.
    if (o.rule == attention::ProxRule::Armijo) o.relTolerance = shape_.proxTol;
  } else {
    o.maxSteps = static_cast<int>(trainK_);  // all K steps: the schedule fixes the cost
  }
  return o;
}

at::Tensor AttLipModel::embed(const at::Tensor& tokens) const {
  if (tokens.dim() != 2 || tokens.size(1) > shape_.seqLen)
    throw std::invalid_argument("attlip: tokens must be [B, T] with T <= " + std::to_string(shape_.seqLen));
  const auto x = at::embedding(tokenEmbed_, tokens) + posEmbed_.narrow(0, 0, tokens.size(1));
  // Unit-norm rows keep the potential's curvature (∝ ‖x_i‖², C.3) where the init put it.
  return shape_.tokenNorm ? x / x.norm(2, {-1}, true).clamp_min(1e-12) : x;
}

attention::L2AttentionWeights AttLipModel::l2Weights(at::ScalarType dtype, bool detach) const {
  return {as(query_, dtype, detach), as(value_, dtype, detach), as(out_, dtype, detach), false};
}

attention::StandardAttentionWeights AttLipModel::standardWeights(at::ScalarType dtype, bool detach) const {
  return {as(query_, dtype, detach), as(key_, dtype, detach), as(value_, dtype, detach), as(out_, dtype, detach)};
}

at::Tensor AttLipModel::attentionOnly(const at::Tensor& x, const attention::ProxOptions& options, bool detachWeights,
                                      attention::ProxResult* prox) const {
  const auto dtype = x.scalar_type();
  switch (shape_.attention) {
    case AttentionKind::AttLip: {
      auto r = attention::attlipProx(x, as(attlipWeights(), dtype, detachWeights), options);
      at::Tensor y = attention::relaxProx(x, r.output, shape_.relaxation);
      if (prox) *prox = std::move(r);
      return y;
    }
    case AttentionKind::L2: return attention::l2Attention(x, l2Weights(dtype, detachWeights));
    case AttentionKind::Standard: return attention::standardAttention(x, standardWeights(dtype, detachWeights));
    case AttentionKind::None: break;
  }
  throw std::invalid_argument("attlip: model.attention = none has no attention block");
}

at::Tensor AttLipModel::attend(const at::Tensor& x) {
  const auto& kind = attention::info(shape_.attention);
  if (!kind.isBlock) return x;
  if (!kind.mapIsResidualStep) return x + attentionOnly(x, {}, false);  // x + Att(x)
  attention::ProxResult r;
  const auto y = attentionOnly(x, proxOptions(), false, &r);
  lastProx_ = proxReportOf(r);
  return y;
}

at::Tensor AttLipModel::run(const at::Tensor& tokens, ActivationStats* stats) {
  const auto x = embed(tokens);
  if (stats) recordActivation(*stats, "embed", x);
  const auto a = attend(x);
  if (stats) recordActivation(*stats, "attn", a);
  const auto h = a + lwb::linear(at::gelu(lwb::linear(a, mlpIn_)), mlpOut_);
  if (stats) recordActivation(*stats, "mlp", h);
  return lwb::linear(h, head_);
}

std::optional<double> AttLipModel::attentionBound(int64_t tokens) const {
  switch (shape_.attention) {
    case AttentionKind::AttLip: return 1.0;
    case AttentionKind::L2: return attention::l2AttentionBound(l2Weights(at::kDouble, true), tokens);
    case AttentionKind::Standard:
    case AttentionKind::None: break;
  }
  return std::nullopt;
}

std::unique_ptr<Model> buildAttLip(const ModelBuild& b) {
  const ModelConfig& m = b.config;
  AttLipShape s;
  s.vocab = b.task.numClasses;
  s.seqLen = m.seqLen;
  s.dModel = m.dModel;
  s.heads = m.heads;
  s.mlpRatio = m.mlpRatio;
  s.attention = m.attention;
  s.proxSteps = m.proxSteps;
  s.proxStepsEval = m.proxStepsEval;
  s.proxTol = m.proxTol;
  s.eta = m.proxEta;
  s.wCap = m.proxWCap;
  s.tokenNorm = m.tokenNorm;
  s.relaxation = m.proxRelaxation;
  s.rule = m.proxStepRule;
  return std::make_unique<AttLipModel>(s, b.gen, b.device);
}

void attLipWeights(const ModelConfig& m, const ModelSize& size, WeightShapes& out) {
  const double d = static_cast<double>(m.dModel), hidden = static_cast<double>(m.mlpRatio) * d;
  out.matrix(size.numClasses, d);
  out.matrix(static_cast<double>(m.seqLen), d);
  for (int k = 0; k < attention::info(m.attention).projections; ++k) out.matrix(d, d);  // [H, d, d/H] each: d² elements
  out.matrix(hidden, d);
  out.matrix(d, hidden);
  out.matrix(size.numClasses, d);
}

double attLipActivations(const ModelConfig& m, const ModelSize& size) {
  const double b = size.batch, d = static_cast<double>(m.dModel), heads = static_cast<double>(m.heads);
  const double n = static_cast<double>(m.seqLen), k = static_cast<double>(m.proxSteps);
  return b * n * d * (8 + 3 * static_cast<double>(m.mlpRatio) + 4 * k) + b * heads * n * n * (2 + k) +
         b * n * size.numClasses * 3;
}

}  // namespace lwb::models
