// Plain values shared by the Clip Lab computations: cancellation and the precisions the
// controls offer. No LibTorch.
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

// Working precisions the lab runs a method in: "float32", "bfloat16". (Methods, clip
// implementations and Newton–Schulz sets are listed by their registries:
// spectral/constraint_methods.h, spectral/ns_coefficients.h.)
std::vector<std::string> labDtypeIds();

}  // namespace lwb::lab
