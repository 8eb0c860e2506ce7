#include "models/model_kinds.h"

namespace lwb::models {

std::span<const KindInfo> modelKinds() {
  static const std::vector<KindInfo> kinds{
      {"mlp", "ReLU MLP", {"model.widths"}, "bias-free ReLU MLP; input and output sizes from the task"},
      {"lipschitz_gpt",
       "Lipschitz transformer",
       {"model.d_model", "model.blocks", "model.heads", "model.seq_len", "model.mlp_ratio", "model.final_logit_scale",
        "model.standard"},
       "000 §4: convex residuals, 1/d_head attention, GeLU/1.1289"},
      {"modular_mlp", "modular-arithmetic MLP", {"model.embed_dim", "model.width"}, "001 §6.2.1: two embeddings, two layers"},
  };
  return kinds;
}

}  // namespace lwb::models
