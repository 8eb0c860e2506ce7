// The run index: one SQLite file (the Debian libsqlite3 C API) with a row per run directory,
// so Compare opens thousands of runs with one query instead of re-reading every run's JSON,
// and sweeps, their workers and the GUI share one view of what has run. Several processes
// may read and write at once: WAL journal, one writer at a time through BEGIN IMMEDIATE with
// a busy timeout. The file carries an application id and a schema version; older versions
// are migrated forward, anything else (a foreign or corrupted file, a newer version) is an
// InputError that names the file and says how to rebuild it from the run directories.
// No LibTorch, no Qt.
#pragma once

#include "run/run_results.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

struct sqlite3;

namespace lwb::sweep {

// One row of table `runs` (ARCHITECTURE.md: id, path, status, task, model, optimizer,
// method, sigma_max, lr, seed, steps, val_loss, val_acc, lipschitz_bound, max_act_entry,
// steps_per_s, config). Numbers the run never measured are NaN (NULL in the file).
struct IndexRow {
  std::string id;    // the run folder's name (a sweep point's id)
  std::string path;  // absolute, normalised (stored relative to the index's folder when under it)
  std::string status, message;  // status: a run::RunStatus word (run/run_status.h); pending for a
                                // sweep point without a run directory yet
  std::string task, model, optimizer, method;
  double sigmaMax = run::kNotMeasured, lr = run::kNotMeasured, weightDecay = run::kNotMeasured;
  int64_t seed = 0, steps = 0;
  int64_t stepDone = 0;  // last logged step (progress of running runs)
  double valLoss = run::kNotMeasured, valAcc = run::kNotMeasured;
  double lipschitzBound = run::kNotMeasured, maxActEntry = run::kNotMeasured;
  double stepsPerSecond = run::kNotMeasured, seconds = run::kNotMeasured;
  std::string config;  // config.json as JSON text ("{}" when absent)
  std::string sweep;   // the sweep folder a point belongs to (empty for other runs)
  int64_t point = -1;  // its index in the sweep's points.json
  std::string slurmJob, schedulerState;  // "1234_5", "RUNNING" (Slurm sweeps only)
  std::string signature;  // sizes and mtimes of the files read: unchanged runs are skipped
  // Not stored: what was read as empty because its file held the wrong type (ScanReport::warnings).
  std::vector<std::string> warnings;
};

// The row a run directory gives (reads config.json, summary.json, status, metrics.jsonl
// through run::RunDirectoryReader). Throws InputError when the folder is no run directory or
// a file is malformed.
IndexRow rowFromRunDirectory(const std::filesystem::path& dir);
// The config columns (task … steps, config) of a row, from a config JSON.
void setConfigColumns(IndexRow& row, const nlohmann::json& config);
// The cheap part of that: sizes and mtimes of the files it would read.
std::string runDirectorySignature(const std::filesystem::path& dir);

// Another process held the index's write lock for the whole busy timeout. Nothing was
// written; the same write may simply be tried again later (a sweep queues it: sweep_index.h).
class IndexBusy : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct ScanReport {
  int added = 0, updated = 0, unchanged = 0, removed = 0;
  std::vector<std::string> problems;  // "<dir>: <why>" for run directories that could not be read
  std::vector<std::string> warnings;  // "<dir>: <what>" for runs indexed with some values left empty
  // Sweep folders met (points.json): their attempts/ (retired runs) are not rows, and the caller
  // fills their points' sweep and point columns (SweepDirectory::syncIndex).
  std::vector<std::string> sweeps;
};

struct IndexQuery {
  std::string sweep;     // only this sweep's rows (empty: all)
  bool withConfig = true;  // false leaves IndexRow::config empty (a faster open)
};

class RunIndex {
 public:
  static constexpr int kSchemaVersion = 2;
  static constexpr int32_t kApplicationId = 0x4C574249;  // "LWBI"
  static constexpr int kBusyTimeoutMs = 30000;

