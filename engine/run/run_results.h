// What a run produces, as plain values: the trainer reports them through a MetricsSink, the
// run directory stores them (results_json.h is their one JSON form), the reader reads them
// back and the app shows them. No LibTorch and no Qt anywhere in this header's include chain,
// so every consumer compiles in seconds and tests can build them by hand.
#pragma once

#include "bounds/bound_trace.h"
#include "data/reference_level.h"
#include "models/activation_stats.h"
#include "optim/stiefel_stat.h"
#include "run/run_status.h"

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lwb::run {

inline constexpr double kNotMeasured = std::numeric_limits<double>::quiet_NaN();

// One weight matrix at one logged step.
struct MatrixNorm {
  std::string name;
  std::string role;    // models::toString(Role): embedding | hidden | head | q | ... (may be empty)
  double rmsNorm = 0;  // sigma1 sqrt(d_in / d_out), the norm sigma_max targets are stated in
  double sigma1 = 0;   // raw spectral norm; 0 when unknown (rows of older run directories)
  bool operator==(const MatrixNorm&) const = default;
};

// One logged step: a metrics.jsonl row. Non-finite values (a diverged loss) are NaN.
struct StepMetrics {
  int64_t step = 0;  // 1-based: steps completed
  double lr = 0;
  // The logged step's own training batch, not a mean over the log window: only log steps
  // read the loss back (a sync on CUDA) and compute accuracy at all.
  double trainLoss = 0, trainAcc = 0;
  double stepsPerSecond = 0;
  double etaSeconds = 0;
  double constraintSecondsPerStep = 0;  // mean over the log window
  double commSecondsPerStep = -1;       // data-parallel runs: in collectives, mean over the window; < 0: none
  double stepSecondsPerStep = 0;
  double alpha = -1;                    // soft-cap strength in use (hidden matrices), -1 if n/a
  std::vector<MatrixNorm> norms;        // parameter order
  std::optional<double> lipschitzBound; // absent for models without a bound (standard GPT)
  bounds::BoundTrace boundTrace;        // meaningful only with lipschitzBound
  // On evaluation steps:
  std::optional<double> valLoss, valAcc;
  // Task chars, on evaluation steps: the mean loss over 000's validation window (the first
  // 20 batches of stride-1 windows from the split's start; run/char_evaluation.h), and, at
  // the evaluation of the run's last step, over the whole validation split.
  std::optional<double> valLossPaper, valLossFull;
  std::optional<models::ActivationStats> activations;
  std::vector<optim::StiefelStat> stiefel;     // manifold_muon: the logged step's own, per matrix
  // AttLip attention (model attlip): the proximal solver's residual ‖g_K‖_F (max over the
  // batch) and the steps K it took, on the logged training step and, on evaluation steps,
  // over the evaluation batches (max of each). A residual is reported with every AttLip
  // output: only the converged prox is 1-Lipschitz (SEEDS-002-004 §C.4).
  std::optional<double> attlipResidual, valAttlipResidual;
  std::optional<int64_t> attlipSteps, valAttlipSteps;
  // Is the block more than the identity (issue 26, FIDELITY §3)? The block's relative
  // movement ‖AttLip(X) − X‖_F/‖X‖_F, the accepted step sizes λ (mean, min) and the residual
  // ratio ‖g_K‖/‖g_0‖ (max over the batch) on the logged step; on evaluation steps the
  // movement and ratio of the evaluation forward (max over the batches).
  std::optional<double> attlipMovement, attlipStepMean, attlipStepMin, attlipResidualRatio;
  std::optional<double> valAttlipMovement, valAttlipResidualRatio;
  bool operator==(const StepMetrics&) const = default;
};

// name -> singular values (descending), one snapshot.
using SpectraSnapshot = std::map<std::string, std::vector<float>>;

// Every `spectra_every` steps: the singular values after the constraint step and, for live
// runs with a constraint, the same matrices just before it (empty otherwise: run directories
// record only `after`).
struct SpectraRecord {
  int64_t step = 0;
  SpectraSnapshot after;
  SpectraSnapshot before;
  bool operator==(const SpectraRecord&) const = default;
};

// How a run ended (summary.json); message says why for diverged, stopped and failed runs.
// Values the run never measured (no evaluation step yet) are NaN, written as null.
struct RunSummary {
  RunStatus status = RunStatus::Finished;
  std::string message;
  int64_t steps = 0;
  double valLoss = kNotMeasured, valAcc = kNotMeasured;
  double lipschitzBound = kNotMeasured;
  double maxActEntry = kNotMeasured, maxActRms = kNotMeasured;
  double seconds = kNotMeasured, stepsPerSecond = kNotMeasured;
  double constraintFraction = kNotMeasured;  // share of step time spent in the constraint step
  // Mean of the last (up to) 50 training losses: seed 002's reported "loss" (bluey last_k).
  double trainLossLast50 = kNotMeasured;
  // Attention models (model attlip, seed 004 Table 2 analogue): the PGD estimate of the
  // attention function's ℓ2 Lipschitz constant at the end of the run (AttLip: the converged
  // prox) and its theoretical bound (1; ℓ2: Kim's, ‖W_Q^h‖₂²; NaN where none holds); the last evaluation's
  // AttLip residual, steps and whether every batch reached the tolerance.
  double attentionPgdEstimate = kNotMeasured, attentionBound = kNotMeasured;
  // AttLip (converged prox) at that input: how far the block moves the tokens, split into the
  // part made of other tokens (mixing) and of each token itself (self), relative to ‖X‖_F
  // (attention::proxMovementParts; issue 26).
  double attentionMixingMovement = kNotMeasured, attentionSelfMovement = kNotMeasured;
  double attlipEvalResidual = kNotMeasured;
  std::optional<int64_t> attlipEvalSteps;
  std::optional<bool> attlipEvalConverged;
  // Task chars (present for it, absent for other tasks): the last evaluation's paper-window
  // loss and the batches that window held (20 unless the split is short), the full-split
  // loss of a run that reached its last step (NaN otherwise), and the Witten–Bell n-gram
  // levels on the full split and on the paper window (data/char_ngram.h; keyed by `key`).
  std::optional<double> valLossPaper, valLossFull;
  int64_t valPaperBatches = 0;
  std::vector<data::ReferenceLevel> referenceLevels, referenceLevelsPaper;
  // AttLip only (empty otherwise): what makes the evaluated forward 1-Lipschitz —
  // "converged" (every evaluation batch reached model.prox_tol: the prox, Thm 4),
  // "certified_step" (the fixed certified step, 1-Lipschitz for every K; DESIGN.md) or "none".
  std::string attentionCertificate;
  // Reading only: keys present with a value of the wrong type ("val_loss (a string)"), read
  // as not measured. A hand-edited or foreign summary says so instead of showing blanks.
  std::vector<std::string> wrongTypes;
};

}  // namespace lwb::run
