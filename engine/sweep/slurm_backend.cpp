// The Slurm backend: one job array (sbatch --array=0-<n-1>%<jobs>) whose task i trains point
// ids[i] with `lipschitz-cli train`; squeue (and sacct where accounting is on) tell the
// scheduler state, which goes into the index next to what the run directories say.
// slurm/jobs.json records every submitted array and its ids, so a re-run never submits a
// point whose task is still queued or running.
#include "sweep/sweep_runner.h"

#include "io/json_read.h"
#include "io/input_error.h"
#include "run/run_directory_reader.h"
#include "run/run_layout.h"
#include "sweep/process.h"

#include <chrono>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <thread>
#include <vector>

namespace fs = std::filesystem;
using nlohmann::json;

namespace lwb::sweep {
namespace {

// sbatch's complaint in one line (the CLI prints errors on one): "sbatch: error: … / sbatch:
// fatal: Could not establish a configuration source" (the fatal line is the reason; it was cut).
std::string oneLine(const std::string& text) {
  std::string out, line;
  std::istringstream lines(text);
  while (std::getline(lines, line)) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (!line.empty()) out += (out.empty() ? "" : " / ") + line;
  }
  return out;
}

json readJobs(const SweepDirectory& dir) {
  std::error_code ec;
  const fs::path file = dir.slurmDir() / "jobs.json";
  if (!fs::is_regular_file(file, ec)) return json::array();
  try {
    json j = jsonio::readFile(file.string());
    return j.is_array() ? j : json::array();
  } catch (const InputError&) {
    return json::array();  // a torn or foreign jobs.json: the jobs are found again via squeue
  }
}

void writeJobs(const SweepDirectory& dir, const json& jobs) {
  const fs::path file = dir.slurmDir() / "jobs.json", tmp = file.string() + ".tmp";
  std::ofstream(tmp) << jobs.dump(1) << "\n";
  fs::rename(tmp, file);
}

// "12_3" -> state for every task of `job` squeue still lists (pending, running, completing).
// A pending array shows as one line "12_[0-4%2]": expanded over `taskCount`. nullopt when
// squeue could not answer (a controller restarting): nothing may be concluded from silence.
std::optional<std::map<std::string, std::string>> squeueStates(const std::string& job, size_t taskCount) {
  std::map<std::string, std::string> out;
  const auto r = runCommand({"squeue", "-h", "-r", "-j", job, "-o", "%i|%T"}, 30);
  if (r.exitCode != 0) {
    // A job id the controller has forgotten is an error for squeue: nothing queued.
    if ((r.err + r.out).find("Invalid job id") != std::string::npos) return out;
    return std::nullopt;
  }
  std::istringstream lines(r.out);
  std::string line;
  while (std::getline(lines, line)) {
    const auto bar = line.find('|');
    if (bar == std::string::npos) continue;
    const std::string id = line.substr(0, bar), state = line.substr(bar + 1);
    if (id.find('[') != std::string::npos) {
      for (size_t i = 0; i < taskCount; ++i) out.emplace(job + "_" + std::to_string(i), state);
    } else {
      out[id] = state;
    }
  }
  return out;
}

// Final states from accounting (COMPLETED, FAILED, CANCELLED, TIMEOUT, OUT_OF_MEMORY, …);
// empty where accounting is off (sacct then fails, which is fine).
std::map<std::string, std::string> sacctStates(const std::string& job) {
  std::map<std::string, std::string> out;
  if (!inPath("sacct")) return out;
  const auto r = runCommand({"sacct", "-n", "-P", "-X", "-j", job, "-o", "JobID,State"}, 30);
  if (r.exitCode != 0) return out;
  std::istringstream lines(r.out);
  std::string line;
  while (std::getline(lines, line)) {
    const auto bar = line.find('|');
    if (bar == std::string::npos) continue;
    std::string state = line.substr(bar + 1);
    state = state.substr(0, state.find(' '));  // "CANCELLED by 0"
    out[line.substr(0, bar)] = state;
  }
  return out;
}

// Array task ids of a Slurm id list such as "0-2", "1,3%1" or "4": the ranges expanded, the
// "%N" throttle dropped; nothing for a malformed list.
std::vector<size_t> expandTaskIds(std::string list) {
  list = list.substr(0, list.find('%'));
  std::vector<size_t> out;
  std::istringstream parts(list);
  std::string part;
  while (std::getline(parts, part, ',')) {
    const auto dash = part.find('-');
    // Whole numbers only: "1-7:2" (a step) or a list cut short ("83...") is no list we know.
    const auto number = [](const std::string& text) -> std::optional<size_t> {
      if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos || text.size() > 9) return std::nullopt;
      return std::stoul(text);
    };
    const auto first = number(part.substr(0, dash));
    const auto last = dash == std::string::npos ? first : number(part.substr(dash + 1));
    if (!first || !last || *last < *first || *last - *first > 100000) return {};
    for (size_t i = *first; i <= *last; ++i) out.push_back(i);
  }
  return out;
}

