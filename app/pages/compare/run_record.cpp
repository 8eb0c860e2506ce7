#include "app/pages/compare/run_record.h"

#include "app/pages/common/id_combo.h"
#include "app/runs/run_types.h"
#include "widgets/number_format.h"
#include "io/json_read.h"
#include "io/input_error.h"
#include "io/tfevents.h"
#include "run/run_directory_reader.h"
#include "optim/optimizer_kinds.h"
#include "spectral/constraint_methods.h"
#include "sweep/run_index.h"

#include <QDir>
#include <QFileInfo>
#include <QObject>

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
    // Numbers in the locale's own form (5, not 5.0; 0,5 in German); labels translated.
    const auto v = c.find(key);
    if (v == c.end()) continue;
    QString value = v->is_number() ? widgets::displayNumber(v->get<double>(), 'g', 6) : str(c, key);
    if (std::string_view(key) == "impl")  // the registry's words, as the Clip Lab's form shows them
      for (const auto& impl : spectral::clipImpls())
        if (value == QLatin1String(impl.key.data(), static_cast<qsizetype>(impl.key.size()))) value = registryText(impl.title);
    parts << QStringLiteral("%1 = %2").arg(registryText(spectral::settingLabel(key)), value);
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

std::optional<double> lastFinite(const RunRecord& r, const char* key) {
  const auto it = r.series.find(QString::fromLatin1(key));
  if (it == r.series.end()) return std::nullopt;
  for (auto v = it->second.values.rbegin(); v != it->second.values.rend(); ++v)
    if (std::isfinite(*v)) return *v;
  return std::nullopt;
}

// The event files directly in `dir`, by name (TensorBoard starts a new one per restart).
QStringList tfEventFiles(const QString& dir) {
  QStringList out;
  for (const QFileInfo& f : QDir(dir).entryInfoList(QDir::Files | QDir::NoDotAndDotDot, QDir::Name))
    if (io::isTfEventsFileName(f.fileName().toStdString())) out << f.absoluteFilePath();
  return out;
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
  if (r.model == QLatin1String("attlip")) {
    r.attention = str(member(config, "model"), "attention");
    if (r.attention.isEmpty()) r.attention = QStringLiteral("attlip");  // the model kind's default (model_config.h)
  }
}

std::optional<double> finiteValue(double v) { return std::isfinite(v) ? std::optional<double>(v) : std::nullopt; }

}  // namespace

QString methodText(const RunRecord& r) {
  for (const auto& m : spectral::constraintMethods())
    if (QLatin1String(m.key.data(), static_cast<qsizetype>(m.key.size())) == r.method) return registryText(m.title);
  return r.method;  // another tool's or a newer version's word
}

QString optimizerText(const RunRecord& r) {
  const json& o = member(r.config, "optimizer");
  const std::string kind = o.contains("kind") && o["kind"].is_string() ? o["kind"].get<std::string>() : std::string();
  const KindInfo* info = findKind(optim::optimizerKinds(), kind);
  QStringList parts{info ? registryText(info->title) : QString::fromStdString(kind)};
  const auto number = [&](const char* key, const QString& symbol) {
    if (const auto v = o.find(key); v != o.end() && v->is_number())
      parts << QStringLiteral("%1 %2").arg(symbol, widgets::displayNumber(v->get<double>(), 'g', 6));
  };
  number("lr", QStringLiteral("η"));
  number("weight_decay", QStringLiteral("λ"));
  return parts.join(QStringLiteral(", "));
}

