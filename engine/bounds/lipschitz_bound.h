// Lipschitz upper bounds from weight norms (000 §3.2, §4.2, App. D) with a per-layer trace,
// and empirical lower bounds by gradient ascent on ||f(x) - f(y)|| / ||x - y||.
// All norms are RMS->RMS operator norms: ||W|| = sigma1(W) sqrt(d_in / d_out).
#pragma once

#include "bounds/bound_trace.h"
#include "bounds/pgd_lipschitz.h"

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace lwb::bounds {

// ReLU MLP (ReLU is 1-Lipschitz): product of the layers' RMS->RMS norms, in order.
// Each row's lipschitzAfter is the running product; its activationBound is the same number,
// the RMS bound of that layer's output for inputs of RMS <= 1 (bias-free layers, because
// |ReLU(x)| <= |x|). Empty lists give bound 1. Throws std::invalid_argument when the lists
// differ in length or a norm is negative or not finite.
BoundTrace mlpBound(const std::vector<std::string>& names, const std::vector<double>& rmsNorms);

// RMS->RMS norms of one transformer block's matrices.
struct TransformerBlockNorms {
  double query = 0, key = 0, value = 0, attnOut = 0;  // W_Q, W_K, W_V, W_O
  double mlpIn = 0, mlpOut = 0;                       // W_in, W_out
  // RMS(d_in) -> RMS(d_head) norms of each head's row slice of W_Q, W_K, W_V (one entry per
  // head). Empty: not measured, and the multi-head bound charges each head sqrt(heads)
  // times the whole matrix's norm, which is never smaller (docs/DESIGN.md, issue 13).
  std::vector<double> queryHeads{}, keyHeads{}, valueHeads{};
};

struct TransformerBoundInput {
  std::vector<TransformerBlockNorms> blocks;
  double embeddingRms = 1.0;   // ||x0||_inf-RMS after the embedding (RMS-normalised columns: 1)
  // ||W|| RMS(kd) -> RMS(d) of a causal convolution z_t = W [x_t; ...; x_{t-k+1}] before the
  // blocks (0: none). The stacked input's RMS is at most max_j ||x_j||_RMS, so this norm is
  // the layer's constant in the inf-RMS norm and its activation growth.
  double inputConv = 0;
  double headNorm = 0;         // ||W_head|| RMS->RMS (0: stop before the head)
  double logitScale = 1.0;     // final logit multiplier
  double dHead = 64;           // d_Q per head
  double attnScale = 0;        // s_attn inside the softmax; 0 means 1/d_head
  double attnOutScale = 1.0 / 3.0;  // multiplier on the attention output
  double gelu = 1.1289;        // MLP nonlinearity GeLU / gelu (000: GeLU's max slope, so 1-Lipschitz)
  // The raw nonlinearity's largest slope (GeLU 1.1289) and whether |act(x)| <= |x| per token
  // in RMS (GeLU entrywise, MaxMin exactly): MaxMin (model.mlp_activation) is gelu = 1,
  // activationSlope = 1.
  double activationSlope = 1.1289;
  // alpha of the residual (1 - alpha) x + alpha block(x); 0 means 1 / (2 * blocks).
  double residualAlpha = 0;
  // x + block(x) instead of the convex residual: a connection's constant is 1 + L_block and
  // activations grow by a + growth (residualAlpha is then unused).
  bool sumResidual = false;
  int heads = 1;               // attention heads per block (d_model = heads * dHead)
};

// Which attention argument the bound uses.
//   MultiHead: sound for any number of heads (docs/DESIGN.md "A sound multi-head bound"):
//     each head's slices in their own RMS(d_head) norms, heads combined by the RMS over the
//     concatenation, and s_attn != 1/d_head handled by max(1, c) max(1, c x), c = sqrt(s d).
//   AppendixD: the paper's App. D as published (eq. 16, 20, 21 with whole-matrix norms),
//     proved for a single head only: with several heads ||A x|| <= ||A||_inf-op ||x|| fails
//     for the concatenation, so this is not an upper bound then; and its MLP constant
//     ||W_out|| ||W_in|| / 1.1289 (Step 2) undercounts GeLU's slope, so not even for one head.
enum class AttentionBound { MultiHead, AppendixD };

// The two-pass algorithm of App. D: first activation-norm bounds a_i through every residual
// connection (attention raises by attnOutScale ||W_O|| ||W_V||, the MLP by
// ||W_out|| ||W_in|| / gelu, as |GeLU(x)| <= |x|), then L <- (1 - alpha) L + alpha L L_block with
//   L_attn = attnOutScale ||W_O|| sqrt(s_attn d_head) max(1, ||v|| max(||q||, ||k||))
//            (||W_Q|| + ||W_K|| + ||W_V||),      ||q|| = ||W_Q|| a_i, ... (Theorem D.1)
//   L_mlp  = ||W_out|| ||W_in|| activationSlope / gelu (GeLU's largest slope is 1.1289; App. D Step 2's
//            published ||W_out|| ||W_in|| / 1.1289 is kept only for the AppendixD kind),
// then the head: L ||W_head|| logitScale. Trace rows: block<i>.attn, block<i>.mlp, head.
// The bound starts at L = 1 on the embedded input x0 (the embedding itself is not counted).
// s_attn enters as the factor sqrt(s_attn d_head) of 000 eq. (20), as the paper states it;
// see lipschitz_bound.cpp for why that factor is only exact at s_attn = 1 / d_head.
// With inputConv > 0 the first trace row is input_conv: L and a_0 start at its norm.
// Throws std::invalid_argument for negative / non-finite inputs, d_head <= 0, gelu <= 0, activationSlope <= 0,
// residualAlpha > 1, heads < 1 or per-head lists whose length is not `heads`.
// With `kind` MultiHead (the default) the trace is the sound bound and its singleHeadBound
// holds the App. D value beside it; with AppendixD, singleHeadBound equals bound.
BoundTrace transformerBound(const TransformerBoundInput& in,
                            AttentionBound kind = AttentionBound::MultiHead);

// Largest ||f(x) - f(y)|| / ||x - y|| found by `steps` of normalised gradient ascent on
// (x, y) from `x0` and a random nearby `y0`, per example of the batch (dim 0), maximised
// over the batch. The norm of an example z of shape [..., d] is the max over its leading
// positions of the RMS over d (the inf-RMS norm of 000 App. D; plain RMS for [B, d]),
// matching the RMS->RMS bounds above. A lower bound on the Lipschitz constant of f,
// provided f treats the examples of the batch independently.
// Each step moves x and y along their gradients, normalised per example, by stepSize times
// the example's current RMS(x - y) (a relative step, so initialRadius alone sets how local
// the search is); a step that does not raise an example's ratio is undone and that
// example's step halved, a step that does is kept and the step grown by 1.5. Gradients
// reach only x and y (backward with `inputs`): parameters inside f get no .grad.
// Runs with grad mode on whatever the caller's mode; x0 must be floating point.
double empiricalLipschitz(const std::function<at::Tensor(const at::Tensor&)>& f,
                          const at::Tensor& x0, int steps = 50, double stepSize = 0.1,
                          double initialRadius = 1e-2, uint64_t seed = 0);

// The stronger search: `restarts` runs of the ascent above, restart r from seed + r with
// initial radius initialRadius * 10^(r mod 3) (local pairs and distant pairs both tried),
// maximised. Still a lower bound on the Lipschitz constant.
// mode Pgd runs pgdLipschitz (pgd_lipschitz.h, 004 §5.1 / SEEDS §D) instead: `steps`
// iterations, `restarts` pairs per example, ball radius `radius` (0 = ‖x0_b‖) in `norm`;
// stepSize and initialRadius are not used then.
enum class EmpiricalMode { Ascent, Pgd };
struct EmpiricalOptions {
  int steps = 50;
  double stepSize = 0.1;
  double initialRadius = 1e-2;
  uint64_t seed = 0;
  int restarts = 1;
  EmpiricalMode mode = EmpiricalMode::Ascent;  // Ascent: 000's default, unchanged
  PgdNorm norm = PgdNorm::InfRms;
  double radius = 0;
};
double empiricalLipschitz(const std::function<at::Tensor(const at::Tensor&)>& f,
                          const at::Tensor& x0, const EmpiricalOptions& options);

// Activation statistics of an activation tensor [..., d]: max |entry| and the max over all
// leading positions of the RMS over the last dimension (0-dim: |x|). Accumulated in float32
// at least; empty tensors give 0.
double maxAbsEntry(const at::Tensor& x);
double maxTokenRms(const at::Tensor& x);

// RMS->RMS norm of a (d_out, d_in) matrix, sigma1 exact by SVD (float32+): 000 §3.1,
// sigma1 sqrt(d_in / d_out). Throws std::invalid_argument unless w has rank 2.
double rmsToRmsNorm(const at::Tensor& w);

// sigma1 for a certificate: never below the true sigma1 (a power-iteration estimate is a
// lower bound and must not be used). Matrices whose smaller side is at most
// kExactSvdMaxSide get the exact float64 SVD; larger ones the Gram iteration bound
// sigma1(W) <= ||G_k||_F^(1/2^k), G_0 = W, G_{t+1} = G_t^T G_t (Delattre et al. 2023),
// rescaled every step so nothing overflows, in float64 with `gramSteps` squarings.
enum class SigmaMethod { ExactSvd, GramIteration };
struct SigmaUpper {
  double value = 0;
  SigmaMethod method = SigmaMethod::ExactSvd;
};
inline constexpr int64_t kExactSvdMaxSide = 1024;
SigmaUpper sigmaMaxUpper(const at::Tensor& w, int gramSteps = 10);
const char* toString(SigmaMethod m);  // "exact SVD (float64)" or "Gram iteration upper bound"

}  // namespace lwb::bounds
