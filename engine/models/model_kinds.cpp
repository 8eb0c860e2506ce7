#include "models/model_kinds.h"

#include "common/tr_noop.h"
namespace lwb::models {

std::span<const KindInfo> modelKinds() {
  static const std::vector<KindInfo> kinds{
      {"mlp", LWB_TR_NOOP("Registry", "ReLU MLP"), {"model.widths"}, LWB_TR_NOOP("Registry", "bias-free ReLU MLP; input and output sizes from the task")},
      {"lipschitz_gpt",
       LWB_TR_NOOP("Registry", "Lipschitz transformer"),
       {"model.d_model", "model.blocks", "model.heads", "model.seq_len", "model.mlp_ratio", "model.final_logit_scale",
        "model.standard"},
       LWB_TR_NOOP("Registry", "000 §4: convex residuals, 1/d_head attention, GeLU/1.1289")},
      {"modular_mlp", LWB_TR_NOOP("Registry", "modular-arithmetic MLP"), {"model.embed_dim", "model.width"}, LWB_TR_NOOP("Registry", "001 §6.2.1: two embeddings, two layers")},
  };
  return kinds;
}

}  // namespace lwb::models
