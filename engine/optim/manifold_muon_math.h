// Manifold Muon's per-matrix math (seed 002 §3.1, SEEDS-002-004 §A): spectral-norm steepest
// descent restricted to the tangent space of the Stiefel manifold {W : WᵀW = I}, solved in the
// dual with a symmetric multiplier Λ, then retracted with msign (Polar Express × 10).
// Everything works in the tall frame (n ≥ k; a wide W is transposed and the result transposed
// back), where Λ is k×k. Used by the ManifoldMuon optimizer, its tests and the Clip Lab demo.
#pragma once

#include "spectral/ns_coefficients.h"

#include <ATen/core/Tensor.h>

#include <vector>

namespace lwb::optim::mm {

// The retraction and direction oracle: msign by Polar Express × 10 (converges to σ = 1 in
// float32; jordan5 × 5 does not and is unusable as a retraction, SEEDS §A.4).
spectral::NewtonSchulzConfig retractionNs();
at::Tensor msignPe(const at::Tensor& x);

// rms(H) = ‖H‖_F / k for H = WᵀM + MᵀW: how far a direction M is from the tangent space at W
// (W, M in the tall frame, H is k×k).
at::Tensor tangencyMatrix(const at::Tensor& w, const at::Tensor& m);
double rms(const at::Tensor& h);

// Λ₀ = −¼(WᵀG + GᵀW): with it, G + 2WΛ₀ = G − W·sym(WᵀG) is tangent (the Riemannian
// gradient). Tall frame.
at::Tensor riemannianLambda(const at::Tensor& w, const at::Tensor& g);

struct DirectionResult {
  at::Tensor direction;             // M = msign(G + 2WΛ), original frame and shape of W
  at::Tensor lambda;                // Λ after the dual steps (tall frame, k×k)
  std::vector<double> tangency;     // rms(H) before each dual step, then of the final M
};

// Offline dual ascent (TM reference, §A.2): Λ from the Riemannian init (or `lambda0` when
// defined), up to `steps` steps Λ ← Λ − α(1 − s/steps)H, stopping when rms(H) < tol. With
// `normalizeDual`, G is divided by rms(G) first (§A.5: α is not scale-free).
DirectionResult offlineDirection(const at::Tensor& w, const at::Tensor& g, double alpha, int steps, double tol,
                                 bool normalizeDual, const at::Tensor& lambda0 = {});

// Online variant (what seed 002 ran, §A.3): one dual step from `lambda` (zeros of k×k when
// undefined), M = msign(G + 2WΛ) with the updated Λ. 2 msign calls.
DirectionResult onlineDirection(const at::Tensor& w, const at::Tensor& g, const at::Tensor& lambda, double alpha,
                                bool normalizeDual);

// The primal step and retraction: msign(W − η·M) by Polar Express × 10, as 002's code runs it.
at::Tensor retract(const at::Tensor& w, const at::Tensor& direction, double eta);

// The retraction the optimizer uses (issue 26): the polar factor of X = W − η·M to
// kRetractionTolerance. At η near 1, X can be nearly singular: for a square W and M = msign(·)
// with det(WᵀM) < 0, WᵀM is orthogonal with an eigenvalue +1, so X = W(I − WᵀM) is singular,
// and ten Polar Express steps (total slope ~2.4e4 at 0) leave such a σ far below 1. Then more
// steps of the last tuple (fixed point 1, slope 1.875 at 0) run, up to kRetractionMaxSteps in
// all; if σ is still off (X rank deficient to float precision), the exact polar factor U·Vᵀ of
// X from a float64 SVD (any completion of a null direction is a polar factor).
inline constexpr int kRetractionMaxSteps = 40;
inline constexpr double kRetractionTolerance = 1e-5;
struct Retraction {
  at::Tensor w;                       // the new W, shape of W
  int steps = 0;                      // Polar Express steps run: 10, more when extended
  bool exact = false;                 // the SVD polar factor was used
  double sigmaMin = 0, sigmaMax = 0;  // of w (sigmaRange); NaN when w is not finite
};
Retraction retractConverged(const at::Tensor& w, const at::Tensor& direction, double eta);

// Smallest and largest singular value of W (any frame), from the eigenvalues of the k×k Gram
// matrix in float64: cheap enough to run after every step.
std::pair<double, double> sigmaRange(const at::Tensor& w);

}  // namespace lwb::optim::mm
