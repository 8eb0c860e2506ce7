#include "optim/optimizer_kinds.h"

#include "common/tr_noop.h"
#include "optim/adamw.h"
#include "optim/manifold_muon.h"
#include "optim/muon.h"
#include "optim/sgd.h"

namespace lwb::optim {

namespace {

template <class T>
std::unique_ptr<Optimizer> make(const OptimizerConfig& cfg, std::vector<ParamSlot>&& slots) {
  return std::make_unique<T>(cfg, std::move(slots));
}

const std::vector<OptimizerRow>& rows() {
  // Muon with optimizer.embed_update = adamw also reads AdamW's betas for the embedding.
  static const std::vector<OptimizerRow> table{
      {OptimizerKind::AdamW,
       {"adamw", LWB_TR_NOOP("Registry", "AdamW"), {"optimizer.beta1", "optimizer.beta2", "optimizer.eps", "optimizer.bias_correction"}, ""},
       2, false, make<AdamW>},
      {OptimizerKind::Muon,
       {"muon", LWB_TR_NOOP("Registry", "Muon"),
        {"optimizer.momentum", "optimizer.nesterov", "optimizer.ns_coeffs", "optimizer.ns_steps", "optimizer.muon_scale",
         "optimizer.embed_update", "optimizer.embed_max_inflation", "optimizer.lr_units", "optimizer.blocks_mass"},
        LWB_TR_NOOP("Registry", "msign of the momentum (Jordan et al. 2024): updates of known RMS→RMS norm")},
       1, true, make<Muon>},
      {OptimizerKind::Sgd, {"sgd", LWB_TR_NOOP("Registry", "SGD"), {"optimizer.momentum", "optimizer.nesterov"}, ""}, 1, false, make<Sgd>},
      {OptimizerKind::ManifoldMuon,
       {"manifold_muon", LWB_TR_NOOP("Registry", "Manifold Muon"),
        {"optimizer.momentum", "optimizer.dual_lr", "optimizer.dual_steps", "optimizer.dual_tol", "optimizer.mode",
         "optimizer.normalize_dual", "optimizer.lambda_init", "optimizer.adam_lr", "optimizer.clip_grad_norm",
         "optimizer.beta1", "optimizer.beta2", "optimizer.eps", "optimizer.bias_correction"},
        LWB_TR_NOOP("Registry", "seed 002: steepest descent on the Stiefel manifold, dual step + msign retraction; embeddings, head and scalars by AdamW")},
       3, false, make<ManifoldMuon>},
  };
  return table;
}

}  // namespace

std::span<const OptimizerRow> optimizerRows() { return rows(); }
const OptimizerRow& row(OptimizerKind kind) { return kinds::rowOf(optimizerRows(), kind); }
std::string_view toString(OptimizerKind kind) { return row(kind).info.id; }

std::optional<OptimizerKind> parseOptimizerKind(std::string_view id) {
  if (const OptimizerRow* r = kinds::findRow(optimizerRows(), id)) return r->kind;
  return std::nullopt;
}

std::span<const KindInfo> optimizerKinds() {
  static const std::vector<KindInfo> infos = kinds::infosOf(optimizerRows());
  return infos;
}

}  // namespace lwb::optim
