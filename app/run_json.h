// Run-directory JSON (metrics.jsonl rows, config.json, summary.json, status) -> the app's
// plain values. Used when opening or following a run directory, and by the worker for the
// constraint settings of a live run. nlohmann-json only: no LibTorch.
#pragma once

#include "app/run_types.h"

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>

namespace lwb::app {

// A metrics.jsonl row; nullopt when it has no integer "step" (not a metrics row).
// Values written as null (non-finite in the run) become NaN.
std::optional<StepSample> stepSampleFromJson(const nlohmann::json& row);

// config.json (or a run config): the training constraint (run::storedTrainingConstraint);
// the defaults (no constraint) when the config cannot be read.
ConstraintInfo constraintInfoFromJson(const nlohmann::json& config);
// "steps" of a config, if present.
std::optional<int64_t> totalStepsFromJson(const nlohmann::json& config);

// summary.json plus the status file's state and message.
RunEnd runEndFromJson(const nlohmann::json& summary, RunState state, const QString& message);

// The status file: first line the state, optional second line the message.
struct StatusFile {
  QString status;
  QString message;
};
StatusFile parseStatusFile(const std::string& text);

}  // namespace lwb::app
