#include "models/icl_transformer.h"

#include "models/factory.h"
#include "io/input_error.h"

#include "models/batched_gemm.h"
#include "models/init.h"

#include <ATen/TensorOperators.h>
#include <ATen/core/grad_mode.h>
#include <ATen/ops/arange.h>
#include <ATen/ops/cat.h>
#include <ATen/ops/cos.h>
#include <ATen/ops/linear.h>
#include <ATen/ops/ones.h>
#include <ATen/ops/outer.h>
#include <ATen/ops/pow.h>
#include <ATen/ops/randn.h>
#include <ATen/ops/rand.h>
#include <ATen/ops/rsqrt.h>
#include <ATen/ops/sigmoid.h>
#include <ATen/ops/sin.h>
#include <ATen/ops/softmax.h>
#include <ATen/ops/triu.h>

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

at::Tensor IclTransformer::rotary(const at::Tensor& x, int64_t offset) const {
  // θ_{p,i} = p · 10000^(−2i/d_head), rotate-half pairing (x_i, x_{i+d_head/2}).
  const int64_t n = x.size(-2), half = x.size(-1) / 2;
  const auto f32 = at::TensorOptions().dtype(at::kFloat).device(x.device());
  const auto inv = at::pow(10000.0, at::arange(half, f32) * (-2.0 / static_cast<double>(x.size(-1))));
  const auto pos = at::arange(offset, offset + n, at::TensorOptions().dtype(at::kDouble)).to(f32);
  const auto angles = at::outer(pos, inv);
  const auto c = at::cos(angles), s = at::sin(angles);
  const auto x1 = x.narrow(-1, 0, half), x2 = x.narrow(-1, half, half);
  return at::cat({x1 * c - x2 * s, x1 * s + x2 * c}, -1);
}

at::Tensor IclTransformer::qkvHeads(const at::Tensor& h, const Layer& l, int64_t offset, at::Tensor* v) const {
  const int64_t b = h.size(0), n = h.size(1), d = shape_.dModel, nh = shape_.heads, dh = d / nh;
  const auto qkv = gained(at::linear(h, l.qkv), l.gQkv);
  auto split = [&](int64_t i) { return qkv.narrow(-1, i * d, d).reshape({b, n, nh, dh}).transpose(1, 2); };
  if (v) *v = split(2);
  const auto q = rotary(split(0), offset), k = rotary(split(1), offset);
  // One BLAS call per (sample, head) (models/batched_gemm.h); the scale as the GEMM's alpha.
  return batchedGemm(q.reshape({b * nh, n, dh}), k.reshape({b * nh, n, dh}).transpose(1, 2), at::Tensor(), attentionScale())
      .view({b, nh, n, n});
}

at::Tensor IclTransformer::attentionScores(const at::Tensor& h, int64_t layer, int64_t offset) const {
  return qkvHeads(h, layers_.at(static_cast<size_t>(layer)), offset, nullptr);
}

at::Tensor IclTransformer::attention(const at::Tensor& h, const Layer& l) const {
  const int64_t b = h.size(0), n = h.size(1);
  at::Tensor v;
  auto scores = qkvHeads(h, l, 0, &v);
  const auto mask = at::triu(at::ones({n, n}, at::TensorOptions().dtype(at::kBool).device(h.device())), 1);
  scores = scores.masked_fill(mask, -INFINITY);
  const int64_t nh = shape_.heads, dh = shape_.dModel / nh;
  const auto mixed = batchedGemm(at::softmax(scores, -1).reshape({b * nh, n, n}), v.reshape({b * nh, n, dh}), at::Tensor(), 1.0)
                         .view({b, nh, n, dh})
                         .transpose(1, 2)
                         .reshape({b, n, shape_.dModel});
  const auto o = gained(at::linear(mixed, l.out), l.gOut);
  return shape_.lipschitz && shape_.attnScaleThird ? o * (1.0 / 3.0) : o;
}

at::Tensor IclTransformer::mlp(const at::Tensor& h, const Layer& l) const {
  const int64_t half = 2 * shape_.dModel;
  const auto mg = gained(at::linear(h, l.fc1), l.gFc1);
  const auto m = mg.narrow(-1, 0, half), g = mg.narrow(-1, half, half);
  const auto z = m * g * at::sigmoid(g * l.beta);  // SwiGLU with Swish-β
  const auto o = gained(at::linear(z, l.fc2), l.gFc2);
  return shape_.lipschitz && shape_.mlpScaleThird ? o * (1.0 / 3.0) : o;
}

at::Tensor IclTransformer::run(const at::Tensor& tokens, ActivationStats* stats) {
  if (tokens.dim() != 3 || tokens.size(2) != shape_.inputDim)
    throw std::invalid_argument("icl_transformer: tokens must be [B, N, " + std::to_string(shape_.inputDim) + "]");
  const double a = residualAlpha();
  const auto norm = [&](const at::Tensor& x) { return shape_.rmsNorm ? rmsNorm(x) : x; };
  const auto mix = [&](const at::Tensor& h, const at::Tensor& block) {
    return shape_.lipschitz ? h * (1.0 - a) + block * a : h + block;
  };
  auto h = at::linear(tokens, embed_);
  if (stats) recordActivation(*stats, "embed", h);
  for (size_t l = 0; l < layers_.size(); ++l) {
    const std::string tag = "layers." + std::to_string(l);
    const auto att = attention(norm(h), layers_[l]);
    if (stats) recordActivation(*stats, tag + ".attn", att);
    h = mix(h, att);
    const auto m = mlp(norm(h), layers_[l]);
    if (stats) recordActivation(*stats, tag + ".mlp", m);
    h = mix(h, m);
  }
  return at::linear(norm(h), unembed_);
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