// The controller's own records ("12_3" -> JobState), which it keeps for MinJobAge (300 s by
// default) after a job ends: where accounting is off, this is what tells a task cancelled
// while pending (CANCELLED) from one that ran. A pending task cancelled on its own leaves no
// record (Slurm drops it from the array's bitmap), so silence here proves nothing.
std::map<std::string, std::string> scontrolStates(const std::string& job) {
  std::map<std::string, std::string> out;
  // SLURM_BITSTR_LEN=0: the whole task list (scontrol cuts long ones to 64 characters and "...").
  const auto r = runCommand({"env", "SLURM_BITSTR_LEN=0", "scontrol", "-o", "show", "job", job}, 30);
  if (r.exitCode != 0) return out;
  std::istringstream lines(r.out);
  std::string line;
  while (std::getline(lines, line)) {
    std::map<std::string, std::string> field;
    std::istringstream words(line);
    std::string word;
    while (words >> word)
      if (const auto eq = word.find('='); eq != std::string::npos) field.emplace(word.substr(0, eq), word.substr(eq + 1));
    if (field["ArrayJobId"] != job || field["JobState"].empty()) continue;
    for (const size_t i : expandTaskIds(field["ArrayTaskId"])) out[job + "_" + std::to_string(i)] = field["JobState"];
  }
  return out;
}

void requireSlurm() {
  for (const char* tool : {"sbatch", "squeue", "scancel"})
    if (!inPath(tool))
      throw InputError(std::string("--backend slurm: `") + tool + "` is not in PATH (install slurm-client, or use --backend local)");
}

}  // namespace

std::string slurmBatchScript(const SweepDirectory& dir, const std::vector<std::string>& ids, const SweepOptions& options) {
  for (const std::string& a : options.slurmArgs)
    if (a.empty() || a[0] != '-' || a.find_first_of("\n\r") != std::string::npos) {
      // Shown on one line: a newline in the argument (an injected #SBATCH line) is written \n.
      std::string shown;
      for (char c : a) shown += c == '\n' ? std::string("\\n") : c == '\r' ? std::string("\\r") : std::string(1, c);
      throw InputError("--slurm-arg '" + shown + "': expected one sbatch option such as --partition=gpu or --time=01:00:00" +
                       (shown != a ? " (no line breaks)" : ""));
    }
  // Absolute: sbatch resolves --output from where it is called, and the saved script may be
  // submitted again from anywhere.
  const fs::path root = fs::absolute(dir.path()).lexically_normal();
  std::ostringstream s;
  s << "#!/bin/bash\n"
    << "# Lipschitz Workbench sweep " << root.string() << ": " << ids.size() << " points, one array task each\n"
    << "#SBATCH --job-name=lwb-sweep\n"
    << "#SBATCH --array=0-" << (ids.empty() ? 0 : ids.size() - 1);
  if (options.jobs > 0) s << "%" << options.jobs;
  s << "\n#SBATCH --output=" << (root / run::layout::kSweepLogsDir / "slurm-%A_%a.out").string() << "\n"
    << "#SBATCH --cpus-per-task=1\n";
  if (options.ntasks > 1) s << "#SBATCH --ntasks=" << options.ntasks << "\n";
  for (const std::string& a : options.slurmArgs) s << "#SBATCH " << a << "\n";  // later lines win
  s << "set -eu\n"
    << "ids=(";
  for (size_t i = 0; i < ids.size(); ++i) s << (i ? " " : "") << ids[i];
  s << ")\n"
    << "id=${ids[$SLURM_ARRAY_TASK_ID]}\n"
    << "sweep=" << shellQuote(root.string()) << "\n"
    << "exec >>\"$sweep/logs/$id.log\" 2>&1\n"
    << "echo \"slurm job ${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID} on $(hostname)\"\n"
    // With several tasks srun starts one rank per task; each reads SLURM_PROCID (engine/dist).
    // An interrupted point left in place with its checkpoints is resumed, not started over.
    << "if [ -d \"$sweep/runs/$id/checkpoints\" ]; then\n"
    << "  exec " << (options.ntasks > 1 ? "srun " : "") << shellQuote(options.cli.string())
    << " --threads \"${SLURM_CPUS_PER_TASK:-1}\" train --resume \"$sweep/runs/$id\"\n"
    << "fi\n"
    << "exec " << (options.ntasks > 1 ? "srun " : "") << shellQuote(options.cli.string())
    << " --threads \"${SLURM_CPUS_PER_TASK:-1}\" train"
    << " --config \"$sweep/configs/$id.json\" --out \"$sweep/runs/$id\"\n";
  return s.str();
}

