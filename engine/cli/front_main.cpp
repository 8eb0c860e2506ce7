// lipschitz-cli, the program users run: sets the environment the runtimes LibTorch loads read
// only at load time (common/start_env.h), then becomes lipschitz-cli-engine (the commands;
// next to this program) by exec. LibTorch is loaded once per command, and `--version` does
// not load it at all. The engine binary still sets the environment itself when started
// directly (a data-parallel rank, a Slurm step), by starting itself a second time.
#include "common/blas_core.h"
#include "common/start_env.h"
#include "common/version.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

namespace {

// The OpenBLAS core the engine would load here: the engine reaches BLAS through LibTorch's
// libblas.so.3 (Debian's alternative), so open that and ask it; empty when it is not OpenBLAS.
std::string loadedBlasCore() {
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

std::string engineProgram() {
  char self[4096];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  std::string dir = ".";
  if (n > 0) {
    self[n] = '\0';
    dir = self;
    dir = dir.substr(0, dir.rfind('/'));
  }
  return dir + "/lipschitz-cli-engine";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 2 && std::string_view(argv[1]) == "--version") {
    std::printf("lipschitz-cli %.*s\n", static_cast<int>(lwb::version().size()), lwb::version().data());
    return 0;
  }
  const auto env = [](const char* n) { return static_cast<const char*>(std::getenv(n)); };
  // The BLAS question costs a library load: only when the user has not answered it.
  const char* core = std::getenv("OPENBLAS_CORETYPE");
  const char* noReexec = std::getenv("LWB_NO_REEXEC");
  const bool ask = !(core && *core) && !(noReexec && *noReexec);
  for (const auto& [name, value] : lwb::startEnvironment(env, ask ? loadedBlasCore() : std::string()))
    setenv(name.c_str(), value.c_str(), 1);
  const std::string engine = engineProgram();
  execv(engine.c_str(), argv);
  std::fprintf(stderr, "lipschitz-cli: cannot start %s: %s\n", engine.c_str(), std::strerror(errno));
  return 1;
}
