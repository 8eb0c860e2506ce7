#include "app/run_json.h"

#include "run/run_config.h"

#include <nlohmann/json.hpp>

#include <cmath>
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

std::optional<double> optionalNumber(const json& j, const char* key) {
  if (!j.contains(key)) return std::nullopt;
  return number(j, key);
}

QString text(const json& j, const char* key, const QString& fallback = {}) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? QString::fromStdString(it->get<std::string>()) : fallback;
}

}  // namespace

std::optional<StepSample> stepSampleFromJson(const json& row) {
  if (!row.is_object()) return std::nullopt;
  const auto stepIt = row.find("step");
  if (stepIt == row.end() || !stepIt->is_number_integer()) return std::nullopt;
  StepSample s;
  s.step = stepIt->get<int64_t>();
  s.lr = number(row, "lr");
  s.trainLoss = number(row, "train_loss");
  s.trainAcc = number(row, "train_acc");
  s.stepsPerSecond = number(row, "steps_per_s", 0);
  s.etaSeconds = number(row, "eta_s", 0);
  s.alpha = number(row, "alpha", -1);
  if (const auto it = row.find("rms_norms"); it != row.end() && it->is_object())
    for (const auto& [name, value] : it->items())
      s.norms.push_back({QString::fromStdString(name), {}, value.is_number() ? value.get<double>() : std::nan(""), 0});
  s.lipschitzBound = optionalNumber(row, "lipschitz_bound");
  if (const auto it = row.find("bound_trace"); it != row.end() && it->is_array())
    for (const auto& t : *it)
      if (t.is_object())
        s.trace.push_back({text(t, "name"), number(t, "block"), number(t, "lipschitz"), number(t, "activation")});
  s.valLoss = optionalNumber(row, "val_loss");
  s.valAcc = optionalNumber(row, "val_acc");
  if (const auto it = row.find("activations"); it != row.end() && it->is_array())
    for (const auto& a : *it)
      if (a.is_object()) s.activations.push_back({text(a, "name"), number(a, "max_entry"), number(a, "max_rms")});
  return s;
}

ConstraintInfo constraintInfoFromJson(const json& config) {
  return run::storedTrainingConstraint(config).value_or(ConstraintInfo{});
}

std::optional<int64_t> totalStepsFromJson(const json& config) {
  if (!config.is_object()) return std::nullopt;
  const auto it = config.find("steps");
  if (it == config.end() || !it->is_number_integer()) return std::nullopt;
  return it->get<int64_t>();
}

RunEnd runEndFromJson(const json& summary, RunState state, const QString& message) {
  RunEnd e;
  e.state = state;
  e.message = message;
  if (!summary.is_object()) return e;
  if (e.message.isEmpty()) e.message = text(summary, "message");
  if (const auto it = summary.find("steps"); it != summary.end() && it->is_number_integer()) e.steps = it->get<int64_t>();
  e.seconds = number(summary, "seconds", 0);
  e.stepsPerSecond = number(summary, "steps_per_s", 0);
  auto finiteOrNone = [&](const char* key) -> std::optional<double> {
    const double v = number(summary, key);
    return std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
  };
  e.valLoss = finiteOrNone("val_loss");
  e.valAcc = finiteOrNone("val_acc");
  e.lipschitzBound = finiteOrNone("lipschitz_bound");
  return e;
}

StatusFile parseStatusFile(const std::string& text) {
  const QString all = QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
  const QStringList lines = all.split(QLatin1Char('\n'));
  StatusFile s;
  if (!lines.isEmpty()) s.status = lines[0].trimmed();
  if (lines.size() > 1) s.message = lines[1].trimmed();
  return s;
}

}  // namespace lwb::app
