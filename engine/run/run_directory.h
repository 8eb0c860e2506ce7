// The run directory of ARCHITECTURE.md, written by the engine and read by the app:
//   config.json, metrics.jsonl (append-only, flushed per line; a torn last line is ignored
//   on read), spectra.bin + spectra.json index, summary.json, status. The reading side is
//   run_directory_reader.h.
#pragma once

#include "io/file_io.h"
#include "run/run_results.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <fstream>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace lwb::run {

// An exclusive flock on the run folder itself, held while a RunDirectory writes into it: a
// second writer (`train --resume` of a run that is still training, two app windows) is
// refused instead of interleaving spectra.bin and metrics.jsonl. No lock file: the
// run-directory format stays as ARCHITECTURE.md has it, and the lock dies with the process.
class RunFolderLock {
 public:
  // InputError naming the folder when another writer holds it.
  explicit RunFolderLock(const std::string& path);
  ~RunFolderLock();
  RunFolderLock(RunFolderLock&& o) noexcept : fd_(o.fd_) { o.fd_ = -1; }
  RunFolderLock& operator=(RunFolderLock&& o) noexcept {
    std::swap(fd_, o.fd_);
    return *this;
  }
  RunFolderLock(const RunFolderLock&) = delete;
  RunFolderLock& operator=(const RunFolderLock&) = delete;

 private:
  int fd_ = -1;
};

// Sets the status file of a run folder whose writer is gone (a sweep child killed by a
// signal leaves "running" behind for good), as RunDirectory::setStatus writes it. Takes the
// folder's lock first: InputError while a writer still holds it.
void markRunEnded(const std::string& path, RunStatus s, const std::string& message);

class RunDirectory {
 public:
  // Creates the folder (and parents). Throws InputError if it exists and is not empty
  // (nothing is ever overwritten) or cannot be created.
  explicit RunDirectory(const std::string& path);
  // Both constructors take the folder's RunFolderLock before writing anything.
  // Reopens an existing run directory to continue it after `step` (resume): metrics rows and
  // spectra snapshots of later steps (written after the checkpoint, before the crash or stop)
  // are dropped so the continued record equals an uninterrupted run's. InputError when the
  // folder is not a run directory (RunDirectoryReader::isRunDirectory) or its files are
  // malformed (the reader's checks).
  struct ContinueAfter {
    int64_t step;
  };
  RunDirectory(const std::string& path, ContinueAfter resume);
  const std::string& path() const { return path_; }
  // After ContinueAfter: the largest step of a metrics row kept (-1: none). A file cut short
  // (a full disk, a copy interrupted) ends before the checkpoint; launchRun says so.
  int64_t lastMetricsStep() const { return lastMetricsStep_; }
  // After ContinueAfter: what was repaired to continue (damaged spectra set aside), one line each.
  const std::vector<std::string>& warnings() const { return warnings_; }

  void writeConfig(const nlohmann::json& resolved);      // config.json (atomic)
  void appendMetrics(const nlohmann::json& row);         // one line of metrics.jsonl, flushed
  // Appends one snapshot: for each matrix name its singular values (float32 little-endian
  // in spectra.bin); spectra.json indexes {step, name, offset, count} and is rewritten
  // atomically after each snapshot.
  void appendSpectra(int64_t step, const std::map<std::string, std::vector<float>>& spectra);
  void writeSummary(const nlohmann::json& summary);      // summary.json (atomic)
  void setStatus(RunStatus s, const std::string& message = {});  // status file (atomic)

 private:
  std::string path_;
  RunFolderLock lock_;
  std::ofstream metrics_;
  std::ofstream spectraBin_;
  uint64_t spectraBytes_ = 0;
  int64_t lastMetricsStep_ = -1;
  std::vector<std::string> warnings_;
  nlohmann::json spectraIndex_ = nlohmann::json::array();
};

// Run files are written like checkpoints (temporary file, fsync, rename, directory fsync),
// so readers never see a torn file: one writer for both, io::writeFileAtomically.
using io::writeFileAtomically;

}  // namespace lwb::run
