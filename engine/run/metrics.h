// How the trainer reports: a MetricsSink receives the run results of run_results.h (plain
// C++ values, no Qt, no tensors), so the app can copy them into its mailbox and the run
// directory can serialise them (results_json.h).
#pragma once

#include "run/run_results.h"

#include <cstdint>
#include <vector>

namespace lwb::run {

class MetricsSink {
 public:
  virtual ~MetricsSink() = default;
  virtual void onStep(const StepMetrics& m) = 0;
  // Every `spectra_every` steps: the singular values after the constraint step, and the same
  // matrices measured just before it (after the optimizer update) — empty for `none`.
  virtual void onSpectra(int64_t step, const SpectraSnapshot& spectra, const SpectraSnapshot& beforeConstraint) {}
  virtual void onFinished(const RunSummary& summary) {}
  // Once when run() starts, for tasks whose loss levels come from the data (chars: the
  // n-gram levels); summary.json repeats them.
  virtual void onReferenceLevels(const std::vector<data::ReferenceLevel>& levels) {}
};

}  // namespace lwb::run
