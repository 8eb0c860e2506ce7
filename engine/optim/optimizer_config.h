// The "optimizer" section of a run config: the optimizer, its schedule and per-group rates.
// run/run_config.h reads and writes it as JSON (key names are a contract: ARCHITECTURE.md
// "Config keys that scripts rely on"). Plain values: no LibTorch, no JSON.
#pragma once

#include "optim/optimizer_kinds.h"
#include "optim/schedule.h"

#include <cstdint>
#include <string>

namespace lwb::optim {


struct OptimizerConfig {
  OptimizerKind kind = OptimizerKind::Muon;  // its row: optim/optimizer_kinds.h
  double lr = 0.1;
  double weightDecay = 0.0;            // decoupled: W <- (1 - lr * weight_decay) W first
  double beta1 = 0.9, beta2 = 0.95, eps = 1e-8;
  bool biasCorrection = false;         // off reproduces the paper's AdamW runs
  double momentum = 0.95;              // muon / sgd
  bool nesterov = true;
  std::string nsCoeffs = "jordan5";    // muon's Newton–Schulz set
  int nsSteps = 5;
  std::string muonScale = "paper";     // paper: sqrt(fan_out/fan_in); jordan: max(1, fan_out/fan_in)^1/2
  std::string embedUpdate = "column_normalize";  // column_normalize | adamw
  double embedMaxInflation = 16.0;
  double embedLr = 1.0, hiddenLr = 1.0, headLr = 1.0;  // per-group multipliers of lr
  ScheduleKind schedule = ScheduleKind::Linear;  // linear decays to 0
  int64_t warmupSteps = 0;
  double decayFraction = 0.1;          // stable_decay: share of the steps at the end spent decaying to 0
  double depthDecay = 1.0;             // lr multiplier per residual block (App. F uses 0.5)
  // plain: a matrix's update norm is lr x its group multiplier; modula: lr x its mass share /
  // the sensitivity of what follows it (Modula, 000 App. F; optim/update_scaling.h), with the
  // transformer blocks sharing `blocks_mass` against 1 each for the embedding and the head.
  std::string lrUnits = "plain";
  double blocksMass = 32.0;
  // manifold_muon (seed 002, SEEDS-002-004 §A): dual step α, offline steps and tolerance,
  // online | offline, G/rms(G) before the dual step, Λ start, the AdamW group's own lr,
  // optional global gradient clipping (0: off).
  double dualLr = 0.1;
  int dualSteps = 100;
  double dualTol = 1e-6;
  std::string mmMode = "online";
  bool normalizeDual = false;
  std::string lambdaInit = "zero";     // zero (bluey) | riemannian (TM)
  double adamLr = 0.01;
  double clipGradNorm = 0.0;
};

}  // namespace lwb::optim
