// RunConfig: one JSON object, every field defaulted and validated. Unknown keys, wrong types
// and out-of-range values raise lwb::InputError naming the key ("optimizer.lr: must be > 0").
// Key names are a contract (ARCHITECTURE.md "Config keys that scripts rely on").
#pragma once

#include "data/icl_levels.h"
#include "data/task_kinds.h"
#include "common/choice.h"
#include "io/input_error.h"
#include "models/model_config.h"
#include "optim/constraint_config.h"
#include "optim/optimizer_config.h"
#include "spectral/constraint_methods.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace lwb::run {

enum class IclOrder { Random, XFirst };
inline constexpr std::array<Choice<IclOrder>, 2> kIclOrders{{{IclOrder::Random, "random"}, {IclOrder::XFirst, "x_first"}}};
enum class RunDevice { Cpu, Cuda };
inline constexpr std::array<Choice<RunDevice>, 2> kRunDevices{{{RunDevice::Cpu, "cpu"}, {RunDevice::Cuda, "cuda"}}};

// The icl_least_squares task (SEEDS-002-004 §B.1).
struct IclSettings {
  int64_t pairs = 64, dim = 5;
  IclOrder order = IclOrder::Random;   // random: faithful, half the sequences show y before x
  double noise = 0.01;                 // input noise on x-tokens during training
  double maxCond = 1e3;
  bool biasFeature = true;
};

struct RunConfig {
  data::TaskKind task = data::TaskKind::Mnist;
  std::string dataPath;                // file or folder; may be empty for generated tasks
  int64_t steps = 1000, batchSize = 128;
  uint64_t seed = 0;
  RunDevice device = RunDevice::Cpu;
  int threads = 0;                     // 0: --threads / LWB_THREADS, else tuned per run (common/thread_tuner.h)
  int64_t evalEvery = 100, evalBatches = 20, logEvery = 10, spectraEvery = 100;
  // checkpoints/step_N.safetensors every `checkpoint_every` steps (0: only at the end) and
  // when a run ends (finished, stopped, diverged); the newest `keep_checkpoints` are kept.
  int64_t checkpointEvery = 0, keepCheckpoints = 3;
  int64_t modulus = 113;               // modular tasks
  double trainFraction = 0.3;          // modular tasks
  int64_t mnistTrainCount = 8000;
  double maskRate = 0.15;              // chars_masked: share of positions selected for the loss
  IclSettings icl;
  models::ModelConfig model;
  optim::OptimizerConfig optimizer;
  optim::ConstraintConfig constraint;
};

// Parses and validates; missing keys keep their defaults.
// What config.json records about a run besides its settings (versions of the programs, the
// data-parallel ranks that started it): skipped by parseRunConfig, so a run's own config.json
// is a valid --config.
inline constexpr std::array<std::string_view, 2> kConfigRecordKeys{"versions", "world_size"};
RunConfig parseRunConfig(const nlohmann::json& j);
RunConfig loadRunConfig(const std::string& path);  // InputError names the file
// The full resolved config (every key), the inverse of parseRunConfig.
nlohmann::json toJson(const RunConfig& c);
// The constraint settings training applies with this config: the constraint section with
// η = optimizer.lr, λ from the optimizer for methods that couple to its decay (soft cap) and
// the update-norm bound η·update_norm_factor (optim::trainingConstraint). (ConstraintStep
// refines η and the bound per parameter group; plots use this.)
spectral::ConstraintSettings trainingConstraint(const RunConfig& c);
// The training constraint of a stored config (a run directory's config.json, possibly from
// another version): keys this version does not know are dropped before parsing; nullopt when
// what remains is refused.
std::optional<spectral::ConstraintSettings> storedTrainingConstraint(const nlohmann::json& config);
// Loss levels a plot draws for this config's task (icl_least_squares: predict 0, copy only,
// Bayes floor); empty for other tasks. The stored form drops unknown keys like the above.
std::vector<data::ReferenceLevel> lossReferenceLevels(const RunConfig& c);
std::vector<data::ReferenceLevel> storedLossReferenceLevels(const nlohmann::json& config);
// What models::makeModel needs from the config beyond the model section: the task id, the
// ICL task's data-carrying features (icl.dim + 1 + bias feature), the embedding cap.
models::ModelContext modelContext(const RunConfig& c);
// Applies "a.b.c=value" (value parsed as JSON, else taken as a string) to a config JSON
// before parsing; unknown keys are reported by parseRunConfig.
void applyOverride(nlohmann::json& j, const std::string& assignment);

}  // namespace lwb::run
