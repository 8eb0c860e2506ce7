// The "model" section of a run config: which model and its shape (models/factory.h builds it).
// run/run_config.h reads and writes it as JSON (key names are a contract: ARCHITECTURE.md
// "Config keys that scripts rely on"). Plain values: no LibTorch, no JSON.
#pragma once

#include "attention/attention_kinds.h"
#include "common/choice.h"
#include "data/task_kinds.h"
#include "models/model_kinds.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lwb::models {

// Choice-valued options of the model section (config ids in the tables).
enum class Residual { Convex, Sum };
inline constexpr std::array<Choice<Residual>, 2> kResiduals{{{Residual::Convex, "convex"}, {Residual::Sum, "sum"}}};
enum class AttentionScores { Content, ContentPosition, Position };
inline constexpr std::array<Choice<AttentionScores>, 3> kAttentionScores{
    {{AttentionScores::Content, "content"}, {AttentionScores::ContentPosition, "content_position"}, {AttentionScores::Position, "position"}}};
enum class ZeroInit { Outputs, OutputsAndHead, None };
inline constexpr std::array<Choice<ZeroInit>, 3> kZeroInits{
    {{ZeroInit::Outputs, "outputs"}, {ZeroInit::OutputsAndHead, "outputs_and_head"}, {ZeroInit::None, "none"}}};
enum class MlpActivation { Gelu, MaxMin };
inline constexpr std::array<Choice<MlpActivation>, 2> kMlpActivations{{{MlpActivation::Gelu, "gelu"}, {MlpActivation::MaxMin, "maxmin"}}};
enum class Norm { None, Rms };
inline constexpr std::array<Choice<Norm>, 2> kNorms{{{Norm::None, "none"}, {Norm::Rms, "rms"}}};
enum class ResidualCount { Layers, Sublayers };
inline constexpr std::array<Choice<ResidualCount>, 2> kResidualCounts{{{ResidualCount::Layers, "layers"}, {ResidualCount::Sublayers, "sublayers"}}};


