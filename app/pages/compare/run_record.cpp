#include "app/pages/compare/run_record.h"

#include "common/json_read.h"
#include "io/input_error.h"
#include "run/run_directory_reader.h"
#include "spectral/constraint_methods.h"
#include "sweep/run_index.h"

#include <QDir>
#include <QFileInfo>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace lwb::app::pages {
namespace {

using nlohmann::json;

std::optional<double> finite(const json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return std::nullopt;
  const double v = it->get<double>();
  return std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
}

QString str(const json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return {};
  return it->is_string() ? QString::fromStdString(it->get<std::string>()) : QString::fromStdString(it->dump());
}

const json& member(const json& j, const char* key) {
  static const json empty = json::object();
  const auto it = j.is_object() ? j.find(key) : j.end();
  return it != j.end() && it->is_object() ? *it : empty;
}

// "σmax = 2, α = auto": the settings the configured method reads (the method registry's
// flags; a resolved config lists every key, most of them irrelevant to the method); the norm
// only when it is not rms. An unknown method (another version) lists every threshold.
QString describeParameters(const json& c) {
  const std::string id = c.contains("method") && c["method"].is_string() ? c["method"].get<std::string>() : "";
  const auto method = spectral::parseConstraintMethod(id);
  static const char* const shown[] = {"sigma_min", "sigma_max", "alpha", "lambda", "impl"};
  QStringList parts;
  bool any = false;
  for (const char* key : shown) {
    if (method && !spectral::readsSetting(*method, key)) continue;
    if (method && std::string_view(key) == "lambda" && spectral::traits(*method).lambdaFromOptimizer) continue;
    any = true;
    if (c.contains(key)) parts << QStringLiteral("%1 = %2").arg(QString::fromStdString(spectral::settingLabel(key)), str(c, key));
  }
  if (c.contains("norm") && str(c, "norm") != QLatin1String("rms") && any) parts << QStringLiteral("norm = %1").arg(str(c, "norm"));
  return parts.join(QStringLiteral(", "));
}

void addPoint(RunRecord& r, const QString& name, double step, const json& value) {
  if (!value.is_number()) return;
  MetricSeries& s = r.series[name];
  s.steps.push_back(step);
  s.values.push_back(value.get<double>());
}

void describeConfig(RunRecord& r, const json& config) {
  r.config = config;
  const json& c = member(config, "constraint");
  r.method = str(c, "method");
  r.sigmaMax = finite(c, "sigma_max");
  r.parameters = describeParameters(c);
  const json& o = member(config, "optimizer");
  r.optimizer = str(o, "kind");
  if (o.contains("lr")) r.optimizer += QStringLiteral(" lr %1").arg(str(o, "lr"));
  if (o.contains("weight_decay")) r.optimizer += QStringLiteral(" wd %1").arg(str(o, "weight_decay"));
  r.model = str(member(config, "model"), "kind");
  r.task = str(config, "task");
}

std::optional<double> finiteValue(double v) { return std::isfinite(v) ? std::optional<double>(v) : std::nullopt; }

}  // namespace

std::vector<RunRecord> loadIndexRecords(const QString& indexFile) {
  sweep::RunIndex index(indexFile.toStdString(), sweep::RunIndex::Access::ReadOnly);  // only read here
  std::vector<RunRecord> out;
  for (const sweep::IndexRow& row : index.rows()) {
    if (row.status == sweep::kPendingStatus) continue;  // a sweep point that has not run yet
    RunRecord r;
    r.dir = QString::fromStdString(row.path);
    r.name = QString::fromStdString(row.id);
    r.status = QString::fromStdString(row.status);
    r.statusMessage = QString::fromStdString(row.message);
    const auto config = jsonio::tryParse(row.config);
    describeConfig(r, config && config->is_object() ? *config : json::object());
    if (r.method.isEmpty()) r.method = QStringLiteral("none");
    r.valLoss = finiteValue(row.valLoss);
    r.valAcc = finiteValue(row.valAcc);
    r.lipschitzBound = finiteValue(row.lipschitzBound);
    r.maxActEntry = finiteValue(row.maxActEntry);
    r.stepsPerSecond = finiteValue(row.stepsPerSecond);
    // The index has no max_act_rms column; an ended run's summary.json has it (issue 32: the
    // column was empty for every sweep). A run folder gone or unreadable leaves it empty.
    try {
      if (const auto summary = run::RunDirectoryReader(row.path).summary()) r.maxActRms = finiteValue(summary->maxActRms);
    } catch (const std::exception&) {
    }
    r.steps = row.stepDone > 0 ? row.stepDone : row.steps;
    r.seriesLoaded = false;
    out.push_back(std::move(r));
  }
  return out;
}

QString configValue(const RunRecord& r, const QString& dottedKey) {
  const json* node = &r.config;
  for (const QString& part : dottedKey.split(QLatin1Char('.'))) {
    if (!node->is_object()) return {};
    const auto it = node->find(part.toStdString());
    if (it == node->end()) return {};
    node = &*it;
  }
  return node->is_string() ? QString::fromStdString(node->get<std::string>()) : QString::fromStdString(node->dump());
}

