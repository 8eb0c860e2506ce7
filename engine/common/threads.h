#pragma once

#include "common/start_env.h"

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace lwb {

// Intra-op threads (LibTorch's OpenMP team, which OpenBLAS's OpenMP build shares: one pool).
// The count is *pinned* when the user chose it (--threads N, $LWB_THREADS, a config's
// `threads`): nothing changes it afterwards. Otherwise it is the policy's default and a
// run's ThreadTuner may move it between 1 and that default (docs/DESIGN.md, "Thread policy").

// threads > 0 pins that count; threads <= 0 selects defaultIntraOpThreads(), pinned only
// when $LWB_THREADS set it. Returns the count in effect.
int setIntraOpThreads(int threads);

// The policy's default, not pinned: $LWB_THREADS when set (then pinned), else `ceiling`
// (e.g. the app's "all cores but the GUI's"). Returns the count in effect.
int setDefaultIntraOpThreads(int ceiling);

// LWB_THREADS from the environment if set to a positive integer, else hardware threads.
int defaultIntraOpThreads();

// True when the count in effect was chosen by the user (see above).
bool intraOpThreadsPinned();

// The largest count the policy may use: the pinned count, or the default set last.
int intraOpThreadsCeiling();

// Sets the calling thread's count without changing pin or ceiling (the tuner's knob; cheap,
// the OpenMP count only). OpenMP's count is per calling thread: call it on the thread that trains.
void applyIntraOpThreads(int threads);

// How many threads at::parallel_for spreads a range over in the engine's own code, at the
// calling thread's current count. parallel_for is a template in ATen's headers whose
// `#pragma omp parallel` is compiled into our translation units: built without OpenMP it runs
// every range on the calling thread, however many threads are set (engine/CMakeLists.txt,
// LWB_OPENMP). Tests and benchmarks check it.
int parallelForTeamSize();

// ---- The start environment (common/start_env.h: OpenMP wait policy, OpenBLAS kernels, glog).
// First thing in main(): when startEnvironment(getenv, the loaded OpenBLAS core) is not
// empty, sets those variables and re-executes /proc/self/exe with the same argv, once
// (LWB_OMP_POLICY_APPLIED=1 marks the second start). Returns normally when nothing is to be
// done or exec fails. lipschitz-cli's front program sets them first, so the CLI never needs it.
void reexecWithOpenMpWaitPolicy(char** argv);

}  // namespace lwb
