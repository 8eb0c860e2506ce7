// A run config (config.json, or the worker's config) -> the settings the app draws. Run
// results (metrics rows, summary, status) are the engine's: run/results_json.h and
// run/run_directory_reader.h. nlohmann-json only: no LibTorch.
#pragma once

#include "app/runs/run_types.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>

namespace lwb::app {

// config.json (or a run config): the training constraint (run::storedTrainingConstraint);
// the defaults (no constraint) when the config cannot be read.
ConstraintInfo constraintInfoFromJson(const nlohmann::json& config);
// "steps" of a config, if present.
std::optional<int64_t> totalStepsFromJson(const nlohmann::json& config);

}  // namespace lwb::app
