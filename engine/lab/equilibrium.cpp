#include "lab/equilibrium.h"

#include "common/torch_compat.h"
#include "io/input_error.h"
#include "spectral/spectral.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/TensorOperators.h>
#include <ATen/ops/randn.h>

#include <cmath>

namespace lwb::lab {
namespace {

// msign by exact SVD (float64): the demo is about the dynamics, so its updates have norm η
// exactly rather than a Newton–Schulz schedule's ~[0.7, 1.2] η.
at::Tensor exactPolar(const at::Tensor& a) {
  auto [u, s, vh] = compat::svdReduced(a);
  return u.matmul(vh);
}

double topSingularValue(const at::Tensor& w) { return compat::svdvals(w)[0].item<double>(); }

void validate(const EquilibriumRequest& r) {
  if (r.rows < 2 || r.cols < 2 || r.rows > 256 || r.cols > 256) throw InputError("equilibrium size: rows and columns between 2 and 256");
  if (r.steps < 1 || r.steps > 20000) throw InputError("equilibrium steps: between 1 and 20000");
  if (!std::isfinite(r.lr) || r.lr <= 0) throw InputError("η: must be a positive number");
  if (!std::isfinite(r.lambda) || r.lambda <= 0 || r.lambda > 1) throw InputError("λ: must be in (0, 1]");
  if (r.lambda * r.lr >= 1) throw InputError("λη: must be below 1 (weight decay would flip the weights' sign)");
  if (!std::isfinite(r.sigmaMax) || r.sigmaMax <= 0) throw InputError("σmax / β: must be a positive number");
  if (!std::isfinite(r.startSigma1) || r.startSigma1 <= 0) throw InputError("start σ₁: must be a positive number");
  if (!std::isfinite(r.alignment) || r.alignment < 0 || r.alignment > 1) throw InputError("alignment: must be between 0 and 1");
}

}  // namespace

using M = spectral::ConstraintMethod;

EquilibriumResult simulateEquilibrium(const EquilibriumRequest& r, const CancelFlag* cancel) {
  validate(r);
  const int64_t k = std::min(r.rows, r.cols);
  const at::Tensor w0 = spectral::matrixWithSpectrum(r.rows, r.cols, spectral::logSpacedSpectrum(k, r.startSigma1, r.startSigma1 / 10), r.seed);

  EquilibriumResult out;
  out.alphaStar = spectral::softCapAlphaStar(r.sigmaMax, r.lr, r.lambda, r.lr);
  out.series = {
      {M::WeightDecay, {}, 1.0 / r.lambda, "1/λ"},
      {M::SpectralClippedWeightDecay, {},
       spectral::clippedWeightDecayEquilibrium(r.sigmaMax, r.lambda, r.lr, spectral::DecayOrder::UpdateThenProject),
       "β + (1 − λ)η/λ"},
      {M::SpectralSoftCap, {}, r.sigmaMax, "σmax"},
  };
  spectral::ConstraintParams clipped;
  clipped.method = M::SpectralClippedWeightDecay;
  clipped.sigmaMax = r.sigmaMax;
  clipped.lambda = r.lambda;
  clipped.impl = spectral::ClipImpl::Svd;

  // The same random directions for every method, so the curves differ only by the constraint.
  auto gen = at::make_generator<at::CPUGeneratorImpl>(r.seed + 1);
  std::vector<at::Tensor> w(out.series.size(), w0);
  for (int step = 0; step < r.steps; ++step) {
    throwIfCancelled(cancel);
    const at::Tensor noise = r.alignment < 1 ? exactPolar(at::randn({r.rows, r.cols}, gen, at::TensorOptions().dtype(at::kDouble)))
                                             : at::Tensor();
    for (size_t i = 0; i < w.size(); ++i) {
      // One SVD of the current weights gives both the recorded σ₁ and the update's direction.
      auto [u, s, vh] = compat::svdReduced(w[i]);
      out.series[i].sigma1.push_back(s[0].item<double>());
      at::Tensor dir = u.matmul(vh);
      if (r.alignment < 1) dir = exactPolar(dir * r.alignment + noise * (1 - r.alignment));
      const at::Tensor update = dir * r.lr;
      switch (out.series[i].method) {
        case M::WeightDecay: w[i] = w[i] * (1 - r.lambda * r.lr) + update; break;
        case M::SpectralClippedWeightDecay: w[i] = spectral::applyConstraint(w[i] + update, clipped); break;
        default: w[i] = spectral::spectralSoftCap(w[i] * (1 - r.lambda * r.lr) + update, out.alphaStar); break;
      }
    }
  }
  for (size_t i = 0; i < w.size(); ++i) out.series[i].sigma1.push_back(topSingularValue(w[i]));
  return out;
}

}  // namespace lwb::lab
