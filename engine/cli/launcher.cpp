#include "cli/launcher.h"

#include "cli/exit_codes.h"

#include "dist/world.h"
#include "run/run_directory.h"
#include "run/run_directory_reader.h"
#include "sweep/process.h"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <chrono>
#include <spawn.h>
#include <stdexcept>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace lwb::cli {
namespace {

std::vector<std::string>& storedArgs() {
  static std::vector<std::string> args;
  return args;
}

volatile std::sig_atomic_t gForward = 0;
volatile std::sig_atomic_t gInterrupted = 0;  // stays set: the ranks' 130 is then a stop, not a failure
extern "C" void onLauncherSignal(int sig) {
  gForward = sig;
  gInterrupted = 1;
}

std::vector<std::string> withoutNproc(const std::vector<std::string>& args) {
  std::vector<std::string> out;
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--nproc") { ++i; continue; }
    if (args[i].rfind("--nproc=", 0) == 0) continue;
    out.push_back(args[i]);
  }
  return out;
}

bool threadsGiven(const std::vector<std::string>& args) {
  for (const auto& a : args)
    if (a == "--threads" || a.rfind("--threads=", 0) == 0) return true;
  return std::getenv("LWB_THREADS") != nullptr;
}

pid_t spawnRank(const std::vector<std::string>& args, const std::vector<std::string>& extraEnv) {
  std::vector<std::string> envs;
  for (char** e = environ; *e; ++e) {
    const std::string kv = *e;
    bool replaced = false;
    for (const auto& x : extraEnv) replaced = replaced || kv.compare(0, x.find('=') + 1, x, 0, x.find('=') + 1) == 0;
    if (!replaced) envs.push_back(kv);
  }
  envs.insert(envs.end(), extraEnv.begin(), extraEnv.end());
  std::vector<char*> argv, envp;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  for (const auto& e : envs) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  pid_t pid = 0;
  const auto self = sweep::selfExecutable().string();
  if (posix_spawn(&pid, self.c_str(), nullptr, nullptr, argv.data(), envp.data()) != 0)
    throw std::runtime_error("cannot start a rank: " + std::string(std::strerror(errno)));
  return pid;
}

}  // namespace

void setCommandLine(int argc, char** argv) {
  storedArgs().assign(argv, argv + argc);
}

const std::vector<std::string>& commandLine() { return storedArgs(); }

int launchLocalRanks(int nproc, double graceSeconds, const std::string& runDir) {
  const auto args = withoutNproc(commandLine());
  const int port = dist::freeLocalPort();
  const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  const bool pinThreads = !threadsGiven(commandLine());
  std::vector<pid_t> pids;
  std::signal(SIGINT, onLauncherSignal);
  std::signal(SIGTERM, onLauncherSignal);
  for (int r = 0; r < nproc; ++r) {
    std::vector<std::string> env{"RANK=" + std::to_string(r), "WORLD_SIZE=" + std::to_string(nproc),
                                 "MASTER_ADDR=127.0.0.1", "MASTER_PORT=" + std::to_string(port),
                                 std::string(sweep::kDieWithParentEnv) + "=" + std::to_string(getpid())};
    // The machine's cores shared between the ranks unless the user chose a thread count.
    // c10d's own glog lines off (common/threads.cpp says why), unless the user set a level.
    if (!std::getenv("GLOG_minloglevel")) env.push_back("GLOG_minloglevel=3");
    if (pinThreads) env.push_back("LWB_THREADS=" + std::to_string(std::max(1u, hw / static_cast<unsigned>(nproc))));
    pids.push_back(spawnRank(args, env));
  }
  int result = 0;
  std::string firstFailure;  // "rank 1 was killed by signal 9 (Killed)"
  size_t running = pids.size();
  auto stopOthers = [&](int sig) {
    for (const pid_t p : pids)
      if (p > 0) ::kill(p, sig);
  };
  // When one rank is killed its peers fail a moment later (a broken pipe, a reset connection),
  // and a peer can even end first: the dying rank's sockets close before it is reaped. So a
  // failure is not named at once: the launcher gathers the failures of a short settle window
  // and names a rank killed by an outside signal before one that failed from a peer's loss.
  constexpr auto kSettle = std::chrono::milliseconds(300);
  const auto causeFirst = [](int status) { return WIFSIGNALED(status) && WTERMSIG(status) != SIGPIPE; };
  std::vector<std::pair<int, int>> failures;  // rank, wait status, in the order they ended
  std::optional<std::chrono::steady_clock::time_point> settleUntil;
  // time_point::max(): no SIGKILL due (a plain value: GCC 12 took an optional here for one
  // that may be read uninitialized).
  auto killAt = std::chrono::steady_clock::time_point::max();
  const auto nameTheCause = [&] {
    const auto it = std::find_if(failures.begin(), failures.end(), [&](const auto& f) { return causeFirst(f.second); });
    const auto& [rank, status] = it != failures.end() ? *it : failures.front();
    result = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    // Which rank and how: the survivors only say that a peer went away.
    firstFailure = "rank " + std::to_string(rank) +
                   (WIFSIGNALED(status) ? " was killed by signal " + std::to_string(WTERMSIG(status)) + " (" +
                                              strsignal(WTERMSIG(status)) + ")"
                                        : " exited with status " + std::to_string(result));
    if (!gForward) std::fprintf(stderr, "lipschitz-cli: %s; stopping the other ranks\n", firstFailure.c_str());
    // One rank failed: the others would wait for it until their collective timeout.
    stopOthers(SIGTERM);
    killAt = std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                     std::chrono::duration<double>(graceSeconds));
  };
  while (running > 0) {
    if (gForward) {
      stopOthers(SIGTERM);  // rank 0 stops every rank after the same step
      gForward = 0;
    }
    bool reaped = false;
    for (int status = 0;;) {
      const pid_t done = ::waitpid(-1, &status, WNOHANG);
      if (done <= 0) break;
      reaped = true;
      --running;
      for (size_t r = 0; r < pids.size(); ++r) {
        if (pids[r] != done) continue;
        pids[r] = -1;
        // Stopped by the user's Ctrl-C (a rank exits kExitInterrupted after its last step): not a failure.
        const bool stopped = gInterrupted && WIFEXITED(status) && WEXITSTATUS(status) == kExitInterrupted;
        if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0) && !stopped) failures.emplace_back(static_cast<int>(r), status);
      }
    }
    if (result == 0 && !failures.empty()) {
      if (!settleUntil) settleUntil = std::chrono::steady_clock::now() + kSettle;
      const bool sure = std::any_of(failures.begin(), failures.end(), [&](const auto& f) { return causeFirst(f.second); });
      if (sure || running == 0 || std::chrono::steady_clock::now() >= *settleUntil) nameTheCause();
    }
    if (reaped) continue;
    if (std::chrono::steady_clock::now() > killAt) {
      stopOthers(SIGKILL);
      killAt = std::chrono::steady_clock::time_point::max();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  // Rank 0 writes the run folder; killed, it left "running" there for good. Say how it ended.
  if (result != 0 && !firstFailure.empty() && !runDir.empty()) {
    try {
      const auto s = run::RunDirectoryReader(runDir).status();
      if (s && s->status == run::RunStatus::Running) run::markRunEnded(runDir, run::RunStatus::Failed, firstFailure);
    } catch (const std::exception&) {  // no folder yet (it failed before creating it)
    }
  }
  return result == 0 && gInterrupted ? kExitInterrupted : result;
}

}  // namespace lwb::cli
