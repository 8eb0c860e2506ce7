// The run directory of ARCHITECTURE.md, written by the engine and read by the app:
//   config.json, metrics.jsonl (append-only, flushed per line; a torn last line is ignored
//   on read), spectra.bin + spectra.json index, summary.json, status.
#pragma once

#include "io/file_io.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace lwb::run {

enum class RunStatus { Running, Finished, Diverged, Stopped, Failed };
const char* toString(RunStatus s);

class RunDirectory {
 public:
  // Creates the folder (and parents). Throws InputError if it exists and is not empty
  // (nothing is ever overwritten) or cannot be created.
  explicit RunDirectory(const std::string& path);
  // Reopens an existing run directory to continue it after `step` (resume): metrics rows and
  // spectra snapshots of later steps (written after the checkpoint, before the crash or stop)
  // are dropped so the continued record equals an uninterrupted run's. InputError when the
  // folder is not a run directory.
  struct ContinueAfter {
    int64_t step;
  };
  RunDirectory(const std::string& path, ContinueAfter resume);
  const std::string& path() const { return path_; }

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
  std::ofstream metrics_;
  std::ofstream spectraBin_;
  uint64_t spectraBytes_ = 0;
  nlohmann::json spectraIndex_ = nlohmann::json::array();
};

// Reading side (app, tests, resume): metrics rows, skipping a torn last line.
std::vector<nlohmann::json> readMetrics(const std::string& runDir);
// One spectra.json entry: `count` floats at float `offset` of spectra.bin.
struct SpectraIndexEntry {
  int64_t step = 0;
  std::string name;
  uint64_t offset = 0, count = 0;
};
// spectra.json, every entry checked and checked to lie inside spectra.bin (empty when the
// run has no spectra yet); `binFloats` receives spectra.bin's size in whole floats.
std::vector<SpectraIndexEntry> readSpectraIndex(const std::string& runDir, uint64_t* binFloats = nullptr);
// Spectra snapshots: step -> name -> singular values.
std::map<int64_t, std::map<std::string, std::vector<float>>> readSpectra(const std::string& runDir);

// Run files are written like checkpoints (temporary file, fsync, rename, directory fsync),
// so readers never see a torn file: one writer for both, io::writeFileAtomically.
using io::writeFileAtomically;

}  // namespace lwb::run
