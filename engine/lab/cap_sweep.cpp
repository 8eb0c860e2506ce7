#include "lab/cap_sweep.h"

#include "io/input_error.h"
#include "lab/lab_params.h"
#include "spectral/spectral.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace lwb::lab {

CapSweep sweepHardCap(const CapSweepRequest& r, const std::function<void(int, int)>& progress, const CancelFlag* cancel) {
  if (r.rows < 2 || r.cols < 2 || r.rows > kMaxLabEntries / r.cols) throw InputError("sweep size: must be between 2×2 and 1024×4096 entries");
  if (r.sigma1s.empty()) throw InputError("sweep σ₁ values: none given");
  for (double s : r.sigma1s)
    if (!std::isfinite(s) || s <= 0) throw InputError("sweep σ₁ values: must be positive numbers");
  if (!std::isfinite(r.sigmaLow) || r.sigmaLow <= 0) throw InputError("sweep smallest σ: must be positive");
  ConstraintRequest base;
  base.method = spectral::ConstraintMethod::SpectralHardCap;
  base.sigmaMax = r.sigmaMax;
  base.ns = toNsConfig(r.coefficients, r.nsSteps, r.polishSteps);
  base.dtype = r.dtype;
  const at::ScalarType dtype = toScalarType(r.dtype);
  std::vector<spectral::ConstraintParams> params;
  for (const auto& id : r.impls) {
    const auto impl = spectral::parseClipImpl(id);
    if (!impl) throw InputError("implementation: unknown '" + id + "'");
    base.impl = *impl;
    params.push_back(toConstraintParams(base));
  }

  CapSweep out;
  out.sigma1s = r.sigma1s;
  out.sigmaMax = r.sigmaMax;
  for (const auto& impl : r.impls) out.series.push_back({impl, {}, {}, {}});
  const int total = static_cast<int>(r.sigma1s.size() * r.impls.size());
  int done = 0;
  const int64_t k = std::min(r.rows, r.cols);
  for (double sigma1 : r.sigma1s) {
    throwIfCancelled(cancel);
    const double lo = std::min(r.sigmaLow, sigma1);
    const at::Tensor w = spectral::matrixWithSpectrum(r.rows, r.cols, spectral::logSpacedSpectrum(k, sigma1, lo), r.seed).to(dtype);
    // The exact reference clips the singular values of the matrix the method sees (rounded).
    std::vector<double> exact = spectral::singularValuesViaGram(w);
    for (double& s : exact) s = std::min(s, r.sigmaMax);
    for (size_t i = 0; i < r.impls.size(); ++i) {
      throwIfCancelled(cancel);
      const auto t0 = std::chrono::steady_clock::now();
      const at::Tensor y = spectral::applyConstraint(w, params[i]);
      const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      const std::vector<double> after = spectral::singularValuesViaGram(y);
      double err = 0;
      for (size_t j = 0; j < std::min(after.size(), exact.size()); ++j) err = std::max(err, std::abs(after[j] - exact[j]));
      auto& s = out.series[i];
      s.sigma1After.push_back(after.empty() ? 0.0 : after.front());
      s.maxError.push_back(err);
      s.seconds.push_back(secs);
      if (progress) progress(++done, total);
    }
  }
  return out;
}

}  // namespace lwb::lab
