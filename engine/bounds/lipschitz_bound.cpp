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
  requireNonNegative(in.inputConv, "input convolution norm");
  requireNonNegative(in.headNorm, "head norm");
  requireNonNegative(in.logitScale, "logit scale");
  requirePositive(in.dHead, "d_head");
  requireNonNegative(in.attnScale, "attention scale");
  requireNonNegative(in.attnOutScale, "attention output scale");
  requirePositive(in.gelu, "GeLU divisor");
  requirePositive(in.activationSlope, "activation slope");
  requireNonNegative(in.residualAlpha, "residual alpha");
  if (in.residualAlpha > 1.0) throw std::invalid_argument("residual alpha must be <= 1");
  if (in.heads < 1) throw std::invalid_argument("heads must be >= 1");
  for (size_t i = 0; i < in.blocks.size(); ++i) {
    const std::string at = "block" + std::to_string(i) + ".";
    for (const auto* list : {&in.blocks[i].queryHeads, &in.blocks[i].keyHeads, &in.blocks[i].valueHeads}) {
      if (!list->empty() && list->size() != static_cast<size_t>(in.heads))
        throw std::invalid_argument(at + "per-head norms need one value per head");
      for (const double v : *list) requireNonNegative(v, at + "per-head norm");
    }
  }
}

// Residual connection (1 - alpha) x + alpha block(x): both the Lipschitz constant
// (000 App. D eq. (14): (1 - alpha) L + alpha L L_block) and the activation norm
// (eq. (22): (1 - alpha) a + alpha growth a) follow the same rule.
// (1 - alpha) v + alpha v f for the convex residual; v + v f for x + block(x) (alpha < 0).
double throughResidual(double value, double alpha, double blockFactor) {
  if (alpha < 0) return value + value * blockFactor;
  return (1.0 - alpha) * value + alpha * value * blockFactor;
}

// One head's view of a block: the RMS(d) -> RMS(d_head) norms of its slices of W_Q, W_K,
// W_V. Measured slices when given, else sqrt(heads) times the whole matrix's RMS->RMS norm:
// sigma1(slice) <= sigma1(W) and the slice has d_out / heads rows, so its RMS->RMS scale
// sqrt(d_in / (d_out / heads)) is sqrt(heads) times the whole matrix's.
struct HeadNorms {
  double query, key, value;
};

HeadNorms headNorms(const TransformerBlockNorms& b, int heads, int h) {
  const double whole = std::sqrt(static_cast<double>(heads));
  auto pick = [&](const std::vector<double>& perHead, double matrix) {
    return perHead.empty() ? whole * matrix : perHead[static_cast<size_t>(h)];
  };
  return {pick(b.queryHeads, b.query), pick(b.keyHeads, b.key), pick(b.valueHeads, b.value)};
}

// RMS over heads of per-head values: the RMS over the d = heads * d_head entries of a
// concatenation is sqrt(mean_h RMS_h^2), so a per-head bound c_h on RMS_h (at every token)
// bounds the concatenation by sqrt(mean_h c_h^2) <= max_h c_h.
template <typename PerHead>
double rmsOverHeads(int heads, PerHead perHead) {
  double sum = 0;
  for (int h = 0; h < heads; ++h) sum += perHead(h) * perHead(h);
  return std::sqrt(sum / static_cast<double>(heads));
}

// How much the attention block can raise ||x||_inf-RMS.
// AppendixD (eq. 21): attnOutScale ||W_O|| ||W_V|| — the step ||A v|| <= ||A||_inf-op ||v||
// holds per head in that head's RMS(d_head), not for the concatenation of heads that
// attend to different tokens (issue 13's counter-example: RMS sqrt(2) from unit tokens).
// MultiHead: each head's output is a convex combination of its values, so its RMS(d_head)
// at any token is <= ||W_V^h|| a; the concatenation's RMS is then <= sqrt(mean_h ||W_V^h||^2) a.
double attentionGrowth(const TransformerBlockNorms& b, const TransformerBoundInput& in, AttentionBound kind) {
  if (kind == AttentionBound::AppendixD) return in.attnOutScale * b.attnOut * b.value;
  const double values = rmsOverHeads(in.heads, [&](int h) { return headNorms(b, in.heads, h).value; });
  return in.attnOutScale * b.attnOut * values;
}

// The MLP's activation growth (App. D Step 4): |GeLU(x)| <= |x|, so W_out (GeLU / gelu) W_in
// raises an activation bound by at most ||W_out|| ||W_in|| / gelu.
double mlpGrowth(const TransformerBlockNorms& b, const TransformerBoundInput& in) {
  return b.mlpOut * b.mlpIn / in.gelu;
}

