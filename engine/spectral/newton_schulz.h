// msign by Newton–Schulz iteration (Jordan et al. 2024; You 2025), the building block of
// every polynomial weight-constraint method. 001 = spectral-clipping-newton-schulz.md.
#pragma once

#include <ATen/core/Tensor.h>

#include <optional>
#include <string_view>
#include <vector>

namespace lwb::spectral {

// One odd quintic step x -> a x + b x^3 + c x^5, applied to all singular values at once.
struct NsTuple {
  double a, b, c;
};

enum class NsCoefficients {
  Jordan5,  // (3.4445, -4.7750, 2.0315) repeated: fast growth, settles in ~[0.7, 1.2]
  You6,     // You (2025): six tuples / 1024, converging to ~1; the last repeats beyond six
  Polish,   // (15/8, -10/8, 3/8): p(1) = 1, p'(1) = p''(1) = 0, converges but grows slowly
};

struct NewtonSchulzConfig {
  NsCoefficients coefficients = NsCoefficients::Jordan5;
  int steps = 5;        // main-phase steps of `coefficients`
  int polishSteps = 0;  // convergent tail of (15/8, -10/8, 3/8) after the main phase

  // Muon's orthogonaliser: jordan5 x 5, no tail (singular values land in ~[0.7, 1.2]).
  static NewtonSchulzConfig muon() { return {NsCoefficients::Jordan5, 5, 0}; }
  // Default for constraint methods (hard cap, clip, relu, stiefel): tuned so that the
  // 256x512 accuracy target of the spectral toolkit holds up to sigma1/sigma_max = 1000
  // (see docs/BENCHMARKS.md, "Accuracy"). Tiny normalised singular values (~1e-5) need ~9
  // growth steps of slope ~3.4 before the tail can polish them.
  static NewtonSchulzConfig accurate() { return {NsCoefficients::Jordan5, 10, 4}; }
};

std::string_view toString(NsCoefficients c);
std::optional<NsCoefficients> parseNsCoefficients(std::string_view id);

// The full list of tuples the iteration applies, main phase then tail.
std::vector<NsTuple> nsSchedule(const NewtonSchulzConfig& cfg);

// Largest value the scalar iteration reaches from any x in (0, 1]: the factor by which the
// schedule can inflate a singular value above 1 (Muon's update norm is lr * this; 000 App. F
// quotes 1.14502 for its coefficients). Evaluated on a fine log grid, in double.
double nsMaxInflation(const NewtonSchulzConfig& cfg);

// msign(W) = U V^T for W = U S V^T, on a matrix or a stack [..., m, n]; any device,
// float32/float64/bfloat16 (iterates in W's dtype). W is first normalised by its Frobenius
// norm and transposed if tall, so the Gram matrix is the small side (min(m,n)^2).
at::Tensor msign(const at::Tensor& w, const NewtonSchulzConfig& cfg = NewtonSchulzConfig::muon());

// Same iteration on an already-normalised X (all singular values <= 1) without transposing;
// exposed for the anti-block-diagonal implementation, which feeds square symmetric input.
at::Tensor newtonSchulzIterate(at::Tensor x, const std::vector<NsTuple>& schedule);

// Frobenius norm per matrix of a stack, shape [..., 1, 1], accumulated in float32 at least.
at::Tensor frobeniusNorm(const at::Tensor& w);

// out = beta * self + alpha * (a @ b) for matrices or stacks of matrices, fused where the
// backend has a kernel for it (addmm / baddbmm).
at::Tensor addMatmul(const at::Tensor& self, const at::Tensor& a, const at::Tensor& b,
                     double beta, double alpha);

// The same into a preallocated `out` (may be a strided view, e.g. a block of a larger
// matrix; GEMM writes it in place). Matrices or one batch dimension only. With beta = 0,
// `self` is ignored.
void addMatmulOut(at::Tensor out, const at::Tensor& self, const at::Tensor& a, const at::Tensor& b,
                  double beta, double alpha);

}  // namespace lwb::spectral
