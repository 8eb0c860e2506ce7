// AdamW with decoupled weight decay; bias correction switchable (off reproduces the
// paper's runs, App. F). Also used by Muon for non-matrix parameters and, optionally,
// for embeddings.
#pragma once

#include "optim/optimizer.h"

#include <ATen/core/Tensor.h>

#include <map>

namespace lwb::optim {

// The AdamW moment state and update for one tensor; shared with Muon.
class AdamState {
 public:
  AdamState(double beta1, double beta2, double eps, bool biasCorrection)
      : beta1_(beta1), beta2_(beta2), eps_(eps), biasCorrection_(biasCorrection) {}
  // w = decay w - eta m^ / (sqrt(v^) + eps) for gradient g of the named tensor w, in place:
  // float32 CPU tensors in one pass (optim/adamw_kernel.h), others through in-place ops.
  void apply(const std::string& name, const at::Tensor& w, const at::Tensor& g, double eta, double decay = 1.0);
  // Keys "<prefix>m.<name>", "<prefix>v.<name>", "<prefix>t.<name>".
  void save(const std::string& prefix, TensorMap& out) const;
  void load(const std::string& prefix, StateIn& in, const std::vector<ParamSlot>& slots);

 private:
  double beta1_, beta2_, eps_;
  bool biasCorrection_;
  struct Moments {
    at::Tensor m, v;
    int64_t t = 0;
  };
  std::map<std::string, Moments> moments_;
};

class AdamW final : public Optimizer {
 public:
  AdamW(const OptimizerConfig& cfg, std::vector<ParamSlot> slots);
  void step(double lr) override;
  double updateRmsBound(const ParamSlot&, double) const override { return -1.0; }
  OptimizerKind kind() const override { return OptimizerKind::AdamW; }
  void saveState(TensorMap& out) const override { state_.save("adam.", out); }
  void loadState(StateIn& in) override { state_.load("adam.", in, slots_); }

 private:
  double weightDecay_;
  AdamState state_;
};

}  // namespace lwb::optim
