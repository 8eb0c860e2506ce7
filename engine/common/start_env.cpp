#include "common/start_env.h"

#include "common/blas_core.h"

#include <dlfcn.h>

#include <cstdlib>

namespace lwb {

namespace {

// Idle OpenMP threads spin briefly, then sleep: libgomp's default spins 300000 `pause`
// iterations (~10-30 ms) and takes the core from the GUI, a browser or another run; a team
// that shares a core with a busy process then runs 2-15x slower. Passive waiting (no spin)
// removes that but pays a futex wake-up per parallel region: a quiet 2-thread MNIST step ran
// 0.55x of the default spin. GOMP_SPINCOUNT=1000 (libgomp's own value for oversubscribed
// teams) keeps ~0.9-0.95x of the quiet speed and, with a busy core, 0.7x of passive at 2
// threads, where the run's tuner moves to one thread anyway (docs/BENCHMARKS.md, "Issue 17").
constexpr const char* kSpinCount = "1000";

bool isSet(const char* v) { return v && *v; }

// The OpenBLAS core LibTorch would load here: it reaches BLAS through libblas.so.3 (Debian's
// alternative), so open that and ask it; empty when it is not OpenBLAS.
std::string blasCoreBeforeLoad() {
  for (const char* lib : {"libblas.so.3", "libopenblas.so.0"}) {
    void* h = dlopen(lib, RTLD_LAZY | RTLD_LOCAL);
    if (!h) continue;
    using NameFn = char* (*)();
    const auto name = reinterpret_cast<NameFn>(dlsym(h, "openblas_get_corename"));
    const char* s = name ? name() : nullptr;
    if (s) return s;
  }
  return {};
}

}  // namespace

std::vector<std::pair<std::string, std::string>> openMpWaitEnvToSet(const EnvLookup& env) {
  for (const char* name : {"OMP_WAIT_POLICY", "GOMP_SPINCOUNT", "LWB_NO_REEXEC", "LWB_OMP_POLICY_APPLIED"})
    if (isSet(env(name))) return {};
  return {{"GOMP_SPINCOUNT", kSpinCount}, {"LWB_OMP_POLICY_APPLIED", "1"}};
}

std::vector<std::pair<std::string, std::string>> startEnvironment(const EnvLookup& env, const std::string& loadedBlasCore) {
  auto vars = openMpWaitEnvToSet(env);
  if (isSet(env("LWB_NO_REEXEC"))) return vars;
  // OpenBLAS reads the variable at load time: a VM's generic CPU model made it load older
  // kernels than the CPU runs (common/blas_core.h). Never over the user's own choice.
  if (!isSet(env("OPENBLAS_CORETYPE")))
    if (const auto core = openBlasCoreToForce(loadedBlasCore, cpuVectorLevel()); !core.empty())
      vars.push_back({"OPENBLAS_CORETYPE", core});
  // A rank of a data-parallel run (engine/dist): c10d logs its socket retries through glog
  // on stderr, several lines per failure; our own message names the rank and the cause in one.
  if (!isSet(env("GLOG_minloglevel")) && (isSet(env("RANK")) || isSet(env("SLURM_PROCID"))))
    vars.push_back({"GLOG_minloglevel", "3"});
  return vars;
}

void setStartEnvironmentBeforeLoad() {
  const auto env = [](const char* n) { return static_cast<const char*>(std::getenv(n)); };
  // The BLAS question costs a library load: only when the user has not answered it.
  const bool ask = !isSet(env("OPENBLAS_CORETYPE")) && !isSet(env("LWB_NO_REEXEC"));
  for (const auto& [name, value] : startEnvironment(env, ask ? blasCoreBeforeLoad() : std::string()))
    setenv(name.c_str(), value.c_str(), 1);
}

}  // namespace lwb
