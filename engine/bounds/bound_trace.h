// The per-layer trace of a Lipschitz upper bound (000 §3.2, App. D) as plain values: no
// LibTorch, so run results, the run directory reader and the app can hold one without
// pulling ATen in. lipschitz_bound.h computes them.
#pragma once

#include <string>
#include <vector>

namespace lwb::bounds {

// One row of the trace: the bound after this layer / residual connection.
struct TraceEntry {
  std::string name;               // "layers.0", "block0.attn", "head", ...
  double blockLipschitz = 0;      // L_block of this layer (or the weight norm for MLP layers)
  double lipschitzAfter = 0;      // running bound L after it
  double activationBound = 0;     // bound on the max-over-tokens RMS activation after it
  bool operator==(const TraceEntry&) const = default;
};

struct BoundTrace {
  double bound = 0;
  std::vector<TraceEntry> layers;
  // The paper's App. D value beside the sound bound ("App. D, single-head argument"): not an
  // upper bound for multi-head attention (docs/DESIGN.md). 0 for models without one (MLPs).
  double singleHeadBound = 0;
  bool operator==(const BoundTrace&) const = default;
};

}  // namespace lwb::bounds