std::vector<RunRecord> loadIndexRecords(const QString& indexFile) {
  sweep::RunIndex index(indexFile.toStdString(), sweep::RunIndex::Access::ReadOnly);  // only read here
  std::vector<RunRecord> out;
  for (const sweep::IndexRow& row : index.rows()) {
    if (run::parseStatusWord(row.status) == run::RunStatus::Pending) continue;  // a sweep point that has not run yet
    RunRecord r;
    r.dir = QString::fromStdString(row.path);
    r.name = QString::fromStdString(row.id);
    r.status = QString::fromStdString(row.status);
    r.statusMessage = statusMessageText(row.message);
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
    // Steps done; the configured count only for an ended run of an index older than step_done.
    // A point that failed before its first step showed its configured 20 (a newcomer's trial).
    const auto status = run::parseStatusWord(row.status);
    r.steps = row.stepDone > 0 ? row.stepDone : status && run::info(*status).hasResult ? row.steps : 0;
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
  if (node->is_string()) return QString::fromStdString(node->get<std::string>());
  // "1" as the table writes it, not JSON's "1.0"; ten digits keep nearby values apart.
  if (node->is_number_float()) return QString::number(node->get<double>(), 'g', 10);
  return QString::fromStdString(node->dump());
}

QString configValueText(const RunRecord& r, const QString& dottedKey) {
  const json* node = &r.config;
  for (const QString& part : dottedKey.split(QLatin1Char('.'))) {
    if (!node->is_object() || !node->contains(part.toStdString())) return {};
    node = &(*node)[part.toStdString()];
  }
  if (node->is_number()) return widgets::displayNumber(node->get<double>(), 'g', 10);
  return configValue(r, dottedKey);
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
  const auto last = [&](const char* key) { return lastFinite(r, key); };
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
  if (summary) {
    r.attentionCertificate = QString::fromStdString(summary->attentionCertificate);
    r.attentionPgd = finiteValue(summary->attentionPgdEstimate);
    r.attentionBound = finiteValue(summary->attentionBound);
    r.attentionMixing = finiteValue(summary->attentionMixingMovement);
    r.attentionSelf = finiteValue(summary->attentionSelfMovement);
  }

  if (const auto status = reader.liveStatus()) {
    r.status = QString::fromLatin1(run::toString(status->status));
    r.statusMessage = statusMessageText(status->message);
  } else {
    r.status = summary ? QString::fromLatin1(run::toString(summary->status)) : unknownStatusWord();
  }
  return r;
}

bool isTensorBoardRun(const QString& path) {
  const QFileInfo info(path);
  if (info.isFile()) return io::isTfEventsFileName(info.fileName().toStdString());
  return info.isDir() && !run::RunDirectoryReader::isRunDirectory(path.toStdString()) && !tfEventFiles(path).isEmpty();
}

namespace {

// Reads each event file from where `r` left it (r.tfFiles), appends the new scalars and
// brings the final figures and status up to date. Returns the records read.
int64_t appendTensorBoard(RunRecord& r, const QStringList& files, QStringList* warnings) {
  int64_t records = 0;
  bool added = false;
  for (const QString& f : files) {
    TfFileState& state = r.tfFiles[f];
    const uint64_t from = state.offset;
    if (from > 0 && static_cast<uint64_t>(QFileInfo(f).size()) == from) continue;  // nothing appended
    const io::TfEventsScan scan = io::readTfEventsFile(f.toStdString(), from);  // InputError: a directory, unreadable, too large
    records += scan.records;
    state.writing = scan.stillBeingWritten;
    // A warning that stops the scan repeats on every later read from the same place: once.
    if (warnings && (scan.nextOffset != from || from == 0))
      for (const auto& w : scan.warnings) *warnings << QString::fromStdString(w);
    state.offset = scan.nextOffset;
    for (const io::TfScalar& v : scan.scalars) {
      MetricSeries& series = r.series[QString::fromStdString(io::compareKeyForTag(v.tag))];
      series.steps.push_back(static_cast<double>(v.step));
      series.values.push_back(v.value);
      r.steps = std::max(r.steps, static_cast<long long>(v.step));
      added = true;
    }
  }
  // Steps in file order may repeat or go back (a resumed run, two files): plot them sorted.
  if (added)
    for (auto& [name, s] : r.series) {
      std::vector<size_t> order(s.steps.size());
      for (size_t i = 0; i < order.size(); ++i) order[i] = i;
      std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return s.steps[a] < s.steps[b]; });
      MetricSeries sorted;
      for (size_t i : order) sorted.steps.push_back(s.steps[i]), sorted.values.push_back(s.values[i]);
      s = std::move(sorted);
    }
  r.valLoss = lastFinite(r, "val_loss");
  r.valAcc = lastFinite(r, "val_acc");
  r.lipschitzBound = lastFinite(r, "lipschitz_bound");
  // A record cut short at the end: the writer is still at it (a follower reads on).
  const bool writing = std::any_of(r.tfFiles.begin(), r.tfFiles.end(), [](const auto& f) { return f.second.writing; });
  r.status = writing ? QString::fromLatin1(run::toString(run::RunStatus::Running)) : unknownStatusWord();
  r.statusMessage = writing ? QObject::tr("TensorBoard file still being written") : QObject::tr("TensorBoard event file");
  return records;
}

QStringList tensorBoardFiles(const QString& path) {
  const QFileInfo info(path);
  return info.isFile() ? QStringList{info.absoluteFilePath()} : tfEventFiles(path);
}

}  // namespace

RunRecord loadTensorBoardRecord(const QString& path, QStringList* warnings) {
  const QFileInfo info(path);
  const QStringList files = tensorBoardFiles(path);
  if (files.isEmpty()) throw InputError(path.toStdString() + ": no events.out.tfevents.* file in it");
  RunRecord r;
  r.dir = info.absoluteFilePath();
  r.name = info.isFile() ? info.dir().dirName() + QLatin1Char('/') + info.fileName() : info.fileName();
  r.method = QStringLiteral("none");
  r.task = QStringLiteral("TensorBoard");
  r.tensorBoard = true;
  QStringList own;
  const int64_t records = appendTensorBoard(r, files, &own);
  if (warnings) *warnings << own;
  const bool writing = r.status == QLatin1String(run::toString(run::RunStatus::Running));
  if (records == 0 && !writing && !own.isEmpty())
    throw InputError(path.toStdString() + ": no readable TensorBoard record (" + own.front().toStdString() + ")");
  return r;
}

bool followTensorBoardRecord(RunRecord& r, QStringList* warnings) {
  const QStringList files = tensorBoardFiles(r.dir);
  for (const QString& f : files)
    if (const auto it = r.tfFiles.find(f); it != r.tfFiles.end() && static_cast<uint64_t>(QFileInfo(f).size()) < it->second.offset) {
      r = loadTensorBoardRecord(r.dir, warnings);  // rewritten (shorter than what was read): read again
      return true;
    }
  const auto before = r.tfFiles;
  appendTensorBoard(r, files, warnings);
  if (r.tfFiles.size() != before.size()) return true;
  for (const auto& [f, state] : r.tfFiles)
    if (const auto it = before.find(f); it == before.end() || it->second.offset != state.offset || it->second.writing != state.writing) return true;
  return false;
}

QStringList findRunDirectories(const QString& root) {
  const auto isRunDirectory = [](const QString& dir) {
    return run::RunDirectoryReader::isRunDirectory(dir.toStdString()) || isTensorBoardRun(dir);
  };
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
