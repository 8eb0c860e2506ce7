// The environment our programs want before LibTorch loads, because the runtimes it loads read
// it only then: OpenMP's wait policy (libgomp), OpenBLAS's kernels for this CPU, glog quiet in
// a data-parallel rank. No LibTorch here: lipschitz-cli's front program (engine/cli/front_main.cpp)
// sets these before it starts the engine binary, so LibTorch is loaded once per command.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace lwb {

using EnvLookup = std::function<const char*(const char*)>;

// The variables to add so idle OpenMP threads spin only briefly before sleeping after a
// parallel region (GOMP_SPINCOUNT=1000); empty when the user set OMP_WAIT_POLICY or GOMP_SPINCOUNT, or
// LWB_NO_REEXEC, or the policy was already applied (LWB_OMP_POLICY_APPLIED).
std::vector<std::pair<std::string, std::string>> openMpWaitEnvToSet(const EnvLookup& env);

// Everything to set before LibTorch loads: openMpWaitEnvToSet, OPENBLAS_CORETYPE when the
// OpenBLAS core `loadedBlasCore` (as openblas_get_corename names it; empty: unknown) is older
// than this CPU can run (common/blas_core.h), GLOG_minloglevel=3 in a rank (RANK or
// SLURM_PROCID set). Never what the user set, nothing at all with LWB_NO_REEXEC.
std::vector<std::pair<std::string, std::string>> startEnvironment(const EnvLookup& env, const std::string& loadedBlasCore);

// For a program that has not loaded LibTorch (or any BLAS) yet and will exec one: sets
// startEnvironment() in this process's environment, asking the BLAS that LibTorch would load
// which core it picks (a library load, skipped when OPENBLAS_CORETYPE or LWB_NO_REEXEC is set).
// Used by lipschitz-cli's front program and by the test launcher (tests/support).
void setStartEnvironmentBeforeLoad();

}  // namespace lwb
