#include "optim/optimizer_kinds.h"

namespace lwb::optim {

std::span<const KindInfo> optimizerKinds() {
  // Muon with optimizer.embed_update = adamw also reads AdamW's betas for the embedding.
  static const std::vector<KindInfo> kinds{
      {"adamw", "AdamW", {"optimizer.beta1", "optimizer.beta2", "optimizer.eps", "optimizer.bias_correction"}, ""},
      {"muon",
       "Muon",
       {"optimizer.momentum", "optimizer.nesterov", "optimizer.ns_coeffs", "optimizer.ns_steps", "optimizer.muon_scale",
        "optimizer.embed_update", "optimizer.embed_max_inflation"},
       "msign of the momentum (Jordan et al. 2024): updates of known RMS→RMS norm"},
      {"sgd", "SGD", {"optimizer.momentum", "optimizer.nesterov"}, ""},
  };
  return kinds;
}

}  // namespace lwb::optim
