#include "sweep/process.h"

#include <fstream>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <system_error>

extern char** environ;

namespace fs = std::filesystem;

namespace lwb::sweep {
namespace {

std::vector<char*> cArgs(const std::vector<std::string>& argv) {
  std::vector<char*> out;
  for (const std::string& a : argv) out.push_back(const_cast<char*>(a.c_str()));
  out.push_back(nullptr);
  return out;
}

// posix_spawn leaves the parent's signal mask and handlers' dispositions: children start
// with default SIGINT/SIGTERM and nothing blocked, whatever the sweep installed.
void defaultSignals(posix_spawnattr_t& attr) {
  sigset_t all, none;
  sigemptyset(&all);
  sigaddset(&all, SIGINT);
  sigaddset(&all, SIGTERM);
  sigaddset(&all, SIGPIPE);
  sigemptyset(&none);
  posix_spawnattr_setsigdefault(&attr, &all);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
}

// posix_spawnp with default signals; the file actions are consumed. 0 or an errno value.
int spawn(const std::vector<std::string>& argv, posix_spawn_file_actions_t& fa, pid_t* pid, char** env = environ) {
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  defaultSignals(attr);
  auto args = cArgs(argv);
  const int rc = posix_spawnp(pid, args[0], &fa, &attr, args.data(), env);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  return rc;
}

}  // namespace

std::string shellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string commandLineText(const std::vector<std::string>& argv) {
  std::string line;
  for (const std::string& a : argv) {
    const bool plain = !a.empty() && a.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:@+,%") == std::string::npos;
    line += (line.empty() ? "" : " ") + (plain ? a : shellQuote(a));
  }
  return line;
}

pid_t spawnLogged(const std::vector<std::string>& argv, const fs::path& log) {
  // The log starts with what runs, so it can be read (and rerun) later: the threads, the flags.
  {
    std::ofstream head(log, std::ios::app | std::ios::binary);
    if (head) head << kCommandLinePrefix << commandLineText(argv) << '\n';
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  posix_spawn_file_actions_adddup2(&fa, STDOUT_FILENO, STDERR_FILENO);
  // The environment plus kDieWithParentEnv=<our pid>.
  const std::string mark = std::string(kDieWithParentEnv) + "=" + std::to_string(getpid());
  std::vector<char*> env;
  for (char** e = environ; e && *e; ++e)
    if (std::strncmp(*e, kDieWithParentEnv, std::strlen(kDieWithParentEnv)) != 0) env.push_back(*e);
  env.push_back(const_cast<char*>(mark.c_str()));
  env.push_back(nullptr);
  pid_t pid = 0;
  const int rc = spawn(argv, fa, &pid, env.data());
  if (rc != 0) throw std::runtime_error("cannot start " + argv[0] + ": " + std::strerror(rc));
  return pid;
}

CommandResult runCommand(const std::vector<std::string>& argv, double timeoutSeconds) {
  CommandResult r;
  int outPipe[2], errPipe[2];
  if (pipe2(outPipe, O_CLOEXEC) != 0) return r;
  if (pipe2(errPipe, O_CLOEXEC) != 0) {
    close(outPipe[0]);
    close(outPipe[1]);
    return r;
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, outPipe[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&fa, errPipe[1], STDERR_FILENO);
  pid_t pid = 0;
  const int rc = spawn(argv, fa, &pid);
  close(outPipe[1]);
  close(errPipe[1]);
  if (rc != 0) {
    close(outPipe[0]);
    close(errPipe[0]);
    r.err = "cannot start " + argv[0] + ": " + std::strerror(rc);
    return r;
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeoutSeconds);
  pollfd fds[2] = {{outPipe[0], POLLIN, 0}, {errPipe[0], POLLIN, 0}};
  int open = 2;
  bool killed = false;
  while (open > 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      kill(pid, SIGKILL);
      killed = true;
      break;
    }
    if (poll(fds, 2, static_cast<int>(std::min<int64_t>(left.count(), 1000))) < 0 && errno != EINTR) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char buf[4096];
      const ssize_t n = read(fds[i].fd, buf, sizeof buf);
      if (n > 0) {
        (i == 0 ? r.out : r.err).append(buf, static_cast<size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open;
      }
    }
  }
  for (const pollfd& f : fds)
    if (f.fd >= 0) close(f.fd);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  r.exitCode = !killed && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (killed) r.err += "\n(killed after " + std::to_string(static_cast<int>(timeoutSeconds)) + " s)";
  return r;
}

void dieWithParentIfAsked() {
  const char* parent = std::getenv(kDieWithParentEnv);
  if (!parent || !*parent) return;
  prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (std::to_string(getppid()) != parent) raise(SIGTERM);  // it died before prctl
}

bool inPath(const std::string& name) {
  const char* path = std::getenv("PATH");
  if (!path) return false;
  std::string p = path;
  for (size_t start = 0; start <= p.size();) {
    const size_t colon = std::min(p.find(':', start), p.size());
    const fs::path candidate = fs::path(p.substr(start, colon - start)) / name;
    if (access(candidate.c_str(), X_OK) == 0) return true;
    start = colon + 1;
  }
  return false;
}

fs::path selfExecutable() {
  std::error_code ec;
  fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : p;
}

}  // namespace lwb::sweep
