// Newton–Schulz step by step: msign(W) iterates X ← aX + bX³ + cX⁵ (X³ = XXᵀX) from
// X₀ = W/‖W‖_F, and each step applies the odd polynomial p(x) = ax + bx³ + cx⁵ to every
// singular value in parallel. The trace records the singular values of the matrix iterate
// in the chosen precision next to the scalar polynomials applied in float64, so the page
// can show both and where low precision departs from the scalar picture.
#pragma once

#include "lab/lab_matrix.h"
#include "lab/lab_types.h"

#include <string>
#include <vector>

namespace lwb::lab {

struct NsStep {
  double a = 0, b = 0, c = 0;
};

// The schedule msign runs: `steps` of the coefficient set, then `polishSteps` of
// (15/8, −10/8, 3/8). Throws InputError for an unknown set or out-of-range counts.
std::vector<NsStep> nsSchedule(const std::string& coefficients, int steps, int polishSteps);

// p_k ∘ … ∘ p_1 (x) for the first `upTo` steps of the schedule (all when upTo < 0).
double applyNsPolynomials(const std::vector<NsStep>& schedule, double x, int upTo = -1);

struct NsTraceRequest {
  std::string coefficients = "jordan5";
  int steps = 10, polishSteps = 4;
  std::string dtype = "float32";
};

struct NsTrace {
  std::vector<NsStep> schedule;
  double frobenius = 0;  // ‖W‖_F: X₀'s singular values are σᵢ / ‖W‖_F
  // matrix[k]: singular values of X_k (k = 0 … steps), descending, measured in float64 from
  // the iterate held in the request's dtype.
  std::vector<std::vector<double>> matrix;
  // scalar[k]: p_k ∘ … ∘ p_1 (σᵢ / ‖W‖_F) in float64, in the input's order (σ descending).
  std::vector<std::vector<double>> scalar;
};

// Runs the iteration on the lab matrix (transposed when tall, like msign). Throws
// InputError for a bad request and Cancelled between steps.
NsTrace newtonSchulzTrace(const LabMatrix& m, const NsTraceRequest& r, const CancelFlag* cancel = nullptr);

}  // namespace lwb::lab
