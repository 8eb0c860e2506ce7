// One constraint method applied to a LabMatrix in a chosen precision, measured against the
// exact SVD result U f(Σ) V^T (000 §3.1, App. B–C; 001 §2–4). No LibTorch in this header.
#pragma once

#include "lab/lab_matrix.h"
#include "lab/lab_types.h"
#include "spectral/constraint_methods.h"

#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace lwb::lab {

// The method registry's settings (spectral/constraint_methods.h) in the lab's defaults plus
// the working precision. Thresholds are raw spectral norms (σ, not RMS→RMS): the lab shows
// singular values as they are, and the scalar map's x axis is σ. η (lr) also bounds the
// update for α* (Muon-sized updates: ‖ΔW‖ <= η, 000 App. B).
struct ConstraintRequest : spectral::ConstraintSettings {
  ConstraintRequest() {
    method = spectral::ConstraintMethod::SpectralHardCap;
    lr = 0.1;
  }
  std::string dtype = "float32";  // float32 | bfloat16
};

// Empty when valid, else what is wrong ("σmin: ...").
std::string validateRequest(const ConstraintRequest& r);

// The soft-cap α the request resolves to (given α, or α*); NaN for other methods.
double resolvedSoftCapAlpha(const ConstraintRequest& r);

struct ConstraintOutcome {
  std::vector<double> before;  // exact singular values of the input the method saw, descending
  std::vector<double> after;   // singular values of the result W', descending (float64 Gram)
  // f(σᵢ) for each `before` value (same order; not re-sorted). Signed: the exact result's
  // singular values are |f(σᵢ)|.
  std::vector<double> exact;
  double alpha = std::numeric_limits<double>::quiet_NaN();  // soft cap strength in use
  double sigma1After = 0, sigma1Exact = 0;
  // max over i of |σᵢ(W') − σᵢ(W*)| with both spectra sorted descending, W* = U f(Σ) V^T.
  double maxSpectrumError = 0;
  // ‖W' − W*‖_F / ‖W*‖_F; NaN when the matrix has no singular vectors or W* = 0.
  double relativeMatrixError = std::numeric_limits<double>::quiet_NaN();
  // The constraint call alone: what this update computed. Nested forms start from msign(W),
  // which does not depend on the thresholds: computed once per matrix, dtype and schedule
  // (signSeconds, inside methodSeconds) and reused while other parameters change
  // (signReused: methodSeconds excludes it; the from-scratch cost is the sum).
  double methodSeconds = 0;
  double signSeconds = 0;
  bool signReused = false;
  double seconds = 0;        // everything: conversion, method, measurements
};

// Throws InputError for an invalid request, Cancelled when `cancel` is set between stages.
ConstraintOutcome applyToMatrix(const LabMatrix& m, const ConstraintRequest& r, const CancelFlag* cancel = nullptr);

}  // namespace lwb::lab
