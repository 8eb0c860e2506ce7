// MetricsSink that records a run in its run directory (metrics.jsonl, spectra, summary,
// status). Used by the CLI and by the desktop app's engine worker.
#pragma once

#include "run/metrics.h"
#include "run/results_json.h"
#include "run/run_config.h"
#include "run/run_directory.h"

namespace lwb::run {

class RunDirectorySink final : public MetricsSink {
 public:
  explicit RunDirectorySink(RunDirectory& dir) : dir_(dir) {}
  void onStep(const StepMetrics& m) override { dir_.appendMetrics(toJson(m)); }
  void onSpectra(int64_t step, const SpectraSnapshot& s, const SpectraSnapshot&) override { dir_.appendSpectra(step, s); }
  void onFinished(const RunSummary& s) override;

 private:
  RunDirectory& dir_;
};

// config.json content: the resolved config plus versions and the seed.
nlohmann::json resolvedConfigJson(const RunConfig& cfg);

}  // namespace lwb::run
