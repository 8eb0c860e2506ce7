#include "lab/lab_params.h"

#include "io/input_error.h"

#include <cmath>
#include <cstdio>

namespace lwb::lab {
namespace {

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

}  // namespace

spectral::NewtonSchulzConfig toNsConfig(const std::string& coefficients, int steps, int polishSteps) {
  const auto c = spectral::parseNsCoefficients(coefficients);
  if (!c) throw InputError("coefficients: unknown set '" + coefficients + "' (jordan5, you6, polish)");
  if (steps < 0 || steps > 100) throw InputError("Newton–Schulz steps: must be between 0 and 100, got " + std::to_string(steps));
  if (polishSteps < 0 || polishSteps > 50)
    throw InputError("polishing steps: must be between 0 and 50, got " + std::to_string(polishSteps));
  if (steps + polishSteps < 1) throw InputError("Newton–Schulz steps: at least one step is needed");
  return {*c, steps, polishSteps};
}

at::ScalarType toScalarType(const std::string& dtype) {
  if (dtype == "float32") return at::kFloat;
  if (dtype == "bfloat16") return at::kBFloat16;
  if (dtype == "float64") return at::kDouble;
  throw InputError("precision: unknown dtype '" + dtype + "' (float32, bfloat16)");
}

spectral::ConstraintParams toConstraintParams(const ConstraintRequest& r) {
  spectral::ConstraintParams p;
  const auto method = spectral::parseConstraintMethod(r.method);
  if (!method) throw InputError("method: unknown constraint method '" + r.method + "'");
  p.method = *method;
  if (!std::isfinite(r.sigmaMax) || r.sigmaMax <= 0) throw InputError("σmax: must be a positive number, got " + num(r.sigmaMax));
  if (!std::isfinite(r.sigmaMin) || r.sigmaMin < 0 || r.sigmaMin > r.sigmaMax)
    throw InputError("σmin: must be between 0 and σmax (" + num(r.sigmaMax) + "), got " + num(r.sigmaMin));
  if (!std::isfinite(r.lambda) || r.lambda < 0 || r.lambda > 1) throw InputError("λ: must be between 0 and 1, got " + num(r.lambda));
  if (!std::isfinite(r.lr) || r.lr <= 0) throw InputError("learning rate η: must be a positive number, got " + num(r.lr));
  if (r.alpha && (!std::isfinite(*r.alpha) || *r.alpha < 0)) throw InputError("α: must be a number >= 0, got " + num(*r.alpha));
  if (r.powerIterations < 1 || r.powerIterations > 1000)
    throw InputError("power iterations: must be between 1 and 1000, got " + std::to_string(r.powerIterations));
  const auto impl = spectral::parseClipImpl(r.impl);
  if (!impl) throw InputError("implementation: unknown '" + r.impl + "' (nested, abd_dense, abd_block, svd)");
  p.sigmaMax = r.sigmaMax;
  p.sigmaMin = r.sigmaMin;
  p.alpha = r.alpha;
  p.lambda = r.lambda;
  p.lr = r.lr;
  p.updateNorm = r.lr;  // Muon-sized updates: ‖ΔW‖ <= η (000 App. B)
  p.powerIterations = r.powerIterations;
  p.clip.impl = *impl;
  p.clip.ns = toNsConfig(r.coefficients, r.nsSteps, r.polishSteps);
  p.stiefelNs = p.clip.ns;
  p.norm = spectral::ThresholdNorm::Spectral;
  return p;
}

}  // namespace lwb::lab
