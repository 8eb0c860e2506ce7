#include "app/run_json.h"

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
  ConstraintInfo c;
  if (!config.is_object()) return c;
  if (const auto it = config.find("constraint"); it != config.end() && it->is_object()) {
    const json& k = *it;
    c.method = text(k, "method", c.method);
    c.sigmaMax = number(k, "sigma_max", c.sigmaMax);
    c.sigmaMin = number(k, "sigma_min", c.sigmaMin);
    c.lambda = number(k, "lambda", c.lambda);
    c.norm = text(k, "norm", c.norm);
    if (const auto a = k.find("alpha"); a != k.end() && a->is_number()) c.alpha = a->get<double>();
  }
  if (const auto it = config.find("optimizer"); it != config.end() && it->is_object())
    c.lr = number(*it, "lr", c.lr);
  return c;
}

std::optional<int64_t> totalStepsFromJson(const json& config) {
  if (!config.is_object()) return std::nullopt;
  const auto it = config.find("steps");
  if (it == config.end() || !it->is_number_integer()) return std::nullopt;
  return it->get<int64_t>();
}

}  // namespace lwb::app
