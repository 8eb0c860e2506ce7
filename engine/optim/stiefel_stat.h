// What manifold_muon reports about each constrained matrix per step, as a plain value (the
// run's metrics carry it: run/run_results.h). No LibTorch.
#pragma once

#include <cstdint>
#include <string>

namespace lwb::optim {

// Manifold Muon, one constrained matrix after one step: rms(WᵀM + MᵀW) of the direction
// applied (how far from tangent it was) and the smallest and largest singular value after
// the retraction (a flat band at 1 when the manifold holds).
struct StiefelStat {
  std::string name;
  double tangency = 0, sigmaMin = 0, sigmaMax = 0;
  // The step's retraction: Polar Express steps run (10 unless it had to iterate further) and
  // whether it fell back to the exact (SVD) polar factor; how many steps since the run's start
  // needed more than 10 steps, and how many the SVD.
  int retractionSteps = 0;
  bool retractionExact = false;
  int64_t retractionsExtended = 0, retractionsExact = 0;
  bool operator==(const StiefelStat&) const = default;
};

}  // namespace lwb::optim
