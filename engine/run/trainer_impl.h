// The Trainer's private state, shared by trainer.cpp (the loop and its phases) and
// trainer_state.cpp (checkpoint and resume). Not part of the run/ door.
#pragma once

#include "common/thread_tuner.h"
#include "data/dataset.h"
#include "models/attlip_model.h"
#include "models/model.h"
#include "run/char_evaluation.h"
#include "run/checkpoint.h"
#include "optim/constraint_step.h"
#include "optim/optimizer.h"
#include "optim/schedule.h"
#include "run/measurements.h"
#include "run/metrics.h"
#include "run/run_config.h"
#include "run/trainer.h"

#include <ATen/core/Generator.h>
#include <ATen/core/Tensor.h>

#include <chrono>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lwb::run {

using TrainerClock = std::chrono::steady_clock;

// What one run() accumulates across its steps; fresh at every run().
struct RunProgress {
  TrainerClock::time_point start, windowStart;  // the run's and the current log window's start
  // The log window: steps since the last metrics row. Only timings are windowed; a row's
  // train loss and accuracy are its own step's (run_results.h).
  int64_t windowSteps = 0;
  double windowConstraintSeconds = 0;
  double windowCommStart = 0;  // the communicator's secondsInCollectives() when the window opened
  double constraintSeconds = 0, stepSeconds = 0;  // whole-run totals, for constraintFraction
  std::optional<StepMetrics> lastEval;            // the newest row with validation numbers
  RunSummary summary;
  static constexpr size_t kRecentLosses = 50;     // seed 002 reports the mean of the last 50
  std::deque<at::Tensor> recentLosses;
  std::optional<bool> attlipEvalConverged;        // the newest evaluation's AttLip solver, all batches
};

// One optimizer + constraint step, as run()'s later phases need it.
struct TrainStep {
  int64_t step = 0;  // 1-based: steps completed with this one
  double lr = 0;
  at::Tensor loss;   // the step's training loss (scalar); read back on log steps only
  double acc = 0;    // the step's training accuracy; measured on log steps only
  bool logNow = false, spectraNow = false, checkpointNow = false;
  SpectraSnapshot beforeConstraint;  // spectraNow and a constraint method: after the update, before the constraint
  std::optional<models::ProxReport> prox;  // log steps of an AttLip model: the solver's report
};

struct Trainer::Impl {
  RunConfig cfg;
  at::Device device{at::kCPU};
  std::unique_ptr<data::Dataset> dataset;
  std::unique_ptr<models::Model> model;
  std::unique_ptr<optim::Optimizer> optimizer;
  std::unique_ptr<optim::ConstraintStep> constraint;
  optim::LrSchedule schedule;
  at::Generator dataGen;
  std::vector<MetricsSink*> sinks;
  dist::Communicator* comm = nullptr;  // data-parallel runs only (setCommunicator)
  bool leader() const;                 // rank 0, or not distributed: logs, evaluates, checkpoints
  // Rank 0's yes/no to every rank (a one-element broadcast); `mine` elsewhere when alone.
  bool agree(bool mine) const;
  // Log steps of a data-parallel run: "" while every rank holds the same weights, else the
  // message that stops the run (a checksum of all parameters, gathered from every rank).
  std::string rankDrift() const;
  int64_t startStep = 0;           // steps already done (resume)
  std::string checkpointDir;       // empty: no checkpoints
  int64_t lastCheckpointStep = -1;
  RunProgress progress;
  // Threads chosen from the run's step times when the user pinned no count (thread_tuner.h).
  std::optional<ThreadTuner> tuner;
  // Task chars: the paper window and the n-gram reference levels (char_evaluation.h).
  std::optional<CharEvaluation> charEval;
  // Soft cap with updates too large for App. B's alpha* (softcap_alpha.h softCapPeak): the
  // warning printed at the start and kept in summary.json's message; empty otherwise.
  std::string softCapNote;

  // The phases of Trainer::run (trainer.cpp), in the order a step meets them.
  void beginRun();
  TrainStep trainStep(int64_t step);  // step: 0-based index of the step to take
  // Sends step t's metrics row (and spectra snapshot) to the sinks and starts a new log
  // window; false when the training loss is non-finite (that row is sent unmeasured).
  bool logRow(const TrainStep& t);
  StepMetrics metricsRow(const TrainStep& t) const;
  // Norms, bound, soft-cap alpha and, on eval steps, validation; returns the spectra
  // measured, for the snapshot.
  std::vector<MatrixSpectrum> measureRow(StepMetrics& m, const TrainStep& t);
  void evaluate(StepMetrics& m);
  void publish(const StepMetrics& m);
  void publishSpectra(const TrainStep& t, const std::vector<MatrixSpectrum>& spectra);
  void closeLogWindow();
  void saveCheckpoint(int64_t step);
  RunSummary endRun(RunStatus status, const std::string& message);

  // trainer_state.cpp
  Checkpoint checkpoint(int64_t step) const;
};

}  // namespace lwb::run
