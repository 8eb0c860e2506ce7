// How a file stores its 2-D weights: (out, in) as PyTorch's Linear, or (in, out) as Hugging
// Face GPT-2's Conv1D (c_attn, c_fc, c_proj) and JAX. Detected from GPT-2's layer names; the
// RMS→RMS norm σ₁·√(d_in/d_out) depends on it (σ₁ and every WeightWatcher metric do not).
// Torch-free and Qt-free: `inspect` and the Inspector share it.
#pragma once

#include <string_view>

namespace lwb::inspect {

inline bool isGpt2Conv1dName(std::string_view name) {
  return name.ends_with(".c_attn.weight") || name.ends_with(".c_fc.weight");
}

// Any tensor named like GPT-2's Conv1D: the whole file is read as stored (in, out).
template <class Names>
bool storedInOut(const Names& names) {
  for (const auto& n : names)
    if (isGpt2Conv1dName(std::string_view(n))) return true;
  return false;
}

}  // namespace lwb::inspect
