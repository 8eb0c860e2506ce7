// How a file stores its 2-D weights: (out, in) as PyTorch's Linear, or (in, out) as Hugging
// Face GPT-2's Conv1D (c_attn, c_fc, c_proj) and JAX. Detected from GPT-2's layer names and
// their shapes; the RMS→RMS norm σ₁·√(d_in/d_out) depends on it (σ₁ and every WeightWatcher
// metric do not). Torch-free and Qt-free: `inspect`, `--history` and the Inspector share it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lwb::inspect {

inline bool isGpt2Conv1dName(std::string_view name) {
  return name.ends_with(".c_attn.weight") || name.ends_with(".c_fc.weight");
}

struct NamedShape {
  std::string name;
  std::vector<int64_t> shape;
};

// GPT-2's Conv1D stores c_attn as (d, 3d) and c_fc as (d, 4d): wider than tall. nanoGPT, CLIP
// and open_clip give the same names to nn.Linear layers, stored (3d, d) and (4d, d): taller
// than wide. The whole file is read (in, out) only when it has such names and every one of
// them is wider than tall.
inline bool storedInOut(const std::vector<NamedShape>& tensors) {
  bool any = false;
  for (const auto& t : tensors) {
    if (!isGpt2Conv1dName(t.name)) continue;
    if (t.shape.size() != 2 || t.shape[1] <= t.shape[0]) return false;
    any = true;
  }
  return any;
}

}  // namespace lwb::inspect
