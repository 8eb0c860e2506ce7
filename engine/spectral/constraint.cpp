#include "spectral/constraint.h"

#include "spectral/basic_constraints.h"
#include "spectral/softcap_alpha.h"

#include <ATen/TensorOperators.h>
#include <cmath>
#include <stdexcept>

namespace lwb::spectral {
namespace {

struct NamedMethod {
  ConstraintMethod method;
  std::string_view id;
};

constexpr NamedMethod kMethods[] = {
    {ConstraintMethod::None, "none"},
    {ConstraintMethod::WeightDecay, "weight_decay"},
    {ConstraintMethod::SpectralWeightDecay, "spectral_weight_decay"},
    {ConstraintMethod::SpectralNormalize, "spectral_normalize"},
    {ConstraintMethod::SpectralHammer, "spectral_hammer"},
    {ConstraintMethod::Stiefel, "stiefel"},
    {ConstraintMethod::SpectralSoftCap, "spectral_soft_cap"},
    {ConstraintMethod::SpectralHardCap, "spectral_hard_cap"},
    {ConstraintMethod::SpectralClip, "spectral_clip"},
    {ConstraintMethod::SpectralRelu, "spectral_relu"},
    {ConstraintMethod::SpectralClippedWeightDecay, "spectral_clipped_weight_decay"},
    {ConstraintMethod::SvdClip, "svd_clip"},
};

// Methods are applied to s W with s = sqrt(d_in/d_out) so RMS thresholds become spectral
// ones, then scaled back; for the homogeneous methods this equals dividing the thresholds
// by s, and for soft cap it keeps alpha in RMS units as Theorem B.1 needs with Muon.
at::Tensor applySpectral(const at::Tensor& w, const ConstraintParams& p,
                         PowerIterationState& state) {
  switch (p.method) {
    case ConstraintMethod::None: return w;
    case ConstraintMethod::WeightDecay: return weightDecay(w, p.lambda, p.lr);
    case ConstraintMethod::SpectralWeightDecay:
      return spectralWeightDecay(w, p.lambda, state, p.powerIterations);
    case ConstraintMethod::SpectralNormalize:
      return spectralNormalize(w, p.sigmaMax, state, p.powerIterations);
    case ConstraintMethod::SpectralHammer:
      return spectralHammer(w, p.sigmaMax, state, p.powerIterations);
    case ConstraintMethod::Stiefel: return stiefel(w, p.sigmaMax, p.stiefelNs);
    case ConstraintMethod::SpectralSoftCap: return spectralSoftCap(w, resolvedAlpha(p));
    case ConstraintMethod::SpectralHardCap: return spectralHardCap(w, p.sigmaMax, p.clip);
    case ConstraintMethod::SpectralClip: return spectralClip(w, p.sigmaMin, p.sigmaMax, p.clip);
    case ConstraintMethod::SpectralRelu: return spectralRelu(w, p.sigmaMin, p.clip);
    case ConstraintMethod::SpectralClippedWeightDecay:
      return spectralClippedWeightDecay(w, p.lambda, p.sigmaMax, p.clip);
    case ConstraintMethod::SvdClip: return svdClip(w, p.sigmaMin, p.sigmaMax);
  }
  throw std::invalid_argument("unknown constraint method");
}

}  // namespace

std::string_view toString(ConstraintMethod m) {
  for (const auto& nm : kMethods)
    if (nm.method == m) return nm.id;
  return "?";
}

std::optional<ConstraintMethod> parseConstraintMethod(std::string_view id) {
  for (const auto& nm : kMethods)
    if (nm.id == id) return nm.method;
  return std::nullopt;
}

std::vector<ConstraintMethod> allConstraintMethods() {
  std::vector<ConstraintMethod> v;
  for (const auto& nm : kMethods) v.push_back(nm.method);
  return v;
}

double resolvedAlpha(const ConstraintParams& p) {
  if (p.alpha) {
    if (!std::isfinite(*p.alpha) || *p.alpha < 0.0)
      throw std::invalid_argument("alpha must be a finite number >= 0");
    return *p.alpha;
  }
  return softCapAlphaStar(p.sigmaMax, p.lr, p.lambda, p.updateNorm);
}

double rmsScale(const at::Tensor& w) {
  return std::sqrt(static_cast<double>(w.size(-1)) / static_cast<double>(w.size(-2)));
}

bool startsFromSign(const ConstraintParams& p) {
  switch (p.method) {
    case ConstraintMethod::SpectralHardCap:
    case ConstraintMethod::SpectralClippedWeightDecay: return p.clip.impl == ClipImpl::Nested;
    case ConstraintMethod::SpectralClip:
      // σmin = 0 is the hard cap (spectralClip); the ABD forms add a sign term only above it.
      return p.clip.impl == ClipImpl::Nested || (p.clip.impl != ClipImpl::Svd && p.sigmaMin > 0);
    case ConstraintMethod::SpectralRelu: return p.clip.impl != ClipImpl::Svd;
    default: return false;
  }
}

at::Tensor applyConstraint(const at::Tensor& w, const ConstraintParams& p,
                           PowerIterationState* state) {
  if (w.dim() < 2) throw std::invalid_argument("constraints apply to matrices (rank >= 2)");
  if (w.numel() == 0) return w;
  PowerIterationState local;
  PowerIterationState& st = state ? *state : local;
  if (p.norm == ThresholdNorm::Spectral) return applySpectral(w, p, st);
  const double s = rmsScale(w);
  return applySpectral(w * s, p, st) / s;
}

}  // namespace lwb::spectral
