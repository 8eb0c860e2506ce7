#include "spectral/constraint.h"

#include "spectral/basic_constraints.h"

#include <ATen/TensorOperators.h>
#include <cmath>
#include <stdexcept>

namespace lwb::spectral {
namespace {

// Methods are applied to s W with s = sqrt(d_in/d_out) so RMS thresholds become spectral
// ones, then scaled back; for the homogeneous methods this equals dividing the thresholds
// by s, and for soft cap it keeps alpha in RMS units as Theorem B.1 needs with Muon.
at::Tensor applySpectral(const at::Tensor& w, const ConstraintParams& p, PowerIterationState& state) {
  const ClipOptions clip{p.impl, p.ns, p.sign};
  switch (p.method) {
    case ConstraintMethod::None: return w;
    case ConstraintMethod::WeightDecay: return weightDecay(w, p.lambda, p.lr);
    case ConstraintMethod::SpectralWeightDecay: return spectralWeightDecay(w, p.lambda, state, p.powerIterations);
    case ConstraintMethod::SpectralNormalize: return spectralNormalize(w, p.sigmaMax, state, p.powerIterations);
    case ConstraintMethod::SpectralHammer: return spectralHammer(w, p.sigmaMax, state, p.powerIterations);
    case ConstraintMethod::Stiefel: return stiefel(w, p.sigmaMax, p.ns);
    case ConstraintMethod::SpectralSoftCap: return spectralSoftCap(w, resolvedAlpha(p));
    case ConstraintMethod::SpectralHardCap: return spectralHardCap(w, p.sigmaMax, clip);
    case ConstraintMethod::SpectralClip: return spectralClip(w, p.sigmaMin, p.sigmaMax, clip);
    case ConstraintMethod::SpectralRelu: return spectralRelu(w, p.sigmaMin, clip);
    case ConstraintMethod::SpectralClippedWeightDecay: return spectralClippedWeightDecay(w, p.lambda, p.sigmaMax, clip);
    case ConstraintMethod::SvdClip: return svdClip(w, p.sigmaMin, p.sigmaMax);
  }
  throw std::invalid_argument("unknown constraint method");
}

}  // namespace

double rmsScale(const at::Tensor& w) {
  return std::sqrt(static_cast<double>(w.size(-1)) / static_cast<double>(w.size(-2)));
}

at::Tensor applyConstraint(const at::Tensor& w, const ConstraintParams& p, PowerIterationState* state) {
  if (w.dim() < 2) throw std::invalid_argument("constraints apply to matrices (rank >= 2)");
  if (w.numel() == 0) return w;
  PowerIterationState local;
  PowerIterationState& st = state ? *state : local;
  if (p.norm == ThresholdNorm::Spectral) return applySpectral(w, p, st);
  const double s = rmsScale(w);
  return applySpectral(w * s, p, st) / s;
}

bool applyConstraintInPlace(const at::Tensor& w, const ConstraintParams& p) {
  if (p.method != ConstraintMethod::SpectralSoftCap || w.dim() != 2 || w.numel() == 0) return false;
  // p(sW)/s = W − alpha s² W Wᵀ W (and back): alpha in RMS units is alpha·s² on W itself.
  const double s = p.norm == ThresholdNorm::Spectral ? 1.0 : rmsScale(w);
  return spectralSoftCapInPlace(w, resolvedAlpha(p) * s * s);
}

}  // namespace lwb::spectral
