#pragma once

namespace lwb {

// Debian's LibTorch starts with one intra-op thread; the engine sets it explicitly.
// threads <= 0 selects the number of hardware threads. Returns the count in effect.
int setIntraOpThreads(int threads);

// LWB_THREADS from the environment if set to a positive integer, else hardware threads.
int defaultIntraOpThreads();

}  // namespace lwb
