// lipschitz-cli sweep --spec SWEEP.json --out SWEEP_DIR: expands the spec, then runs what is
// left of it (finished points are skipped, interrupted ones restarted, failed ones with
// --retry-failed) locally or as one Slurm job array, keeping SWEEP_DIR/index.sqlite
// current. Ctrl-C stops every run cleanly (status `stopped`; a Slurm array is cancelled).
#include "cli/cli_support.h"
#include "cli/commands.h"
#include "common/threads.h"
#include "io/input_error.h"
#include "sweep/process.h"
#include "sweep/sweep_runner.h"

#include <CLI/CLI.hpp>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <memory>
#include <utility>
#include <unistd.h>

namespace lwb::cli {
namespace {

struct SweepArgs {
  std::string spec, out, backend = "local";
  int jobs = 0, ntasks = 1;
  bool dryRun = false, json = false, retryFailed = false, detach = false;
  std::vector<std::string> slurmArgs;
  double poll = 2.0;
  double indexWait = 600.0;
};

std::atomic<bool> gStop{false};
extern "C" void onSweepSignal(int) { gStop.store(true); }

std::string clock(double s) {
  if (s < 0) return "?";
  char buf[32];
  const int t = static_cast<int>(s + 0.5);
  if (t >= 3600) std::snprintf(buf, sizeof buf, "%d:%02d:%02d", t / 3600, t / 60 % 60, t % 60);
  else std::snprintf(buf, sizeof buf, "%d:%02d", t / 60, t % 60);
  return buf;
}

nlohmann::json progressJson(const sweep::SweepProgress& p) {
  nlohmann::json active = nlohmann::json::array();
  for (const auto& a : p.active) active.push_back({{"id", a.id}, {"status", run::toString(a.status)}, {"step", a.step}, {"steps", a.steps}});
  // The counts are keyed by their status words (run/run_status.h).
  using run::RunStatus;
  using run::toString;
  return {{"event", "progress"}, {"total", p.total}, {"done", p.done}, {toString(RunStatus::Running), p.running},
          {toString(RunStatus::Failed), p.failed}, {toString(RunStatus::Stopped), p.stopped},
          {toString(RunStatus::Pending), p.pending}, {"eta_s", p.etaSeconds < 0 ? nlohmann::json() : nlohmann::json(p.etaSeconds)},
          {"active", active}};
}

// "1 point", "4 points".
std::string count(std::size_t n, const char* one, const char* many) { return std::to_string(n) + " " + (n == 1 ? one : many); }

// "2 runs at a time, 1 thread each (--threads)": what a local sweep will load the machine with.
std::string layoutText(const sweep::SweepOptions& options) {
  const sweep::LocalLayout l = sweep::localLayout(options);
  std::string text = count(static_cast<std::size_t>(l.jobs), "run", "runs") + " at a time, " +
                     count(static_cast<std::size_t>(l.threads), "thread", "threads") + " each";
  if (options.ntasks > 1) text += " in each of " + std::to_string(options.ntasks) + " processes";
  text += options.threads > 0 ? " (the count you set)" : " (the cores shared out; --threads N or --jobs N to change)";
  return text;
}

// "extends the sweep in runs/x: 6 points kept, 3 new" (empty for a new or unchanged sweep).
std::string extensionNote(const sweep::SweepDirectory& dir, const sweep::SweepExtension& e) {
  if (e.kept == 0 || e.added == 0) return {};
  return "extends the sweep in " + dir.path().string() + ": its " + std::to_string(e.kept) + " points kept (ids and runs), " +
         std::to_string(e.added) + " new";
}

int printPlan(const SweepArgs& a, const sweep::SweepDirectory& dir, const std::vector<sweep::SweepPoint>& points,
              const sweep::SweepOptions& options, const sweep::SweepExtension& extension) {
  const auto plan = sweep::planSweep(dir, points, a.retryFailed);
  std::vector<std::string> ids;
  for (const auto& p : plan.toRun) ids.push_back(p.id);
  // No array for no points: an empty ids=() dies on its first line under set -u.
  const bool slurm = options.backend == sweep::Backend::Slurm;
  const std::string script = slurm && !ids.empty() ? sweep::slurmBatchScript(dir, ids, options) : "";
  if (a.json) {
    nlohmann::json j{{"event", "plan"}, {"out", dir.path().string()}, {"points", points.size()}, {"to_run", ids},
                     {"done", plan.done}, {"failed_kept", plan.failedKept}};
    nlohmann::json list = nlohmann::json::array();
    for (const auto& p : points) list.push_back({{"id", p.id}, {"assignment", p.assignment}});
    j["assignments"] = list;
    if (!script.empty()) j["batch_script"] = script;
    if (extension.kept > 0 && extension.added > 0) j["extension"] = {{"kept", extension.kept}, {"added", extension.added}};
    printJson(j);
    return 0;
  }
  if (const std::string note = extensionNote(dir, extension); !note.empty()) std::printf("%s\n", note.c_str());
  std::printf("%s, %zu to run, %d done", count(points.size(), "point", "points").c_str(), ids.size(), plan.done);
  if (plan.failedKept > 0) std::printf(", %d failed (kept; --retry-failed runs them again)", plan.failedKept);
  std::printf("\n");
  if (!slurm && !ids.empty()) std::printf("%s\n", layoutText(options).c_str());
  for (const auto& p : points) std::printf("%s  %s\n", p.id.c_str(), sweep::describe(p.assignment).c_str());
  if (!script.empty()) std::printf("\n%s", script.c_str());
  else if (slurm) std::printf("\nnothing to submit: no point is left to run\n");
  return 0;
}

int runSweep(const SweepArgs& a) {
  const auto spec = sweep::loadSweepSpec(a.spec);
  auto points = sweep::expandSweep(spec);  // renumbered by a folder that holds the sweep already
  sweep::SweepOptions options;
  options.backend = a.backend == "slurm" ? sweep::Backend::Slurm : sweep::Backend::Local;
  options.jobs = a.jobs;
  options.ntasks = a.ntasks;
  options.retryFailed = a.retryFailed;
  // A count the user chose (--threads N before the command word, $LWB_THREADS) holds for every
  // point: a sweep on a shared machine ran each point at all cores regardless.
  if (intraOpThreadsPinned()) options.threads = intraOpThreadsCeiling();
  options.slurmArgs = a.slurmArgs;
  options.detach = a.detach;
  options.cli = sweep::selfExecutable();
  options.pollSeconds = options.backend == sweep::Backend::Slurm ? a.poll : 1.0;
  options.indexWaitSeconds = a.indexWait;
  if (options.backend == sweep::Backend::Local && (!a.slurmArgs.empty() || a.detach))
    throw InputError("--slurm-arg and --detach apply to --backend slurm only");
  sweep::SweepDirectory dir(a.out);
  if (a.dryRun) {
    const auto extension = dir.check(points);  // a plan the real run would refuse is no plan
    return printPlan(a, dir, points, options, extension);
  }
  const std::string extended = extensionNote(dir, dir.prepare(spec, points));

  const bool tty = isatty(STDERR_FILENO) != 0;
  sweep::SweepEvents events;
  auto lastLine = std::chrono::steady_clock::time_point{};
  std::string lastCounts;
  events.progress = [&](const sweep::SweepProgress& p) {
    if (a.json) {
      printJson(progressJson(p));
      return;
    }
    char counts[160];
    std::snprintf(counts, sizeof counts, "sweep: %d/%d done, %d running, %d failed, %d stopped, %d pending", p.done,
                  p.total, p.running, p.failed, p.stopped, p.pending);
    const auto now = std::chrono::steady_clock::now();
    // Logs (no terminal) get a line when the counts change, else every 30 s.
    if (!tty && counts == lastCounts && now - lastLine < std::chrono::seconds(30)) return;
    lastCounts = counts;
    lastLine = now;
    // Nothing left to run (a finished sweep run again): no "ETA ?".
    const std::string eta = p.running + p.pending > 0 ? ", ETA " + clock(p.etaSeconds) : std::string();
    std::fprintf(stderr, "%s%s%s%s", tty ? "\r\033[K" : "", counts, eta.c_str(), tty ? "" : "\n");
    std::fflush(stderr);
  };
  events.pointEnded = [&](const sweep::SweepPoint& p, run::RunStatus status, const std::string& message) {
    if (a.json) {
      printJson({{"event", "point"}, {"id", p.id}, {"status", run::toString(status)}, {"message", message}});
    } else if (status != run::RunStatus::Finished) {
      std::fprintf(stderr, "%s%s %s: %s%s\n", tty ? "\r\033[K" : "", p.id.c_str(), run::toString(status),
                   sweep::describe(p.assignment).c_str(), message.empty() ? "" : (" — " + message).c_str());
    }
  };
  events.note = [&](const std::string& text) {
    if (a.json) printJson({{"event", "note"}, {"text", text}});
    else std::fprintf(stderr, "%s%s\n", tty ? "\r\033[K" : "", text.c_str());
  };

  if (!extended.empty()) events.note(extended);
  if (options.backend == sweep::Backend::Local) events.note("sweep: " + layoutText(options));

  gStop.store(false);
  std::signal(SIGINT, onSweepSignal);
  std::signal(SIGTERM, onSweepSignal);
  const auto outcome = options.backend == sweep::Backend::Slurm ? sweep::runSlurm(dir, points, options, events, gStop)
                                                                : sweep::runLocal(dir, points, options, events, gStop);
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  if (tty && !a.json) std::fprintf(stderr, "\n");
  // Absolute and normalised, the same on the first run and a resume (it was "sw1", then "/tmp/sw1").
  const auto absolute = [](const std::filesystem::path& p) { return std::filesystem::absolute(p).lexically_normal().string(); };
  nlohmann::json summary{{"event", "summary"}, {"out", absolute(dir.path())}, {"total", outcome.total},
                         {"done", outcome.done}, {run::toString(run::RunStatus::Failed), outcome.failed},
                         {run::toString(run::RunStatus::Stopped), outcome.stopped},
                         {run::toString(run::RunStatus::Pending), outcome.pending},
                         {run::toString(run::RunStatus::Running), outcome.running}, {"interrupted", outcome.interrupted},
                         {"index", absolute(dir.indexFile())}, {"index_current", outcome.indexCurrent}};
  if (!outcome.slurmJob.empty()) summary["slurm_job"] = outcome.slurmJob;
  if (a.json) {
    printJson(summary);
  } else {
    // In words (it was the JSON event on stderr); --json keeps the event.
    std::string line = "sweep: " + std::to_string(outcome.done) + " of " + std::to_string(outcome.total) + " done";
    for (const auto& [n, word] : {std::pair{outcome.failed, "failed"}, std::pair{outcome.stopped, "stopped"},
                                  std::pair{outcome.pending, "pending"}, std::pair{outcome.running, "running"}})
      if (n > 0) line += ", " + std::to_string(n) + " " + word;
    if (outcome.interrupted) line += " (interrupted: the same command resumes it)";
    if (!outcome.slurmJob.empty()) line += "; Slurm job " + outcome.slurmJob;
    line += "\n  runs in " + absolute(dir.path()) + "\n  run index " + absolute(dir.indexFile());
    if (!outcome.indexCurrent) line += " (not up to date, see above)";
    std::fprintf(stderr, "%s\n", line.c_str());
  }
  if (outcome.interrupted) return kExitInterrupted;
  return outcome.failed > 0 || !outcome.indexCurrent ? 1 : 0;
}

}  // namespace

Command addSweepCommand(CLI::App& app) {
  auto args = std::make_shared<SweepArgs>();
  auto* sub = app.add_subcommand("sweep", "run a grid of configs (local processes or a Slurm job array); resumable");
  sub->add_option("--spec", args->spec, "sweep spec (JSON): {\"base\", \"grid\", \"seeds\", \"steps\"}")->required()->check(nonEmpty());
  sub->add_option("--out", args->out, "sweep directory (created; re-running resumes it)")->required()->check(nonEmpty());
  sub->add_option("--backend", args->backend, "local (default) or slurm")->check(CLI::IsMember({"local", "slurm"}));
  sub->add_option("--jobs", args->jobs, "runs at a time (local default: one per core; slurm: the array's %limit)")
      ->transform(integerIn(1, 100000));
  sub->add_option("--ntasks", args->ntasks,
                  "processes per point (data parallel): local train --nproc N; slurm --ntasks=N and srun")
      ->transform(integerIn(1, 256));
  sub->add_flag("--dry-run", args->dryRun, "print the plan (and the Slurm batch script) and run nothing");
  sub->add_flag("--json", args->json, "print JSON events on stdout: note, progress, point, summary (--dry-run: plan)");
  sub->add_flag("--retry-failed", args->retryFailed, "run failed points again (interrupted ones always are)");
  sub->add_option("--slurm-arg", args->slurmArgs, "an sbatch option for the array, e.g. --slurm-arg=--partition=gpu (repeatable)")
      ->allow_extra_args(false);
  sub->add_flag("--detach", args->detach, "slurm: submit the array and return without watching it");
  sub->add_option("--index-wait", args->indexWait,
                  "seconds to wait at the end for a run index another process keeps locked (default 600; the "
                  "sweep runs on meanwhile)")
      ->check(numberIn(0.0, 86400.0));
  sub->add_option("--poll", args->poll, "slurm: seconds between squeue polls (default 2)")->check(numberIn(0.1, 3600.0));
  return {sub, [args] { return runSweep(*args); }};
}

}  // namespace lwb::cli
