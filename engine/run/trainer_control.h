// The flags a running Trainer checks between steps (pause, stop), set from another thread or
// a signal handler. No LibTorch: the app's run controls hold them.
#pragma once

#include <atomic>

namespace lwb::run {

struct TrainerControl {
  std::atomic<bool> pause{false};
  std::atomic<bool> stop{false};
};

}  // namespace lwb::run
