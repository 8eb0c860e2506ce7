#include "optim/optimizer.h"

#include "io/input_error.h"
#include "optim/adamw.h"
#include "optim/manifold_muon.h"
#include "optim/muon.h"
#include "optim/sgd.h"
#include "optim/update_scaling.h"

#include <cmath>

namespace lwb::optim {

std::vector<ParamSlot> makeSlots(const std::vector<models::Param>& params, const OptimizerConfig& cfg,
                                 int64_t residualLayers) {
  using models::Role;
  std::vector<ParamSlot> slots;
  for (const auto& p : params) {
    double m = p.role == Role::Embedding ? cfg.embedLr : p.role == Role::Head ? cfg.headLr : cfg.hiddenLr;
    if (cfg.depthDecay < 1.0 && residualLayers > 0 && p.block >= 0 && p.role != Role::Head &&
        p.role != Role::Embedding) {
      const bool mlpHalf = p.role == Role::MlpIn || p.role == Role::MlpOut;
      const int64_t layer = 2 * p.block + (mlpHalf ? 1 : 0);
      m *= std::pow(cfg.depthDecay, static_cast<double>(residualLayers - 1 - layer));
    }
    slots.push_back({p, m});
  }
  return slots;
}

std::vector<ParamSlot> makeSlots(const std::vector<models::Param>& params, const OptimizerConfig& cfg,
                                 const models::ModelConfig& m) {
  const bool gpt = m.kind == "lipschitz_gpt";
  auto slots = makeSlots(params, cfg, gpt ? 2 * m.blocks : 0);
  if (cfg.lrUnits != "modula") return slots;
  ModulaLayout layout{gpt && m.standard ? "standard lipschitz_gpt" : m.kind, gpt ? m.blocks : 0,
                      cfg.blocksMass, gpt ? m.finalLogitScale : 1.0};
  const auto targets = modulaTargets(params, layout);
  for (size_t i = 0; i < slots.size(); ++i) slots[i].lrMultiplier *= targets[i];
  return slots;
}

std::unique_ptr<Optimizer> makeOptimizer(const OptimizerConfig& cfg, std::vector<ParamSlot> slots) {
  if (cfg.kind == "adamw") return std::make_unique<AdamW>(cfg, std::move(slots));
  if (cfg.kind == "sgd") return std::make_unique<Sgd>(cfg, std::move(slots));
  if (cfg.kind == "muon") return std::make_unique<Muon>(cfg, std::move(slots));
  if (cfg.kind == "manifold_muon") return std::make_unique<ManifoldMuon>(cfg, std::move(slots));
  throw InputError("optimizer.kind: unknown optimizer '" + cfg.kind + "'");
}

}  // namespace lwb::optim
