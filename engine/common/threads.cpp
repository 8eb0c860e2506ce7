#include "common/threads.h"

#include <ATen/Parallel.h>

#include <cstdlib>
#include <string>
#include <thread>

namespace lwb {

int defaultIntraOpThreads() {
  if (const char* env = std::getenv("LWB_THREADS")) {
    try {
      const int n = std::stoi(env);
      if (n > 0) return n;
    } catch (...) {
      // Malformed LWB_THREADS falls back to the hardware count.
    }
  }
  const unsigned hw = std::thread::hardware_concurrency();
  return hw > 0 ? static_cast<int>(hw) : 1;
}

int setIntraOpThreads(int threads) {
  const int n = threads > 0 ? threads : defaultIntraOpThreads();
  at::set_num_threads(n);
  return at::get_num_threads();
}

}  // namespace lwb
