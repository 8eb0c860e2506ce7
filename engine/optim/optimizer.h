// Optimizers over the model's parameters: adamw, sgd, muon (000 §3, App. F). Each parameter
// carries its own learning-rate multiplier (groups: embedding / hidden / head, and the
// optional decay by depth). Updates are decoupled: W <- (1 - lr wd) W, then W <- W - lr u.
#pragma once

#include "models/model.h"
#include "models/model_config.h"
#include "optim/optimizer_config.h"
#include "optim/state_io.h"
#include "optim/stiefel_stat.h"

#include <ATen/core/grad_mode.h>

#include <memory>
#include <string>
#include <vector>

namespace lwb::dist {
class Communicator;
}

namespace lwb::optim {

struct ParamSlot {
  models::Param param;
  double lrMultiplier = 1.0;
};

class Optimizer {
 public:
  virtual ~Optimizer() = default;
  // One update with base learning rate `lr` (already scheduled) for every slot that has a
  // gradient; gradients are left in place (the trainer clears them).
  virtual void step(double lr) = 0;
  // Upper bound on the RMS->RMS norm of the update `step(lr)` applies to this slot's matrix
  // (Muon: lr_eff * scale * kappa * sqrt(d_in/d_out)); < 0 when there is none (AdamW, SGD).
  virtual double updateRmsBound(const ParamSlot& slot, double lr) const = 0;
  virtual OptimizerKind kind() const = 0;
  const std::vector<ParamSlot>& slots() const { return slots_; }
  // Resumable state (moments, momentum buffers, step counters) for checkpoints; keys are
  // "<field>.<param name>". loadState replaces the state with what saveState wrote.
  virtual void saveState(TensorMap& out) const = 0;
  virtual void loadState(StateIn& in) = 0;
  // Manifold optimizers: tangency violation and σ range of each constrained matrix after the
  // last step (empty for the others), and why the last step left the manifold (empty: fine).
  virtual std::vector<StiefelStat> stiefelStats() const { return {}; }
  virtual std::string divergence() const { return {}; }
  // Data-parallel runs (issue 28): an optimizer that can split its per-matrix work between the
  // ranks does so (Muon: each rank computes msign for the matrices it owns, the results are
  // broadcast); the others ignore it and compute everything on every rank. Not owned.
  virtual void setCommunicator(dist::Communicator*) {}

 protected:
  explicit Optimizer(std::vector<ParamSlot> slots) : slots_(std::move(slots)) {}
  // Calls update(slot, w, g, eta) for every slot that has a gradient, with eta = lr times the
  // slot's multiplier, after the decoupled decay W <- (1 - eta wd) W of non-`Other` params.
  // Runs without autograd.
  template <class Update>
  void forEachUpdate(double lr, double weightDecay, Update&& update);
  std::vector<ParamSlot> slots_;
};

template <class Update>
void Optimizer::forEachUpdate(double lr, double weightDecay, Update&& update) {
  at::NoGradGuard noGrad;
  for (auto& slot : slots_) {
    const auto& w = slot.param.tensor;
    const auto& g = w.grad();
    if (!g.defined()) continue;
    const double eta = lr * slot.lrMultiplier;
    if (weightDecay > 0 && slot.param.role != models::Role::Other) w.mul_(1.0 - eta * weightDecay);
    update(slot, w, g, eta);
  }
}

// Per-slot lr multipliers from the config: embed_lr / hidden_lr / head_lr, times
// depth_decay^(L-1-l) for residual layer l of L (attention of block b is layer 2b, its MLP
// 2b+1) when depth_decay < 1.
std::vector<ParamSlot> makeSlots(const std::vector<models::Param>& params, const OptimizerConfig& cfg,
                                 int64_t residualLayers);

// The slots training uses for `model`: the above with 2 x blocks residual layers for
// lipschitz_gpt, times Modula's per-layer targets when optimizer.lr_units = modula
// (optim/update_scaling.h).
std::vector<ParamSlot> makeSlots(const std::vector<models::Param>& params, const OptimizerConfig& cfg,
                                 const models::ModelConfig& model);

std::unique_ptr<Optimizer> makeOptimizer(const OptimizerConfig& cfg, std::vector<ParamSlot> slots);

}  // namespace lwb::optim