namespace {

// runSlurm's state and its named steps: find what earlier arrays still hold, submit one
// array for the rest, then poll every array until none has tasks queued (or at once with
// --detach), cancelling them on a stop request; like Trainer::run.
class SlurmScheduler {
 public:
  SlurmScheduler(SweepDirectory& dir, const std::vector<SweepPoint>& points, const SweepOptions& options,
                 const SweepEvents& events, const std::atomic<bool>& stop)
      : dir_(dir), points_(points), options_(options), events_(events), stop_(stop),
        index_(openSweepIndex(dir, options, events)), jobs_(readJobs(dir)) {
    index_.sync(points);
    for (const SweepPoint& p : points) byId_[p.id] = &p;
    out_.total = static_cast<int>(points.size());
    for (const json& j : jobs_) noteLatest(j);
  }

  SweepOutcome run() {
    out_.slurmJob = submit(pointsToSubmit());
    while (true) {
      const bool anyQueued = poll();
      if (options_.detach || !anyQueued) break;
      if (stop_.load() && !cancelled_) cancelAll();
      std::this_thread::sleep_for(std::chrono::duration<double>(options_.pollSeconds));
    }
    for (const SweepPoint& p : points_) {
      // Started and neither kept (a result) nor failed nor still with Slurm (--detach):
      // stopped, or stale "running".
      const run::RunStatus s = dir_.status(p.id);
      if (queued_.count(p.id)) ++out_.running;
      else if (s != run::RunStatus::Pending && !run::info(s).hasResult && s != run::RunStatus::Failed) ++out_.stopped;
    }
    out_.pending = out_.total - out_.done - out_.failed - out_.stopped - out_.running;
    out_.indexCurrent = finishSweepIndex(index_, dir_, options_, events_, stop_);
    return out_;
  }

 private:
  // The points to run, less those whose task of an earlier submission is still queued or
  // running (they stay with it).
  std::vector<SweepPoint> pointsToSubmit() {
    std::set<std::string> inFlight;
    for (const json& j : jobs_) {
      const std::string job = j.value("job", std::string());
      const json ids = j.value("ids", json::array());
      for (const auto& [task, state] : squeueStates(job, ids.size()).value_or(std::map<std::string, std::string>{})) {
        const size_t i = std::stoul(task.substr(task.find('_') + 1));
        if (i < ids.size()) inFlight.insert(ids[i].get<std::string>());
      }
    }
    std::vector<SweepPoint> toRun;
    for (const SweepPoint& p : planSweep(dir_, points_, options_.retryFailed).toRun)
      if (!inFlight.count(p.id)) toRun.push_back(p);
    if (!inFlight.empty() && events_.note)
      events_.note(std::to_string(inFlight.size()) + " points are still queued or running in Slurm: not submitted again");
    return toRun;
  }

