#include "app/pages/inspector/inspector_loader.h"

#include "app/pages/common/id_combo.h"
#include "data/task_kinds.h"
#include "inspect/tensor_report.h"
#include "io/input_error.h"
#include "io/tensor_file.h"
#include "run/checkpoint.h"
#include "run/saved_model.h"
#include "models/model_kinds.h"
#include "optim/optimizer_kinds.h"
#include "spectral/constraint_methods.h"
#include "widgets/number_format.h"

#include <QObject>
#include <QStringList>

namespace lwb::app::pages {
namespace {

QString text(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end()) return {};
  return it->is_string() ? QString::fromStdString(it->get<std::string>()) : QString::fromStdString(it->dump());
}

// Whether the config's constraint method reads σmax: a config keeps every key at its default,
// so an unconstrained run (method none) still has sigma_max 1 and norm rms, which say nothing.
bool readsSigmaMax(const nlohmann::json& constraint) {
  const auto m = spectral::parseConstraintMethod(text(constraint, "method").toStdString());
  return m && spectral::reads(*m, spectral::kSigmaMax);
}

// A registry id in the user's words ("muon" → "Muon"); an unknown id as it is.
QString kindTitle(std::span<const KindInfo> family, const QString& id) {
  const KindInfo* k = findKind(family, id.toStdString());
  return k ? registryText(k->title) : id;
}

QString methodTitle(const QString& id) {
  for (const auto& m : spectral::constraintMethods())
    if (QLatin1String(m.key.data(), static_cast<qsizetype>(m.key.size())) == id) return registryText(m.title);
  return id;
}

QString number(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  if (it != j.end() && it->is_number()) return widgets::displayNumber(it->get<double>(), 'g', 6);
  return text(j, key);
}

// "spectral soft cap, σmax = 2 (rms), Muon η 0.02, ReLU MLP on MNIST digits": the registries'
// words and the locale's numbers (a German window read "muon lr 0.3").
QString summarize(const nlohmann::json& config) {
  QStringList parts;
  if (const auto c = config.find("constraint"); c != config.end() && c->is_object()) {
    QString m = methodTitle(text(*c, "method"));
    if (readsSigmaMax(*c) && c->contains("sigma_max")) {
      m += QStringLiteral(", σmax = %1").arg(number(*c, "sigma_max"));
      if (c->contains("norm")) m += QStringLiteral(" (%1)").arg(text(*c, "norm"));
    }
    parts << m;
  }
  if (const auto o = config.find("optimizer"); o != config.end() && o->is_object())
    parts << QStringLiteral("%1 η %2").arg(kindTitle(optim::optimizerKinds(), text(*o, "kind")), number(*o, "lr"));
  if (const auto m = config.find("model"); m != config.end() && m->is_object())
    parts << QObject::tr("%1 on %2", "model kind on task")
                 .arg(kindTitle(models::modelKinds(), text(*m, "kind")), kindTitle(data::taskKinds(), text(config, "task")));
  return parts.join(QStringLiteral(", "));
}

// The checkpoint from the tensor file already read (not a second read of the file).
void addBound(InspectedFile& out, const io::TensorFile& file, const std::string& path) {
  try {
    run::Checkpoint ckpt = run::checkpointFrom(file, path);
    out.step = ckpt.step;
    out.runSummary = summarize(ckpt.config);
    out.task = text(ckpt.config, "task");
    if (const auto c = ckpt.config.find("constraint"); c != ckpt.config.end() && c->is_object() && readsSigmaMax(*c)) {
      if (const auto m = c->find("sigma_max"); m != c->end() && m->is_number()) out.sigmaMax = m->get<double>();
      if (const auto n = c->find("norm"); n != c->end() && n->is_string()) out.sigmaMaxRms = n->get<std::string>() != "spectral";
    }
    run::SavedModel saved = run::loadSavedModel(ckpt, path);
    const run::SavedBound b = run::boundOf(*saved.model);
    if (!b.trace) {
      out.boundNote = QObject::tr("this model has no Lipschitz bound (the standard GPT baseline: LayerNorm has no global constant)");
      return;
    }
    out.lipschitzBound = b.trace->bound;
    out.singleHeadBound = b.trace->singleHeadBound;
    out.trace = b.trace->layers;
  } catch (const std::exception& e) {
    out.boundNote = QObject::tr("no bound: %1").arg(QString::fromUtf8(e.what()));
  }
}

}  // namespace

QString InspectedTensor::shapeText() const {
  if (shape.empty()) return QObject::tr("scalar");
  QStringList dims;
  for (int64_t d : shape) dims << QString::number(d);
  return shape.size() == 2 ? dims.join(QStringLiteral("×")) : QStringLiteral("[%1]").arg(dims.join(QStringLiteral(", ")));
}

InspectedFile inspectFile(const QString& path, const std::function<void(int, int)>& progress, const CancelFlag* cancel) {
  InspectedFile out;
  out.path = path;
  if (progress) progress(0, 0);
  // A cancel (the page closing, Cancel) stops the read within one chunk (Cancelled), not after 2 GiB.
  const auto file = std::make_shared<io::TensorFile>(io::readTensorFile(path.toStdString(), io::kMaxTensorFileBytes, cancel));
  throwIfCancelled(cancel);
  out.format = QString::fromStdString(file->format);
  const auto reports = inspect::reportTensors(
      *file, /*keepSingularValues=*/true,
      [&](size_t done, size_t total) {
        if (progress) progress(static_cast<int>(done), static_cast<int>(total));
      },
      cancel);
  out.complete = reports.size() == file->tensors.size();
  if (reports.empty() && !file->tensors.empty()) throw Cancelled();
  for (const auto& r : reports) {
    InspectedTensor t;
    t.name = QString::fromStdString(r.name);
    t.shape = r.shape;
    t.dtype = QString::fromStdString(r.dtype);
    t.note = QString::fromStdString(r.note);
    if (r.stats) {
      t.hasStats = true;
      t.sigma1 = r.stats->sigma1;
      t.rmsNorm = r.stats->rmsNorm;
      t.stableRank = r.stats->stableRank;
      t.frobenius = r.stats->frobenius;
      t.singularValues = r.stats->singularValues;
      for (const auto& m : inspect::spectralMetricTable()) t.metrics.push_back(m.value(r.metrics));
    }
    out.tensors.push_back(std::move(t));
  }
  for (const auto& note : file->skipped) out.skipped << QString::fromStdString(note);
  const auto fmt = file->metadata.find("format");
  out.workbenchCheckpoint = fmt != file->metadata.end() && fmt->second == run::kCheckpointFormat;
  if (out.workbenchCheckpoint && out.complete && !(cancel && cancel->load())) addBound(out, *file, path.toStdString());
  out.file = std::move(file);
  return out;
}

}  // namespace lwb::app::pages
