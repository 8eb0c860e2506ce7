// Muon (Jordan et al. 2024; 000 §3, App. F): EMA momentum, optional Nesterov, msign by
// Newton–Schulz from the spectral toolkit, update scaled by sqrt(fan_out/fan_in) (paper) or
// max(1, fan_out/fan_in)^1/2 (Jordan). Embeddings get column-normalised updates (each
// token's vector scaled to unit RMS, by at most `embed_max_inflation`), or AdamW; non-matrix
// parameters always AdamW.
#pragma once

#include "optim/adamw.h"
#include "spectral/newton_schulz.h"

#include <map>

namespace lwb::optim {

class Muon final : public Optimizer {
 public:
  Muon(const OptimizerConfig& cfg, std::vector<ParamSlot> slots);
  void step(double lr) override;
  double updateRmsBound(const ParamSlot& slot, double lr) const override;
  OptimizerKind kind() const override { return OptimizerKind::Muon; }
  // The update multiplier for a (d_out, d_in) matrix.
  double scaleFor(int64_t dOut, int64_t dIn) const;
  double kappa() const { return kappa_; }  // max singular-value inflation of msign
  void saveState(TensorMap& out) const override;
  void loadState(StateIn& in) override;
  void setCommunicator(dist::Communicator* comm) override { comm_ = comm; }

 private:
  OptimizerConfig cfg_;
  spectral::NewtonSchulzConfig ns_;
  double kappa_;
  AdamState adam_;
  std::map<std::string, at::Tensor> buffers_;
  dist::Communicator* comm_ = nullptr;
};

}  // namespace lwb::optim
