#include "attention/attention_kinds.h"

#include "common/tr_noop.h"

#include <array>
#include <stdexcept>

namespace lwb::attention {
namespace {

constexpr std::array<AttentionKindInfo, 4> kKinds{{
    {AttentionKind::AttLip, "attlip", "AttLip (1-Lipschitz prox attention)", LWB_TR_NOOP("AttentionLab", "AttLip"), 0, true,
     BlockBound::One, true, 1},
    {AttentionKind::L2, "l2", "ℓ2 attention (Kim et al.)", LWB_TR_NOOP("AttentionLab", "ℓ2"), 1, true, BlockBound::Computed, false, 3},
    {AttentionKind::Standard, "standard", "standard softmax attention", LWB_TR_NOOP("AttentionLab", "standard"), 2, true,
     BlockBound::None, false, 4},
    // Not a block: never shown in the lab, so its short title is not offered for translation.
    {AttentionKind::None, "none", "no attention (MLP only)", "MLP only", 3, false, BlockBound::None, false, 0},
}};

}  // namespace

std::span<const AttentionKindInfo> attentionKinds() { return kKinds; }

const AttentionKindInfo& info(AttentionKind kind) {
  for (const auto& k : kKinds)
    if (k.kind == kind) return k;
  throw std::logic_error("attention kind without a registry row");
}

std::string_view toString(AttentionKind kind) { return info(kind).id; }

AttentionKind attentionKindFromString(std::string_view id) {
  std::string choices;
  for (const auto& k : kKinds) {
    if (k.id == id) return k.kind;
    choices += (choices.empty() ? "" : " | ") + std::string(k.id);
  }
  throw std::invalid_argument("unknown attention kind '" + std::string(id) + "' (" + choices + ")");
}

std::vector<std::string> attentionBlockIds() {
  std::vector<std::string> out;
  for (const auto& k : kKinds)
    if (k.isBlock) out.emplace_back(k.id);
  return out;
}

std::string_view toString(ProxRule rule) { return choiceId(kProxRules, rule); }

}  // namespace lwb::attention
