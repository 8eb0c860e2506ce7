// Spectral clipping sigma -> clip(sigma, sigmaMin, sigmaMax) and its special cases
// (001 §2–4; 000 App. C). Thresholds are raw spectral norms; matrices or stacks [..., m, n].
#pragma once

#include "spectral/constraint_methods.h"
#include "spectral/newton_schulz.h"

#include <ATen/core/Tensor.h>

#include <optional>
#include <string_view>

namespace lwb::spectral {

// ClipImpl, its ids and titles: spectral/constraint_methods.h (the method registry).

struct ClipOptions {
  ClipImpl impl = ClipImpl::AbdBlock;
  NewtonSchulzConfig ns = NewtonSchulzConfig::accurate();
  // msign(W) with `ns`, shaped like W, when the caller already has it: it does not depend
  // on the thresholds, so the Clip Lab computes it once per matrix while σmin/σmax sliders
  // move. Undefined: computed here. Used by the nested forms and by the ABD forms' sign term
  // (clip, relu); ignored otherwise.
  at::Tensor sign;
};

// sigma -> min(sigma, sigmaMax).
at::Tensor spectralHardCap(const at::Tensor& w, double sigmaMaxSpectral, const ClipOptions& opt = {});

// sigma -> clip(sigma, sigmaMin, sigmaMax), 0 <= sigmaMin <= sigmaMax. Singular directions
// with sigma = 0 have no defined sign; they are lifted only as far as msign lifts them.
at::Tensor spectralClip(const at::Tensor& w, double sigmaMinSpectral, double sigmaMaxSpectral,
                        const ClipOptions& opt = {});

// sigma -> max(sigma, sigmaMin) (001 §3.2).
at::Tensor spectralRelu(const at::Tensor& w, double sigmaMinSpectral, const ClipOptions& opt = {});

// (1 - lambda) W + lambda hardcap_beta(W): decays only singular values above beta (001 §3.4).
at::Tensor spectralClippedWeightDecay(const at::Tensor& w, double lambda, double betaSpectral,
                                      const ClipOptions& opt = {});

// Exact U clip(S) V^T by SVD, computed in float32 at least, returned in W's dtype.
at::Tensor svdClip(const at::Tensor& w, double sigmaMinSpectral, double sigmaMaxSpectral);

// clip_[-1,1] of W through msign of the (m+n)x(m+n) matrix [[I, W], [W^T, I]] (dense) or its
// P, Q, R blocks (block). Exposed for tests and benchmarks.
at::Tensor abdUnitClipDense(const at::Tensor& w, const NewtonSchulzConfig& ns);
at::Tensor abdUnitClipBlock(const at::Tensor& w, const NewtonSchulzConfig& ns);

}  // namespace lwb::spectral
