// Manifold Muon (seed 002 §3.1, App. 8.1; SEEDS-002-004 §A): every hidden matrix stays on the
// Stiefel manifold (all singular values 1). Per step and matrix: EMA momentum, the dual
// direction (online: one dual step, what 002 ran; offline: the annealed dual-ascent loop),
// then W ← msign(W − lr·M). Embeddings, the unembedding and every non-matrix parameter (SwiGLU
// β, gains) form an AdamW group with its own lr (optimizer.adam_lr), betas, eps and decay,
// sharing the schedule. The retraction iterates until σ = 1 (issue 26: at lr ≈ 1, W − lr·M can
// be singular). The optimizer records rms(H), the σ range and the retraction's steps of every
// matrix each step and names the first matrix that leaves the manifold.
#pragma once

#include "optim/adamw.h"

#include <map>
#include <optional>

namespace lwb::optim {

class ManifoldMuon final : public Optimizer {
 public:
  ManifoldMuon(const OptimizerConfig& cfg, std::vector<ParamSlot> slots);
  void step(double lr) override;
  // The retraction keeps σ = 1: the update moves W by at most lr·‖M‖ ≤ lr in spectral norm.
  double updateRmsBound(const ParamSlot& slot, double lr) const override;
  OptimizerKind kind() const override { return OptimizerKind::ManifoldMuon; }
  void saveState(TensorMap& out) const override;
  void loadState(StateIn& in) override;
  std::vector<StiefelStat> stiefelStats() const override { return stats_; }
  std::string divergence() const override { return divergence_; }

  // Whether a parameter is kept on the manifold (every matrix but embedding and head).
  static bool onManifold(const models::Param& p);
  // σ further than this from 1 stops the run (status diverged).
  static constexpr double kStiefelTolerance = 1e-3;

 private:
  void clipGradients();
  OptimizerConfig cfg_;
  AdamState adam_;
  std::map<std::string, at::Tensor> momentum_, lambda_;
  struct RetractionCount {
    int64_t extended = 0, exact = 0;  // steps that needed more than 10 Polar Express steps / the SVD
  };
  std::map<std::string, RetractionCount> retractionCounts_;  // since the run's start (checkpointed)
  std::vector<StiefelStat> stats_;
  std::string divergence_;
};

}  // namespace lwb::optim
