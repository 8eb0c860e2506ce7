#include "common/blas_core.h"

#include <dlfcn.h>

#include <array>
#include <string_view>

namespace lwb {

std::string blasCoreName() {
  // Looked up at run time: the engine does not link BLAS itself (LibTorch loads it).
  using NameFn = char* (*)();
  const auto name = reinterpret_cast<NameFn>(dlsym(RTLD_DEFAULT, "openblas_get_corename"));
  const char* s = name ? name() : nullptr;
  return s ? std::string(s) : std::string();
}

int cpuVectorLevel() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") &&
      __builtin_cpu_supports("avx512dq"))
    return 3;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return 2;
#endif
  return 1;
}

std::string openBlasCoreToForce(const std::string& loaded, int cpuLevel) {
  if (loaded.empty()) return {};
  // OpenBLAS 0.3.21's x86-64 cores by the widest vector unit their kernels use (case as it
  // reports them; unknown names are left alone).
  constexpr std::array<std::string_view, 6> avx512{"SkylakeX", "Cooperlake", "SapphireRapids", "skylakex", "cooperlake",
                                                   "sapphirerapids"};
  constexpr std::array<std::string_view, 4> avx2{"Haswell", "Zen", "haswell", "zen"};
  constexpr std::array<std::string_view, 20> older{"Prescott",  "Core2",      "Penryn",    "Dunnington", "Nehalem",
                                                   "Atom",      "Sandybridge", "Barcelona", "Opteron",    "Opteron_SSE3",
                                                   "Bobcat",    "Bulldozer",  "Piledriver", "Steamroller", "Excavator",
                                                   "prescott",  "core2",      "nehalem",   "sandybridge", "atom"};
  auto in = [&](const auto& list) {
    for (const auto& n : list)
      if (n == loaded) return true;
    return false;
  };
  const int loadedLevel = in(avx512) ? 3 : in(avx2) ? 2 : in(older) ? 1 : 0;
  if (loadedLevel == 0 || loadedLevel >= cpuLevel) return {};
  return cpuLevel >= 3 ? "SkylakeX" : "Haswell";
}

}  // namespace lwb
