// Child processes for the sweep backends (POSIX posix_spawn): training runs whose output
// goes to a log file, and short scheduler commands (sbatch, squeue, sacct, scancel) whose
// output is read back. No LibTorch, no Qt.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace lwb::sweep {

// The variable a sweep sets for its children: `lipschitz-cli train` then asks the kernel for
// SIGTERM when its parent dies (prctl PR_SET_PDEATHSIG), so a sweep killed outright (SIGKILL,
// out of memory) leaves no orphan training on: each child stops cleanly (status `stopped`).
inline constexpr const char* kDieWithParentEnv = "LWB_DIE_WITH_PARENT";
// Called first by `lipschitz-cli train`: when kDieWithParentEnv names this process's parent
// pid, arranges SIGTERM on the parent's death (and sends it now if the parent is already gone).
void dieWithParentIfAsked();

// Starts argv[0] (looked up in PATH) with stdout and stderr appended to `log` and
// kDieWithParentEnv set to this process's pid; first appends kCommandLinePrefix and argv as a
// shell would read it. Throws std::runtime_error when it cannot be started.
inline constexpr const char* kCommandLinePrefix = "# command: ";
std::string shellQuote(const std::string& s);  // 'it'\''s' for bash
std::string commandLineText(const std::vector<std::string>& argv);
pid_t spawnLogged(const std::vector<std::string>& argv, const std::filesystem::path& log);

struct CommandResult {
  int exitCode = -1;  // -1: could not be started or killed by a signal
  std::string out, err;
};
// Runs argv to completion (killed after timeoutSeconds), collecting its output.
CommandResult runCommand(const std::vector<std::string>& argv, double timeoutSeconds = 60);

// Whether `name` is an executable in PATH.
bool inPath(const std::string& name);

// The path of the running program (/proc/self/exe).
std::filesystem::path selfExecutable();

}  // namespace lwb::sweep
