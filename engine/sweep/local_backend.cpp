// The local backend: N `lipschitz-cli train` children at a time, each with its share of the
// cores, its output in logs/<id>.log, its run directory in runs/<id>.
#include "sweep/sweep_runner.h"

#include "run/run_directory.h"
#include "run/run_directory_reader.h"
#include "sweep/process.h"

#include <sched.h>
#include <signal.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <thread>

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace lwb::sweep {
namespace {

struct Child {
  SweepPoint point;
  Clock::time_point started;
  run::MetricsCursor cursor;
  int64_t step = 0;
};

double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

// The point's status once its process ended: its run directory's, or failed with the log's
// last line when it never wrote one (a config the trainer refused, a missing dataset).
// "killed by signal 9 (Killed)", "exit 1": how a child ended, for messages that would
// otherwise be empty (a child killed before it wrote a status or a log line).
std::string describeWait(int waitStatus) {
  if (WIFSIGNALED(waitStatus)) {
    const int sig = WTERMSIG(waitStatus);
    const char* name = strsignal(sig);
    return "killed by signal " + std::to_string(sig) + (name ? " (" + std::string(name) + ")" : std::string()) +
           (sig == SIGKILL ? ", e.g. out of memory" : "");
  }
  return "exit " + std::to_string(WEXITSTATUS(waitStatus));
}

std::pair<run::RunStatus, std::string> endedStatus(const SweepDirectory& dir, const SweepPoint& p, int waitStatus) {
  using run::RunStatus;
  try {
    if (const auto s = run::RunDirectoryReader(dir.runDir(p.id)).status()) {
      // Killed hard (SIGKILL, out of memory) while running: it will never update the file.
      if (s->status == RunStatus::Running)
        return {RunStatus::Failed, "the process ended while running (" + describeWait(waitStatus) + ")"};
      if (s->status == RunStatus::Failed && s->message.empty()) return {RunStatus::Failed, describeWait(waitStatus)};
      return {s->status, s->message};
    }
  } catch (const std::exception&) {
  }
  const std::string last = dir.lastLogLine(p.id);
  return {RunStatus::Failed, last.empty() ? describeWait(waitStatus) : last};
}

}  // namespace

int availableCores() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
  return std::max(1u, std::thread::hardware_concurrency());
}

namespace {
std::chrono::milliseconds millis(double seconds) {
  return std::chrono::milliseconds(static_cast<int64_t>(std::clamp(seconds, 0.0, 1e7) * 1000));
}
}  // namespace

SweepIndex openSweepIndex(const SweepDirectory& dir, const SweepOptions& options, const SweepEvents& events) {
  return SweepIndex(dir, millis(options.indexTryWaitSeconds), events.note);
}

bool finishSweepIndex(SweepIndex& index, const SweepDirectory& dir, const SweepOptions& options,
                      const SweepEvents& events, const std::atomic<bool>& stop) {
  if (index.finish(millis(options.indexWaitSeconds), stop)) return true;
  if (events.note)
    events.note(dir.indexFile().string() + ": still locked by another process, so it lacks this sweep's latest "
                "rows; every run is on disk: update it with `lipschitz-cli index " + dir.path().string() +
                " --db " + dir.indexFile().string() + "`");
  return false;
}

int threadsPerRun(int jobs, int cores) { return std::max(1, cores / std::max(1, jobs)); }

LocalLayout localLayout(const SweepOptions& options) {
  const int cores = options.cores > 0 ? options.cores : availableCores();
  LocalLayout l;
  l.jobs = std::max(1, options.jobs > 0 ? options.jobs : cores);
  // A point of N processes shares its run's cores between them.
  l.threads = options.threads > 0 ? options.threads : std::max(1, threadsPerRun(l.jobs, cores) / std::max(1, options.ntasks));
  return l;
}

