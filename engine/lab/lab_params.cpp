#include "lab/lab_params.h"

#include "io/input_error.h"

#include <nlohmann/json.hpp>

namespace lwb::lab {

spectral::NewtonSchulzConfig toNsConfig(const std::string& coefficients, int steps, int polishSteps) {
  spectral::ConstraintSettings s;
  nlohmann::json j{{"ns_coeffs", coefficients}, {"ns_steps", steps}, {"ns_polish_steps", polishSteps}};
  spectral::readSettings(j, s, spectral::settingLabel);
  if (s.ns.steps + s.ns.polishSteps < 1) throw InputError("Newton–Schulz steps: at least one step is needed");
  return s.ns;
}

at::ScalarType toScalarType(const std::string& dtype) {
  if (dtype == "float32") return at::kFloat;
  if (dtype == "bfloat16") return at::kBFloat16;
  if (dtype == "float64") return at::kDouble;
  throw InputError("precision: unknown dtype '" + dtype + "' (float32, bfloat16)");
}

spectral::ConstraintParams toConstraintParams(const ConstraintRequest& r) {
  spectral::validate(r, spectral::settingLabel);
  spectral::ConstraintParams p;
  static_cast<spectral::ConstraintSettings&>(p) = r;
  p.norm = spectral::ThresholdNorm::Spectral;
  return p;
}

}  // namespace lwb::lab
