// The "constraint" section of a run config: the weight constraint after every step.
// run/run_config.h reads and writes it as JSON (key names are a contract: ARCHITECTURE.md
// "Config keys that scripts rely on"). Plain values: no LibTorch, no JSON.
#pragma once

#include "optim/optimizer_config.h"
#include "spectral/constraint_methods.h"

namespace lwb::optim {

// The constraint section: the method registry's settings (spectral/constraint_methods.h;
// constraint.lambda is ignored by methods whose λ is the optimizer's decay) plus what only
// training uses. Training defaults: nested clip (O(m^2 n) per step; ABD costs O((m+n)^3),
// docs/DESIGN.md), one warm-started power iteration per step, RMS->RMS thresholds.
struct ConstraintConfig : spectral::ConstraintSettings {
  ConstraintConfig() {
    powerIterations = 1;
    norm = spectral::ThresholdNorm::Rms;
  }
  double updateNormFactor = 1.0;       // alpha*: update norm = lr * factor (App. F: 1.14502 * 1.05)
  double embedRmsMax = 1.0;            // cap on embedding-column RMS (0: off)
};

// The constraint settings training applies: the constraint section with η = optimizer.lr, λ
// from the optimizer for methods that couple to its decay (soft cap) and the update-norm
// bound η·update_norm_factor.
spectral::ConstraintSettings trainingConstraint(const ConstraintConfig& constraint, const OptimizerConfig& optimizer);

}  // namespace lwb::optim
