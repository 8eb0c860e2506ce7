#include "lab/constraint_lab.h"

#include "io/input_error.h"
#include "lab/lab_matrix_impl.h"
#include "lab/lab_params.h"
#include "spectral/spectral.h"

#include <ATen/Parallel.h>
#include <ATen/TensorOperators.h>
#include <ATen/ops/tensor.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <future>

namespace lwb::lab {
namespace {

using Clock = std::chrono::steady_clock;
double secondsSince(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

}  // namespace

std::vector<std::string> labDtypeIds() { return {"float32", "bfloat16"}; }

std::string validateRequest(const ConstraintRequest& r) {
  try {
    (void)toConstraintParams(r);
    (void)toScalarType(r.dtype);
  } catch (const InputError& e) {
    return e.what();
  }
  return {};
}

double resolvedSoftCapAlpha(const ConstraintRequest& r) {
  if (!spectral::reads(r.method, spectral::kAlpha)) return std::numeric_limits<double>::quiet_NaN();
  return spectral::resolvedAlpha(toConstraintParams(r));
}

ConstraintOutcome applyToMatrix(const LabMatrix& matrix, const ConstraintRequest& r, const CancelFlag* cancel) {
  const auto start = Clock::now();
  const spectral::ConstraintParams params = toConstraintParams(r);
  const at::ScalarType dtype = toScalarType(r.dtype);
  const LabMatrix::Impl& impl = matrix.impl();
  ConstraintOutcome out;
  out.alpha = spectral::reads(r.method, spectral::kAlpha) ? spectral::resolvedAlpha(params)
                                                         : std::numeric_limits<double>::quiet_NaN();

  const Decomposition& ref = impl.decompositionFor(dtype);
  throwIfCancelled(cancel);
  const at::Tensor x = impl.w.to(dtype).contiguous();
  spectral::PowerIterationState state;
  spectral::ConstraintParams run = params;
  if (spectral::startsFromSign(params)) {
    const LabMatrix::Impl::Sign sign = impl.signFor(x, params.ns);
    run.sign = sign.value;
    out.signSeconds = sign.seconds;
    out.signReused = sign.reused;
    throwIfCancelled(cancel);
  }
  const auto t0 = Clock::now();
  const at::Tensor y = spectral::applyConstraint(x, run, &state);
  out.methodSeconds = secondsSince(t0) + (out.signReused ? 0.0 : out.signSeconds);
  throwIfCancelled(cancel);

  out.before = ref.sigmas;
  // The result's spectrum and the exact result W* are independent measurements: the spectrum
  // is computed on a second thread (while the worker measures, the GUI's core is idle; it
  // saves ~2 ms of a 256×512 update). init_num_threads: that thread's BLAS uses the app's
  // intra-op setting, not OpenMP's all-cores default.
  auto afterSpectrum = std::async(std::launch::async, [&y] {
    at::init_num_threads();
    return spectral::singularValuesViaGram(y);
  });
  const double sigma1 = out.before.empty() ? 0.0 : out.before.front();
  out.exact.reserve(out.before.size());
  for (double s : out.before) out.exact.push_back(spectral::scalarMap(r, s, sigma1, out.alpha));
  if (impl.vectors && ref.u.defined()) {
    // W* = U f(Σ) V^T, the exact SVD result for the matrix the method saw.
    const at::Tensor f = at::tensor(out.exact, at::TensorOptions().dtype(at::kDouble));
    const at::Tensor exactW = (ref.u * f.unsqueeze(0)).matmul(ref.vh);
    const double norm = exactW.norm().item<double>();
    if (norm > 0) out.relativeMatrixError = (y.to(at::kDouble) - exactW).norm().item<double>() / norm;
  }
  out.after = afterSpectrum.get();
  // U f(Σ) V^T has singular values |f(σᵢ)|: an odd polynomial (soft cap far above σmax) can
  // send σ below zero, which flips the direction, not the size.
  std::vector<double> exactSorted;
  for (double v : out.exact) exactSorted.push_back(std::abs(v));
  std::sort(exactSorted.begin(), exactSorted.end(), std::greater<>());
  out.sigma1Exact = exactSorted.empty() ? 0.0 : exactSorted.front();
  out.sigma1After = out.after.empty() ? 0.0 : out.after.front();
  for (size_t i = 0; i < std::min(exactSorted.size(), out.after.size()); ++i)
    out.maxSpectrumError = std::max(out.maxSpectrumError, std::abs(out.after[i] - exactSorted[i]));
  out.seconds = secondsSince(start);
  return out;
}

}  // namespace lwb::lab
