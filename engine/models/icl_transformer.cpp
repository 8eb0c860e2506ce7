#include "models/icl_transformer.h"

#include "common/linear.h"
#include "models/factory.h"
#include "io/input_error.h"

#include "models/attention_ops.h"
#include "common/batched_gemm.h"
#include "models/fused_ops.h"
#include "models/init.h"

#include <ATen/TensorOperators.h>
#include <ATen/core/grad_mode.h>
#include <ATen/ops/ones.h>
#include <ATen/ops/randn.h>
#include <ATen/ops/rand.h>
#include <ATen/ops/rsqrt.h>

#include <cmath>
#include <stdexcept>

namespace lwb::models {
namespace {

// torch.nn.init.orthogonal_: all singular values 1 (wide matrices get orthonormal rows).
at::Tensor orthogonal(int64_t dOut, int64_t dIn, at::Generator& gen) {
  return orthogonalRmsUnit(dOut, dIn, gen) / std::sqrt(static_cast<double>(dOut) / static_cast<double>(dIn));
}

// torch.nn.Linear's default: U(−1/√fan_in, 1/√fan_in) (kaiming_uniform with a = √5).
at::Tensor torchDefault(int64_t dOut, int64_t dIn, at::Generator& gen) {
  const double bound = 1.0 / std::sqrt(static_cast<double>(dIn));
  return (at::rand({dOut, dIn}, gen, at::TensorOptions().dtype(at::kFloat)) * 2.0 - 1.0) * bound;
}

at::Tensor rmsNorm(const at::Tensor& x) { return x * at::rsqrt(x.square().mean({-1}, true) + 1e-5); }

at::Tensor gained(const at::Tensor& y, const at::Tensor& gain) { return gain.defined() ? y * gain : y; }

}  // namespace

IclTransformer::IclTransformer(const IclShape& s, at::Generator& gen, const at::Device& device) : shape_(s) {
  if (s.inputDim < 1 || s.outputDim < 1 || s.dModel < 2 || s.layers < 1 || s.heads < 1 || s.dModel % s.heads != 0 ||
      (s.dModel / s.heads) % 2 != 0)
    throw std::invalid_argument("icl_transformer: d_model must split into heads of even size");
  const int64_t d = s.dModel;
  const auto init = [&](int64_t o, int64_t i) { return s.lipschitz ? orthogonal(o, i, gen) : torchDefault(o, i, gen); };
  const auto add = [&](const std::string& name, Role role, const at::Tensor& t, int block) {
    params_.push_back({name, role, asParameter(t, device), block});
    return params_.back().tensor;
  };
  const auto addGain = [&](const std::string& name, int64_t n, int block) {
    if (s.gainCap <= 0) return at::Tensor();
    auto g = add(name, Role::Other, at::ones({n}), block);
    gains_.push_back(g);
    return g;
  };
  // App. 8.2: N(0, 1/s) with s = D + 2 active inputs per token, part of the Lipschitz
  // modifications; without them N(0, 1) (see docs/DESIGN.md, issue 14: the reading that
  // reproduces §5.1's "NaN on the first loss").
  const double embedStd = s.lipschitz ? 1.0 / std::sqrt(static_cast<double>(s.activeInputs)) : 1.0;
  embed_ = add("embed", Role::Embedding, at::randn({d, s.inputDim}, gen, at::TensorOptions().dtype(at::kFloat)) * embedStd, -1);
  for (int64_t l = 0; l < s.layers; ++l) {
    const std::string p = "layers." + std::to_string(l) + ".";
    const int b = static_cast<int>(l);
    Layer layer;
    layer.qkv = add(p + "attn.qkv", Role::Query, init(3 * d, d), b);
    layer.gQkv = addGain(p + "attn.qkv.gain", 3 * d, b);
    layer.out = add(p + "attn.out", Role::AttnOut, init(d, d), b);
    layer.gOut = addGain(p + "attn.out.gain", d, b);
    layer.fc1 = add(p + "mlp.fc1", Role::MlpIn, init(4 * d, d), b);
    layer.gFc1 = addGain(p + "mlp.fc1.gain", 4 * d, b);
    layer.fc2 = add(p + "mlp.fc2", Role::MlpOut, init(d, 2 * d), b);
    layer.gFc2 = addGain(p + "mlp.fc2.gain", d, b);
    layer.beta = add(p + "mlp.beta", Role::Other, at::ones({1}), b);  // Swish β, init 1
    layers_.push_back(layer);
  }
  unembed_ = add("unembed", Role::Head, init(s.outputDim, d), static_cast<int>(s.layers));
}

double IclTransformer::residualAlpha() const {
  if (!shape_.lipschitz) return 1.0;
  return 1.0 / static_cast<double>(shape_.residualPerSublayer ? 2 * shape_.layers : shape_.layers);
}

double IclTransformer::attentionScale() const {
  const double dh = static_cast<double>(shape_.dModel / shape_.heads);
  return shape_.lipschitz ? 1.0 / dh : 1.0 / std::sqrt(dh);
}

at::Tensor IclTransformer::qkvHeads(const at::Tensor& h, const Layer& l, int64_t offset, at::Tensor* v) const {
  const int64_t b = h.size(0), n = h.size(1), nh = shape_.heads;
  // q, k rotated and v, each [B·heads, N, d_head], in one pass (models/attention_ops.h).
  const auto heads = ropeHeads(gained(lwb::linear(h, l.qkv), l.gQkv), nh, offset);
  if (v) *v = heads[2];
  // One BLAS call per (sample, head) (common/batched_gemm.h); the scale as the GEMM's alpha.
  return batchedGemm(heads[0], heads[1].transpose(1, 2), at::Tensor(), attentionScale()).view({b, nh, n, n});
}

at::Tensor IclTransformer::attentionScores(const at::Tensor& h, int64_t layer, int64_t offset) const {
  return qkvHeads(h, layers_.at(static_cast<size_t>(layer)), offset, nullptr);
}

at::Tensor IclTransformer::attention(const at::Tensor& h, const Layer& l) const {
  const int64_t b = h.size(0), n = h.size(1), nh = shape_.heads, dh = shape_.dModel / nh;
  at::Tensor v;
  const auto scores = qkvHeads(h, l, 0, &v);
  const auto mixed = batchedGemm(causalSoftmax(scores).view({b * nh, n, n}), v, at::Tensor(), 1.0)
                         .view({b, nh, n, dh})
                         .transpose(1, 2)
                         .reshape({b, n, shape_.dModel});
  return gained(lwb::linear(mixed, l.out), l.gOut);  // × attnScale() in the residual mix
}

at::Tensor IclTransformer::mlp(const at::Tensor& h, const Layer& l) const {
  const auto z = swiGlu(gained(lwb::linear(h, l.fc1), l.gFc1), l.beta);  // SwiGLU with Swish-β
  return gained(lwb::linear(z, l.fc2), l.gFc2);  // × mlpScale() in the residual mix
}

double IclTransformer::attnScale() const { return shape_.lipschitz && shape_.attnScaleThird ? 1.0 / 3.0 : 1.0; }
double IclTransformer::mlpScale() const { return shape_.lipschitz && shape_.mlpScaleThird ? 1.0 / 3.0 : 1.0; }

at::Tensor IclTransformer::run(const at::Tensor& tokens, ActivationStats* stats) {
  if (tokens.dim() != 3 || tokens.size(2) != shape_.inputDim)
    throw std::invalid_argument("icl_transformer: tokens must be [B, N, " + std::to_string(shape_.inputDim) + "]");
  const double a = shape_.lipschitz ? residualAlpha() : 1.0, keep = shape_.lipschitz ? 1.0 - a : 1.0;
  const auto norm = [&](const at::Tensor& x) { return shape_.rmsNorm ? rmsNorm(x) : x; };
  // h ← keep·h + a·scale·block in one fused pass (the ×1/3 folded in); the activation record
  // gets the scaled block as before.
  const auto mix = [&](const at::Tensor& h, const at::Tensor& block, double scale, const std::string& tag) {
    if (stats) recordActivation(*stats, tag, scale == 1.0 ? block : block * scale);
    return residualMix(h, block, keep, a * scale);
  };
  auto h = lwb::linear(tokens, embed_);
  if (stats) recordActivation(*stats, "embed", h);
  for (size_t l = 0; l < layers_.size(); ++l) {
    const std::string tag = "layers." + std::to_string(l);
    h = mix(h, attention(norm(h), layers_[l]), attnScale(), tag + ".attn");
    h = mix(h, mlp(norm(h), layers_[l]), mlpScale(), tag + ".mlp");
  }
  return lwb::linear(norm(h), unembed_);
}

void IclTransformer::afterStep() {
  at::NoGradGuard noGrad;
  for (auto& g : gains_) g.clamp_(0.001, shape_.gainCap);
}

std::unique_ptr<Model> buildIclTransformer(const ModelBuild& b) {
  const ModelConfig& m = b.config;
  if (m.dModel % m.heads != 0 || (m.dModel / m.heads) % 2 != 0)
    throw InputError("model.d_model: must split into model.heads heads of even size");
  IclShape s;
  s.inputDim = b.task.inputDim;
  s.outputDim = b.task.numClasses;
  s.activeInputs = b.context.iclActiveInputs;
  s.dModel = m.dModel;
  s.layers = m.layers;
  s.heads = m.heads;
  s.lipschitz = m.lipschitz;
  s.rmsNorm = m.norm == Norm::Rms;
  s.attnScaleThird = m.attnScaleThird;
  s.mlpScaleThird = m.mlpScaleThird;
  s.gainCap = m.gainCap;
  s.residualPerSublayer = m.residualCount == ResidualCount::Sublayers;
  return std::make_unique<IclTransformer>(s, b.gen, b.device);
}

void iclTransformerWeights(const ModelConfig& m, const ModelSize& size, WeightShapes& out) {
  const double d = static_cast<double>(m.dModel);
  const bool gains = m.gainCap > 0;
  out.matrix(d, size.inputDim);
  for (int64_t l = 0; l < m.layers; ++l) {
    out.matrix(3 * d, d);
    out.matrix(d, d);
    out.matrix(4 * d, d);
    out.matrix(d, 2 * d);
    out.parameters += 1 + (gains ? 9 * d : 0);  // Swish β; gains of qkv, out, fc1, fc2
  }
  out.matrix(size.numClasses, d);
}

double iclTransformerActivations(const ModelConfig& m, const ModelSize& size) {
  const double b = size.batch, d = static_cast<double>(m.dModel), heads = static_cast<double>(m.heads);
  const double n = size.tokens, layers = static_cast<double>(m.layers);
  return b * n * d * layers * 24 + b * heads * n * n * layers * 3 + b * n * size.numClasses * 3;
}

}  // namespace lwb::models
