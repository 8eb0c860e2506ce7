#include "models/model_kinds.h"

#include "common/tr_noop.h"
#include "models/attlip_model.h"
#include "models/icl_transformer.h"
#include "models/lipschitz_gpt.h"
#include "models/mlp.h"
#include "models/modular_mlp.h"

namespace lwb::models {

namespace {

const std::vector<ModelRow>& rows() {
  using I = data::TaskInput;
  static const std::vector<ModelRow> table{
      {ModelKind::Mlp,
       {"mlp", LWB_TR_NOOP("Registry", "ReLU MLP"), {"model.widths"}, LWB_TR_NOOP("Registry", "bias-free ReLU MLP; input and output sizes from the task")},
       I::Features, ModelBound::LayerChain, "relu", 1.0, ModulaMass::Chain, buildMlp, mlpWeights, mlpActivations},
      {ModelKind::LipschitzGpt,
       {"lipschitz_gpt", LWB_TR_NOOP("Registry", "Lipschitz transformer"),
        {"model.d_model", "model.blocks", "model.heads", "model.seq_len", "model.mlp_ratio", "model.final_logit_scale",
         "model.residual_alpha", "model.residual", "model.score_scale", "model.attention_scores", "model.input_conv", "model.logit_bias", "model.mlp_activation", "model.standard", "model.zero_init"},
        LWB_TR_NOOP("Registry", "000 §4: convex residuals, 1/d_head attention, GeLU/1.1289")},
       I::NextToken, ModelBound::Transformer, "", 1.0, ModulaMass::ResidualBlocks, buildLipschitzGpt, lipschitzGptWeights,
       lipschitzGptActivations},
      // Two layers with a plain GeLU between them (slope ≤ 1.1289, 001 §6.2.1).
      {ModelKind::ModularMlp,
       {"modular_mlp", LWB_TR_NOOP("Registry", "modular-arithmetic MLP"), {"model.embed_dim", "model.width"}, LWB_TR_NOOP("Registry", "001 §6.2.1: two embeddings, two layers")},
       I::OperandPair, ModelBound::LayerChain, "gelu", 1.1289, ModulaMass::None, buildModularMlp, modularMlpWeights,
       modularMlpActivations},
      {ModelKind::IclTransformer,
       {"icl_transformer", LWB_TR_NOOP("Registry", "norm-free ICL transformer"),
        {"model.d_model", "model.heads", "model.layers", "model.norm", "model.lipschitz", "model.attn_scale_third",
         "model.mlp_scale_third", "model.gain_cap", "model.residual_count"},
        LWB_TR_NOOP("Registry", "seed 002 §4: no normalisation, 1/d_head scores, ×1/3 attention and SwiGLU, convex residuals 1/L, RoPE")},
       I::IclSequence, ModelBound::None, "", 1.0, ModulaMass::None, buildIclTransformer, iclTransformerWeights,
       iclTransformerActivations},
      {ModelKind::AttLip,
       {"attlip", LWB_TR_NOOP("Registry", "one-block masked LM (AttLip, ℓ2, standard or no attention)"),
        {"model.attention", "model.prox_steps", "model.prox_step_rule", "model.prox_steps_eval", "model.prox_tol", "model.prox_eta",
         "model.prox_w_cap", "model.token_norm", "model.prox_relaxation", "model.d_model", "model.heads", "model.seq_len", "model.mlp_ratio"},
        LWB_TR_NOOP("Registry", "seed 004 §5.2: embedding + positions → attention → x + MLP(x) → unembedding, no norm")},
       I::MaskedToken, ModelBound::AttLip, "", 1.0, ModulaMass::None, buildAttLip, attLipWeights, attLipActivations},
  };
  return table;
}

}  // namespace

std::span<const ModelRow> modelRows() { return rows(); }
const ModelRow& row(ModelKind kind) { return kinds::rowOf(modelRows(), kind); }
std::string_view toString(ModelKind kind) { return row(kind).info.id; }

std::optional<ModelKind> parseModelKind(std::string_view id) {
  if (const ModelRow* r = kinds::findRow(modelRows(), id)) return r->kind;
  return std::nullopt;
}

std::span<const KindInfo> modelKinds() {
  static const std::vector<KindInfo> infos = kinds::infosOf(modelRows());
  return infos;
}

}  // namespace lwb::models
