// The one reader of run directories (ARCHITECTURE.md "Run directory"): the app's follower,
// Compare and run manager, resume, and anything that indexes runs use it. The files may come
// from a crashed or still-running trainer, a half-finished rsync, or anywhere else, so every
// read is bounded (size caps, overflow-safe offsets into spectra.bin) and everything
// malformed is an InputError naming the file, never a crash. No LibTorch, no Qt.
#pragma once

#include "run/run_results.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace lwb::run {

// How far a reader has consumed metrics.jsonl. Opaque to callers: start from {} and pass
// back what metricsSince() returned.
struct MetricsCursor {
  uint64_t offset = 0;    // bytes consumed, whole lines only
  uint64_t lines = 0;     // lines consumed (for line numbers in messages)
  uint64_t tailHash = 0;  // hash of the last bytes consumed: tells a rewritten file apart
};

struct MetricsChunk {
  std::vector<nlohmann::json> rows;      // complete lines that are JSON objects, in file order
  std::vector<uint64_t> malformedLines;  // complete lines that are not (1-based numbers), skipped
  uint64_t lastRowLine = 0;              // line number of rows.back() (0: no rows)
  MetricsCursor next;                    // where the next call continues
  // The bytes consumed before are no longer there (truncated, or replaced by a resumed run or
  // a copy): `rows` start again from the beginning of the file.
  bool restarted = false;
  // False when maxBytes stopped the read with more complete lines to come: call again.
  bool caughtUp = true;
};

// One spectra.json entry: `count` floats at float `offset` of spectra.bin.
struct SpectraIndexEntry {
  int64_t step = 0;
  std::string name;
  uint64_t offset = 0, count = 0;
};

struct StatusRecord {
  RunStatus status = RunStatus::Running;
  std::string message;  // the status file's second line (why it diverged, stopped or failed)
};

// liveStatus()'s message for a run whose writer is gone (marked for the app's translation in
// context "RunState").
extern const char* const kInterruptedMessage;

// Whether a process holds the run folder's writer lock (RunFolderLock): Unknown where the
// file system cannot say.
enum class WriterState { Writing, None, Unknown };
WriterState runFolderWriter(const std::string& path);

struct CheckpointFile {
  int64_t step = 0;
  std::filesystem::path path;
};

class RunDirectoryReader {
 public:
  static constexpr uint64_t kMaxJsonFileBytes = uint64_t{64} << 20;   // config.json, summary.json
  // spectra.json: ~60 bytes an entry, 32 MiB is ~500 k entries (6x a 1200-snapshot GPT run);
  // parsed, a JSON value takes ~10x its text, so 256 MiB could cost gigabytes.
  static constexpr uint64_t kMaxIndexBytes = uint64_t{32} << 20;
  static constexpr uint64_t kMaxStatusBytes = 4096;                   // status
  // One spectrum is the singular values of one weight matrix: min(rows, cols) values, at most
  // 65536 in range (the widest layer); 2^20 leaves 16x room. All entries together are capped
  // at 2^26 floats (256 MiB of spectra.bin; ~1200 snapshots of a 12-block d=768 GPT): a plot
  // cannot show more, and an index claiming 2^30 floats beside a sparse 4 GiB spectra.bin
  // must not cost gigabytes.
  static constexpr uint64_t kMaxSpectrumValues = uint64_t{1} << 20;
  static constexpr uint64_t kMaxSpectraValues = uint64_t{1} << 26;
  static constexpr uint64_t kMetricsChunkBytes = uint64_t{8} << 20;   // metricsSince's default

  // A folder with config.json or metrics.jsonl. The writer creates metrics.jsonl before
  // anything else, so a run that is still being set up counts too.
  static bool isRunDirectory(const std::filesystem::path& dir);

  // Touches nothing yet. Every read throws InputError("<dir>: no such run directory") once
  // the folder is gone.
  explicit RunDirectoryReader(std::filesystem::path dir);
  const std::filesystem::path& path() const { return dir_; }

  // config.json / summary.json: nullopt while absent; InputError when too large or not a
  // JSON object (a copy in progress reads as malformed: callers that poll retry).
  std::optional<nlohmann::json> config() const;
  std::optional<RunSummary> summary() const;
  // The status file; nullopt while absent or empty. A first line that is no status word
  // reads as Failed, with a message saying so when the file has none.
  std::optional<StatusRecord> status() const;
  // status(), except that "running" with no process writing the folder (the writer was
  // killed or crashed: its lock went with it, RunFolderLock) reads as Failed with a message
  // saying so; what the app, Compare and the index show. Where the lock cannot be probed
  // (a file system without flock on folders) "running" stays.
  std::optional<StatusRecord> liveStatus() const;

  // metrics.jsonl from `from` on, at most maxBytes of it: every complete line; a torn last
  // line (no newline yet) is left for the next call. A line longer than maxBytes is skipped
  // as malformed once its newline arrives. A missing file reads as empty.
  MetricsChunk metricsSince(const MetricsCursor& from, uint64_t maxBytes = kMetricsChunkBytes) const;
  // The whole file, as resume and Compare need it: a torn or malformed last line is
  // ignored, but a malformed line followed by a row is an InputError naming its number.
  std::vector<nlohmann::json> metrics() const;

  // spectra.json, every entry checked and checked to lie inside spectra.bin (empty when the
  // run has no spectra yet); `binFloats` receives spectra.bin's size in whole floats. With
  // `atMostStep`, entries of later steps are left out unchecked (a resume keeps only those up
  // to its checkpoint: later ones may point past a spectra.bin cut short).
  std::vector<SpectraIndexEntry> spectraIndex(uint64_t* binFloats = nullptr, std::optional<int64_t> atMostStep = std::nullopt) const;
  // Snapshots of steps after `afterStep`, oldest first (`after` only; a step written twice:
  // the later entry wins). InputError while the index points past spectra.bin (a copy in
  // progress, or a hostile index).
  std::vector<SpectraRecord> spectraSince(int64_t afterStep) const;

  // checkpoints/step_N.safetensors, oldest first (by N, not by name).
  std::vector<CheckpointFile> checkpoints() const;
  std::optional<std::filesystem::path> newestCheckpoint() const;

 private:
  std::filesystem::path file(const char* name) const { return dir_ / name; }
  void requireDirectory() const;

  std::filesystem::path dir_;
};

// step_N.safetensors files of a checkpoints folder (RUN_DIR/checkpoints), oldest first;
// none when the folder is absent, InputError when it is there but cannot be listed.
std::vector<CheckpointFile> listCheckpoints(const std::filesystem::path& checkpointsDir);

// A checkpoint is listed, ordered and pruned by the N of its name; a file whose own step
// (its __metadata__) is another (renamed, or copied in from elsewhere) was taken for the run's
// newest. InputError naming both for such a file; nothing for a name that is not step_N.
void checkStepMatchesName(const std::filesystem::path& file, int64_t step);

}  // namespace lwb::run
