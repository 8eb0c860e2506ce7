// The weight-constraint step that follows every optimizer step (000 App. B order: decay,
// update, cap) on every constrained matrix: all matrices but the embedding, whose rows the
// model itself normalises or caps. Power-iteration vectors persist per matrix across steps.
#pragma once

#include "optim/constraint_config.h"
#include "optim/optimizer.h"
#include "spectral/constraint.h"

#include <cstdint>
#include <map>
#include <string>

namespace lwb::dist {
class Communicator;
}

namespace lwb::optim {

class ConstraintStep {
 public:
  // The settings of trainingConstraint(constraint, optimizer): λ of the soft cap is the
  // optimizer's decoupled decay (the "decay" step of Theorem B.1). `seed`: the run's, mixed
  // into each matrix's power-iteration start.
  ConstraintStep(const ConstraintConfig& constraint, const OptimizerConfig& optimizer, uint64_t seed);
  bool active() const { return params_.method != spectral::ConstraintMethod::None; }
  // Applies the method to every constrained slot of `opt`; `lr` is the scheduled base lr
  // (alpha* is coupled to each slot's effective lr and update-norm bound).
  void apply(const Optimizer& opt, double lr);
  // A data-parallel run: matrix k is constrained by rank k mod size alone and broadcast to the
  // others with its power-iteration vectors (the pattern of distributed Muon), so every rank
  // ends the step with the same weights and state while doing 1/size of the spectral work.
  void setCommunicator(dist::Communicator* comm) { comm_ = comm; }
  // The soft-cap strength used for this slot at this lr (for logging and the GUI's curve).
  double alphaFor(const Optimizer& opt, const ParamSlot& slot, double lr) const;
  // Soft cap only: the largest norm a singular value can keep after this slot's cap at this lr
  // (spectral::softCapPeak over [0, k]); sigma_max unless the update is large against it.
  double softCapPeakFor(const Optimizer& opt, const ParamSlot& slot, double lr) const;
  const spectral::ConstraintParams& params() const { return params_; }
  static bool isConstrained(const models::Param& p);
  // Persistent power-iteration vectors: "power_u.<name>", "power_v.<name>".
  void saveState(TensorMap& out) const;
  void loadState(StateIn& in, const Optimizer& opt);

 private:
  spectral::ConstraintSettings settingsFor(const Optimizer& opt, const ParamSlot& slot, double lr) const;

  spectral::ConstraintParams params_;
  double updateNormFactor_;
  std::map<std::string, spectral::PowerIterationState> powerStates_;
  dist::Communicator* comm_ = nullptr;
  uint64_t seed_;
};

}  // namespace lwb::optim
