#include "models/lipschitz_gpt.h"

#include "common/linear.h"
#include "models/factory.h"
#include "io/input_error.h"

#include "common/batched_gemm.h"
#include "models/fused_ops.h"
#include "models/init.h"
#include "models/position_attention.h"

#include <ATen/TensorOperators.h>
#include <ATen/core/grad_mode.h>
#include <ATen/ops/add.h>
#include <ATen/ops/arange.h>
#include <ATen/ops/cat.h>
#include <ATen/ops/clamp_min.h>
#include <ATen/ops/constant_pad_nd.h>
#include <ATen/ops/index_select.h>
#include <ATen/ops/cos.h>
#include <ATen/ops/embedding.h>
#include <ATen/ops/gelu.h>
#include <ATen/ops/layer_norm.h>
#include <ATen/ops/matmul.h>
#include <ATen/ops/ones.h>
#include <ATen/ops/outer.h>
#include <ATen/ops/pow.h>
#include <ATen/ops/sin.h>
#include <ATen/ops/softmax.h>
#include <ATen/ops/triu.h>
#include <ATen/ops/zeros.h>
#include <ATen/ops/zeros_like.h>

#include <cmath>
#include <stdexcept>

namespace lwb::models {
namespace {

constexpr double kGeluMaxSlope = 1.1289;  // max derivative of GeLU: GeLU/1.1289 is 1-Lipschitz
constexpr double kPositionBiasLimit = 16.0;

}  // namespace

LipschitzGpt::LipschitzGpt(const GptShape& s, at::Generator& gen, const at::Device& device) : shape_(s) {
  if (s.vocab < 2 || s.dModel < 2 || s.blocks < 1 || s.heads < 1 || s.dModel % s.heads != 0 ||
      (s.dModel / s.heads) % 2 != 0 || s.seqLen < 1 || s.mlpRatio < 1)
    throw std::invalid_argument("lipschitz_gpt: d_model must split into heads of even size");
  const auto f32 = at::TensorOptions().dtype(at::kFloat);
  const int64_t d = s.dModel, dm = s.mlpRatio * s.dModel;
  const auto init = [&](int64_t dOut, int64_t dIn, bool zero) {
    return asParameter(zero ? at::zeros({dOut, dIn}, f32) : orthogonalRmsUnit(dOut, dIn, gen), device);
  };
  params_.push_back({"embed", Role::Embedding, asParameter(rmsUnitRows(s.vocab, d, gen), device), -1});
  if (s.inputConv > 0)  // orthogonal: RMS(kd) -> RMS(d) norm 1 at the start, like the projections
    params_.push_back({"input_conv", Role::InputConv, asParameter(orthogonalRmsUnit(d, s.inputConv * d, gen), device), -1});
  for (int64_t b = 0; b < s.blocks; ++b) {
    const std::string p = "blocks." + std::to_string(b) + ".";
    const int bi = static_cast<int>(b);
    if (s.contentScores) {
      params_.push_back({p + "attn.q", Role::Query, asParameter(orthogonalRmsUnit(d, d, gen), device), bi});
      params_.push_back({p + "attn.k", Role::Key, asParameter(orthogonalRmsUnit(d, d, gen), device), bi});
    }
    params_.push_back({p + "attn.v", Role::Value, asParameter(orthogonalRmsUnit(d, d, gen), device), bi});
    params_.push_back({p + "attn.o", Role::AttnOut, init(d, d, s.zeroOutputs), bi});
    if (s.positionBias)  // zero: uniform causal attention at the start, as without the bias
      params_.push_back({p + "attn.pos", Role::Other, asParameter(at::zeros({s.heads, s.seqLen}, f32), device), bi});
    params_.push_back({p + "mlp.in", Role::MlpIn, asParameter(orthogonalRmsUnit(dm, d, gen), device), bi});
    params_.push_back({p + "mlp.out", Role::MlpOut, init(d, dm, s.zeroOutputs), bi});
    if (s.standard) {
      for (const char* n : {"ln1", "ln2"}) {
        params_.push_back({p + n, Role::Other, asParameter(at::ones({d}, f32), device), bi});
        layerNormGains_.push_back(params_.back().tensor);
      }
    }
  }
  if (s.standard) {
    params_.push_back({"ln_f", Role::Other, asParameter(at::ones({d}, f32), device), -1});
    layerNormGains_.push_back(params_.back().tensor);
  }
  headIndex_ = params_.size();
  params_.push_back({"head", Role::Head, init(s.vocab, d, s.zeroHead), static_cast<int>(s.blocks)});
  if (s.logitBias)  // zeros: uniform over the characters at the start, as without the bias
    params_.push_back({"head.bias", Role::Other, asParameter(at::zeros({s.vocab}, f32), device), static_cast<int>(s.blocks)});

  // Rotary tables for positions [0, seqLen) and d_head / 2 frequencies (base 10000).
  const int64_t half = d / s.heads / 2;
  const auto inv = at::pow(10000.0, at::arange(half, f32) * (-1.0 / static_cast<double>(half)));
  const auto angles = at::outer(at::arange(s.seqLen, f32), inv);
  cos_ = at::cos(angles).to(device);
  sin_ = at::sin(angles).to(device);
  // Causal mask as an additive bias (0 on and below the diagonal, -inf above): it enters the
  // score GEMM as baddbmm's addend, so no masked_fill pass (and its backward) over the scores.
  causalBias_ = at::triu(at::ones({s.seqLen, s.seqLen}, f32.dtype(at::kBool)), 1)
                    .to(at::kFloat)
                    .mul_(-INFINITY)
                    .nan_to_num_(0.0, 0.0, -INFINITY)
                    .to(device);
  if (s.positionBias) {
    const auto pos = at::arange(s.seqLen, at::TensorOptions().dtype(at::kLong));
    relativeIndex_ = at::clamp_min(pos.unsqueeze(1) - pos.unsqueeze(0), 0).reshape({-1}).to(device);
  }
}

double LipschitzGpt::residualAlpha() const {
  if (shape_.standard) return 1.0;
  return shape_.residualAlpha > 0 ? shape_.residualAlpha : 1.0 / static_cast<double>(2 * shape_.blocks);
}

// 1/3 makes the block's sensitivity to (q, k, v) one (eq. 15); with position scores only v
// depends on the input.
double LipschitzGpt::attentionOutScale() const {
  return shape_.standard || shape_.sumResidual || !shape_.contentScores ? 1.0 : 1.0 / 3.0;
}

double LipschitzGpt::attentionScale() const {
  const double dh = static_cast<double>(shape_.dModel / shape_.heads);
  return shape_.standard ? 1.0 / std::sqrt(dh) : shape_.scoreScale / dh;
}

const at::Tensor& LipschitzGpt::w(int64_t block, Role role) const {
  for (const auto& p : params_)
    if (p.block == block && p.role == role) return p.tensor;
  throw std::logic_error("lipschitz_gpt: missing parameter");
}

at::Tensor LipschitzGpt::rotary(const at::Tensor& x) const {
  const int64_t t = x.size(-2), half = x.size(-1) / 2;
  const auto c = cos_.narrow(0, 0, t), s = sin_.narrow(0, 0, t);
  const auto x1 = x.narrow(-1, 0, half), x2 = x.narrow(-1, half, half);
  return at::cat({x1 * c - x2 * s, x1 * s + x2 * c}, -1);
}

at::Tensor LipschitzGpt::positionBias(int64_t block, int64_t t) const {
  // bias[h, i, j] = pos[h, i - j] + causal mask: gathered for the full context, cut to t (a
  // prefix of the rows and columns has the same offsets).
  const int64_t T = shape_.seqLen;
  const auto bias = w(block, Role::Other).index_select(1, relativeIndex_).view({shape_.heads, T, T});
  return bias.narrow(1, 0, t).narrow(2, 0, t) + causalBias_.narrow(0, 0, t).narrow(1, 0, t);
}

at::Tensor LipschitzGpt::attention(const at::Tensor& x, int64_t block) {
  const int64_t b = x.size(0), t = x.size(1), h = shape_.heads, dh = shape_.dModel / h;
  auto split = [&](const at::Tensor& y) { return y.view({b, t, h, dh}).transpose(1, 2); };
  const auto v = split(lwb::linear(x, w(block, Role::Value)));
  at::Tensor mixed;  // [b, h, t, dh]
  if (!shape_.contentScores) {
    // The same attention matrix for every sample: one [h, t, t] softmax (a fused kernel),
    // broadcast over b (a stride-0 view for one head) into batchedGemm: matmul's broadcast
    // went to ATen's bmm, whose CPU loop selects each matrix (576 selects per step).
    const auto a = positionAttention(w(block, Role::Other), t).unsqueeze(0).expand({b, h, t, t}).reshape({b * h, t, t});
    mixed = batchedGemm(a, v.reshape({b * h, t, dh}), at::Tensor(), 1.0).view({b, h, t, dh});
  } else {
    const auto q = rotary(split(lwb::linear(x, w(block, Role::Query))));
    const auto k = rotary(split(lwb::linear(x, w(block, Role::Key))));
    // scale * q k^T + causal bias in one batched GEMM (alpha = the scale, an exact power of
    // two for d_head 16 or 64): the same scores as matmul, * scale, masked_fill, without two
    // elementwise passes over the (b, h, t, t) scores forward and two backward.
    // Both products by batchedGemm: one BLAS call per (sample, head), not ATen's bmm loop.
    const auto qk = [&](const at::Tensor& bias) {
      return batchedGemm(q.reshape({b * h, t, dh}), k.reshape({b * h, t, dh}).transpose(1, 2), bias, attentionScale());
    };
    // With a learned position bias the mask travels with it (it needs gradients, which
    // batchedGemm's addend does not carry).
    const auto scores = shape_.positionBias ? (qk(at::Tensor()).view({b, h, t, t}) + positionBias(block, t)).view({b * h, t, t})
                                            : qk(causalBias_.narrow(0, 0, t).narrow(1, 0, t));
    mixed = batchedGemm(at::softmax(scores, -1), v.reshape({b * h, t, dh}), at::Tensor(), 1.0).view({b, h, t, dh});
  }
  const auto out = mixed.transpose(1, 2).reshape({b, t, shape_.dModel});
  const auto o = lwb::linear(out, w(block, Role::AttnOut));
  const double scale = attentionOutScale();  // 1/3: unit sensitivity to (q, k, v), eq. (15)
  return scale == 1.0 ? o : o * scale;
}

at::Tensor LipschitzGpt::mlp(const at::Tensor& x, int64_t block) {
  // MaxMin over the pairs (h_i, h_{i + m/2}): halves rather than neighbours, so both are
  // contiguous slices; which units pair up is arbitrary (W_in's rows can be permuted).
  if (shape_.maxMin) return models::maxMinMlp(x, w(block, Role::MlpIn), w(block, Role::MlpOut));
  return lwb::linear(models::gelu(lwb::linear(x, w(block, Role::MlpIn))), w(block, Role::MlpOut));
}

double LipschitzGpt::mlpOutScale() const {
  // GELU's 1/max-slope, applied after the output projection (linear, so the same function up
  // to rounding) and folded into the residual mix: no pass over the 4x wider hidden ones.
  return shape_.standard || shape_.maxMin ? 1.0 : 1.0 / kGeluMaxSlope;
}

at::Tensor LipschitzGpt::inputConv(const at::Tensor& x) const {
  // [x_t; x_{t-1}; …] along features, each shift zero-padded at the start (models/fused_ops.h):
  // the pad does not depend on the input, so it adds nothing to the constant
  // (‖W‖ RMS(kd) -> RMS(d)).
  return lwb::linear(models::causalTaps(x, shape_.inputConv), w(-1, Role::InputConv));
}

at::Tensor LipschitzGpt::blocksForward(at::Tensor x, ActivationStats* stats) {
  const double a = residualAlpha();
  if (shape_.inputConv > 0) {
    x = inputConv(x);
    if (stats) recordActivation(*stats, "input_conv", x);
  }
  // Baseline only: pre-LayerNorm with gains layerNormGains_[2 blk], [2 blk + 1], final last.
  auto ln = [&](const at::Tensor& y, size_t gain) {
    return shape_.standard ? at::layer_norm(y, {shape_.dModel}, layerNormGains_[gain]) : y;
  };
  for (int64_t blk = 0; blk < shape_.blocks; ++blk) {
    const std::string tag = "block" + std::to_string(blk);
    const auto att = attention(ln(x, 2 * blk), blk);
    const bool sum = shape_.standard || shape_.sumResidual;
    // (1 - a) x + a att in one fused pass (models/fused_ops.h).
    x = sum ? x + att : residualMix(x, att, 1.0 - a, a);
    if (stats) recordActivation(*stats, tag + ".attn", x);
    const auto m = mlp(ln(x, 2 * blk + 1), blk);
    x = sum ? (shape_.standard ? x + m : at::add(x, m, mlpOutScale())) : residualMix(x, m, 1.0 - a, a * mlpOutScale());
    if (stats) recordActivation(*stats, tag + ".mlp", x);
  }
  if (shape_.standard) x = ln(x, layerNormGains_.size() - 1);
  auto logits = lwb::linear(x, params_[headIndex_].tensor) * shape_.finalLogitScale;
  return shape_.logitBias ? logits + params_[headIndex_ + 1].tensor : logits;
}

at::Tensor LipschitzGpt::forwardFromEmbeddings(const at::Tensor& x0) { return blocksForward(x0, nullptr); }

at::Tensor LipschitzGpt::run(const at::Tensor& tokens, ActivationStats* stats) {
  if (tokens.dim() != 2 || tokens.size(1) > shape_.seqLen)
    throw std::invalid_argument("lipschitz_gpt: tokens must be [B, T] with T <= seq_len");
  const auto x0 = at::embedding(params_.front().tensor, tokens);
  if (stats) recordActivation(*stats, "embed", x0);
  return blocksForward(x0, stats);
}

void LipschitzGpt::afterStep() {
  // 000 App. F: "every step, RMS normalize the embedding columns" (rows in our layout).
  if (!shape_.standard) normalizeRowRms(params_.front().tensor);
  // Position biases within +-kPositionBiasLimit: a gap of 32 still gives a key 1e-14 of the
  // weight, while Adam's steady push would otherwise grow them until exp() underflows into
  // float32 denormals, which made a step ~40x slower on the CPU (measured at step 4,500).
  if (shape_.positionBias) {
    at::NoGradGuard noGrad;
    for (auto& p : params_)
      if (p.role == Role::Other && p.name.ends_with("attn.pos")) p.tensor.clamp_(-kPositionBiasLimit, kPositionBiasLimit);
  }
}

std::unique_ptr<Model> buildLipschitzGpt(const ModelBuild& b) {
  const ModelConfig& m = b.config;
  GptShape s;
  s.vocab = b.task.numClasses;
  s.dModel = m.dModel;
  s.blocks = m.blocks;
  s.heads = m.heads;
  s.seqLen = m.seqLen;
  s.mlpRatio = m.mlpRatio;
  s.finalLogitScale = m.finalLogitScale;
  s.standard = m.standard;
  s.residualAlpha = m.residualAlpha;
  s.scoreScale = m.scoreScale;
  s.sumResidual = m.residual == Residual::Sum;
  s.positionBias = m.attentionScores != AttentionScores::Content;
  s.contentScores = m.attentionScores != AttentionScores::Position;
  if (s.positionBias && m.standard)
    throw InputError("model.attention_scores: " + std::string(choiceId(kAttentionScores, m.attentionScores)) + " is a Lipschitz-model option; the standard baseline uses content scores");
  if (s.positionBias && s.sumResidual)
    throw InputError("model.attention_scores: " + std::string(choiceId(kAttentionScores, m.attentionScores)) + " is for the convex residual, not with model.residual = sum");
  if (s.sumResidual && m.standard)
    throw InputError("model.residual: sum is a Lipschitz-model option; the standard baseline already adds x + block(x)");
  if (s.sumResidual && m.residualAlpha > 0)
    throw InputError("model.residual_alpha: only for the convex residual, not with model.residual = sum");
  s.zeroOutputs = m.zeroInit != ZeroInit::None;
  s.inputConv = m.inputConv;
  if (s.inputConv > 0 && m.standard)
    throw InputError("model.input_conv: a Lipschitz-model option; the standard baseline has none");
  s.zeroHead = m.zeroInit == ZeroInit::OutputsAndHead;
  s.logitBias = m.logitBias;
  s.maxMin = m.mlpActivation == MlpActivation::MaxMin;
  if (s.maxMin && m.standard)
    throw InputError("model.mlp_activation: maxmin is a Lipschitz-model option; the standard baseline uses GeLU");
  if (s.dModel % s.heads != 0 || (s.dModel / s.heads) % 2 != 0)
    throw InputError("model.d_model: must split into model.heads heads of even size");
  return std::make_unique<LipschitzGpt>(s, b.gen, b.device);
}

void lipschitzGptWeights(const ModelConfig& m, const ModelSize& size, WeightShapes& out) {
  const double d = static_cast<double>(m.dModel), dm = static_cast<double>(m.mlpRatio) * d;
  out.matrix(size.numClasses, d);  // embedding
  if (m.inputConv > 0) out.matrix(d, static_cast<double>(m.inputConv) * d);
  for (int64_t b = 0; b < m.blocks; ++b) {
    // q, k, v, o; position scores have no q, k but a bias per head and offset.
    for (int k = 0; k < (m.attentionScores == AttentionScores::Position ? 2 : 4); ++k) out.matrix(d, d);
    if (m.attentionScores != AttentionScores::Content) out.parameters += static_cast<double>(m.heads * m.seqLen);
    out.matrix(dm, d);
    out.matrix(d, dm);
    if (m.standard) out.parameters += 2 * d;  // two LayerNorm gains
  }
  if (m.standard) out.parameters += d;
  out.matrix(size.numClasses, d);  // head
}

double lipschitzGptActivations(const ModelConfig& m, const ModelSize& size) {
  const double b = size.batch, d = static_cast<double>(m.dModel), heads = static_cast<double>(m.heads);
  const double n = static_cast<double>(m.seqLen), blocks = static_cast<double>(m.blocks);
  return b * n * d * blocks * (12 + 3 * static_cast<double>(m.mlpRatio)) + b * heads * n * n * blocks * 3 +
         b * n * size.numClasses * 3;
}

}  // namespace lwb::models
