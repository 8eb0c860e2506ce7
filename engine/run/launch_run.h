// Launching a training run, as `lipschitz-cli train` and the app's Train page both do it: one
// home for the order of the steps, on which the run-directory contract (ARCHITECTURE.md)
// rests:
//   1. check the config (parseRunConfig's checks) and build the Trainer, which validates the
//      data and the model: bad input is an InputError and nothing is written;
//   2. resume from the checkpoint, when continuing a run;
//   3. create the run directory (it must not exist or be empty) and write config.json, or
//      reopen it after the checkpoint's step; status "running";
//   4. checkpoints go to RUN_DIR/checkpoints, metrics to the directory and the caller's sinks;
//   5. train until the end or a stop; a failure after step 3 leaves status "failed" with the
//      reason, then is rethrown.
// No LibTorch in this header (the app's worker calls it).
#pragma once

#include "run/metrics.h"
#include "run/run_config.h"
#include "run/trainer_control.h"

#include <exception>
#include <functional>
#include <string>
#include <vector>

namespace lwb::run {

struct Checkpoint;
class Trainer;

struct LaunchOptions {
  std::string runDir;
  const Checkpoint* resumeFrom = nullptr;  // continue runDir after this checkpoint (config.json stays)
  std::vector<MetricsSink*> sinks;         // besides the run directory's own record
  int worldSize = 1;                       // data-parallel ranks that start it (config.json's world_size)
  // Each optional, called on the launching thread:
  std::function<void(Trainer&)> built;        // after step 1 (the CLI joins its ranks here)
  // After step 2, nothing written yet: the trainer's reference notes (task chars: the n-gram
  // levels, what short data omitted) and its start warnings. A resume calls it once more,
  // notes empty, with what reopening the run directory repaired or found (damaged spectra set
  // aside, metrics.jsonl cut before the checkpoint).
  std::function<void(const std::vector<std::string>& notes, const std::vector<std::string>& warnings)> ready;
  std::function<void()> recording;            // after step 4, just before the first step
};

RunSummary launchRun(const RunConfig& config, const LaunchOptions& options, TrainerControl& control);

// A failure's reason as a run reports it (status.json, the app's run list): the text of the
// exception, a LibTorch error's without the C++ backtrace after it.
std::string failureReason(const std::exception& e);

}  // namespace lwb::run
