// `attlip`: the one-block masked language model of seed 004 Table 2 (§5.2), read as
// SEEDS-002-004 §G.3.7: token embedding + learned positions → attention → x + MLP(x) →
// unembedding, no normalisation. The attention is one of
//   attlip    prox_{ηf} of the convex potential (attention/attlip.h); no extra residual: the
//             prox already contains the identity ("implicit residual");
//   l2        x + Att_ℓ2(x), Kim's ℓ2 multi-head attention (attention/l2_attention.h);
//   standard  x + Att(x), dot-product softmax attention, non-causal;
//   none      nothing: the "MLP only" row of Table 2.
// AttLip runs K(t) = min(K, 1 + ⌊K t / steps⌋) solver steps at training step t (1 → K_prox,
// §5.2) with autograd through the unrolled steps, and at evaluation prox_steps_eval steps or
// until ‖g‖ ≤ prox_tol·‖g⁰‖ (§C.4: the 1-Lipschitz guarantee is the converged prox's).
#pragma once

#include "attention/attlip.h"
#include "attention/attention_kinds.h"
#include "attention/l2_attention.h"
#include "attention/standard_attention.h"
#include "models/model.h"
#include "models/model_kinds.h"

#include <ATen/core/Generator.h>

#include <memory>

#include <optional>

namespace lwb::models {

// The kinds and their traits live in attention/attention_kinds.h (one row per kind).
using attention::AttentionKind;

struct AttLipShape {
  int64_t vocab = 66;        // input ids (characters + [MASK]) and output classes
  int64_t seqLen = 64, dModel = 64, heads = 4, mlpRatio = 4;
  AttentionKind attention = AttentionKind::AttLip;
  int64_t proxSteps = 3;     // K_prox at the end of the training schedule
  int64_t proxStepsEval = 20;
  double proxTol = 1e-6;     // relative, evaluation only
  attention::ProxRule rule = attention::ProxRule::Armijo;
  double eta = 1.0;          // η of prox_{ηf}
  double wCap = 0;           // > 0: W^h scaled to ‖W^h‖_F ≤ wCap in the forward (bounds κ)
  bool tokenNorm = false;    // attention input rows scaled to unit ℓ2 norm
  double relaxation = 1.0;   // α of attention::relaxProx (1: 004's AttLip)
};

// What the last AttLip call reported (absent for other attention kinds).
struct ProxReport {
  double residual = 0;  // ‖g_K‖_F, max over the batch
  int steps = 0;        // solver steps taken
  bool converged = false;  // every example reached prox_tol (evaluation only; false in training)
  // Is the block more than the identity (issue 26)? ‖AttLip(X) − X‖_F/‖X‖_F, the accepted
  // λ (mean, min) and ‖g_K‖/‖g_0‖ (max over the batch); see attention::ProxResult.
  double movement = 0, stepMean = 0, stepMin = 0, residualRatio = 0;
};
ProxReport proxReportOf(const attention::ProxResult& r);

class AttLipModel final : public Model {
 public:
  AttLipModel(const AttLipShape& shape, at::Generator& gen, const at::Device& device);
  // tokens [B, T] int64 (T <= seqLen) -> logits [B, T, vocab]
  at::Tensor forward(const at::Tensor& tokens) override { return run(tokens, nullptr); }
  at::Tensor forwardWithStats(const at::Tensor& tokens, ActivationStats& stats) override { return run(tokens, &stats); }
  std::vector<Param> parameters() override { return params_; }
  ModelKind kind() const override { return ModelKind::AttLip; }
  void setEvaluation(bool evaluation) override { evaluation_ = evaluation; }
  void setTrainingProgress(int64_t step, int64_t steps) override;

  const AttLipShape& shape() const { return shape_; }
  // K of the training schedule at 0-based step t of `steps`.
  static int64_t scheduledProxSteps(int64_t maxSteps, int64_t step, int64_t steps);
  int64_t trainingProxSteps() const { return trainK_; }
  const std::optional<ProxReport>& lastProx() const { return lastProx_; }

  // The input of the attention block, [B, T, d]: token + position embeddings (rows scaled to
  // unit norm with model.token_norm).
  at::Tensor embed(const at::Tensor& tokens) const;
  // The attention function alone on embedded inputs x [B, T, d] in x's dtype (weights cast to
  // it, detached when `detachWeights`): AttLip's prox with `options`, else Att_ℓ2(x) or Att(x)
  // without the residual (what 004 Table 1 measures). Undefined for `none`.
  at::Tensor attentionOnly(const at::Tensor& x, const attention::ProxOptions& options, bool detachWeights,
                           attention::ProxResult* prox = nullptr) const;
  // Theoretical ℓ2 Lipschitz bound of the attention function on `tokens` tokens: 1 for AttLip
  // (the converged prox, Thm 4), Kim's bound for ℓ2 (attention::l2AttentionBound, ‖W_Q^h‖₂²; not
  // 004's Eq. 6 as printed, which is no bound), nullopt for standard attention (no global bound)
  // and for `none` (no attention).
  std::optional<double> attentionBound(int64_t tokens) const;
  // [H, d_h, d] as the forward uses them (after model.prox_w_cap); undefined unless attention = attlip.
  at::Tensor attlipWeights() const;
  // The solver settings the model uses now (training schedule or evaluation).
  attention::ProxOptions proxOptions() const;

 private:
  at::Tensor run(const at::Tensor& tokens, ActivationStats* stats);
  at::Tensor attend(const at::Tensor& x);
  at::Tensor add(const std::string& name, Role role, const at::Tensor& t, const at::Device& device);
  attention::L2AttentionWeights l2Weights(at::ScalarType dtype, bool detach) const;
  attention::StandardAttentionWeights standardWeights(at::ScalarType dtype, bool detach) const;

  AttLipShape shape_;
  std::vector<Param> params_;
  at::Tensor tokenEmbed_, posEmbed_, mlpIn_, mlpOut_, head_;
  at::Tensor w_, query_, key_, value_, out_;  // attention weights of the chosen kind
  bool evaluation_ = false;
  int64_t trainK_ = 1;
  std::optional<ProxReport> lastProx_;
};

// Its registry row's behaviour (models/model_kinds.cpp): the factory and the memory estimate's sizes.
std::unique_ptr<Model> buildAttLip(const ModelBuild& b);
void attLipWeights(const ModelConfig& m, const ModelSize& size, WeightShapes& out);
double attLipActivations(const ModelConfig& m, const ModelSize& size);

}  // namespace lwb::models
