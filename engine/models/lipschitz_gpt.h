// `lipschitz_gpt`: character-level decoder without LayerNorm (000 §4.1, App. F):
// RMS-normalised embedding rows, attention with 1/d_head inside the softmax and 1/3 on the
// output, causal mask, rotary positions (orthogonal, so norms and the bound are unchanged),
// MLP GeLU/1.1289 (or MaxMin), residuals (N-1)/N x + 1/N block over N = 2 * blocks connections,
// orthogonal init, zero-initialised out-projections (and optionally head), a final logit scale,
// optionally a learned relative-position bias in the scores (part of the mask: bound unchanged)
// and a causal convolution over the embedded tokens before the first block.
// `standard = true` gives the baseline: pre-LayerNorm, 1/sqrt(d_head), x + block, GeLU.
#pragma once

#include "models/model.h"
#include "models/model_kinds.h"

#include <ATen/core/Generator.h>

#include <memory>

namespace lwb::models {

struct GptShape {
  int64_t vocab = 65, dModel = 128, blocks = 2, heads = 4, seqLen = 64, mlpRatio = 4;
  double finalLogitScale = 1.0;
  bool standard = false;
  double residualAlpha = 0.0;  // convex residual weight; 0: 1 / (2 blocks) as in 000 App. D
  double scoreScale = 1.0;     // T in T / d_head inside the softmax (000: T = 1)
  // x + block(x) with no 1/3 on the attention (LT's code of 2025-05-07..10) instead of the
  // convex residual; the bound (measurements.cpp) follows.
  bool sumResidual = false;
  // Scores: content (000), content plus a learned bias per head and offset i - j
  // (blocks.b.attn.pos), or that bias alone (no W_Q, W_K, no 1/3); model_config.h says why.
  bool positionBias = false, contentScores = true;
  // 000 App. F zero-initialises the attention output, the MLP output and the head; with
  // zeroOutputs false they start orthogonal like the other projections.
  bool zeroOutputs = true, zeroHead = false;
  int64_t inputConv = 0;  // width k of the causal convolution before the blocks (0: none)
  bool logitBias = false;  // a learned vector added to the scaled logits (head.bias)
  bool maxMin = false;     // MLP nonlinearity MaxMin (pairs sorted) instead of GeLU / 1.1289
};

class LipschitzGpt final : public Model {
 public:
  LipschitzGpt(const GptShape& shape, at::Generator& gen, const at::Device& device);
  // tokens [B, T] int64 (T <= seqLen) -> logits [B, T, vocab]
  at::Tensor forward(const at::Tensor& tokens) override { return run(tokens, nullptr); }
  at::Tensor forwardWithStats(const at::Tensor& tokens, ActivationStats& stats) override {
    return run(tokens, &stats);
  }
  // Same network from already-embedded inputs x0 [B, T, d] (the bound and the empirical
  // Lipschitz estimate are stated from the embedding output).
  at::Tensor forwardFromEmbeddings(const at::Tensor& x0);
  std::vector<Param> parameters() override { return params_; }
  void afterStep() override;
  ModelKind kind() const override { return ModelKind::LipschitzGpt; }
  const GptShape& shape() const { return shape_; }
  double residualAlpha() const;   // 1/N (Lipschitz) or 1 (standard: x + block)
  double attentionScale() const;  // s_attn inside the softmax
  double attentionOutScale() const;  // 1/3 (000 eq. 15), or 1 (standard, sum residual)

 private:
  at::Tensor run(const at::Tensor& tokens, ActivationStats* stats);
  at::Tensor blocksForward(at::Tensor x, ActivationStats* stats);
  at::Tensor inputConv(const at::Tensor& x) const;  // W [x_t; …; x_{t-k+1}]
  size_t headIndex_ = 0;  // params_[headIndex_] is the head; head.bias, if any, follows it
  at::Tensor attention(const at::Tensor& x, int64_t block);
  at::Tensor positionBias(int64_t block, int64_t t) const;  // [heads, t, t], causal mask included
  at::Tensor mlp(const at::Tensor& x, int64_t block);  // before its output scale
  double mlpOutScale() const;                           // 1/1.1289 (GELU's slope), or 1 (standard, MaxMin)
  at::Tensor rotary(const at::Tensor& x) const;  // x [B, h, T, dh]
  const at::Tensor& w(int64_t block, Role role) const;

  GptShape shape_;
  std::vector<Param> params_;  // embed, per block q k v o mlp_in mlp_out (+ LN gains), head
  std::vector<at::Tensor> layerNormGains_;  // standard baseline only
  at::Tensor cos_, sin_, causalBias_;
  at::Tensor relativeIndex_;  // [seqLen * seqLen] int64: i - j, clamped at 0 above the diagonal
};

// Its registry row's behaviour (models/model_kinds.cpp): the factory and the memory estimate's sizes.
std::unique_ptr<Model> buildLipschitzGpt(const ModelBuild& b);
void lipschitzGptWeights(const ModelConfig& m, const ModelSize& size, WeightShapes& out);
double lipschitzGptActivations(const ModelConfig& m, const ModelSize& size);

}  // namespace lwb::models
