// A run directory's checkpoints as a history, and two checkpoints side by side (issue 29 §2).
// history: every checkpoints/step_N.safetensors, oldest first, each matrix's metrics (the
// same numbers `inspect` prints: σ₁, RMS→RMS norm, Frobenius norm and the WeightWatcher-parity
// metrics of spectral_metrics.h). delta: per matrix of two checkpoints, Δσ₁, Δα and the
// relative change ‖W_B − W_A‖_F / ‖W_A‖_F. Torch-free header: the CLI and the Inspector's
// worker share it.
#pragma once

#include "inspect/spectral_metrics.h"
#include "common/cancel.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lwb::io {
struct TensorFile;
}

namespace lwb::inspect {

// The values a history keeps per matrix: sigma1, rms_norm, frobenius, then every row of
// spectralMetricTable() (WeightWatcher's key names). One home for the CLI's JSON keys and the
// Inspector's metric choice.
struct HistoryMetricInfo {
  std::string_view key;
  std::string_view title;
  std::string_view description;
};
std::span<const HistoryMetricInfo> historyMetrics();

struct LayerValues {
  std::string name;  // the weight's name ("param." of workbench checkpoints removed)
  std::vector<int64_t> shape;
  std::vector<double> values;  // historyMetrics() order; NaN: undefined
};

struct CheckpointMetrics {
  int64_t step = 0;
  std::filesystem::path path;
  std::vector<LayerValues> layers;  // 2-D weights with a spectrum, in file order
};

struct SkippedCheckpoint {
  int64_t step = 0;
  std::filesystem::path path;
  std::string error;  // the reader's one-line message
};

struct CheckpointHistory {
  std::vector<CheckpointMetrics> checkpoints;  // by step, oldest first
  // Unreadable checkpoints (torn copy, disk error, hostile file): reported and skipped, so
  // one damaged file does not hide the rest of the run's history.
  std::vector<SkippedCheckpoint> skipped;
  bool complete = true;  // false: cancelled part-way (the checkpoints so far)
  // Every layer name in order of first appearance.
  std::vector<std::string> layerNames() const;
  // A layer's value of metric `metric` (historyMetrics() index) per checkpoint; NaN where the
  // layer is absent or the value undefined.
  std::vector<double> series(const std::string& layer, size_t metric) const;
};

// RUN_DIR/checkpoints/step_N.safetensors, oldest first. InputError when the folder has no
// checkpoints folder or no step_N.safetensors in it, or when none of them could be read.
// progress(done, total) after each checkpoint; `cancel` is checked between matrices.
CheckpointHistory checkpointHistory(const std::filesystem::path& runDir,
                                    const std::function<void(size_t, size_t)>& progress = {},
                                    const CancelFlag* cancel = nullptr);

struct LayerDelta {
  std::string name;
  std::vector<int64_t> shape;
  double sigma1A = 0, sigma1B = 0;
  double alphaA = 0, alphaB = 0;  // NaN where undefined
  double relativeChange = 0;      // ‖W_B − W_A‖_F / ‖W_A‖_F (NaN when W_A = 0)
  double deltaSigma1() const { return sigma1B - sigma1A; }
  double deltaAlpha() const { return alphaB - alphaA; }
};

struct CheckpointDelta {
  std::vector<LayerDelta> layers;      // matrices in both with the same shape, A's order
  std::vector<std::string> onlyInA, onlyInB, shapeChanged;
  // In both with one shape, but NaN/Inf (or booleans) in either: no spectrum to compare. Said,
  // not dropped ("no names in common" was the message for two files of NaN matrices).
  std::vector<std::string> noSpectrum;
  bool complete = true;
  // When no layer name matched as written, the names were matched again without each file's
  // common dotted prefix (a Lightning "state_dict.model.", DDP's "module.", torch.compile's
  // "_orig_mod."); the prefixes taken off, else both empty.
  std::string prefixA, prefixB;
};

// Per-layer deltas from A to B (files or model folders, anything io::readTensorFile reads).
// InputError naming the file when either cannot be read.
CheckpointDelta checkpointDelta(const std::filesystem::path& a, const std::filesystem::path& b,
                                const std::function<void(size_t, size_t)>& progress = {},
                                const CancelFlag* cancel = nullptr);
CheckpointDelta checkpointDelta(const io::TensorFile& a, const io::TensorFile& b,
                                const std::function<void(size_t, size_t)>& progress = {},
                                const CancelFlag* cancel = nullptr);

}  // namespace lwb::inspect