SweepPlan planSweep(const SweepDirectory& dir, const std::vector<SweepPoint>& points, bool retryFailed) {
  SweepPlan plan;
  for (const SweepPoint& p : points) {
    const run::RunStatus s = dir.status(p.id);
    if (run::info(s).hasResult) ++plan.done;
    else if (s == run::RunStatus::Failed && !retryFailed) ++plan.failedKept;
    else plan.toRun.push_back(p);
  }
  return plan;
}

namespace {

// runLocal's state and its named steps, in the order one pass of the loop takes them: pass
// on a stop request, start points while slots are free, collect the children that ended,
// report progress; like Trainer::run.
class LocalScheduler {
 public:
  LocalScheduler(SweepDirectory& dir, const std::vector<SweepPoint>& points, const SweepOptions& options,
                 const SweepEvents& events, const std::atomic<bool>& stop)
      : dir_(dir), options_(options), events_(events), stop_(stop), index_(openSweepIndex(dir, options, events)) {
    index_.sync(points);
    plan_ = planSweep(dir, points, options.retryFailed);
    const LocalLayout layout = localLayout(options);
    jobs_ = layout.jobs;
    threads_ = layout.threads;
    out_.total = static_cast<int>(points.size());
    out_.done = plan_.done;
    out_.failed = plan_.failedKept;
  }

