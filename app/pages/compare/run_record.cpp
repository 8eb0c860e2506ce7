#include "app/pages/compare/run_record.h"

#include "app/run_json.h"
#include "io/input_error.h"
#include "run/run_directory.h"
#include "spectral/constraint_methods.h"

#include <QDir>
#include <QFile>
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

constexpr qint64 kMaxJsonBytes = qint64{64} << 20;

bool isRunDirectory(const QString& dir) {
  const QDir d(dir);
  return d.exists(QStringLiteral("config.json")) || d.exists(QStringLiteral("metrics.jsonl"));
}

// A JSON object file, or null when absent; InputError when present but unreadable.
json readJson(const QString& path) {
  QFile f(path);
  if (!f.exists()) return nullptr;
  if (!f.open(QIODevice::ReadOnly)) throw InputError(path.toStdString() + ": cannot be read");
  if (f.size() > kMaxJsonBytes) throw InputError(path.toStdString() + ": larger than 64 MiB");
  const QByteArray bytes = f.readAll();
  json j = json::parse(bytes.constData(), bytes.constData() + bytes.size(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) throw InputError(path.toStdString() + ": not a JSON object");
  return j;
}

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

}  // namespace

RunRecord loadRunRecord(const QString& dir) {
  const QFileInfo info(dir);
  if (!info.isDir()) throw InputError(dir.toStdString() + ": not a folder");
  if (!isRunDirectory(dir)) throw InputError(dir.toStdString() + ": not a run directory (no config.json or metrics.jsonl)");
  RunRecord r;
  r.dir = info.absoluteFilePath();
  r.name = info.fileName();
  const QDir d(dir);
  const json config = readJson(d.filePath(QStringLiteral("config.json")));
  if (config.is_object()) {
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
  if (r.method.isEmpty()) r.method = QStringLiteral("none");

  const std::vector<json> rows = run::readMetrics(dir.toStdString());
  for (const json& row : rows) {
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
  const json summary = readJson(d.filePath(QStringLiteral("summary.json")));
  const auto last = [&](const char* key) -> std::optional<double> {
    const auto it = r.series.find(QString::fromLatin1(key));
    if (it == r.series.end()) return std::nullopt;
    for (auto v = it->second.values.rbegin(); v != it->second.values.rend(); ++v)
      if (std::isfinite(*v)) return *v;
    return std::nullopt;
  };
  const auto pick = [&](const char* key) { return summary.is_object() && summary.contains(key) ? finite(summary, key) : last(key); };
  r.valLoss = pick("val_loss");
  r.valAcc = pick("val_acc");
  r.lipschitzBound = pick("lipschitz_bound");
  r.maxActEntry = pick("max_act_entry");
  r.maxActRms = pick("max_act_rms");
  r.stepsPerSecond = pick("steps_per_s");
  if (summary.is_object() && finite(summary, "steps")) r.steps = static_cast<long long>(*finite(summary, "steps"));

  QFile status(d.filePath(QStringLiteral("status")));
  if (status.open(QIODevice::ReadOnly)) {
    const StatusFile s = parseStatusFile(status.read(4096).toStdString());
    r.status = s.status;
    r.statusMessage = s.message;
  } else {
    r.status = summary.is_object() ? str(summary, "status") : QStringLiteral("unknown");
  }
  return r;
}

QStringList findRunDirectories(const QString& root) {
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
  for (const char* first : {"val_loss", "train_loss", "val_acc", "train_acc", "lipschitz_bound", "max_act_entry", "max_act_rms", "steps_per_s", "lr", "alpha"})
    if (all.erase(QString::fromLatin1(first))) out << QString::fromLatin1(first);
  for (const QString& rest : all) out << rest;
  return out;
}

}  // namespace lwb::app::pages
