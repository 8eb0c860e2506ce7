// One entry point for every weight-constraint method by its registry entry
// (spectral/constraint_methods.h), with thresholds in the raw spectral norm or the RMS->RMS norm.
#pragma once

#include "spectral/constraint_methods.h"
#include "spectral/newton_schulz.h"
#include "spectral/power_iteration.h"
#include "spectral/spectral_clip.h"

#include <ATen/core/Tensor.h>

namespace lwb::spectral {

// The settings plus what only a tensor caller has: msign(W) under `ns`, shaped like W, when
// the caller already computed it (startsFromSign(settings) says whether it is used).
struct ConstraintParams : ConstraintSettings {
  at::Tensor sign;
};

// sqrt(d_in / d_out) for W of shape [..., d_out, d_in]: ||W||_RMS = sigma1 * this.
double rmsScale(const at::Tensor& w);

// Applies the method. `state` carries power-iteration vectors between calls (methods that
// use power iteration start from random vectors when it is null).
at::Tensor applyConstraint(const at::Tensor& w, const ConstraintParams& p,
                           PowerIterationState* state = nullptr);

// The same written into w where a method has an in-place route for it (the soft cap on one CPU
// float32/float64 matrix: spectralSoftCapInPlace, with alpha·s² on W for alpha on s·W, the
// cubic being homogeneous); false, w untouched, where it has none.
bool applyConstraintInPlace(const at::Tensor& w, const ConstraintParams& p);

}  // namespace lwb::spectral
