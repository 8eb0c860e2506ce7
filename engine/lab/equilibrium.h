// Where repeated Muon-sized updates (‖ΔW‖ = η, orthogonal: every singular value of ΔW is η)
// leave σ₁ under three constraints (000 App. B, C.2; 001 §3.4):
//   weight decay            W ← (1 − λη) W + ΔW          pulls σ₁ to 1/λ (w = w(1 − λη) + η)
//   spectral clipped decay  W ← scwd_{λ,β}(W + ΔW)        pulls σ₁ to β + (1 − λ)η/λ
//   soft cap                W ← p₂∘p₁((1 − λη) W + ΔW), α = α*(σmax, η, λ): keeps σ₁ ≤ σmax
// The predictions are upper bounds reached when updates align with the weights (the proofs'
// worst case); `alignment` < 1 mixes in a random direction and σ₁ settles lower.
#pragma once

#include "spectral/constraint_methods.h"

#include "lab/lab_types.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lwb::lab {

struct EquilibriumRequest {
  int64_t rows = 32, cols = 64;
  int steps = 200;
  double lr = 0.1;          // η, the update's spectral norm
  double lambda = 0.5;      // decay: weight decay (factor 1 − λη), clipped decay (λ), soft cap's decay
  double sigmaMax = 1.0;    // β of clipped decay, σmax of soft cap
  double startSigma1 = 0.5; // the initial matrix's singular values are log-spaced start → start/10
  double alignment = 1.0;   // ΔW = η msign(ρ msign(W) + (1 − ρ) msign(G)), G Gaussian
  uint64_t seed = 3;
};

struct EquilibriumSeries {
  spectral::ConstraintMethod method;  // weight decay, clipped decay or soft cap
  std::vector<double> sigma1;  // σ₁ after each step; [0] is the start
  double predicted = 0;      // the paper's value (an upper bound for soft cap)
  std::string formula;       // "1/λ", "β + (1 − λ)η/λ", "σmax"
};

struct EquilibriumResult {
  std::vector<EquilibriumSeries> series;  // weight_decay, spectral_clipped_weight_decay, spectral_soft_cap
  double alphaStar = 0;                   // soft cap strength used
};

// Throws InputError for a bad request, Cancelled between steps.
EquilibriumResult simulateEquilibrium(const EquilibriumRequest& r, const CancelFlag* cancel = nullptr);

}  // namespace lwb::lab
