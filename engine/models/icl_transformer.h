// `icl_transformer`: the norm-free in-context least-squares transformer of seed 002 (§4,
// App. 8.2; SEEDS-002-004 §B.2). Tokens (13 features) → Linear embedding → L layers of
//   h ← (1 − 1/L) h + (1/L)·Attn(h),  h ← (1 − 1/L) h + (1/L)·MLP(h)
// with fused qkv, RoPE, scores q·kᵀ/d_head, causal softmax, out-projection × 1/3, and a
// SwiGLU MLP with a trainable Swish β, × 1/3; then a Linear unembedding (no final norm).
// Orthogonal init of every Linear but the embedding (σ = 1: on the Stiefel manifold).
// `lipschitz = false` gives plain residuals, 1/√d_head, no ×1/3 and PyTorch's default init;
// `norm = rms` adds RMSNorm (no gain) before Attn, MLP and the unembedding ("Type 1").
// Optional diagonal gains g ⊙ (Wx), clamped to [0.001, cap] (§6.2).
#pragma once

#include "models/model.h"
#include "models/model_kinds.h"

#include <ATen/core/Generator.h>

#include <memory>

namespace lwb::models {

struct IclShape {
  int64_t inputDim = 13, outputDim = 5, dModel = 256, layers = 15, heads = 8;
  int64_t activeInputs = 7;  // nonzero inputs per token (flag + D + bias): embedding init std 1/√this
  bool lipschitz = true, rmsNorm = false;
  bool attnScaleThird = true, mlpScaleThird = true;  // effective only with lipschitz
  double gainCap = 0.0;
  bool residualPerSublayer = false;  // 1/(2L) instead of 1/L
};

class IclTransformer final : public Model {
 public:
  IclTransformer(const IclShape& shape, at::Generator& gen, const at::Device& device);
  // tokens [B, N, inputDim] float32 → outputs [B, N, outputDim]
  at::Tensor forward(const at::Tensor& tokens) override { return run(tokens, nullptr); }
  at::Tensor forwardWithStats(const at::Tensor& tokens, ActivationStats& stats) override { return run(tokens, &stats); }
  std::vector<Param> parameters() override { return params_; }
  void afterStep() override;  // clamps the gains
  ModelKind kind() const override { return ModelKind::IclTransformer; }
  const IclShape& shape() const { return shape_; }
  double residualAlpha() const;
  double attentionScale() const;
  // Layer `layer`'s attention scores (before the mask) for input h [B, N, d] placed at
  // positions offset, offset + 1, …: RoPE makes them depend on position differences only.
  at::Tensor attentionScores(const at::Tensor& h, int64_t layer, int64_t offset = 0) const;

 private:
  struct Layer {
    at::Tensor qkv, out, fc1, fc2, beta;
    at::Tensor gQkv, gOut, gFc1, gFc2;  // gains (undefined when off)
  };
  at::Tensor run(const at::Tensor& tokens, ActivationStats* stats);
  at::Tensor attention(const at::Tensor& h, const Layer& l) const;
  at::Tensor mlp(const at::Tensor& h, const Layer& l) const;
  double attnScale() const;  // the out-projection's ×1/3 (lipschitz), else 1
  double mlpScale() const;
  at::Tensor qkvHeads(const at::Tensor& h, const Layer& l, int64_t offset, at::Tensor* v) const;

  IclShape shape_;
  std::vector<Param> params_;
  std::vector<Layer> layers_;
  at::Tensor embed_, unembed_;
  std::vector<at::Tensor> gains_;
};

// Its registry row's behaviour (models/model_kinds.cpp): the factory and the memory estimate's sizes.
std::unique_ptr<Model> buildIclTransformer(const ModelBuild& b);
void iclTransformerWeights(const ModelConfig& m, const ModelSize& size, WeightShapes& out);
double iclTransformerActivations(const ModelConfig& m, const ModelSize& size);

}  // namespace lwb::models
