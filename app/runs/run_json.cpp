#include "app/runs/run_json.h"

#include "run/run_config.h"

#include <nlohmann/json.hpp>


namespace lwb::app {
using nlohmann::json;

ConstraintInfo constraintInfoFromJson(const json& config) {
  return run::storedTrainingConstraint(config).value_or(ConstraintInfo{});
}

std::optional<int64_t> totalStepsFromJson(const json& config) {
  if (!config.is_object()) return std::nullopt;
  const auto it = config.find("steps");
  if (it == config.end() || !it->is_number_integer()) return std::nullopt;
  return it->get<int64_t>();
}

}  // namespace lwb::app
