// One entry point for every weight-constraint method by its canonical id (ARCHITECTURE.md),
// with thresholds in the raw spectral norm or the RMS->RMS norm.
#pragma once

#include "spectral/newton_schulz.h"
#include "spectral/power_iteration.h"
#include "spectral/spectral_clip.h"

#include <ATen/core/Tensor.h>

#include <optional>
#include <string_view>
#include <vector>

namespace lwb::spectral {

enum class ConstraintMethod {
  None,
  WeightDecay,
  SpectralWeightDecay,
  SpectralNormalize,
  SpectralHammer,
  Stiefel,
  SpectralSoftCap,
  SpectralHardCap,
  SpectralClip,
  SpectralRelu,
  SpectralClippedWeightDecay,
  SvdClip,
};

std::string_view toString(ConstraintMethod m);
std::optional<ConstraintMethod> parseConstraintMethod(std::string_view id);
std::vector<ConstraintMethod> allConstraintMethods();

// How thresholds (sigma_max, sigma_min, alpha) are measured.
enum class ThresholdNorm {
  Spectral,  // raw sigma1
  Rms,       // RMS->RMS operator norm of a (d_out, d_in) matrix: sigma1 sqrt(d_in / d_out)
};

struct ConstraintParams {
  ConstraintMethod method = ConstraintMethod::None;
  double sigmaMax = 1.0;
  double sigmaMin = 0.0;
  std::optional<double> alpha;  // soft cap strength; empty = alpha* from lr, lambda, updateNorm
  double lambda = 0.0;          // weight decay / spectral weight decay / clipped decay
  double lr = 1.0;              // learning rate (weight decay factor 1 - lambda lr; alpha*)
  double updateNorm = -1.0;     // bound on ||Delta W|| for alpha*; < 0 means lr
  int powerIterations = 20;
  ClipOptions clip;             // implementation + Newton–Schulz for clip-family methods
  NewtonSchulzConfig stiefelNs = NewtonSchulzConfig::accurate();
  ThresholdNorm norm = ThresholdNorm::Spectral;
};

// The soft-cap strength the params resolve to (given alpha, or alpha*).
double resolvedAlpha(const ConstraintParams& p);

// sqrt(d_in / d_out) for W of shape [..., d_out, d_in]: ||W||_RMS = sigma1 * this.
double rmsScale(const at::Tensor& w);

// Whether the method's implementation starts from msign(W), so a caller may pass it in
// ClipOptions::sign: every nested clip form, and the ABD forms' sign term (clip with
// σmin > 0, relu).
bool startsFromSign(const ConstraintParams& p);

// Applies the method. `state` carries power-iteration vectors between calls (methods that
// use power iteration start from random vectors when it is null).
at::Tensor applyConstraint(const at::Tensor& w, const ConstraintParams& p,
                           PowerIterationState* state = nullptr);

}  // namespace lwb::spectral
