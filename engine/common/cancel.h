// The one way long work is stopped from outside: a flag the caller sets (a page's job, the
// CLI's signal handler) and the exception the work throws when it sees it. Every room that
// can be cancelled (io's chunked reads, bounds' PGD, the lab, inspect, robustness) uses this
// type, so a caller catches one thing. No LibTorch, no Qt.
#pragma once

#include <atomic>
#include <stdexcept>
#include <string>

namespace lwb {

// Long computations check this between stages (and between iterations where they iterate
// themselves); a set flag makes them throw Cancelled.
using CancelFlag = std::atomic<bool>;

struct Cancelled : std::runtime_error {
  Cancelled() : std::runtime_error("cancelled") {}
  explicit Cancelled(const std::string& what) : std::runtime_error(what) {}
};

inline void throwIfCancelled(const CancelFlag* cancel) {
  if (cancel && cancel->load(std::memory_order_relaxed)) throw Cancelled();
}

}  // namespace lwb
