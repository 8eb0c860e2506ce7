// The Attention Lab's computations (seed 004, SEEDS-002-004 §C–D): one attention block of a
// kind with a block (attention/attention_kinds.h) with weights drawn from a seed (the same for every N),
// its PGD Lipschitz estimate and theoretical bound per token count, the proximal solver's
// trace (004 Fig. 1), the finite-K experiment of C.4, and a picture in the plane.
// No LibTorch in this header (like the rest of lab/lab.h).
#pragma once

#include "attention/attention_kinds.h"
#include "lab/lab_types.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace lwb::lab {

// The attention blocks the lab measures, in display order (attention::attentionBlockIds()).
std::vector<std::string> attentionKindIds();

struct AttentionBlockSpec {
  std::string kind{attention::toString(attention::AttentionKind::AttLip)};  // a block kind's id
  int dim = 32, heads = 4;          // d and H; d_h = d / H
  uint64_t seed = 0;                // weights
  double eta = 1.0;                 // AttLip's η
  // AttLip's relaxation α: the block x + α(prox(x) − x) (attention::relaxProx). 1 is 004's
  // AttLip; 1-Lipschitz up to 2, (α − 1)-Lipschitz above — the lab goes to 4 to show that.
  double relaxation = 1.0;
  attention::ProxRule proxRule = attention::ProxRule::Armijo;  // AttLip's inner step rule
  std::string device = "cpu";       // where the block and the PGD search run: "cpu" | "cuda[:i]"
};

struct PgdSettings {
  int iters = 30, restarts = 3;
  double radius = 0;         // 0 = ‖x0‖_F
  std::string norm = "l2";   // "l2" | "inf_rms"
  uint64_t seed = 0;         // x0 ~ N(0, 1)^{N×d} and the pairs
};

struct TokensPoint {
  int tokens = 0;
  double pgdEstimate = 0;
  std::optional<double> bound;     // max(1, α − 1) (AttLip), Kim's ℓ2 bound (‖W_Q‖² per head), none (standard)
  // ℓ2 only: 004 Eq. 6 as printed, the paper's number for Table 1. NOT a bound (it charges
  // ‖W_Q^h‖ once; attention::l2AttentionBoundAsPrinted).
  std::optional<double> eq6AsPrinted;
  std::optional<double> residual;  // AttLip: max ‖g‖_F of the prox at the argmax pair
  bool converged = true;           // AttLip: the prox reached its tolerance at that pair
  double seconds = 0;
};

// progress(done, total) in PGD iterations. AttLip runs the converged prox (tolerance
// ‖g‖ ≤ max(1e−9, 1e−6‖g⁰‖), K_max 500; C.4). InputError for dim outside 2..512, heads
// not dividing dim, tokens outside 1..4096, unknown kind/rule/norm, iters/restarts < 1.
// Throws InputError naming the first bad field of `spec` (kind, sizes, η, rule, device).
void validateBlockSpec(const AttentionBlockSpec& spec);

TokensPoint lipschitzAtTokens(const AttentionBlockSpec& spec, int tokens, const PgdSettings& pgd,
                              const CancelFlag* cancel = nullptr,
                              const std::function<void(int, int)>& progress = {});

struct ProxTraceRun {
  std::string rule;  // "armijo" | "fixed"
  double lambda = 0; // fixed: the λ used; armijo: λ_init
  std::vector<double> residual, potential, step;  // per inner iteration k (step: size k−1)
  // The block's movement α·‖y_k − X‖_F/‖X‖_F per k (is the block more than the identity?
  // issue 26; α = spec.relaxation), and over the whole solve: the accepted λ (mean, min) and
  // ‖g_K‖/‖g_0‖.
  std::vector<double> movement;
  double stepMean = 0, stepMin = 0, residualRatio = 0;
};
struct ProxTraceResult {
  std::vector<ProxTraceRun> runs;  // armijo, then fixed
};
// The prox of one input X ~ inputScale·N(0, 1)^{N×d} (seed spec.seed + 1), maxSteps
// iterations with no early stop, both rules. Fixed λ = safeFixedStep for the input.
ProxTraceResult proxTrace(const AttentionBlockSpec& spec, int tokens, double inputScale, int maxSteps,
                          const CancelFlag* cancel = nullptr);

struct FiniteKRow {
  int K = 0;
  double armijoRatio = 0, fixedRatio = 0;  // max over the pairs of ‖f(x) − f(y)‖/‖x − y‖
};
// C.4: `pairs` random near pairs (x ~ N(0,1), y = x + 1e−3·z), AttLip with K = 1..Kmax
// steps and no tolerance stop, Armijo vs the fixed safe step; the relaxed K-step map
// x + α(y_K − x) when spec.relaxation ≠ 1 (the fixed rule's K-step map is non-expansive but
// not shown firmly so, which is why the model refuses α > 1 with it).
std::vector<FiniteKRow> finiteKRatios(const AttentionBlockSpec& spec, int tokens, int pairs, int kMax = 5,
                                      const CancelFlag* cancel = nullptr);

struct PlanePoint {
  double x = 0, y = 0;
};
struct PlaneKindImage {
  std::string kind;
  std::vector<PlanePoint> image, perturbedImage;
  double ratio = 0;  // ‖f(X) − f(X')‖_F / ‖X − X'‖_F
};
struct PlanePicture {
  std::vector<PlanePoint> input, perturbed;
  std::vector<PlaneKindImage> kinds;  // attentionKindIds() order
};
// d = 2 tokens in the plane, one block per kind with `heads` heads (d_h = 1 for heads 2,
// otherwise heads must be 1 or 2), X ~ N(0,1), X' = X + perturbation·Z/‖Z‖_F.
PlanePicture planePicture(int tokens, int heads, uint64_t seed, double perturbation);

}  // namespace lwb::lab
