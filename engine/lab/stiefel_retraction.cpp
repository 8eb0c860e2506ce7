#include "lab/stiefel_retraction.h"

#include "common/torch_compat.h"
#include "io/input_error.h"
#include "lab/lab_params.h"
#include "spectral/newton_schulz.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/TensorOperators.h>
#include <ATen/ops/randn.h>

#include <algorithm>
#include <cmath>

namespace lwb::lab {
namespace {

std::vector<double> sigmas(const at::Tensor& x) {
  const auto s = compat::svdvals(x.to(at::kDouble)).contiguous();
  return {s.data_ptr<double>(), s.data_ptr<double>() + s.numel()};
}

// The exact polar factor U Vᵀ (float64 SVD): a point on the manifold.
at::Tensor polar(const at::Tensor& x) {
  const auto [u, s, vh] = compat::svdReduced(x);
  return u.matmul(vh);
}

}  // namespace

StiefelRetraction stiefelRetraction(const StiefelRetractionRequest& r, const CancelFlag* cancel) {
  if (r.rows < 2 || r.rows > 2048 || r.cols < 2 || r.cols > 2048)
    throw InputError("matrix size: rows and columns must be in 2..2048");
  if (!(r.eta > 0 && r.eta <= 10)) throw InputError("η: must be in (0, 10]");
  const at::ScalarType dtype = toScalarType(r.dtype);
  auto gen = at::make_generator<at::CPUGeneratorImpl>(r.seed);
  const auto f64 = at::TensorOptions().dtype(at::kDouble);
  const auto w = polar(at::randn({r.rows, r.cols}, gen, f64));
  const auto a = polar(at::randn({r.rows, r.cols}, gen, f64));
  const auto step = (w - a * r.eta).to(dtype);
  StiefelRetraction out;
  out.before = sigmas(step);
  for (const auto& set : spectral::nsCoefficientSets()) {
    throwIfCancelled(cancel);
    RetractionOutcome o;
    o.coefficients = std::string(set.key);
    o.steps = set.defaultSteps;
    o.singularValues = sigmas(spectral::msign(step, {set.id, set.defaultSteps, 0}));
    for (double s : o.singularValues) o.maxDeviation = std::max(o.maxDeviation, std::abs(s - 1.0));
    out.after.push_back(std::move(o));
  }
  return out;
}

}  // namespace lwb::lab
