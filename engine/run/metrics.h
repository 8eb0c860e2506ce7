// What the trainer reports through a MetricsSink: plain C++ values (no Qt, no tensors), so
// the app can copy them into its mailbox and the run directory can serialise them.
#pragma once

#include "bounds/lipschitz_bound.h"
#include "models/model.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace lwb::run {

struct MatrixNorm {
  std::string name;
  std::string role;
  double rmsNorm = 0;  // sigma1 sqrt(d_in / d_out)
  double sigma1 = 0;
};

struct StepMetrics {
  int64_t step = 0;  // 1-based: steps completed
  double lr = 0;
  double trainLoss = 0, trainAcc = 0;
  double stepsPerSecond = 0;
  double etaSeconds = 0;
  double constraintSecondsPerStep = 0;  // mean over the log window
  double stepSecondsPerStep = 0;
  double alpha = -1;                    // soft-cap strength in use (hidden matrices), -1 if n/a
  std::vector<MatrixNorm> norms;
  std::optional<double> lipschitzBound; // absent for models without a bound (standard GPT)
  bounds::BoundTrace boundTrace;
  // On evaluation steps:
  std::optional<double> valLoss, valAcc;
  std::optional<models::ActivationStats> activations;
};

// name -> singular values (descending), one snapshot.
using SpectraSnapshot = std::map<std::string, std::vector<float>>;

struct RunSummary {
  std::string status;  // finished | diverged | stopped | failed
  std::string message;
  int64_t steps = 0;
  double valLoss = 0, valAcc = 0;
  double lipschitzBound = 0;
  double maxActEntry = 0, maxActRms = 0;
  double seconds = 0, stepsPerSecond = 0;
  double constraintFraction = 0;  // share of step time spent in the constraint step
};

nlohmann::json toJson(const StepMetrics& m);
// The per-layer rows of a bound trace ({name, block, lipschitz, activation}; non-finite as null),
// as metrics.jsonl's "bound_trace" and `lipschitz-cli bound`'s "trace" write them.
nlohmann::json toJson(const bounds::BoundTrace& t);
nlohmann::json toJson(const RunSummary& s);

class MetricsSink {
 public:
  virtual ~MetricsSink() = default;
  virtual void onStep(const StepMetrics& m) = 0;
  // Every `spectra_every` steps: the singular values after the constraint step, and the same
  // matrices measured just before it (after the optimizer update) — empty for `none`.
  virtual void onSpectra(int64_t step, const SpectraSnapshot& spectra, const SpectraSnapshot& beforeConstraint) {}
  virtual void onFinished(const RunSummary& summary) {}
};

}  // namespace lwb::run
