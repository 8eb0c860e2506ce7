// RunConfig: one JSON object, every field defaulted and validated. Unknown keys, wrong types
// and out-of-range values raise lwb::InputError naming the key ("optimizer.lr: must be > 0").
// Key names are a contract (ARCHITECTURE.md "Config keys that scripts rely on").
#pragma once

#include "data/icl_levels.h"
#include "io/input_error.h"
#include "spectral/constraint_methods.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace lwb::run {

struct ModelConfig {
  std::string kind = "mlp";            // mlp | lipschitz_gpt | modular_mlp
  std::vector<int64_t> widths{256};    // mlp: hidden widths (input/output from the task)
  // lipschitz_gpt
  int64_t dModel = 128, blocks = 2, heads = 4, seqLen = 64, mlpRatio = 4;
  double finalLogitScale = 1.0;
  // Convex residual weight a in (1 - a) x + a block(x); 0: 000's 1/(2 blocks). Any a in [0, 1)
  // keeps a connection's constant at (1 - a) + a L_block, so it moves the bound only where L_block != 1.
  double residualAlpha = 0.0;
  // Multiplier T on 000's 1/d_head inside the softmax: scores reach +-T at unit-RMS tokens, so
  // attention can focus, and App. D's attention constant grows by T (c^2 with c = sqrt(T)).
  double scoreScale = 1.0;
  // How a block joins the stream: convex ((1 - a) x + a block(x), 000 App. D, the default) or
  // sum (x + block(x) with the attention's 1/3 dropped: what LT's code ran from 2025-05-07 to
  // -10, when its Mul was x · 1; docs/RESULTS.md §5.6). The sound bound follows either.
  std::string residual = "convex";
  bool standard = false;               // baseline: LayerNorm, 1/sqrt(d_head), x + block
  // Which output projections start at zero (000 App. F: attention output, MLP output and
  // head): outputs (attention + MLP output) | outputs_and_head | none.
  std::string zeroInit = "outputs";
  // modular_mlp (post 001 §6.2.1): embedding dim per operand, hidden width, 2 layers
  int64_t embedDim = 113, width = 200;
  // icl_transformer (seed 002 §4, SEEDS-002-004 §B.2); d_model and heads as above
  int64_t layers = 4;
  std::string norm = "none";           // none | rms (the "Type 1" baseline)
  bool lipschitz = true;               // 1/d_head, ×1/3 attention and MLP, convex residuals, orthogonal init
  bool attnScaleThird = true, mlpScaleThird = true;  // the two ×1/3 separately (§6.1), with lipschitz
  double gainCap = 0.0;                // diagonal gains clamped to [0.001, cap] (§6.2); 0: off
  std::string residualCount = "layers";  // convex residual weight 1/layers (002) or 1/(2 layers)
  // attlip (seed 004 Table 2 analogue, SEEDS-002-004 §C): one block emb → attention → x + MLP(x)
  // → unemb; d_model, heads, seq_len and mlp_ratio as above.
  std::string attention = "attlip";    // attlip | l2 | standard | none (MLP only)
  int64_t proxSteps = 3;               // K_prox in training, reached by the schedule 1 → K_prox
  std::string proxStepRule = "armijo"; // armijo (004 Alg. 1) | fixed (1-Lipschitz for every K, §C.2)
  int64_t proxStepsEval = 20;          // K at evaluation (004 §5: 20 "to ensure convergence")
  double proxTol = 1e-6;               // evaluation stops early at ‖g‖ ≤ prox_tol·‖g⁰‖ (§C.4)
  // Levers on the prox's condition number κ = 1 + η·L_f (issue 26, FIDELITY §3):
  double proxEta = 1.0;                // η of prox_{ηf} (004 §5: 1)
  double proxWCap = 0;                 // > 0: each head's W^h scaled to ‖W^h‖_F ≤ cap in the forward
  bool tokenNorm = false;              // rows of the attention input scaled to unit ℓ2 norm
};

// The icl_least_squares task (SEEDS-002-004 §B.1).
struct IclSettings {
  int64_t pairs = 64, dim = 5;
  std::string order = "random";        // random (faithful, half the targets leak) | x_first
  double noise = 0.01;                 // input noise on x-tokens during training
  double maxCond = 1e3;
  bool biasFeature = true;
};

struct OptimizerConfig {
  std::string kind = "muon";           // adamw | muon | sgd
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
  std::string schedule = "linear";     // constant | linear (decay to 0) | cosine
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

struct RunConfig {
  std::string task = "mnist";          // mnist | cifar10 | chars | chars_masked | modular_addition | modular_multiplication
  std::string dataPath;                // file or folder; may be empty for generated tasks
  int64_t steps = 1000, batchSize = 128;
  uint64_t seed = 0;
  std::string device = "cpu";          // cpu | cuda
  int threads = 0;                     // 0: --threads / LWB_THREADS, else tuned per run (common/thread_tuner.h)
  int64_t evalEvery = 100, evalBatches = 20, logEvery = 10, spectraEvery = 100;
  // checkpoints/step_N.safetensors every `checkpoint_every` steps (0: only at the end) and
  // when a run ends (finished, stopped, diverged); the newest `keep_checkpoints` are kept.
  int64_t checkpointEvery = 0, keepCheckpoints = 3;
  int64_t modulus = 113;               // modular tasks
  double trainFraction = 0.3;          // modular tasks
  int64_t mnistTrainCount = 8000;
  double maskRate = 0.15;              // chars_masked: share of positions selected for the loss
  IclSettings icl;
  ModelConfig model;
  OptimizerConfig optimizer;
  ConstraintConfig constraint;
};

// Parses and validates; missing keys keep their defaults.
// What config.json records about a run besides its settings (versions of the programs, the
// data-parallel ranks that started it): skipped by parseRunConfig, so a run's own config.json
// is a valid --config.
inline constexpr std::array<std::string_view, 2> kConfigRecordKeys{"versions", "world_size"};
RunConfig parseRunConfig(const nlohmann::json& j);
RunConfig loadRunConfig(const std::string& path);  // InputError names the file
// The full resolved config (every key), the inverse of parseRunConfig.
nlohmann::json toJson(const RunConfig& c);
// The constraint settings training applies with this config: the constraint section with
// η = optimizer.lr, λ from the optimizer for methods that couple to its decay (soft cap) and
// the update-norm bound η·update_norm_factor. (ConstraintStep refines η and the bound per
// parameter group; plots use this.)
spectral::ConstraintSettings trainingConstraint(const RunConfig& c);
// The training constraint of a stored config (a run directory's config.json, possibly from
// another version): keys this version does not know are dropped before parsing; nullopt when
// what remains is refused.
std::optional<spectral::ConstraintSettings> storedTrainingConstraint(const nlohmann::json& config);
// Loss levels a plot draws for this config's task (icl_least_squares: predict 0, copy only,
// Bayes floor); empty for other tasks. The stored form drops unknown keys like the above.
std::vector<data::ReferenceLevel> lossReferenceLevels(const RunConfig& c);
std::vector<data::ReferenceLevel> storedLossReferenceLevels(const nlohmann::json& config);
// Applies "a.b.c=value" (value parsed as JSON, else taken as a string) to a config JSON
// before parsing; unknown keys are reported by parseRunConfig.
void applyOverride(nlohmann::json& j, const std::string& assignment);

}  // namespace lwb::run
