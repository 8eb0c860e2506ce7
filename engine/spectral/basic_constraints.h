// Weight-constraint methods of 000 §3.1 that need no sign-function clipping.
// Thresholds here are raw spectral norms (sigma1); the dispatcher in constraint.h converts
// RMS->RMS thresholds. All functions accept a matrix or a stack [..., m, n] on any device.
#pragma once

#include "spectral/newton_schulz.h"
#include "spectral/power_iteration.h"

#include <ATen/core/Tensor.h>

namespace lwb::spectral {

// W -> (1 - lambda * lr) W.
at::Tensor weightDecay(const at::Tensor& w, double lambda, double lr);

// W -> W - lambda sigma1 u1 v1^T (Yoshida & Miyato 2017).
at::Tensor spectralWeightDecay(const at::Tensor& w, double lambda, PowerIterationState& state,
                               int powerIterations);

// W -> W * sigmaMaxSpectral / max(sigma1, sigmaMaxSpectral).
at::Tensor spectralNormalize(const at::Tensor& w, double sigmaMaxSpectral,
                             PowerIterationState& state, int powerIterations);

// W -> W + (sigmaMaxSpectral - sigma1) u1 v1^T: the hammer strikes the top singular value.
at::Tensor spectralHammer(const at::Tensor& w, double sigmaMaxSpectral, PowerIterationState& state,
                          int powerIterations);

// W -> sigmaSpectral * msign(W): every singular value pulled to sigma (1 by default).
at::Tensor stiefel(const at::Tensor& w, double sigmaSpectral = 1.0,
                   const NewtonSchulzConfig& ns = NewtonSchulzConfig::accurate());

// Soft cap p2(p1(W)), p1(x) = x - alpha x^3, p2(x) = x + alpha x^3 (000 §3.1, App. B);
// x^3 on matrices is X X^T X. Strength alpha >= 0 is in units of the raw spectral norm.
at::Tensor spectralSoftCap(const at::Tensor& w, double alpha);

// The same in place on one CPU float32/float64 contiguous matrix, straight on BLAS (two syrk,
// two GEMMs, two buffers; issue 30 §2): no scaled copy, result tensors or copy back. Returns
// false, untouched, for anything else (a stack, another device or dtype, gradients recorded,
// no BLAS), where spectralSoftCap serves.
bool spectralSoftCapInPlace(const at::Tensor& w, double alpha);

}  // namespace lwb::spectral
