// Plain values shared by the Clip Lab computations: cancellation and the canonical ids the
// controls offer (ARCHITECTURE.md "Canonical names"). No LibTorch.
#pragma once

#include <atomic>
#include <stdexcept>
#include <string>
#include <vector>

namespace lwb::lab {

// Long computations check this between stages (and between Newton–Schulz steps where they
// iterate themselves); a set flag makes them throw Cancelled.
using CancelFlag = std::atomic<bool>;

struct Cancelled : std::runtime_error {
  Cancelled() : std::runtime_error("cancelled") {}
};

inline void throwIfCancelled(const CancelFlag* cancel) {
  if (cancel && cancel->load(std::memory_order_relaxed)) throw Cancelled();
}

// Every constraint method id, in the engine's order ("none", "weight_decay", ...).
std::vector<std::string> constraintMethodIds();
// Hard cap / clip implementations: "nested", "abd_dense", "abd_block", "svd".
std::vector<std::string> clipImplIds();
// Newton–Schulz coefficient sets: "jordan5", "you6", "polish".
std::vector<std::string> nsCoefficientIds();
// Working precisions the lab runs a method in.
std::vector<std::string> labDtypeIds();  // "float32", "bfloat16"

// Methods whose result depends on the clip implementation and Newton–Schulz settings.
bool usesClipImpl(const std::string& method);
// Methods that use power iteration (top singular triple only).
bool usesPowerIteration(const std::string& method);
// Methods that read σmax / σmin (engine/spectral/constraint.cpp); the app's forms and plots
// show those fields and lines for exactly these.
bool usesSigmaMax(const std::string& method);
bool usesSigmaMin(const std::string& method);

}  // namespace lwb::lab
