// SGD with (optionally Nesterov) heavy-ball momentum and decoupled weight decay.
#pragma once

#include "optim/optimizer.h"

#include <ATen/core/Tensor.h>

#include <map>

namespace lwb::optim {

class Sgd final : public Optimizer {
 public:
  Sgd(const OptimizerConfig& cfg, std::vector<ParamSlot> slots);
  void step(double lr) override;
  double updateRmsBound(const ParamSlot&, double) const override { return -1.0; }
  OptimizerKind kind() const override { return OptimizerKind::Sgd; }
  void saveState(TensorMap& out) const override;
  void loadState(StateIn& in) override;

 private:
  double momentum_, weightDecay_;
  bool nesterov_;
  std::map<std::string, at::Tensor> buffers_;
};

}  // namespace lwb::optim
