// The "optimizer" section of a run config: the optimizer, its schedule and per-group rates.
// run/run_config.h reads and writes it as JSON (key names are a contract: ARCHITECTURE.md
// "Config keys that scripts rely on"). Plain values: no LibTorch, no JSON.
#pragma once

#include "common/choice.h"
#include "optim/optimizer_kinds.h"
#include "optim/schedule.h"
#include "spectral/ns_coefficients.h"

#include <cstdint>
#include <string>

namespace lwb::optim {

// Choice-valued options of the optimizer section (config ids in the tables).
enum class MuonScale { Paper, Jordan };
inline constexpr std::array<Choice<MuonScale>, 2> kMuonScales{{{MuonScale::Paper, "paper"}, {MuonScale::Jordan, "jordan"}}};
enum class EmbedUpdate { ColumnNormalize, AdamW };
inline constexpr std::array<Choice<EmbedUpdate>, 2> kEmbedUpdates{{{EmbedUpdate::ColumnNormalize, "column_normalize"}, {EmbedUpdate::AdamW, "adamw"}}};
enum class LrUnits { Plain, Modula };
inline constexpr std::array<Choice<LrUnits>, 2> kLrUnits{{{LrUnits::Plain, "plain"}, {LrUnits::Modula, "modula"}}};
enum class DualMode { Online, Offline };
inline constexpr std::array<Choice<DualMode>, 2> kDualModes{{{DualMode::Online, "online"}, {DualMode::Offline, "offline"}}};
enum class LambdaInit { Zero, Riemannian };
inline constexpr std::array<Choice<LambdaInit>, 2> kLambdaInits{{{LambdaInit::Zero, "zero"}, {LambdaInit::Riemannian, "riemannian"}}};


struct OptimizerConfig {
  OptimizerKind kind = OptimizerKind::Muon;  // its row: optim/optimizer_kinds.h
  double lr = 0.1;
  double weightDecay = 0.0;            // decoupled: W <- (1 - lr * weight_decay) W first
  double beta1 = 0.9, beta2 = 0.95, eps = 1e-8;
  bool biasCorrection = false;         // off reproduces the paper's AdamW runs
  double momentum = 0.95;              // muon / sgd
  bool nesterov = true;
  spectral::NsCoefficients nsCoeffs = spectral::NsCoefficients::Jordan5;  // Muon's Newton–Schulz set
  int nsSteps = 5;
  MuonScale muonScale = MuonScale::Paper;  // paper: sqrt(fan_out/fan_in); jordan: max(1, fan_out/fan_in)^1/2
  EmbedUpdate embedUpdate = EmbedUpdate::ColumnNormalize;
  double embedMaxInflation = 16.0;
  double embedLr = 1.0, hiddenLr = 1.0, headLr = 1.0;  // per-group multipliers of lr
  ScheduleKind schedule = ScheduleKind::Linear;  // linear decays to 0
  int64_t warmupSteps = 0;
  double decayFraction = 0.1;          // stable_decay: share of the steps at the end spent decaying to 0
  double depthDecay = 1.0;             // lr multiplier per residual block (App. F uses 0.5)
  // plain: a matrix's update norm is lr x its group multiplier; modula: lr x its mass share /
  // the sensitivity of what follows it (Modula, 000 App. F; optim/update_scaling.h), with the
  // transformer blocks sharing `blocks_mass` against 1 each for the embedding and the head.
  LrUnits lrUnits = LrUnits::Plain;
  double blocksMass = 32.0;
  // manifold_muon (seed 002, SEEDS-002-004 §A): dual step α, offline steps and tolerance,
  // online | offline, G/rms(G) before the dual step, Λ start, the AdamW group's own lr,
  // optional global gradient clipping (0: off).
  double dualLr = 0.1;
  int dualSteps = 100;
  double dualTol = 1e-6;
  DualMode mmMode = DualMode::Online;
  bool normalizeDual = false;
  LambdaInit lambdaInit = LambdaInit::Zero;  // zero (bluey) | riemannian (TM)
  double adamLr = 0.01;
  double clipGradNorm = 0.0;
};

}  // namespace lwb::optim
