#include "app/runs/run_json.h"

#include "run/run_config.h"

#include <nlohmann/json.hpp>

#include <limits>

namespace lwb::app {
namespace {

using nlohmann::json;

// Numbers may be null (the engine writes non-finite values as null) or absent.
double number(const json& j, const char* key, double fallback = std::numeric_limits<double>::quiet_NaN()) {
  const auto it = j.find(key);
  if (it == j.end()) return fallback;
  if (it->is_number()) return it->get<double>();
  return std::numeric_limits<double>::quiet_NaN();
}

QString text(const json& j, const char* key, const QString& fallback = {}) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? QString::fromStdString(it->get<std::string>()) : fallback;
}

}  // namespace

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
