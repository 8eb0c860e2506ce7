#include "optim/optimizer.h"

#include "io/input_error.h"
#include "optim/optimizer_kinds.h"
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
  // Residual blocks: the decay by depth and Modula's mass rule count their layers.
  const models::ModulaMass mass = models::row(m.kind).modula;
  const bool blocks = mass == models::ModulaMass::ResidualBlocks;
  auto slots = makeSlots(params, cfg, blocks ? 2 * m.blocks : 0);
  if (cfg.lrUnits != LrUnits::Modula) return slots;
  // The standard baseline (LayerNorm, x + block(x)) has no mass rule.
  const std::string name = (blocks && m.standard ? "standard " : "") + std::string(models::toString(m.kind));
  ModulaLayout layout{blocks && m.standard ? models::ModulaMass::None : mass, name, blocks ? m.blocks : 0,
                      cfg.blocksMass, blocks ? m.finalLogitScale : 1.0};
  const auto targets = modulaTargets(params, layout);
  for (size_t i = 0; i < slots.size(); ++i) slots[i].lrMultiplier *= targets[i];
  return slots;
}

std::unique_ptr<Optimizer> makeOptimizer(const OptimizerConfig& cfg, std::vector<ParamSlot> slots) {
  return row(cfg.kind).make(cfg, std::move(slots));
}

}  // namespace lwb::optim
