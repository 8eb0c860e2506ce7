// One finished (or running) run directory as the Compare page needs it: the settings that
// tell runs apart (method and its parameters, optimizer), the final figures (summary.json,
// else the last logged values) and every logged metric as a series over steps. Plain values
// read with nlohmann-json; no LibTorch.
#pragma once

#include <QString>
#include <QStringList>

#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace lwb::app::pages {

struct MetricSeries {
  std::vector<double> steps, values;
};

struct RunRecord {
  QString dir;
  QString name;  // the folder's name
  QString status, statusMessage;
  QString method, parameters, optimizer, model, task;
  std::optional<double> sigmaMax;
  std::optional<double> valLoss, valAcc, lipschitzBound, maxActEntry, maxActRms, stepsPerSecond;
  long long steps = 0;
  std::map<QString, MetricSeries> series;  // "val_loss", "train_loss", "rms_norms.layers.0", ...
};

// Reads RUN_DIR. Throws InputError naming the folder when it is not a run directory (no
// config.json and no metrics.jsonl) or a file in it is malformed.
RunRecord loadRunRecord(const QString& dir);

// `root` itself when it is a run directory, else its immediate subfolders that are.
QStringList findRunDirectories(const QString& root);

// The metric names of several runs, most useful first (val_loss, train_loss, val_acc, ...).
QStringList metricNames(const std::vector<RunRecord>& runs);

}  // namespace lwb::app::pages
