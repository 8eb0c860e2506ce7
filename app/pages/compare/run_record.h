// One finished (or running) run directory as the Compare page needs it: the settings that
// tell runs apart (method and its parameters, optimizer), the final figures (summary.json,
// else the last logged values) and every logged metric as a series over steps. Plain values
// read with nlohmann-json; no LibTorch.
#pragma once

#include <QString>
#include <QStringList>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace lwb::app::pages {

struct MetricSeries {
  std::vector<double> steps, values;
};

// How far a TensorBoard event file has been read (Compare follows them live).
struct TfFileState {
  uint64_t offset = 0;   // bytes of complete records consumed
  bool writing = false;  // the last record was cut short: the writer is at it
};

struct RunRecord {
  QString dir;
  QString name;  // the folder's name
  QString status, statusMessage;
  QString method, parameters, optimizer, model, task;
  std::optional<double> sigmaMax;
  std::optional<double> valLoss, valAcc, lipschitzBound, maxActEntry, maxActRms, stepsPerSecond;
  // Task chars: 000's validation window and the full split (run_results.h); absent for runs
  // read from a run index, which has no columns for them.
  std::optional<double> valLossPaper, valLossFull;
  // The one-block masked LM's attention (model.attention: attlip | l2 | standard | none; empty
  // for other models) and what the end of the run measured of it (summary.json, issue 26): the
  // certificate of the evaluated forward, its PGD estimate and bound, and how much of the
  // prox's movement is made of other tokens.
  QString attention, attentionCertificate;
  std::optional<double> attentionPgd, attentionBound, attentionMixing, attentionSelf;
  long long steps = 0;
  std::map<QString, MetricSeries> series;  // "val_loss", "train_loss", "rms_norms.layers.0", ...
  nlohmann::json config = nlohmann::json::object();  // config.json (colour by any key, seed groups)
  // False for runs read from a run index: their curves are read from the folder on demand.
  bool seriesLoaded = true;
  // TensorBoard runs: every event file read so far and where its reading stopped.
  bool tensorBoard = false;
  std::map<QString, TfFileState> tfFiles;
};



// The Method and Optimizer columns in the user's words: the registries' titles ("spectral soft
// cap", "Muon") and numbers in the locale's form ("Muon, η 0,3, λ 0"). `method` and
// `optimizer` keep the ids (the table's filter reads both, the CSV the ids).
QString methodText(const RunRecord& r);
QString optimizerText(const RunRecord& r);

// Reads RUN_DIR. Throws InputError naming the folder when it is not a run directory (no
// config.json and no metrics.jsonl) or a file in it is malformed.
RunRecord loadRunRecord(const QString& dir);

// Every row of a run index file (sweep/run_index.h) as records without curves: thousands of
// runs in one query instead of a read of every folder. InputError for an unusable file.
std::vector<RunRecord> loadIndexRecords(const QString& indexFile);

// A dotted config key's value as text ("" when absent), numbers in the C locale.
QString configValue(const RunRecord& r, const QString& dottedKey);
// The same value as the user reads it (Compare's "colour by" legend): numbers in the locale's
// form ("0,3" in German).
QString configValueText(const RunRecord& r, const QString& dottedKey);
// The config without its seed (and without what only tells runs apart by where they were
// written): runs that differ only by seed share it.
QString seedGroupKey(const RunRecord& r);

// TensorBoard (issue 29 §3): an events.out.tfevents.* file, or a folder (not a run directory)
// holding such files directly.
bool isTensorBoardRun(const QString& path);
// Every scalar of the folder's event files (or the one file) as series under Compare's keys
// (io::compareKeyForTag); status "running" while a last record is cut short. Skipped records
// (CRC mismatch, unreadable event) add one line each to `warnings`. InputError for a
// directory named like an event file, an unreadable file, or nothing readable at all.
RunRecord loadTensorBoardRecord(const QString& path, QStringList* warnings);
// Follows a TensorBoard run as Compare follows run directories: reads only the records
// appended to its files since `r` was read (a new event file in the folder from its start; a
// file now shorter than what was read: the whole run again), a torn last record meaning
// "still being written". True when anything changed. InputError as loadTensorBoardRecord.
bool followTensorBoardRecord(RunRecord& r, QStringList* warnings);

// `root` itself when it is a run directory (or a TensorBoard run), else its immediate
// subfolders that are.
QStringList findRunDirectories(const QString& root);

// The metric names of several runs, most useful first (val_loss, train_loss, val_acc, ...).
QStringList metricNames(const std::vector<RunRecord>& runs);

}  // namespace lwb::app::pages
