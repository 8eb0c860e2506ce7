// AttLip (seed 004 §3.1–§5, SEEDS-002-004 §C.1–C.4): attention as the proximal map of a
// convex potential, prox_{ηf}(X) = argmin_Y f(Y) + ‖Y − X‖²_F / (2η), which is firmly
// non-expansive and hence 1-Lipschitz in the Frobenius norm for every weight W.
//
// Parameters: one matrix W^h ∈ R^{d_h×d} per head, stored as a tensor W of shape [H, d_h, d];
// queries = keys = W^h, the "value" is A^h = W^hᵀW^h, heads are summed; τ = √d_h.
//   S^h_ij = ‖W^h(x_i + x_j)‖² / τ,   f(X) = Σ_h (τ/2) Σ_i LogSumExp_j S^h_ij    (G.3.1)
// Inputs X are [N, d] or batched [B, N, d]; per-example quantities come back as [] or [B].
#pragma once

#include "attention/attention_kinds.h"

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <vector>

namespace lwb::attention {

// The potential f (C.1) per example: [] for X [N, d], [B] for X [B, N, d]. Differentiable.
at::Tensor attlipPotential(const at::Tensor& x, const at::Tensor& w);

// ∇f (C.1; the diag term uses the unsymmetrised column sums, G.3.2), same shape as x.
// Written in closed form with differentiable ops, so autograd through it gives ∇²f.
at::Tensor attlipGradient(const at::Tensor& x, const at::Tensor& w);

// φ_X(Y) = f(Y) + ‖Y − X‖²_F / (2η) per example ([] or [B]).
at::Tensor proxObjective(const at::Tensor& y, const at::Tensor& x, const at::Tensor& w, double eta);

// The inner solver's step rule: attention::ProxRule (attention/attention_kinds.h).

struct ProxOptions {
  double eta = 1.0;        // η of prox_{ηf}
  double beta = 0.5;       // Armijo shrink factor
  double c = 1e-4;         // Armijo sufficient-decrease constant
  int backtracks = 20;     // at most this many shrinks; if all fail the last λ is taken (G.3.8)
  double lambdaInit = 0;   // first trial step of every Armijo search; 0 means η (ours, C.2)
  int maxSteps = 20;       // K
  // Stop an example once ‖g‖_F ≤ max(tolerance, relTolerance·‖g⁰‖_F); both 0 = run all K.
  double tolerance = 0;
  double relTolerance = 0;
  ProxRule rule = ProxRule::Armijo;
  double fixedStep = 0;    // λ of ProxRule::Fixed; 0 means safeFixedStep(...) for the input
  bool recordTrace = false;
};

struct ProxResult {
  at::Tensor output;       // y^K, the shape of x; differentiable w.r.t. x and W (λ_k constants)
  double residual = 0;     // ‖g_K‖_F at the returned point (max over the batch)
  int steps = 0;           // update steps taken (≤ maxSteps)
  bool converged = false;  // every example reached its tolerance (false when none was asked)
  at::Tensor residuals;    // [B] or []: ‖g_K‖_F per example, detached
  // Diagnostics (issue 26; FIDELITY §3: is the block more than the identity?):
  double initialResidual = 0;  // ‖g_0‖_F, max over the batch
  double residualRatio = 0;    // ‖g_K‖_F / ‖g_0‖_F, max over the batch (0 where g_0 = 0)
  double movement = 0;         // ‖y_K − X‖_F / ‖X‖_F over the whole batch (0 for X = 0)
  double stepMean = 0;         // mean of the accepted λ over every update and active example
  double stepMin = 0;          // smallest accepted λ (0 when no update was taken)
  // With recordTrace: entry k is the state before update k (k = 0..steps): ‖g‖_F (max over
  // the batch), φ_X (summed over the batch), ‖y_k − X‖_F/‖X‖_F; stepTrace[k] the λ taken at
  // update k (batch mean).
  std::vector<double> residualTrace, potentialTrace, movementTrace, stepTrace;
};

// The solver of C.2 (Alg. 1 + Alg. 2). y⁰ = X; every λ_k is chosen under no-grad, per
// example, and the K updates are recorded by autograd when grad mode is on and x or w
// requires grad (the training path). Throws std::invalid_argument for bad options/shapes.
ProxResult attlipProx(const at::Tensor& x, const at::Tensor& w, const ProxOptions& options = {});

// Where the prox moves the tokens (issue 26: does the block mix tokens, or only rescale
// each one?). At the prox point y = x − η∇f(y), and ∇f(y)_i = Σ_h [Σ_{j≠i}(P_ij + P_ji) v_j
// + (1 + Σ_k P_ki + 2P_ii) v_i] W^h (C.1, v = W^h y): the first sum is the part made of
// other tokens (mixing), the second of token i itself (self). Returned as the vectors
// −η·mixing and −η·self (shape of y) and their norms relative to ‖x‖_F.
struct ProxMovementParts {
  at::Tensor mixing, self;
  double mixingShare = 0, selfShare = 0;  // ‖−η·mixing‖_F / ‖x‖_F, ‖−η·self‖_F / ‖x‖_F
};
ProxMovementParts proxMovementParts(const at::Tensor& x, const at::Tensor& y, const at::Tensor& w, double eta);

// The relaxed prox x + α(prox(x) − x) (DESIGN.md "AttLip: the relaxed prox"). The prox is
// firmly non-expansive (Thm 4), so 2·prox − I is non-expansive and, for α ∈ [0, 2], the
// relaxed map (1 − α/2)·I + (α/2)·(2·prox − I) is a convex combination of non-expansive maps:
// 1-Lipschitz. α = 1 is 004's AttLip; α = 2 reflects where the prox only shrinks (along a
// curvature μ of η∇²f the prox keeps 1/(1 + μ) of a change, the reflection (1 − μ)/(1 + μ)).
// Above 2 the same decomposition bounds it by relaxedProxBound(α) = α − 1 only (the model
// refuses α > 2; the Attention Lab shows the certificate ending there). Throws
// std::invalid_argument unless α is finite and > 0.
at::Tensor relaxProx(const at::Tensor& x, const at::Tensor& proxOfX, double alpha);

// Lipschitz bound of the relaxed prox for α > 0: |1 − α/2| + α/2 = max(1, α − 1). Tight in
// the limit of large curvature, where a change is mapped to 1 − α + α/(1 + μ) → 1 − α of itself.
double relaxedProxBound(double alpha);

// Upper bound on the Lipschitz constant of ∇f (the largest Hessian eigenvalue) over the
// ball ‖Y‖_F ≤ radius for `tokens` tokens (a rigorous form of the C.3 heuristic, derived in
// attlip.cpp): L_f ≤ Σ_h (N + 1)(2‖A^h‖₂ + 16‖A^h‖₂² R² / τ).
double potentialSmoothnessBound(const at::Tensor& w, int64_t tokens, double radius);

// The certified step (DESIGN.md "AttLip: the certified step"): the largest fixed λ for which
// every K-step fixed-step prox is 1-Lipschitz on inputs with ‖X‖_F ≤ radius, by the C.2
// argument with s = λ/(1 − λ/η) = 2/L_f, i.e. λ = 2η/(2 + η·L_f), L_f = potentialSmoothnessBound.
double safeFixedStep(const at::Tensor& w, int64_t tokens, double radius, double eta);
// The same from a smoothness bound lf ≥ L_f: 2η/(2 + η·lf); η/2 when lf = 0 (W = 0).
double certifiedStep(double lf, double eta);

// ‖J‖₂ of the converged prox at its output y* (X = y* + η∇f(y*)): J = (I + η∇²f(y*))⁻¹ is
// symmetric with eigenvalues in (0, 1]; its largest is found by power iteration, each
// product solved by conjugate gradients with Hessian-vector products (double backward
// through attlipGradient). y is one example [N, d]. Returns the Rayleigh quotient.
double proxJacobianNorm(const at::Tensor& y, const at::Tensor& w, double eta, int powerIters = 60,
                        uint64_t seed = 0);

// J·v with J = (I + η∇²f(y))⁻¹ at outputs y ([N, d] or [B, N, d], v the same shape), per
// example by conjugate gradients (relative residual ≤ tol) on Hessian-vector products.
at::Tensor proxJacobianProduct(const at::Tensor& y, const at::Tensor& w, double eta, const at::Tensor& v,
                               double tol = 1e-12, int maxIters = 1000);

// The converged prox with the exact backward of C.2 ("optional exact backward"): the value
// is attlipProx(x, w, options).output (options should ask for a tolerance), the gradient
// w.r.t. x is the vector–Jacobian product with J (proxJacobianProduct; J is symmetric), and
// w.r.t. W (when w requires grad) −η ∂_W⟨J·ḡ, ∇f_W(y*)⟩ at y* fixed. `info`, if given,
// receives the solver's result. Memory does not grow with the number of solver steps.
at::Tensor attlipProxImplicit(const at::Tensor& x, const at::Tensor& w, const ProxOptions& options,
                              ProxResult* info = nullptr);

// Weights per G.3.5: each head block W^h Xavier-normal, std √(2/(d + d_h)); d_h = dim/heads.
// Drawn from `seed` only (the same weights for every N). Throws std::invalid_argument unless
// heads divides dim.
at::Tensor attlipInitWeights(int64_t dim, int64_t heads, uint64_t seed, at::ScalarType dtype = at::kDouble);

}  // namespace lwb::attention