// The MLP's Lipschitz constant: GeLU / gelu is (1.1289 / gelu)-Lipschitz (GeLU's largest slope,
// at x = sqrt 2: Phi(sqrt 2) + sqrt 2 phi(sqrt 2) = 1.1289 = activationSlope), so with 000's
// gelu = 1.1289 it is ||W_out|| ||W_in||; MaxMin's is 1 with gelu = 1. App. D Step 2 as published divides by 1.1289 once
// more (||W_out|| ||W_in|| / 1.1289), which is the growth above, not the constant: GeLU's slope
// reaches 1.1289 at x = sqrt 2, and tst_gpt_bound::mlpSlopeIsCharged builds a model whose
// derivative exceeds that number (docs/DESIGN.md "The MLP's constant"). The sound bound uses the
// constant; the App. D number beside it (AttentionBound::AppendixD) keeps the published formula.
double mlpLipschitz(const TransformerBlockNorms& b, const TransformerBoundInput& in, AttentionBound kind) {
  return kind == AttentionBound::AppendixD ? mlpGrowth(b, in) : mlpGrowth(b, in) * in.activationSlope;
}

// L_attn for input activations bounded by a (Theorem D.1 composed as in eq. (15)):
//   x -> (W_Q x, W_K x, W_V x) is (||W_Q|| + ||W_K|| + ||W_V||)-Lipschitz into the
//   sum norm ||dq|| + ||dk|| + ||dv|| that Theorem D.1 uses;
//   F is max(1, ||v|| max(||q||, ||k||))-Lipschitz (eq. (16)) with ||q|| <= ||W_Q|| a, ...;
//   then W_O and the output factor attnOutScale (1/3).
// AppendixD: whole-matrix norms, and s_attn != 1/d_head multiplies F's constant by
//   c = sqrt(s_attn d_head) (eq. (20), as published).
// MultiHead: Theorem D.1 applied to each head h in its own RMS(d_head) norms with its slice
//   norms (q_h = ||W_Q^h|| a, ...), heads combined by rmsOverHeads. For s_attn != 1/d_head,
//   F(q, k, v) = G(c q, c k, v) with G at scale 1/d_head, so F's constant is
//   max(1, c) max(1, c ||v|| max(||q||, ||k||)): the published c max(1, x) is smaller when
//   c > 1 and x > 1/c, and whenever c < 1 (the dv term alone is 1-Lipschitz). Both agree at
//   the default s_attn = 1/d_head (c = 1) with one head.
double attentionLipschitz(const TransformerBlockNorms& b, const TransformerBoundInput& in, double a,
                          AttentionBound kind) {
  const double sAttn = in.attnScale > 0 ? in.attnScale : 1.0 / in.dHead;
  const double c = std::sqrt(sAttn * in.dHead);
  if (kind == AttentionBound::AppendixD) {
    const double q = b.query * a, k = b.key * a, v = b.value * a;
    const double functional = c * std::max(1.0, v * std::max(q, k));
    return in.attnOutScale * b.attnOut * functional * (b.query + b.key + b.value);
  }
  const double perHeads = rmsOverHeads(in.heads, [&](int h) {
    const HeadNorms n = headNorms(b, in.heads, h);
    const double functional = std::max(1.0, c) * std::max(1.0, c * (n.value * a) * std::max(n.query, n.key) * a);
    return functional * (n.query + n.key + n.value);
  });
  return in.attnOutScale * b.attnOut * perHeads;
}

BoundTrace transformerTrace(const TransformerBoundInput& in, AttentionBound kind) {
  const size_t n = in.blocks.size();
  // alpha = 1 / (2N) for 2N residual connections (App. D Step 1); unused when N = 0.
  const double alpha = in.sumResidual ? -1.0
                       : in.residualAlpha > 0 ? in.residualAlpha
                                              : (n > 0 ? 1.0 / (2.0 * static_cast<double>(n)) : 0.0);

  // Pass 1 (App. D Step 4): activation bounds a_0 = ||x_0||, a_1, ..., a_2N, where a_2i
  // enters block i's attention and a_2i+1 its MLP.
  std::vector<double> act(2 * n + 1);
  // The convolution before the blocks is linear with constant ||W|| (lipschitz_bound.h).
  const double conv = in.inputConv > 0 ? in.inputConv : 1.0;
  act[0] = in.embeddingRms * conv;
  for (size_t i = 0; i < n; ++i) {
    act[2 * i + 1] = throughResidual(act[2 * i], alpha, attentionGrowth(in.blocks[i], in, kind));
    act[2 * i + 2] = throughResidual(act[2 * i + 1], alpha, mlpGrowth(in.blocks[i], in));
  }

  // Pass 2 (App. D Steps 1-3): L <- (1 - alpha) L + alpha L L_block, eq. (14).
  BoundTrace trace;
  double lipschitz = conv;
  if (in.inputConv > 0) trace.layers.push_back({"input_conv", conv, lipschitz, act[0]});
  for (size_t i = 0; i < n; ++i) {
    const auto& b = in.blocks[i];
    const std::string name = "block" + std::to_string(i);
    const double attn = attentionLipschitz(b, in, act[2 * i], kind);
    lipschitz = throughResidual(lipschitz, alpha, attn);
    trace.layers.push_back({name + ".attn", attn, lipschitz, act[2 * i + 1]});
    const double mlp = mlpLipschitz(b, in, kind);
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

BoundTrace transformerBound(const TransformerBoundInput& in, AttentionBound kind) {
  validate(in);
  BoundTrace trace = transformerTrace(in, kind);
  trace.singleHeadBound =
      kind == AttentionBound::AppendixD ? trace.bound : transformerTrace(in, AttentionBound::AppendixD).bound;
  return trace;
}

}  // namespace lwb::bounds