  // One job array for these points; its id ("" when there is nothing to submit).
  std::string submit(const std::vector<SweepPoint>& toRun) {
    std::vector<std::string> ids;
    for (const SweepPoint& p : toRun) {
      // Interrupted with a checkpoint: left in place, and the task resumes it (the script
      // resumes a runs/<id> that holds checkpoints/).
      if (dir_.status(p.id) != run::RunStatus::Pending && dir_.resumableStep(p.id) == 0) dir_.retire(p.id);
      ids.push_back(p.id);
    }
    if (ids.empty()) return {};
    std::error_code ec;
    fs::create_directories(dir_.slurmDir(), ec);
    const fs::path script = dir_.slurmDir() / ("array-" + std::to_string(jobs_.size() + 1) + ".sbatch");
    std::ofstream(script) << slurmBatchScript(dir_, ids, options_);
    const auto r = runCommand({"sbatch", "--parsable", script.string()}, 60);
    if (r.exitCode != 0) throw std::runtime_error("sbatch refused the job array: " + oneLine(r.err.empty() ? r.out : r.err));
    const std::string job = r.out.substr(0, r.out.find_first_of(";\n"));
    jobs_.push_back({{"job", job}, {"ids", ids}, {"script", script.string()}});
    writeJobs(dir_, jobs_);
    noteLatest(jobs_.back());
    for (size_t i = 0; i < ids.size(); ++i)
      index_.setSchedulerState(indexPath(dir_.runDir(ids[i])), job + "_" + std::to_string(i), "PENDING");
    if (events_.note) events_.note("submitted Slurm job array " + job + " (" + std::to_string(ids.size()) + " tasks)");
    return job;
  }

  // One look at every array (this one and earlier ones still in flight): scheduler states
  // into the index, progress out; true while any task is still queued or running.
  bool poll() {
    SweepProgress pr;
    pr.total = out_.total;
    bool anyQueued = false;
    queued_.clear();
    for (const json& j : jobs_) anyQueued = pollArray(j, pr) || anyQueued;
    index_.sync(points_);
    for (const SweepPoint& p : points_) {
      const run::RunStatus s = dir_.status(p.id);
      if (run::info(s).hasResult) ++pr.done;
      else if (s == run::RunStatus::Failed) ++pr.failed;
    }
    // A task that has written its result and is still completing is done, not running too
    // (the counts once read "1/1 done, 1 running, -1 pending").
    std::erase_if(pr.active, [this](const PointProgress& a) {
      const run::RunStatus s = dir_.status(a.id);
      return run::info(s).hasResult || s == run::RunStatus::Failed;
    });
    for (PointProgress& a : pr.active) {
      try {
        const auto rows = run::RunDirectoryReader(dir_.runDir(a.id)).metricsSince({}).rows;
        if (!rows.empty()) a.step = rows.back().value("step", int64_t{0});
      } catch (const std::exception&) {  // not created yet
      }
      a.steps = byId_.count(a.id) ? byId_[a.id]->config.value("steps", int64_t{0}) : 0;
    }
    pr.running = static_cast<int>(pr.active.size());
    pr.pending = pr.total - pr.done - pr.failed - pr.running;
    pr.etaSeconds = etaSeconds(pr.pending + pr.running, pr.running);
    if (events_.progress) events_.progress(pr);
    out_.done = pr.done;
    out_.failed = pr.failed;
    return anyQueued;
  }

  bool pollArray(const json& j, SweepProgress& pr) {
    const std::string jid = j.value("job", std::string());
    const json jids = j.value("ids", json::array());
    const auto answer = squeueStates(jid, jids.size());
    if (!answer) {
      // No answer this time: every task of the array counts as still queued.
      for (size_t i = 0; i < jids.size(); ++i)
        if (const std::string id = jids[i].get<std::string>(); latest_[id] == jid + "_" + std::to_string(i)) queued_.insert(id);
      return true;
    }
    const auto& queued = *answer;
    auto accounted = queued.size() < jids.size() ? sacctStates(jid) : std::map<std::string, std::string>{};
    if (queued.size() + accounted.size() < jids.size())
      for (const auto& [task, state] : scontrolStates(jid)) accounted.emplace(task, state);  // sacct's answer first
    bool anyQueued = false;
    for (size_t i = 0; i < jids.size(); ++i) {
      const std::string task = jid + "_" + std::to_string(i), id = jids[i].get<std::string>();
      std::string state;
      if (const auto q = queued.find(task); q != queued.end()) {
        state = q->second;
        anyQueued = true;
        if (latest_[id] == task) queued_.insert(id);
      } else if (const auto a = accounted.find(task); a != accounted.end()) {
        state = a->second;
      } else {
        state = "ENDED";  // left the queue; accounting is off or has not caught up
      }
      if (lastState_[task] != state) {
        lastState_[task] = state;
        index_.setSchedulerState(indexPath(dir_.runDir(id)), task, state);
      }
      if (!queued.count(task)) recordEndWithoutResult(id, task, state);
      if (state == "RUNNING") pr.active.push_back({id, run::RunStatus::Running, 0, 0});
    }
    return anyQueued;
  }

