#include "models/model_kinds.h"

#include "common/tr_noop.h"
namespace lwb::models {

std::span<const KindInfo> modelKinds() {
  static const std::vector<KindInfo> kinds{
      {"mlp", LWB_TR_NOOP("Registry", "ReLU MLP"), {"model.widths"}, LWB_TR_NOOP("Registry", "bias-free ReLU MLP; input and output sizes from the task")},
      {"lipschitz_gpt",
       LWB_TR_NOOP("Registry", "Lipschitz transformer"),
       {"model.d_model", "model.blocks", "model.heads", "model.seq_len", "model.mlp_ratio", "model.final_logit_scale",
        "model.residual_alpha", "model.residual", "model.score_scale", "model.attention_scores", "model.standard", "model.zero_init"},
       LWB_TR_NOOP("Registry", "000 §4: convex residuals, 1/d_head attention, GeLU/1.1289")},
      {"modular_mlp", LWB_TR_NOOP("Registry", "modular-arithmetic MLP"), {"model.embed_dim", "model.width"}, LWB_TR_NOOP("Registry", "001 §6.2.1: two embeddings, two layers")},
      {"icl_transformer",
       LWB_TR_NOOP("Registry", "norm-free ICL transformer"),
       {"model.d_model", "model.heads", "model.layers", "model.norm", "model.lipschitz", "model.attn_scale_third",
        "model.mlp_scale_third", "model.gain_cap", "model.residual_count"},
       LWB_TR_NOOP("Registry", "seed 002 §4: no normalisation, 1/d_head scores, ×1/3 attention and SwiGLU, convex residuals 1/L, RoPE")},
      {"attlip",
       LWB_TR_NOOP("Registry", "one-block masked LM (AttLip, ℓ2, standard or no attention)"),
       {"model.attention", "model.prox_steps", "model.prox_step_rule", "model.prox_steps_eval", "model.prox_tol", "model.prox_eta", "model.prox_w_cap", "model.token_norm",
        "model.d_model", "model.heads", "model.seq_len", "model.mlp_ratio"},
       LWB_TR_NOOP("Registry", "seed 004 §5.2: embedding + positions → attention → x + MLP(x) → unembedding, no norm")},
  };
  return kinds;
}

}  // namespace lwb::models