  // ReadWrite opens or creates the file and migrates it to kSchemaVersion. ReadOnly (Compare,
  // time estimates) opens an existing file without write access; only a file whose schema
  // already passed as ours and is merely older is reopened for writing to migrate it.
  // InputError for a file that is not a SQLite database, is corrupted, belongs to something
  // else (another application id, or ours on a schema our migrations did not write: views,
  // triggers, other columns) or to a newer version.
  // Opening a file that is current (our schema, our version) writes nothing and so never waits
  // for another writer; creating or migrating one does. `busyTimeoutMs`: how long every write
  // waits for the lock before it throws IndexBusy.
  enum class Access { ReadWrite, ReadOnly };
  explicit RunIndex(const std::filesystem::path& file, Access access = Access::ReadWrite,
                    int busyTimeoutMs = kBusyTimeoutMs);
  ~RunIndex();
  RunIndex(const RunIndex&) = delete;
  RunIndex& operator=(const RunIndex&) = delete;

  const std::filesystem::path& file() const { return file_; }
  void setBusyTimeout(int ms);
  // Called once per wait, a second into it, while a write waits for another process's lock
  // (`lipschitz-cli index` says so instead of sitting silent for up to the busy timeout).
  void setOnWaiting(std::function<void()> onWaiting) { onWaiting_ = std::move(onWaiting); }
  int schemaVersion() const;

  // Inserts or replaces rows (by path), all in one transaction.
  void upsert(const std::vector<IndexRow>& rows);
  void upsert(const IndexRow& row) { upsert(std::vector<IndexRow>{row}); }
  // Re-reads one run directory into its row unless its signature is unchanged; keeps the
  // sweep/point/Slurm columns of an existing row. Returns true when the row changed.
  bool refresh(const std::filesystem::path& runDir);
  // Every run directory under the roots (a root itself, or any folder below it; the walk
  // does not descend into run directories), refreshed in batches; rows under a root whose
  // folder is gone are removed.
  ScanReport scan(const std::vector<std::filesystem::path>& roots);
  // The check scan() makes of each root (InputError: no such folder, a file, unreadable), for
  // callers to make before they create an index file that a bad root would leave empty.
  static void checkScanRoot(const std::filesystem::path& root);
  // Removes rows whose run folder is gone (and pending rows of a sweep folder that is gone):
  // rows left behind by a moved or deleted folder. Returns how many. scan() and the sweep's
  // syncIndex call it.
  int pruneVanished();
  // Scheduler columns of the rows of a sweep, by point index.
  void setSchedulerState(const std::string& path, const std::string& slurmJob, const std::string& state);

  std::vector<IndexRow> rows(const IndexQuery& q = {}) const;
  std::optional<IndexRow> row(const std::string& path) const;
  int64_t count() const;

  // Deletes `file` (with its -wal and -shm) when it is unusable; a foreign SQLite database or
  // non-SQLite file is moved aside to <file>.bak instead, so nothing of someone else's is lost.
  // Returns the path it was moved to (empty when deleted or absent).
  static std::string discard(const std::filesystem::path& file);

 private:
  void exec(const char* sql) const;
  std::function<void(int)> sqliteCheck() const;  // checker() for this file and busy timeout
  void open(int flags);
  void migrate();
  std::string where(const char* what) const;  // "<file>: <what>"
  // Paths are stored relative to the index file's folder when they lie under it, so a sweep
  // folder moved or rsynced elsewhere (its index.sqlite inside) keeps its keys: no run is
  // counted twice. key(): absolute → stored form; resolve(): stored → absolute.
  std::string key(const std::string& path) const;
  std::string resolve(const std::string& stored) const;
  void relativizeLegacyRows();

  // SQLite's busy handler: sqlite3_busy_timeout's back-off, plus onWaiting_ once a second in.
  static int onBusy(void* self, int calls);

  std::filesystem::path file_;
  int busyMs_ = kBusyTimeoutMs;
  std::function<void()> onWaiting_;
  std::chrono::steady_clock::time_point waitStart_;
  bool waitReported_ = false;
  std::string base_;  // indexPath(file_.parent_path())
  sqlite3* db_ = nullptr;
};

// The normalised absolute form paths are stored in.
std::string indexPath(const std::filesystem::path& p);

}  // namespace lwb::sweep
