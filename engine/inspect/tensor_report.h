// What `lipschitz-cli inspect` and the Checkpoint Inspector say about each tensor of a file:
// name, shape, dtype, and for 2-D tensors sigma1, the RMS->RMS norm, stable rank, Frobenius
// norm and the WeightWatcher-parity metrics (spectral_metrics.h) (ARCHITECTURE.md "Headless CLI contract").
#pragma once

#include "inspect/spectral_metrics.h"
#include "io/raw_tensor.h"
#include "spectral/matrix_stats.h"

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace lwb::inspect {

struct TensorReport {
  std::string name;
  std::vector<int64_t> shape;
  std::string dtype;
  std::optional<spectral::MatrixStats> stats;  // 2-D numeric tensors with finite entries
  SpectralMetrics metrics;                     // WeightWatcher-parity metrics, where stats is set
  std::string note;                            // why a 2-D tensor has no stats
};

// One tensor. `keepSingularValues` false drops the full spectrum (only the summary numbers).
TensorReport reportTensor(const io::RawTensor& raw, bool keepSingularValues);

// Every tensor of a file, in file order, computed on the intra-op threads (whole tensors each,
// largest first). `progress(done, total)` is called after each one, from one thread at a time;
// `cancel` (if given) is checked between tensors — a cancelled report returns the tensors it
// finished, in file order.
std::vector<TensorReport> reportTensors(const io::TensorFile& file, bool keepSingularValues,
                                        const std::function<void(size_t, size_t)>& progress = {},
                                        const std::atomic<bool>* cancel = nullptr);

}  // namespace lwb::inspect
