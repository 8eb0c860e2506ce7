// A sweep directory is self-describing and resumable:
//   spec.json          the spec as written, plus the base config it resolved to
//   points.json        [{index, id, assignment}] in point order
//   configs/<id>.json  the full config of each point (what `lipschitz-cli train` gets)
//   runs/<id>/         one ordinary run directory per point (ARCHITECTURE.md "Run directory")
//   logs/<id>.log      the point's console output (local and Slurm alike)
//   attempts/<id>.<n>/ earlier attempts of a point that was restarted (never indexed)
//   slurm/             batch scripts and jobs.json (Slurm backend)
//   index.sqlite       the run index of the sweep (sweep/run_index.h)
// A point's state comes from its run directory's status file, so a sweep killed at any
// moment resumes from what is on disk. No LibTorch, no Qt.
#pragma once

#include "run/run_layout.h"
#include "run/run_status.h"
#include "sweep/run_index.h"
#include "sweep/sweep_spec.h"

#include <filesystem>
#include <string>
#include <vector>

namespace lwb::sweep {

// What prepare/check found in a folder that already holds a sweep: how many of the spec's
// points it holds (each keeps its id) and how many the spec adds after them.
struct SweepExtension {
  size_t kept = 0, added = 0;
};

class SweepDirectory {
 public:
  explicit SweepDirectory(const std::filesystem::path& dir);
  ~SweepDirectory();
  SweepDirectory(const SweepDirectory&) = delete;
  SweepDirectory& operator=(const SweepDirectory&) = delete;

  const std::filesystem::path& path() const { return dir_; }
  std::filesystem::path runDir(const std::string& id) const { return dir_ / run::layout::kSweepRunsDir / id; }
  std::filesystem::path configFile(const std::string& id) const { return dir_ / run::layout::kSweepConfigsDir / (id + ".json"); }
  std::filesystem::path logFile(const std::string& id) const { return dir_ / run::layout::kSweepLogsDir / (id + ".log"); }
  std::filesystem::path slurmDir() const { return dir_ / run::layout::kSweepSlurmDir; }
  std::filesystem::path indexFile() const { return dir_ / run::layout::kIndexFile; }

  // Takes the folder's lock (InputError when another sweep process holds it), then writes
  // the spec, points and configs. A folder that already holds a sweep keeps its numbering:
  // each of its points must be one of `points` (same assignment and config; else InputError
  // naming the first that is not: a different sweep) and keeps its id, and the spec's other
  // points (a grid extended with more values or seeds) are added after them. `points` comes
  // back in the folder's numbering.
  SweepExtension prepare(const SweepSpec& spec, std::vector<SweepPoint>& points);
  // prepare's refusals and numbering without writing anything (--dry-run): not a folder, a
  // folder that is not a sweep, a sweep with points this spec does not have.
  SweepExtension check(std::vector<SweepPoint>& points) const;

  // Pending without a run directory; else its status file's status, and Running (stale: it
  // never said it ended) where the file is missing or unreadable. A sweep never runs a point
  // with a result again (run::info(s).hasResult), a failed one only with --retry-failed, and
  // every other one again.
  run::RunStatus status(const std::string& id) const;
  // Moves runs/<id> to attempts/<id>.<n> before the point runs again.
  void retire(const std::string& id);
  // The last non-empty line of logs/<id>.log (why a run failed before writing its folder).
  std::string lastLogLine(const std::string& id) const;
  // The step of the newest checkpoint of a point that was interrupted (stopped, or "running"
  // with no process writing it), which `train --resume` continues; 0 when there is none (the
  // point starts afresh). Interrupted points once always restarted from step 0.
  int64_t resumableStep(const std::string& id) const;
  // Whether the point's log holds `text` (a Slurm task's "slurm job 12_3" start line).
  bool logMentions(const std::string& id, const std::string& text) const;
  // Point `p` ended without a result: its run folder's status says failed with `message`
  // (one written for a point that never made its folder; a folder left "running" by a killed
  // writer is marked ended; a folder that already says why is left alone). Never throws.
  void recordFailure(const SweepPoint& p, const std::string& message) const;

  // Brings the sweep's rows of `index` for these points up to date, in one transaction: a
  // row per point, "pending" until its run directory appears.
  void syncIndex(RunIndex& index, const std::vector<SweepPoint>& points) const;

  // points.json of an existing sweep directory (configs read back from configs/).
  static std::vector<SweepPoint> readPoints(const std::filesystem::path& dir);

 private:
  SweepExtension adoptNumbering(std::vector<SweepPoint>& points) const;
  std::filesystem::path dir_;
  int lockFd_ = -1;
};

}  // namespace lwb::sweep
