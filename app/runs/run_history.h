// Everything a run has reported so far, kept on the GUI thread for the plots that show
// one run at a time (spectrum history scrubber, bound trace, activations, f(σ)) and for
// re-plotting a run. Steps beyond a cap are thinned, not dropped at the front, so a long
// run keeps its early history at a coarser grain.
#pragma once

#include "app/runs/run_types.h"

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace lwb::app {

class RunHistory {
 public:
  // Logged steps kept before every other one is dropped (the plots keep their own buffers).
  static constexpr std::size_t kMaxSteps = 100000;
  // Spectra snapshots kept (each can hold every matrix's singular values).
  static constexpr std::size_t kMaxSnapshots = 2000;

  void apply(const RunDelta& delta);
  void clear();

  const std::vector<run::StepMetrics>& steps() const { return steps_; }
  const run::StepMetrics* latest() const { return steps_.empty() ? nullptr : &steps_.back(); }
  // Latest step that carried activation statistics (an evaluation step).
  const run::StepMetrics* latestEval() const { return latestEval_ ? &*latestEval_ : nullptr; }
  const std::map<int64_t, run::SpectraRecord>& spectra() const { return spectra_; }
  const run::SpectraRecord* spectraAt(int64_t step) const;  // the newest snapshot <= step

  std::optional<int64_t> totalSteps() const { return totalSteps_; }
  const ConstraintInfo& constraint() const { return constraint_; }
  bool hasConstraint() const { return hasConstraint_; }
  // The task's loss reference levels (icl_least_squares from its config; chars: the n-gram
  // levels the trainer fitted, live or from summary.json), empty for other tasks.
  const std::vector<data::ReferenceLevel>& referenceLevels() const { return levels_; }

  // √(d_in/d_out) of a layer (RMS→RMS norm / σ₁), learnt from a step that has both; 1 when
  // unknown. Spectra times this are in the units of an rms-norm σmax.
  double rmsScale(const std::string& layer) const;

 private:
  void learnScales(const run::SpectraRecord& s);

  std::vector<run::StepMetrics> steps_;
  std::optional<run::StepMetrics> latestEval_;
  std::map<int64_t, run::SpectraRecord> spectra_;
  std::map<std::string, double> rmsScale_;
  std::optional<int64_t> totalSteps_;
  ConstraintInfo constraint_;
  bool hasConstraint_ = false;
  std::vector<data::ReferenceLevel> levels_;
};

}  // namespace lwb::app
