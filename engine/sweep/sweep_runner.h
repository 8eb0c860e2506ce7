// Running a sweep: the points still to run (finished and diverged points are results and
// are skipped; interrupted ones run again; failed ones with retryFailed), on the local
// machine (N child `lipschitz-cli train` processes) or as one Slurm job array. Progress is
// reported through callbacks; the run index is kept current throughout. No LibTorch, no Qt.
#pragma once

#include "sweep/sweep_directory.h"
#include "sweep/sweep_index.h"

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace lwb::sweep {

enum class Backend { Local, Slurm };

struct SweepOptions {
  Backend backend = Backend::Local;
  int jobs = 0;            // local: runs at a time (0: one per core); slurm: the array's %limit (0: none)
  int cores = 0;           // local: cores to share (0: what this process may use)
  // Processes per point (issue 28): local runs `train --nproc N`; Slurm gives each array task
  // N tasks (#SBATCH --ntasks=N) and starts them with srun, one step, not N array elements.
  int ntasks = 1;
  // local: each run's --threads; 0: the cores shared out (threadsPerRun). A count the user
  // pinned (lipschitz-cli --threads N, $LWB_THREADS) is passed on as it is.
  int threads = 0;
  bool retryFailed = false;
  std::vector<std::string> slurmArgs;  // each one an "#SBATCH <arg>" line, e.g. --partition=gpu
  bool detach = false;     // slurm: submit and return without watching
  std::filesystem::path cli;  // the lipschitz-cli that trains each point (absolute)
  double pollSeconds = 1.0;
  // The run index while another process holds its write lock (issue 33): one write waits up to
  // indexTryWaitSeconds and is then queued while the sweep goes on; once every run has ended the
  // sweep waits up to indexWaitSeconds for the lock.
  double indexTryWaitSeconds = 1.0;
  double indexWaitSeconds = 600.0;
};

struct PointProgress {
  std::string id;
  run::RunStatus status = run::RunStatus::Running;
  int64_t step = 0, steps = 0;
};

struct SweepProgress {
  int total = 0;         // points in the sweep
  int done = 0;          // finished or diverged (this invocation and before)
  int running = 0, failed = 0, stopped = 0, pending = 0;
  double etaSeconds = -1;  // -1: not known yet
  std::vector<PointProgress> active;  // the running points
};

struct SweepEvents {
  std::function<void(const SweepProgress&)> progress;
  std::function<void(const SweepPoint&, run::RunStatus status, const std::string& message)> pointEnded;
  std::function<void(const std::string&)> note;  // "submitted Slurm job 12", "restarting 0003 (stopped)"
};

struct SweepOutcome {
  int total = 0, done = 0, failed = 0, stopped = 0, pending = 0;
  int running = 0;  // Slurm with --detach: points whose task is still queued or running
  bool interrupted = false;  // stop was requested
  std::string slurmJob;      // the submitted array (Slurm)
  bool indexCurrent = true;  // false: the run index stayed locked and lacks some rows
};

// The sweep's index writes as options say (sweep_index.h); finish() reports a queue left unwritten.
SweepIndex openSweepIndex(const SweepDirectory& dir, const SweepOptions& options, const SweepEvents& events);
bool finishSweepIndex(SweepIndex& index, const SweepDirectory& dir, const SweepOptions& options,
                      const SweepEvents& events, const std::atomic<bool>& stop);

// Runs per process for `jobs` runs on `cores` cores, so jobs × threads ≤ cores.
int threadsPerRun(int jobs, int cores);
int availableCores();

// How a local sweep runs its points: `jobs` at a time, each training process with `threads`
// intra-op threads (options.threads when set, else the cores shared out over jobs × ntasks).
struct LocalLayout {
  int jobs = 1, threads = 1;
};
LocalLayout localLayout(const SweepOptions& options);

// Which points this invocation runs (in point order), and the counts of the rest.
struct SweepPlan {
  std::vector<SweepPoint> toRun;
  int done = 0, failedKept = 0;
};
SweepPlan planSweep(const SweepDirectory& dir, const std::vector<SweepPoint>& points, bool retryFailed);

// Runs the plan with `jobs` child processes; `stop` (set from a signal handler) stops every
// child with SIGTERM (their status becomes `stopped`) and starts no more.
SweepOutcome runLocal(SweepDirectory& dir, const std::vector<SweepPoint>& points, const SweepOptions& options,
                      const SweepEvents& events, const std::atomic<bool>& stop);

// The batch script of one job array over `ids` (what --dry-run prints).
std::string slurmBatchScript(const SweepDirectory& dir, const std::vector<std::string>& ids,
                             const SweepOptions& options);
// Submits the plan as one job array and, unless detach, watches squeue/sacct until every task
// ended, reflecting the scheduler state in the index; `stop` cancels the array (scancel).
SweepOutcome runSlurm(SweepDirectory& dir, const std::vector<SweepPoint>& points, const SweepOptions& options,
                      const SweepEvents& events, const std::atomic<bool>& stop);

}  // namespace lwb::sweep