  SweepOutcome run() {
    while (!running_.empty() || (!stop_.load() && next_ < plan_.toRun.size())) {
      passOnStop();
      startReadyPoints();
      const bool ended = collectEnded();
      if (ended || seconds(Clock::now() - lastProgress_) >= options_.pollSeconds) {
        if (!ended) syncRunning();
        report();
        lastProgress_ = Clock::now();
      }
      if (!running_.empty() || next_ < plan_.toRun.size()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    out_.interrupted = out_.interrupted || stop_.load();
    out_.pending = out_.total - out_.done - out_.failed - out_.stopped;
    report();
    out_.indexCurrent = finishSweepIndex(index_, dir_, options_, events_, stop_);
    return out_;
  }

 private:
  // SIGTERM to every child once; a child that ignores it for 30 s (stuck in a long step) is killed.
  void passOnStop() {
    if (stop_.load() && !stopSent_) {
      for (const auto& [pid, c] : running_) kill(pid, SIGTERM);
      stopSent_ = true;
      stopAt_ = Clock::now();
      out_.interrupted = true;
    }
    if (stopSent_ && seconds(Clock::now() - stopAt_) > 30)
      for (const auto& [pid, c] : running_) kill(pid, SIGKILL);
  }

  void startReadyPoints() {
    while (!stopSent_ && static_cast<int>(running_.size()) < jobs_ && next_ < plan_.toRun.size()) {
      const SweepPoint& p = plan_.toRun[next_++];
      std::vector<std::string> argv = {options_.cli.string(), "--threads", std::to_string(threads_), "train"};
      if (const int64_t step = dir_.resumableStep(p.id); step > 0) {
        // Interrupted with a checkpoint: continued, not started over.
        if (events_.note) events_.note("resuming " + p.id + " from its checkpoint at step " + std::to_string(step));
        argv.insert(argv.end(), {"--resume", dir_.runDir(p.id).string()});
      } else {
        if (const run::RunStatus was = dir_.status(p.id); was != run::RunStatus::Pending) {
          if (events_.note) events_.note("restarting " + p.id + " (" + run::toString(was) + ")");
          dir_.retire(p.id);
        }
        argv.insert(argv.end(), {"--config", dir_.configFile(p.id).string(), "--out", dir_.runDir(p.id).string()});
      }
      if (options_.ntasks > 1) argv.insert(argv.end(), {"--nproc", std::to_string(options_.ntasks)});
      try {
        running_[spawnLogged(argv, dir_.logFile(p.id))] = {p, Clock::now(), {}, 0};
      } catch (const std::exception& e) {
        ++out_.failed;
        if (events_.pointEnded) events_.pointEnded(p, run::RunStatus::Failed, e.what());
      }
    }
  }

  // Reaps the children that ended; true when any did.
  bool collectEnded() {
    bool ended = false;
    for (auto it = running_.begin(); it != running_.end();) {
      int status = 0;
      const pid_t r = waitpid(it->first, &status, WNOHANG);
      if (r == 0 || (r < 0 && errno == EINTR)) {
        ++it;
        continue;
      }
      const Child c = it->second;
      it = running_.erase(it);
      ended = true;
      recordEnd(c, status);
    }
    return ended;
  }

  void recordEnd(const Child& c, int waitStatus) {
    auto [endedAs, message] = endedStatus(dir_, c.point, waitStatus);
    const bool wroteFolder = run::RunDirectoryReader::isRunDirectory(dir_.runDir(c.point.id));
    // Stopped before it wrote anything: still to run, not a failure.
    if (stopSent_ && endedAs == run::RunStatus::Failed && !wroteFolder) endedAs = run::RunStatus::Stopped;
    if (run::info(endedAs).hasResult) {
      ++out_.done;
      durations_.push_back(seconds(Clock::now() - c.started));
    } else if (endedAs == run::RunStatus::Stopped) {
      ++out_.stopped;
    } else {
      ++out_.failed;
    }
    if (endedAs == run::RunStatus::Failed) dir_.recordFailure(c.point, message);
    index_.sync({c.point});
    if (events_.pointEnded) events_.pointEnded(c.point, endedAs, message);
  }

  // The running points' latest figures, for Compare and the Sweeps page.
  void syncRunning() {
    std::vector<SweepPoint> active;
    for (const auto& [pid, c] : running_) active.push_back(c.point);
    index_.sync(active);
  }

  void report() {
    if (!events_.progress) return;
    SweepProgress pr;
    pr.total = out_.total;
    pr.done = out_.done;
    pr.failed = out_.failed;
    pr.stopped = out_.stopped;
    pr.running = static_cast<int>(running_.size());
    pr.pending = static_cast<int>(plan_.toRun.size() - next_);
    for (auto& [pid, c] : running_) {
      readStep(c);
      pr.active.push_back({c.point.id, run::RunStatus::Running, c.step, c.point.config.value("steps", int64_t{0})});
    }
    pr.etaSeconds = etaSeconds(static_cast<double>(pr.pending + pr.running));
    events_.progress(pr);
  }

  void readStep(Child& c) const {
    try {  // the child may not have created its folder yet
      const auto chunk = run::RunDirectoryReader(dir_.runDir(c.point.id)).metricsSince(c.cursor);
      c.cursor = chunk.next;
      if (chunk.restarted) c.step = 0;
      if (!chunk.rows.empty()) c.step = chunk.rows.back().value("step", c.step);
    } catch (const std::exception&) {
    }
  }

  // The mean duration of the points finished so far, spread over the parallel slots; before
  // the first one ends, the running points' own pace; -1 while nothing is known.
  double etaSeconds(double left) const {
    double eta = -1;
    if (!durations_.empty()) {
      double mean = 0;
      for (double d : durations_) mean += d / static_cast<double>(durations_.size());
      return mean * left / jobs_;
    }
    for (const auto& [pid, c] : running_) {
      const double total = static_cast<double>(c.point.config.value("steps", int64_t{0}));
      if (c.step > 0 && total > 0) eta = std::max(eta, seconds(Clock::now() - c.started) * total / c.step * left / jobs_);
    }
    return eta;
  }

  SweepDirectory& dir_;
  const SweepOptions& options_;
  const SweepEvents& events_;
  const std::atomic<bool>& stop_;
  SweepIndex index_;
  SweepPlan plan_;
  int jobs_ = 1, threads_ = 1;
  SweepOutcome out_;
  std::map<pid_t, Child> running_;
  size_t next_ = 0;
  std::vector<double> durations_;
  bool stopSent_ = false;
  Clock::time_point stopAt_{}, lastProgress_{};
};

}  // namespace

SweepOutcome runLocal(SweepDirectory& dir, const std::vector<SweepPoint>& points, const SweepOptions& options,
                      const SweepEvents& events, const std::atomic<bool>& stop) {
  return LocalScheduler(dir, points, options, events, stop).run();
}

}  // namespace lwb::sweep
