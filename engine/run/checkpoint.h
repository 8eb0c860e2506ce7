// Checkpoints: checkpoints/step_N.safetensors in a run directory (ARCHITECTURE.md). One file
// holds everything a run needs to continue exactly: weights ("param.<name>"), optimizer
// state ("optim.<field>.<name>"), power-iteration vectors ("constraint.<field>.<name>"), the
// data and default CPU generator states ("rng.data", "rng.default"); the step and the
// resolved run config travel in __metadata__. Written to a temporary name, fsynced and
// renamed (io::writeSafetensors), so a crash never leaves a torn checkpoint.
#pragma once

#include "io/raw_tensor.h"
#include "optim/state_io.h"
#include "run/run_config.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace lwb::run {

inline constexpr const char* kCheckpointFormat = "lipschitz-workbench-checkpoint-1";

struct Checkpoint {
  int64_t step = 0;          // steps completed
  nlohmann::json config;     // the resolved run config (config.json's content)
  optim::TensorMap tensors;
};

// "step_<N>.safetensors"
std::string checkpointFileName(int64_t step);
void writeCheckpoint(const std::filesystem::path& file, const Checkpoint& ckpt);
// InputError naming the file when it is not a readable workbench checkpoint.
Checkpoint readCheckpoint(const std::filesystem::path& file);
// The same from a tensor file already read (the Inspector reads every file once); errors
// name `what`.
Checkpoint checkpointFrom(const io::TensorFile& file, const std::string& what);
// The run config in a checkpoint's __metadata__ (less its "versions" record), validated;
// `device`, when not empty, replaces the stored one. Errors name `what`.
RunConfig checkpointConfig(const Checkpoint& ckpt, const std::string& what, const std::string& device = {});

// Deletes all but the newest `keep` checkpoints up to `newestStep` (the one just written) of a
// checkpoints folder (listed by run_directory_reader.h's listCheckpoints). readCheckpoint
// refuses a file whose step is not its name's (run_directory_reader.h checkStepMatchesName).
void pruneCheckpoints(const std::filesystem::path& dir, int64_t keep, int64_t newestStep);

}  // namespace lwb::run
