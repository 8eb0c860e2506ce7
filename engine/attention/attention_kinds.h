// The attention kinds of seed 004 (issue 27 §1): one row per kind with what it is, so the
// model, the Attention Lab, the config schema, the CLI and the memory estimate stop deciding
// by string compares. No LibTorch here.
#pragma once

#include "common/choice.h"

#include <array>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lwb::attention {

enum class AttentionKind { AttLip, L2, Standard, None };

// Step rule of AttLip's inner solver (004 C.2): Armijo backtracking (Alg. 2) or a constant
// step (1-Lipschitz for every K, SEEDS-002-004 §C.2). Config model.prox_step_rule, the lab's
// and `lipschitz-cli attention --prox-rule`.
enum class ProxRule { Armijo, Fixed };
inline constexpr std::array<Choice<ProxRule>, 2> kProxRules{{{ProxRule::Armijo, "armijo"}, {ProxRule::Fixed, "fixed"}}};
std::string_view toString(ProxRule rule);

// What a block's Lipschitz bound is (on the whole sequence, ℓ2 of the flattened tokens).
enum class BlockBound {
  One,       // 1 by construction (AttLip's converged prox, 004 Thm 4)
  Computed,  // a formula of the weights and the token count (ℓ2: Kim et al.'s)
  None,      // no global bound (softmax attention)
};

struct AttentionKindInfo {
  AttentionKind kind;
  std::string_view id;     // config value, CLI --kind, lab and plot keys
  std::string_view title;  // as the papers name it
  // The Attention Lab's short name (translated by the app, context "AttentionLab") and its
  // series colour (widgets::runColor index): one per block kind.
  std::string_view shortTitle;
  int colorIndex;
  bool isBlock;            // an attention block the Attention Lab measures (not "none")
  BlockBound bound;
  // The block's map is the whole residual step (AttLip: X ↦ prox(X)); else x + Att(x), whose
  // bound is 1 + the block's.
  bool mapIsResidualStep;
  int projections;         // d×d weight matrices per block ([H, d, d/H] each): memory estimate
};

// Every kind, in display order (the lab's and the plots' order).
std::span<const AttentionKindInfo> attentionKinds();
const AttentionKindInfo& info(AttentionKind kind);
std::string_view toString(AttentionKind kind);
// Throws std::invalid_argument naming the id and the choices.
AttentionKind attentionKindFromString(std::string_view id);
// Ids of the kinds with isBlock (the Attention Lab, `lipschitz-cli attention --kind`).
std::vector<std::string> attentionBlockIds();

}  // namespace lwb::attention