  // As the local backend: the mean wall time of the points finished so far (their summaries'
  // `seconds`), spread over the array's slots (--jobs, else the tasks running now); -1 (shown
  // as "?") until one has finished. It was always "?" on Slurm.
  double etaSeconds(int left, int running) {
    for (const SweepPoint& p : points_) {
      if (seconds_.count(p.id) || !run::info(dir_.status(p.id)).hasResult) continue;
      try {
        if (const auto s = run::RunDirectoryReader(dir_.runDir(p.id)).summary(); s && s->seconds > 0) seconds_[p.id] = s->seconds;
      } catch (const std::exception&) {
      }
    }
    if (seconds_.empty()) return -1;
    double mean = 0;
    for (const auto& [id, s] : seconds_) mean += s / static_cast<double>(seconds_.size());
    const double slots = options_.jobs > 0 ? options_.jobs : std::max(1, running);
    return mean * left / slots;
  }

  // The newest task of each point: only it speaks for the point (an earlier array's task of a
  // point submitted again has ended, and says nothing about the new one).
  void noteLatest(const json& j) {
    const std::string job = j.value("job", std::string());
    const json ids = j.value("ids", json::array());
    for (size_t i = 0; i < ids.size(); ++i)
      if (ids[i].is_string()) latest_[ids[i].get<std::string>()] = job + "_" + std::to_string(i);
  }

  // A task that left the queue having started (its log has the script's first line) and left
  // no result: failed, with its log's last line — a missing data folder, a module not found
  // on the node, a lost node. Before, such a point stayed "pending" and the sweep exited 0.
  // A task cancelled before it started stays pending (a re-run submits it again), and the
  // sweep says so: before, the point just stayed pending with the state ENDED.
  void recordEndWithoutResult(const std::string& id, const std::string& task, const std::string& state) {
    if (latest_[id] != task || ended_.count(task)) return;
    const run::RunStatus s = dir_.status(id);
    if (s != run::RunStatus::Pending && s != run::RunStatus::Running) {
      ended_.insert(task);
      return;
    }
    if (!dir_.logMentions(id, "slurm job " + task + " ")) {
      // A task that ran (COMPLETED, FAILED…) but whose log line a slow shared file system has
      // not shown yet is looked at again on the next poll; only a cancelled or unknown end
      // is taken for one before the start.
      if (state != "CANCELLED" && state != "ENDED") return;
      ended_.insert(task);
      if (s == run::RunStatus::Pending && events_.note)
        events_.note("point " + id + ": Slurm task " + task + " left the queue before it started (" + state +
                     "); the point stays pending, and running the sweep again submits it");
      return;
    }
    ended_.insert(task);
    const std::string last = dir_.lastLogLine(id);
    const auto it = byId_.find(id);
    if (it == byId_.end()) return;
    dir_.recordFailure(*it->second, "Slurm task " + task + " ended (" + state + ") without a result" +
                                        (last.empty() ? std::string() : ": " + last));
    if (events_.pointEnded) events_.pointEnded(*it->second, run::RunStatus::Failed, last);
  }

  void cancelAll() {
    for (const json& j : jobs_) runCommand({"scancel", j.value("job", std::string())}, 30);
    cancelled_ = true;
    out_.interrupted = true;
    if (events_.note) events_.note("cancelled the Slurm job arrays (scancel)");
  }

  SweepDirectory& dir_;
  const std::vector<SweepPoint>& points_;
  const SweepOptions& options_;
  const SweepEvents& events_;
  const std::atomic<bool>& stop_;
  SweepIndex index_;
  json jobs_;
  std::map<std::string, const SweepPoint*> byId_;
  std::map<std::string, std::string> lastState_;
  std::map<std::string, std::string> latest_;  // point id -> its newest task ("12_3")
  std::set<std::string> queued_;                // points whose newest task Slurm still holds
  std::set<std::string> ended_;                 // tasks already looked at once they left the queue
  std::map<std::string, double> seconds_;       // finished points' wall time, for the ETA
  SweepOutcome out_;
  bool cancelled_ = false;
};

}  // namespace

SweepOutcome runSlurm(SweepDirectory& dir, const std::vector<SweepPoint>& points, const SweepOptions& options,
                      const SweepEvents& events, const std::atomic<bool>& stop) {
  requireSlurm();
  return SlurmScheduler(dir, points, options, events, stop).run();
}

}  // namespace lwb::sweep
