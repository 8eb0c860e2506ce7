// Activation statistics as plain values (no LibTorch): what a model records during an
// evaluation pass and what run results, the run directory and the app carry.
#pragma once

#include <string>
#include <vector>

namespace lwb::models {

// Activation statistics after every residual block (000 App. F NanoGPT metrics).
struct ActivationStats {
  std::vector<std::string> names;     // "block0.attn", "block0.mlp", ...
  std::vector<double> maxAbsEntry;    // max |entry|
  std::vector<double> maxTokenRms;    // max over tokens of the per-token RMS
  // Mean over tokens of the per-token RMS (seed 002 Fig. 3's monitor); may be shorter than
  // `names` in rows written before it existed.
  std::vector<double> meanTokenRms;
  bool operator==(const ActivationStats&) const = default;
};

}  // namespace lwb::models
