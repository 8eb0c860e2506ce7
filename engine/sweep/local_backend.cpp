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

SweepOutcome runLocal(SweepDirectory& dir, const std::vector<SweepPoint>& points, const SweepOptions& options,
                      const SweepEvents& events, const std::atomic<bool>& stop) {
  SweepIndex index = openSweepIndex(dir, options, events);
  index.sync(points);
  const SweepPlan plan = planSweep(dir, points, options.retryFailed);
  const int cores = options.cores > 0 ? options.cores : availableCores();
  const int jobs = std::max(1, options.jobs > 0 ? options.jobs : cores);
  // A point of N processes shares its run's cores between them.
  const int threads = std::max(1, threadsPerRun(jobs, cores) / std::max(1, options.ntasks));

  SweepOutcome out;
  out.total = static_cast<int>(points.size());
  out.done = plan.done;
  out.failed = plan.failedKept;
  std::map<pid_t, Child> running;
  size_t next = 0;
  std::vector<double> durations;
  bool stopSent = false;
  Clock::time_point stopAt{}, lastProgress{};

  const auto report = [&] {
    if (!events.progress) return;
    SweepProgress pr;
    pr.total = out.total;
    pr.done = out.done;
    pr.failed = out.failed;
    pr.stopped = out.stopped;
    pr.running = static_cast<int>(running.size());
    pr.pending = static_cast<int>(plan.toRun.size() - next);
    for (auto& [pid, c] : running) {
      try {  // the child may not have created its folder yet
        const auto chunk = run::RunDirectoryReader(dir.runDir(c.point.id)).metricsSince(c.cursor);
        c.cursor = chunk.next;
        if (chunk.restarted) c.step = 0;
        if (!chunk.rows.empty()) c.step = chunk.rows.back().value("step", c.step);
      } catch (const std::exception&) {
      }
      pr.active.push_back({c.point.id, run::RunStatus::Running, c.step, c.point.config.value("steps", int64_t{0})});
    }
    // ETA: the mean duration of the points finished so far, spread over the parallel slots;
    // before the first one ends, the running points' own pace.
    const double left = static_cast<double>(pr.pending + pr.running);
    if (!durations.empty()) {
      double mean = 0;
      for (double d : durations) mean += d / static_cast<double>(durations.size());
      pr.etaSeconds = mean * left / jobs;
    } else {
      for (const auto& [pid, c] : running) {
        const double total = static_cast<double>(c.point.config.value("steps", int64_t{0}));
        if (c.step > 0 && total > 0)
          pr.etaSeconds = std::max(pr.etaSeconds, seconds(Clock::now() - c.started) * total / c.step * left / jobs);
      }
    }
    events.progress(pr);
  };

  while (!running.empty() || (!stop.load() && next < plan.toRun.size())) {
    if (stop.load() && !stopSent) {
      for (const auto& [pid, c] : running) kill(pid, SIGTERM);
      stopSent = true;
      stopAt = Clock::now();
      out.interrupted = true;
    }
    // A child that ignores SIGTERM for 30 s (stuck in a long step) is killed.
    if (stopSent && seconds(Clock::now() - stopAt) > 30)
      for (const auto& [pid, c] : running) kill(pid, SIGKILL);
    while (!stopSent && static_cast<int>(running.size()) < jobs && next < plan.toRun.size()) {
      const SweepPoint& p = plan.toRun[next++];
      if (const run::RunStatus was = dir.status(p.id); was != run::RunStatus::Pending) {
        if (events.note) events.note("restarting " + p.id + " (" + run::toString(was) + ")");
        dir.retire(p.id);
      }
      std::vector<std::string> argv = {options.cli.string(), "--threads", std::to_string(threads), "train",
                                       "--config", dir.configFile(p.id).string(), "--out", dir.runDir(p.id).string()};
      if (options.ntasks > 1) argv.insert(argv.end(), {"--nproc", std::to_string(options.ntasks)});
      try {
        running[spawnLogged(argv, dir.logFile(p.id))] = {p, Clock::now(), {}, 0};
      } catch (const std::exception& e) {
        ++out.failed;
        if (events.pointEnded) events.pointEnded(p, run::RunStatus::Failed, e.what());
      }
    }
    bool ended = false;
    for (auto it = running.begin(); it != running.end();) {
      int status = 0;
      const pid_t r = waitpid(it->first, &status, WNOHANG);
      if (r == 0 || (r < 0 && errno == EINTR)) {
        ++it;
        continue;
      }
      const Child c = it->second;
      it = running.erase(it);
      ended = true;
      auto [endedAs, message] = endedStatus(dir, c.point, status);
      const bool wroteFolder = run::RunDirectoryReader::isRunDirectory(dir.runDir(c.point.id));
      // Stopped before it wrote anything: still to run, not a failure.
      if (stopSent && endedAs == run::RunStatus::Failed && !wroteFolder) endedAs = run::RunStatus::Stopped;
      if (run::info(endedAs).hasResult) {
        ++out.done;
        durations.push_back(seconds(Clock::now() - c.started));
      } else if (endedAs == run::RunStatus::Stopped) {
        ++out.stopped;
      } else {
        ++out.failed;
      }
      if (endedAs == run::RunStatus::Failed && wroteFolder) {
        // Killed while running (SIGKILL, the OOM killer): its status file says "running" for
        // good; say what happened, on disk and so in the index (issue 33).
        try {
          const auto s = run::RunDirectoryReader(dir.runDir(c.point.id)).status();
          if (!s || s->status == run::RunStatus::Running || (s->status == run::RunStatus::Failed && s->message.empty()))
            run::markRunEnded(dir.runDir(c.point.id).string(), run::RunStatus::Failed, message);
        } catch (const std::exception&) {
        }
      } else if (endedAs == run::RunStatus::Failed) {
        // It never wrote its folder: write one that says why, so the point reads as failed
        // (and is kept unless --retry-failed), in the index as on disk.
        try {
          run::RunDirectory failed(dir.runDir(c.point.id).string());
          failed.writeConfig(c.point.config);
          failed.setStatus(run::RunStatus::Failed, message);
        } catch (const std::exception&) {
        }
      }
      index.sync({c.point});
      if (events.pointEnded) events.pointEnded(c.point, endedAs, message);
    }
    if (ended || seconds(Clock::now() - lastProgress) >= options.pollSeconds) {
      if (!ended) {  // the running points' latest figures, for Compare and the Sweeps page
        std::vector<SweepPoint> active;
        for (const auto& [pid, c] : running) active.push_back(c.point);
        index.sync(active);
      }
      report();
      lastProgress = Clock::now();
    }
    if (!running.empty() || next < plan.toRun.size()) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  out.interrupted = out.interrupted || stop.load();
  out.pending = out.total - out.done - out.failed - out.stopped;
  report();
  out.indexCurrent = finishSweepIndex(index, dir, options, events, stop);
  return out;
}

}  // namespace lwb::sweep
