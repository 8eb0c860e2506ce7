// Upper bounds from weight norms: ReLU MLP (product) and the transformer's two-pass
// algorithm of 000 App. D. Plain arithmetic on doubles; no tensors involved.
#include "bounds/lipschitz_bound.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace lwb::bounds {
namespace {

void requireNonNegative(double value, const std::string& what) {
  if (!(value >= 0.0) || !std::isfinite(value))
    throw std::invalid_argument(what + " must be a finite number >= 0");
}

void requirePositive(double value, const std::string& what) {
  if (!(value > 0.0) || !std::isfinite(value))
    throw std::invalid_argument(what + " must be a finite number > 0");
}

void validate(const TransformerBoundInput& in) {
  for (size_t i = 0; i < in.blocks.size(); ++i) {
    const auto& b = in.blocks[i];
    const std::string at = "block" + std::to_string(i) + ".";
    requireNonNegative(b.query, at + "query norm");
    requireNonNegative(b.key, at + "key norm");
    requireNonNegative(b.value, at + "value norm");
    requireNonNegative(b.attnOut, at + "attention output norm");
    requireNonNegative(b.mlpIn, at + "mlp input norm");
    requireNonNegative(b.mlpOut, at + "mlp output norm");
  }
  requireNonNegative(in.embeddingRms, "embedding RMS");
  requireNonNegative(in.headNorm, "head norm");
  requireNonNegative(in.logitScale, "logit scale");
  requirePositive(in.dHead, "d_head");
  requireNonNegative(in.attnScale, "attention scale");
  requireNonNegative(in.attnOutScale, "attention output scale");
  requirePositive(in.gelu, "GeLU divisor");
  requireNonNegative(in.residualAlpha, "residual alpha");
  if (in.residualAlpha > 1.0) throw std::invalid_argument("residual alpha must be <= 1");
}

// Residual connection (1 - alpha) x + alpha block(x): both the Lipschitz constant
// (000 App. D eq. (14): (1 - alpha) L + alpha L L_block) and the activation norm
// (eq. (22): (1 - alpha) a + alpha growth a) follow the same rule.
double throughResidual(double value, double alpha, double blockFactor) {
  return (1.0 - alpha) * value + alpha * value * blockFactor;
}

// How much the attention block can raise ||x||_inf-RMS: attnOutScale ||W_O|| ||W_V||
// (eq. (21); the 1/3 of eq. (15) multiplies the block output too, so it belongs here).
double attentionGrowth(const TransformerBlockNorms& b, const TransformerBoundInput& in) {
  return in.attnOutScale * b.attnOut * b.value;
}

// L_mlp = ||W_out|| ||W_in|| / 1.1289 (App. D Step 2). It is also the MLP's activation
// growth (Step 4: |GeLU(x)| <= |x|).
double mlpLipschitz(const TransformerBlockNorms& b, const TransformerBoundInput& in) {
  return b.mlpOut * b.mlpIn / in.gelu;
}

// L_attn for input activations bounded by a (Theorem D.1 composed as in eq. (15)):
//   x -> (W_Q x, W_K x, W_V x) is (||W_Q|| + ||W_K|| + ||W_V||)-Lipschitz into the
//   sum norm ||dq|| + ||dk|| + ||dv|| that Theorem D.1 uses;
//   F is max(1, ||v|| max(||q||, ||k||))-Lipschitz (eq. (16)) with ||q|| <= ||W_Q|| a, ...;
//   s_attn != 1/d_head multiplies that by sqrt(s_attn d_head) (eq. (20), as published);
//   then W_O and the output factor attnOutScale (1/3).
// Note on eq. (20): with x = ||v|| max(||q||, ||k||) and c = sqrt(s_attn d_head), the proof
// of Theorem D.1 run with q~ = c q, k~ = c k gives max(1, c^2 x), not the published
// c max(1, x). The published factor is smaller when c > 1 and x > 1/c (e.g. 1/sqrt(d)
// scaling on large activations) and whenever c < 1 (the dv term alone is 1-Lipschitz).
// They agree at the default s_attn = 1/d_head (c = 1). We implement the published form.
double attentionLipschitz(const TransformerBlockNorms& b, const TransformerBoundInput& in,
                          double a) {
  const double sAttn = in.attnScale > 0 ? in.attnScale : 1.0 / in.dHead;
  const double q = b.query * a, k = b.key * a, v = b.value * a;
  const double functional = std::sqrt(sAttn * in.dHead) * std::max(1.0, v * std::max(q, k));
  return in.attnOutScale * b.attnOut * functional * (b.query + b.key + b.value);
}

}  // namespace

BoundTrace mlpBound(const std::vector<std::string>& names, const std::vector<double>& rmsNorms) {
  if (names.size() != rmsNorms.size())
    throw std::invalid_argument("mlpBound needs one name per layer norm");
  BoundTrace trace;
  double lipschitz = 1.0;
  for (size_t i = 0; i < names.size(); ++i) {
    requireNonNegative(rmsNorms[i], names[i] + " norm");
    // Composition multiplies Lipschitz constants; ReLU contributes 1 (000 §3.2).
    lipschitz *= rmsNorms[i];
    trace.layers.push_back({names[i], rmsNorms[i], lipschitz, lipschitz});
  }
  trace.bound = lipschitz;
  return trace;
}

BoundTrace transformerBound(const TransformerBoundInput& in) {
  validate(in);
  const size_t n = in.blocks.size();
  // alpha = 1 / (2N) for 2N residual connections (App. D Step 1); unused when N = 0.
  const double alpha =
      in.residualAlpha > 0 ? in.residualAlpha : (n > 0 ? 1.0 / (2.0 * static_cast<double>(n)) : 0.0);

  // Pass 1 (App. D Step 4): activation bounds a_0 = ||x_0||, a_1, ..., a_2N, where a_2i
  // enters block i's attention and a_2i+1 its MLP.
  std::vector<double> act(2 * n + 1);
  act[0] = in.embeddingRms;
  for (size_t i = 0; i < n; ++i) {
    act[2 * i + 1] = throughResidual(act[2 * i], alpha, attentionGrowth(in.blocks[i], in));
    act[2 * i + 2] = throughResidual(act[2 * i + 1], alpha, mlpLipschitz(in.blocks[i], in));
  }

  // Pass 2 (App. D Steps 1-3): L <- (1 - alpha) L + alpha L L_block, eq. (14).
  BoundTrace trace;
  double lipschitz = 1.0;
  for (size_t i = 0; i < n; ++i) {
    const auto& b = in.blocks[i];
    const std::string name = "block" + std::to_string(i);
    const double attn = attentionLipschitz(b, in, act[2 * i]);
    lipschitz = throughResidual(lipschitz, alpha, attn);
    trace.layers.push_back({name + ".attn", attn, lipschitz, act[2 * i + 1]});
    const double mlp = mlpLipschitz(b, in);
    lipschitz = throughResidual(lipschitz, alpha, mlp);
    trace.layers.push_back({name + ".mlp", mlp, lipschitz, act[2 * i + 2]});
  }
  if (in.headNorm > 0) {
    // The head is a plain linear map followed by the logit multiplier: composition.
    const double head = in.headNorm * in.logitScale;
    lipschitz *= head;
    trace.layers.push_back({"head", head, lipschitz, act[2 * n] * head});
  }
  trace.bound = lipschitz;
  return trace;
}

}  // namespace lwb::bounds
