// Memory a run or a saved model will need, estimated from its config before anything is
// built, against what this process can still get (MemAvailable, `ulimit -v`, the cgroup's
// memory.max). In-range settings (batch 1e6, widths [65536, 65536], a checkpoint whose
// metadata claims 256 layers of 65536) are refused with "needed vs available" instead of
// being OOM-killed with the run folder left "running". No LibTorch, no Qt.
#pragma once

#include "run/run_config.h"

#include <cstdint>
#include <string>

namespace lwb::run {

struct MemoryEstimate {
  double parameters = 0;   // weights (elements)
  double bytes = 0;        // total estimate
  std::string breakdown;   // "weights 1.2 GiB, optimizer state 2.4 GiB, activations 0.3 GiB"
};

// The parameter count of cfg.model for a task of `inputDim` features (or tokens) and
// `numClasses` classes (or vocabulary) — the closed forms of the models' constructors.
double estimateParameters(const RunConfig& cfg, int64_t inputDim, int64_t numClasses);

// Training: weights, gradients, optimizer state, constraint work space and the activations
// kept for the backward pass of one batch (float32).
MemoryEstimate estimateTraining(const RunConfig& cfg, int64_t inputDim, int64_t numClasses);
// A saved model for bound / robustness / Inspector: weights plus the work space of one
// matrix's power iteration and one batch of `batch` inputs.
MemoryEstimate estimateInference(const RunConfig& cfg, int64_t inputDim, int64_t numClasses, int64_t batch = 256);

// Bytes this process can still allocate: the least of MemAvailable, the address-space limit
// (RLIMIT_AS) less what is mapped now, and the cgroup's memory.max less its usage.
double availableMemoryBytes();

// The share of availableMemoryBytes() an estimate may take (the rest is headroom for what the
// estimate leaves out: allocator slack, temporaries, the data set, the GUI).
inline constexpr double kMemoryHeadroom = 0.8;

// False when the user turned the check off: LWB_MEMORY_CHECK=off (lipschitz-cli
// --no-memory-check sets it, so sweep children inherit it).
bool memoryCheckEnabled();

// Throws InputError("<what>: needs about X GiB (breakdown) but about Y GiB is available; ...")
// when the estimate exceeds kMemoryHeadroom of the available memory and the check is on.
void requireMemory(const MemoryEstimate& e, const std::string& what);

// "1.5 GiB", "300 MiB"
std::string bytesText(double bytes);

}  // namespace lwb::run
