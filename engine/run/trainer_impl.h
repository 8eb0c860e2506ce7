// The Trainer's private state, shared by trainer.cpp (the loop) and trainer_state.cpp
// (checkpoint and resume). Not part of the run/ door.
#pragma once

#include "data/dataset.h"
#include "optim/constraint_step.h"
#include "optim/optimizer.h"
#include "optim/schedule.h"
#include "run/run_config.h"
#include "run/trainer.h"

#include <ATen/core/Generator.h>

#include <memory>
#include <string>

namespace lwb::run {

struct Trainer::Impl {
  RunConfig cfg;
  at::Device device{at::kCPU};
  std::unique_ptr<data::Dataset> dataset;
  std::unique_ptr<optim::Optimizer> optimizer;
  std::unique_ptr<optim::ConstraintStep> constraint;
  optim::LrSchedule schedule;
  at::Generator dataGen;
  int64_t startStep = 0;           // steps already done (resume)
  std::string checkpointDir;       // empty: no checkpoints
  int64_t lastCheckpointStep = -1;
};

}  // namespace lwb::run
