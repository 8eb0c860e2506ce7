#include "common/threads.h"

#include <ATen/Parallel.h>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <string>
#include <thread>

namespace lwb {
namespace {

std::atomic<bool> pinned{false};
std::atomic<int> ceiling{0};

// libgomp spins this many iterations (a `pause` each, ~50-150 cycles) before sleeping on a
// futex: ~0.1 ms here instead of the default 300000 (~10-30 ms). Long enough that a
// step's back-to-back parallel regions find the team awake on a quiet machine, short
// enough that an idle team does not take the core from the GUI, a browser or another run.
constexpr const char* kSpinCount = "10000";

int hardwareThreads() {
  const unsigned hw = std::thread::hardware_concurrency();
  return hw > 0 ? static_cast<int>(hw) : 1;
}

int envThreads() {
  if (const char* env = std::getenv("LWB_THREADS")) {
    try {
      const int n = std::stoi(env);
      if (n > 0) return n;
    } catch (...) {
      // Malformed LWB_THREADS falls back to the policy's default.
    }
  }
  return 0;
}

int apply(int n, bool pin) {
  at::set_num_threads(n);
  pinned = pin;
  ceiling = at::get_num_threads();
  return ceiling;
}

}  // namespace

int defaultIntraOpThreads() {
  const int env = envThreads();
  return env > 0 ? env : hardwareThreads();
}

int setIntraOpThreads(int threads) {
  if (threads > 0) return apply(threads, true);
  const int env = envThreads();
  return env > 0 ? apply(env, true) : apply(hardwareThreads(), false);
}

int setDefaultIntraOpThreads(int ceilingThreads) {
  const int env = envThreads();
  return env > 0 ? apply(env, true) : apply(std::max(1, ceilingThreads), false);
}

bool intraOpThreadsPinned() { return pinned; }

int intraOpThreadsCeiling() { return ceiling > 0 ? ceiling.load() : at::get_num_threads(); }

void applyIntraOpThreads(int threads) { at::set_num_threads(std::max(1, threads)); }

std::vector<std::pair<std::string, std::string>> openMpWaitEnvToSet(const EnvLookup& env) {
  for (const char* name : {"OMP_WAIT_POLICY", "GOMP_SPINCOUNT", "LWB_NO_REEXEC", "LWB_OMP_POLICY_APPLIED"})
    if (const char* v = env(name); v && *v) return {};
  return {{"GOMP_SPINCOUNT", kSpinCount}, {"LWB_OMP_POLICY_APPLIED", "1"}};
}

void reexecWithOpenMpWaitPolicy(char** argv) {
  const auto vars = openMpWaitEnvToSet([](const char* n) { return static_cast<const char*>(std::getenv(n)); });
  if (vars.empty() || argv == nullptr || argv[0] == nullptr) return;
  for (const auto& [name, value] : vars) setenv(name.c_str(), value.c_str(), 1);
  // /proc/self/exe is this very binary whatever argv[0] says (a relative path, a symlink, a
  // name found on PATH); argv stays as it was so the program sees the same command line.
  // The marker variable makes the second start return above: never a loop.
  execv("/proc/self/exe", argv);
  // exec failed (no /proc): carry on with the runtime's defaults.
}

}  // namespace lwb