QString seedGroupKey(const RunRecord& r) {
  json c = r.config;
  if (c.is_object()) {
    c.erase("seed");
    c.erase("data_path");  // the same data, possibly reached through another path
  }
  return QString::fromStdString(c.dump());
}

RunRecord loadRunRecord(const QString& dir) {
  const QFileInfo info(dir);
  if (!info.isDir()) throw InputError(dir.toStdString() + ": not a folder");
  const std::string path = dir.toStdString();
  if (!run::RunDirectoryReader::isRunDirectory(path))
    throw InputError(path + ": not a run directory (no config.json or metrics.jsonl)");
  const run::RunDirectoryReader reader(path);
  RunRecord r;
  r.dir = info.absoluteFilePath();
  r.name = info.fileName();
  if (const auto config = reader.config()) describeConfig(r, *config);
  if (r.method.isEmpty()) r.method = QStringLiteral("none");

  // Every key of every row becomes a series, also keys this version does not know.
  for (const json& row : reader.metrics()) {
    const auto step = row.find("step");
    if (step == row.end() || !step->is_number()) continue;
    const double s = step->get<double>();
    r.steps = std::max(r.steps, static_cast<long long>(s));
    for (const auto& [key, value] : row.items()) {
      if (key == "step") continue;
      if (key == "rms_norms" && value.is_object())
        for (const auto& [layer, v] : value.items()) addPoint(r, QStringLiteral("rms_norms.") + QString::fromStdString(layer), s, v);
      else addPoint(r, QString::fromStdString(key), s, value);
    }
  }
  // Final figures: summary.json of an ended run, else the last logged value of each.
  const std::optional<run::RunSummary> summary = reader.summary();
  const auto last = [&](const char* key) -> std::optional<double> {
    const auto it = r.series.find(QString::fromLatin1(key));
    if (it == r.series.end()) return std::nullopt;
    for (auto v = it->second.values.rbegin(); v != it->second.values.rend(); ++v)
      if (std::isfinite(*v)) return *v;
    return std::nullopt;
  };
  const auto pick = [&](double run::RunSummary::*field, const char* key) -> std::optional<double> {
    if (summary && std::isfinite((*summary).*field)) return (*summary).*field;
    return last(key);
  };
  r.valLoss = pick(&run::RunSummary::valLoss, "val_loss");
  r.valAcc = pick(&run::RunSummary::valAcc, "val_acc");
  r.lipschitzBound = pick(&run::RunSummary::lipschitzBound, "lipschitz_bound");
  r.maxActEntry = pick(&run::RunSummary::maxActEntry, "max_act_entry");
  r.maxActRms = pick(&run::RunSummary::maxActRms, "max_act_rms");
  r.stepsPerSecond = pick(&run::RunSummary::stepsPerSecond, "steps_per_s");
  const auto pickOptional = [&](std::optional<double> run::RunSummary::*field, const char* key) -> std::optional<double> {
    if (summary && ((*summary).*field).has_value() && std::isfinite(*((*summary).*field))) return (*summary).*field;
    return last(key);
  };
  r.valLossPaper = pickOptional(&run::RunSummary::valLossPaper, "val_loss_paper");
  r.valLossFull = pickOptional(&run::RunSummary::valLossFull, "val_loss_full");
  if (summary && summary->steps > 0) r.steps = summary->steps;

  if (const auto status = reader.status()) {
    r.status = QString::fromLatin1(run::toString(status->status));
    r.statusMessage = QString::fromStdString(status->message);
  } else {
    r.status = summary ? QString::fromLatin1(run::toString(summary->status)) : QString::fromLatin1(QT_TRANSLATE_NOOP("RunState", "unknown"));
  }
  return r;
}

QStringList findRunDirectories(const QString& root) {
  const auto isRunDirectory = [](const QString& dir) { return run::RunDirectoryReader::isRunDirectory(dir.toStdString()); };
  if (isRunDirectory(root)) return {QFileInfo(root).absoluteFilePath()};
  QStringList out;
  const QDir d(root);
  for (const QFileInfo& sub : d.entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
    if (isRunDirectory(sub.absoluteFilePath())) out << sub.absoluteFilePath();
  return out;
}

QStringList metricNames(const std::vector<RunRecord>& runs) {
  std::set<QString> all;
  for (const auto& r : runs)
    for (const auto& [name, s] : r.series) all.insert(name);
  QStringList out;
  for (const char* first : {"val_loss", "val_loss_paper", "train_loss", "val_acc", "train_acc", "lipschitz_bound", "max_act_entry", "max_act_rms", "steps_per_s", "lr", "alpha"})
    if (all.erase(QString::fromLatin1(first))) out << QString::fromLatin1(first);
  for (const QString& rest : all) out << rest;
  return out;
}

}  // namespace lwb::app::pages
