#include "lab/ns_trace.h"

#include "lab/lab_matrix_impl.h"
#include "lab/lab_params.h"
#include "spectral/matrix_stats.h"
#include "spectral/newton_schulz.h"

#include <ATen/TensorOperators.h>

#include <cmath>

namespace lwb::lab {

std::vector<NsStep> nsSchedule(const std::string& coefficients, int steps, int polishSteps) {
  std::vector<NsStep> out;
  for (const auto& t : spectral::nsSchedule(toNsConfig(coefficients, steps, polishSteps))) out.push_back({t.a, t.b, t.c});
  return out;
}

double applyNsPolynomials(const std::vector<NsStep>& schedule, double x, int upTo) {
  const size_t n = upTo < 0 ? schedule.size() : std::min(schedule.size(), static_cast<size_t>(upTo));
  for (size_t i = 0; i < n; ++i) {
    const NsStep& t = schedule[i];
    const double x2 = x * x;
    x = x * (t.a + x2 * (t.b + t.c * x2));
  }
  return x;
}

NsTrace newtonSchulzTrace(const LabMatrix& matrix, const NsTraceRequest& r, const CancelFlag* cancel) {
  NsTrace out;
  const auto config = toNsConfig(r.coefficients, r.steps, r.polishSteps);
  const at::ScalarType dtype = toScalarType(r.dtype);
  for (const auto& t : spectral::nsSchedule(config)) out.schedule.push_back({t.a, t.b, t.c});

  const at::Tensor& w = matrix.impl().w;
  at::Tensor x = w.size(0) > w.size(1) ? w.t() : w;  // the Gram side is the small one, as in msign
  out.frobenius = x.norm().item<double>();
  // Same normalisation as spectral::msign (with the set's safety margin): divide in float64,
  // then round to the dtype.
  const double scale = out.frobenius * spectral::nsCoefficientSet(config.coefficients).normSafety + 1e-30;
  x = (x / scale).to(dtype).contiguous();

  std::vector<double> x0;
  for (double s : matrix.singularValues()) x0.push_back(s / scale);
  out.matrix.push_back(spectral::singularValuesViaGram(x));
  out.scalar.push_back(x0);
  for (size_t k = 0; k < out.schedule.size(); ++k) {
    throwIfCancelled(cancel);
    const auto& t = out.schedule[k];
    x = spectral::newtonSchulzIterate(std::move(x), {{t.a, t.b, t.c}});
    out.matrix.push_back(spectral::singularValuesViaGram(x));
    std::vector<double> next = out.scalar.back();
    for (double& v : next) v = applyNsPolynomials({t}, v);
    out.scalar.push_back(std::move(next));
  }
  return out;
}

}  // namespace lwb::lab
