// lipschitz-cli, the program users run: sets the environment the runtimes LibTorch loads read
// only at load time (common/start_env.h), then becomes lipschitz-cli-engine (the commands;
// next to this program) by exec. LibTorch is loaded once per command, and `--version` does
// not load it at all. The engine binary still sets the environment itself when started
// directly (a data-parallel rank, a Slurm step), by starting itself a second time.
#include "common/start_env.h"
#include "common/version.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

namespace {

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
  lwb::setStartEnvironmentBeforeLoad();
  const std::string engine = engineProgram();
  execv(engine.c_str(), argv);
  std::fprintf(stderr, "lipschitz-cli: cannot start %s: %s\n", engine.c_str(), std::strerror(errno));
  return 1;
}
