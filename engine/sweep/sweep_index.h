// A sweep's writes to its run index, made so that another process holding the index's write
// lock (a colleague's `lipschitz-cli index`, a sqlite3 shell left in a transaction) never stops
// the sweep (issue 33). A write that finds the lock held for `tryWait` is queued, the user is
// told once, the sweep goes on, and every later write tries the queue again; the queued rows are
// re-read from the run directories then, so nothing stale is written. finish() waits for the
// lock, telling the user while it waits, and says whether everything got written: the runs
// themselves are on disk in any case, and `lipschitz-cli index` rebuilds the rows from them.
// No LibTorch, no Qt.
#pragma once

#include "sweep/sweep_directory.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace lwb::sweep {

class SweepIndex {
 public:
  using Note = std::function<void(const std::string&)>;
  // Opens (or creates) dir's index unless it is locked; InputError for a foreign or damaged
  // file, as RunIndex. tryWait: how long one write waits for the lock before it is queued.
  SweepIndex(const SweepDirectory& dir, std::chrono::milliseconds tryWait, Note note);
  ~SweepIndex();

  // The rows of these points (RunIndex pruning of vanished rows first, once).
  void sync(const std::vector<SweepPoint>& points);
  // A Slurm task's scheduler columns, written with the next sync() (one wait, not one per task).
  void setSchedulerState(const std::string& path, const std::string& job, const std::string& state);

  // Waits up to `wait` for the lock (telling the user every 30 s, giving up early when `stop`
  // is set) to write what is queued. True when nothing is left unwritten.
  bool finish(std::chrono::milliseconds wait, const std::atomic<bool>& stop);
  bool queued() const { return !points_.empty() || !scheduler_.empty() || !pruned_; }

 private:
  bool flush(int busyMs);  // true when the queue is empty afterwards

  const SweepDirectory& dir_;
  std::chrono::milliseconds tryWait_;
  Note note_;
  std::unique_ptr<RunIndex> index_;
  bool pruned_ = false, lockReported_ = false;
  std::map<int64_t, SweepPoint> points_;  // queued, by point index
  std::map<std::string, std::pair<std::string, std::string>> scheduler_;  // path -> (job, state)
};

}  // namespace lwb::sweep
