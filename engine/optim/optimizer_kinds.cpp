#include "optim/optimizer_kinds.h"

#include "common/tr_noop.h"
namespace lwb::optim {

std::span<const KindInfo> optimizerKinds() {
  // Muon with optimizer.embed_update = adamw also reads AdamW's betas for the embedding.
  static const std::vector<KindInfo> kinds{
      {"adamw", LWB_TR_NOOP("Registry", "AdamW"), {"optimizer.beta1", "optimizer.beta2", "optimizer.eps", "optimizer.bias_correction"}, ""},
      {"muon",
       LWB_TR_NOOP("Registry", "Muon"),
       {"optimizer.momentum", "optimizer.nesterov", "optimizer.ns_coeffs", "optimizer.ns_steps", "optimizer.muon_scale",
        "optimizer.embed_update", "optimizer.embed_max_inflation", "optimizer.lr_units", "optimizer.blocks_mass"},
       LWB_TR_NOOP("Registry", "msign of the momentum (Jordan et al. 2024): updates of known RMS→RMS norm")},
      {"sgd", LWB_TR_NOOP("Registry", "SGD"), {"optimizer.momentum", "optimizer.nesterov"}, ""},
      {"manifold_muon",
       LWB_TR_NOOP("Registry", "Manifold Muon"),
       {"optimizer.momentum", "optimizer.dual_lr", "optimizer.dual_steps", "optimizer.dual_tol", "optimizer.mode",
        "optimizer.normalize_dual", "optimizer.lambda_init", "optimizer.adam_lr", "optimizer.clip_grad_norm",
        "optimizer.beta1", "optimizer.beta2", "optimizer.eps", "optimizer.bias_correction"},
       LWB_TR_NOOP("Registry", "seed 002: steepest descent on the Stiefel manifold, dual step + msign retraction; embeddings, head and scalars by AdamW")},
  };
  return kinds;
}

}  // namespace lwb::optim