struct ModelConfig {
  ModelKind kind = ModelKind::Mlp;  // its row: models/model_kinds.h
  std::vector<int64_t> widths{256};    // mlp: hidden widths (input/output from the task)
  // lipschitz_gpt
  int64_t dModel = 128, blocks = 2, heads = 4, seqLen = 64, mlpRatio = 4;
  double finalLogitScale = 1.0;
  // Convex residual weight a in (1 - a) x + a block(x); 0: 000's 1/(2 blocks). Any a in [0, 1)
  // keeps a connection's constant at (1 - a) + a L_block, so it moves the bound only where L_block != 1.
  double residualAlpha = 0.0;
  // Multiplier T on 000's 1/d_head inside the softmax: scores reach +-T at unit-RMS tokens, so
  // attention can focus, and App. D's attention constant grows by T (c^2 with c = sqrt(T)).
  double scoreScale = 1.0;
  // What the attention scores are made of. content: s q·k / d_head (000). content_position:
  // plus a learned bias b_h[i - j] per head and query-key offset (T5-style relative
  // positions); it does not depend on the input, so it is part of 000 Theorem D.1's mask M and
  // leaves the sound bound unchanged, while letting a head select the previous character,
  // which bounded scores (|q·k / d_head| <= sigma_max^2) cannot (RESULTS §5.5). position: the
  // bias alone (no W_Q, W_K): the attention matrix is fixed, the head is a linear map of the
  // values with constant ||W_O|| ||W_V||, so eq. (15)'s 1/3 (the sensitivity to q, k and v)
  // is not needed.
  AttentionScores attentionScores = AttentionScores::Content;
  // Width k of a causal convolution over the embedded tokens before the first block (0: none):
  // z_t = W [x_t; x_{t-1}; …; x_{t-k+1}] with one d × kd matrix W (zeros before the start).
  // In the ∞-RMS norm the stacked input's RMS is at most the largest token's, so the layer's
  // constant is W's RMS(kd) → RMS(d) norm, which the constraint caps like any other matrix:
  // k characters reach the blocks at once, each at gain up to 1/√k, where averaging attention
  // gives a sum of weights ≤ 1 (RESULTS §5.8).
  int64_t inputConv = 0;
  // A learned vector added to the logits after the logit scale (zeros at the start, Adam's
  // side group like the other non-matrix parameters). An additive constant has Lipschitz
  // constant 0, so the sound bound is unchanged, and the model no longer spends its logit
  // budget (logit scale × head norm) on the characters' overall frequencies (RESULTS §5.9).
  bool logitBias = false;
  // The MLP's nonlinearity. gelu: GeLU / 1.1289 (000), 1-Lipschitz but with slope 0.44 at 0
  // and 0 for negative inputs, so the MLP realises a fraction of the ||W_out|| ||W_in|| the
  // bound charges it. maxmin: the hidden units in pairs (a, b) -> (max(a, b), min(a, b))
  // (Anil et al. 2019's GroupSort of size 2): a permutation of each pair, so it keeps every
  // token's norm and its Jacobian is a permutation almost everywhere — 1-Lipschitz with the
  // full slope used (RESULTS §5.10). The hidden width is even (d_model is: heads of even size).
  MlpActivation mlpActivation = MlpActivation::Gelu;
  // How a block joins the stream: convex ((1 - a) x + a block(x), 000 App. D, the default) or
  // sum (x + block(x) with the attention's 1/3 dropped: what LT's code ran from 2025-05-07 to
  // -10, when its Mul was x · 1; docs/RESULTS.md §5.6). The sound bound follows either.
  Residual residual = Residual::Convex;
  bool standard = false;               // baseline: LayerNorm, 1/sqrt(d_head), x + block
  // Which output projections start at zero (000 App. F: attention output, MLP output and
  // head): outputs (attention + MLP output) | outputs_and_head | none.
  ZeroInit zeroInit = ZeroInit::Outputs;
  // modular_mlp (post 001 §6.2.1): embedding dim per operand, hidden width, 2 layers
  int64_t embedDim = 113, width = 200;
  // icl_transformer (seed 002 §4, SEEDS-002-004 §B.2); d_model and heads as above
  int64_t layers = 4;
  Norm norm = Norm::None;              // rms: the "Type 1" baseline
  bool lipschitz = true;               // 1/d_head, ×1/3 attention and MLP, convex residuals, orthogonal init
  bool attnScaleThird = true, mlpScaleThird = true;  // the two ×1/3 separately (§6.1), with lipschitz
  double gainCap = 0.0;                // diagonal gains clamped to [0.001, cap] (§6.2); 0: off
  ResidualCount residualCount = ResidualCount::Layers;  // convex residual weight 1/layers (002) or 1/(2 layers)
  // attlip (seed 004 Table 2 analogue, SEEDS-002-004 §C): one block emb → attention → x + MLP(x)
  // → unemb; d_model, heads, seq_len and mlp_ratio as above.
  attention::AttentionKind attention = attention::AttentionKind::AttLip;  // or none: MLP only
  int64_t proxSteps = 3;               // K_prox in training, reached by the schedule 1 → K_prox
  attention::ProxRule proxStepRule = attention::ProxRule::Armijo;  // 004 Alg. 1; fixed: 1-Lipschitz for every K (§C.2)
  int64_t proxStepsEval = 20;          // K at evaluation (004 §5: 20 "to ensure convergence")
  double proxTol = 1e-6;               // evaluation stops early at ‖g‖ ≤ prox_tol·‖g⁰‖ (§C.4)
  // Levers on the prox's condition number κ = 1 + η·L_f (issue 26, FIDELITY §3):
  double proxEta = 1.0;                // η of prox_{ηf} (004 §5: 1)
  double proxWCap = 0;                 // > 0: each head's W^h scaled to ‖W^h‖_F ≤ cap in the forward
  bool tokenNorm = false;              // rows of the attention input scaled to unit ℓ2 norm
  // α of the relaxed prox x + α(prox(x) − x), 1-Lipschitz for α ∈ (0, 2] (attention::relaxProx);
  // 1 is 004's AttLip.
  double proxRelaxation = 1.0;
};

// What building a model needs besides its own section (run::modelContext fills it from a
// run config).
struct ModelContext {
  data::TaskKind task = data::TaskKind::Mnist;  // a model refuses tasks it does not fit
  int64_t iclActiveInputs = 0;  // icl_least_squares: input features that carry data (dim + 1 + bias)
  double embedRmsMax = 1.0;     // constraint.embed_rms_max: modular_mlp caps its embedding rows
};

}  // namespace lwb::models
