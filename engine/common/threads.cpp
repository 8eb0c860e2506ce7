#include "common/threads.h"

#include "common/blas_core.h"

#include <ATen/Parallel.h>

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <thread>

namespace lwb {
namespace {

std::atomic<bool> pinned{false};
std::atomic<int> ceiling{0};


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

void applyIntraOpThreads(int threads) {
  // at::set_num_threads also rebuilds LibTorch's pthreadpool (unused by the engine's ops):
  // 20-50 ms a call on a loaded 2-core machine, measured. The OpenMP count alone is what ATen's parallel_for and
  // OpenBLAS read (omp_get_max_threads), and costs microseconds: looked up at run time in the
  // OpenMP runtime LibTorch loaded, so the build needs no OpenMP flags.
  using SetFn = void (*)(int);
  static const auto ompSet = reinterpret_cast<SetFn>(dlsym(RTLD_DEFAULT, "omp_set_num_threads"));
  const int n = std::max(1, threads);
  (void)at::get_num_threads();  // ATen's once-per-thread initialisation first, so it cannot undo n
  if (ompSet) ompSet(n);
  else at::set_num_threads(n);
}

int parallelForTeamSize() {
  // One bit per thread that ran a chunk; a grain of 1 over 64 items gives every thread one.
  std::atomic<uint64_t> seen{0};
  at::parallel_for(0, 64, 1, [&](int64_t, int64_t) { seen.fetch_or(uint64_t{1} << (at::get_thread_num() % 64)); });
  return __builtin_popcountll(seen.load());
}

void reexecWithOpenMpWaitPolicy(char** argv) {
  const auto vars = startEnvironment([](const char* n) { return static_cast<const char*>(std::getenv(n)); }, blasCoreName());
  if (vars.empty() || argv == nullptr || argv[0] == nullptr) return;
  for (const auto& [name, value] : vars) setenv(name.c_str(), value.c_str(), 1);
  // /proc/self/exe is this very binary whatever argv[0] says (a relative path, a symlink, a
  // name found on PATH). Exec its target path, so ps/top keep showing the program's name
  // (exec of /proc/self/exe itself would name the process "exe"); argv stays as it was so
  // the program sees the same command line. The marker variable makes the second start
  // return above: never a loop.
  char self[4096];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n > 0) {
    self[n] = '\0';
    execv(self, argv);
  }
  execv("/proc/self/exe", argv);  // the file was replaced or renamed since it started
  // exec failed (no /proc): carry on with the runtime's defaults.
}

}  // namespace lwb
