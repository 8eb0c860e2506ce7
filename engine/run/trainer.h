// The Trainer: builds dataset, model, optimizer and constraint step from a RunConfig and
// trains, reporting through MetricsSinks. Runs on whatever thread calls run() (the CLI's
// main thread, or the app's engine worker thread); pause/stop are atomics checked between
// steps, so the caller's thread never blocks on it.
#pragma once

#include "data/dataset.h"
#include "models/model.h"
#include "run/checkpoint.h"
#include "run/metrics.h"
#include "run/run_config.h"
#include "run/trainer_control.h"

#include <atomic>
#include <memory>
#include <vector>

namespace lwb::dist {
class Communicator;
}

namespace lwb::run {


// The dataset a config asks for: a bundled "@data/..." name resolved by data::resolveDataPath,
// any other data_path against the current directory.
std::unique_ptr<data::Dataset> makeDataset(const RunConfig& cfg);

// The loss training and evaluation use, and the accuracy on log steps (needAcc): cross-entropy
// over every target except data::kIgnoreTarget (chars_masked reads only its selected
// positions), seed 002's regression loss for icl_least_squares (no accuracy: NaN).
struct LossAcc {
  at::Tensor loss;  // scalar, differentiable
  double acc = 0;
};
LossAcc lossAndAccuracy(const at::Tensor& logits, const data::Batch& batch, const at::Device& device, bool needAcc);

class Trainer {
 public:
  // Validates the config against the task (InputError) and builds everything; CPU
  // determinism: the same config and seed give the same metrics.
  explicit Trainer(const RunConfig& cfg);
  ~Trainer();
  void addSink(MetricsSink* sink);
  RunSummary run(TrainerControl& control);
  models::Model& model();

  // Writes checkpoints/step_N.safetensors into `dir` every checkpoint_every steps and when
  // run() ends (finished or stopped), keeping the newest keep_checkpoints.
  void setCheckpointDir(std::string dir);
  // The complete resumable state after `step` steps (weights, optimizer and constraint
  // state, generator states) with the resolved config.
  Checkpoint checkpoint(int64_t step) const;
  // Restores a checkpoint of this config; run() then continues with step ckpt.step + 1 and,
  // on CPU, reproduces the uninterrupted run's metrics exactly. InputError when the
  // checkpoint does not fit this config (names, shapes, optimizer kind, step range).
  void resume(const Checkpoint& ckpt);
  int64_t startStep() const;
  // Task chars: a line with the n-gram reference levels, then one per thing the short data
  // made the run omit or shorten (the summary's message repeats those); empty otherwise.
  std::vector<std::string> referenceNotes() const;
  // What the user should know before the first step (a soft cap that cannot hold sigma_max at
  // this lr); summary.json's message repeats it.
  std::vector<std::string> startWarnings() const;
  // Timing runs (lipschitz-cli bench): no paper-window or full-split evaluation (75 batches
  // at chars_small_cpu's last step) inside the timed steps, and no levels in the summary.
  void skipCharEvaluation();
  // Data-parallel training (issue 28): every rank builds the same Trainer and calls this with
  // its communicator before run(). Each rank takes its share of the same global batch, the
  // gradients are averaged across ranks before the step, rank 0 decides when to stop and does
  // the logging and evaluation (give the sinks to rank 0 only). Not owned; outlives run().
  void setCommunicator(dist::Communicator* comm);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;  // model, optimizer, sinks and the run in progress (trainer_impl.h)
};

}  // namespace lwb::run
