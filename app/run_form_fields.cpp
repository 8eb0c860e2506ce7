#include "app/run_form_fields.h"

#include "lab/lab_types.h"

#include <QCoreApplication>

#include <nlohmann/json.hpp>

namespace lwb::app {
namespace {

using nlohmann::json;

QString tr(const char* text) { return QCoreApplication::translate("RunForm", text); }

QString textAt(const json& c, const char* key) {
  const json& v = valueAt(c, QString::fromLatin1(key));
  return v.is_string() ? QString::fromStdString(v.get<std::string>()) : QString();
}

auto whenText(const char* key, QStringList values) {
  return [key, values](const json& c) { return values.contains(textAt(c, key)); };
}

// Shown for the constraint methods `uses` names (engine/lab/lab_types.h).
auto whenMethod(bool (*uses)(const std::string&)) {
  return [uses](const json& c) { return uses(textAt(c, "constraint.method").toStdString()); };
}
bool usesSigmaBound(const std::string& m) { return lab::usesSigmaMax(m) || lab::usesSigmaMin(m); }

// Constraint methods grouped by the parameters they read (engine/spectral/constraint.cpp).
const QStringList kLambdaMethods{QStringLiteral("weight_decay"), QStringLiteral("spectral_weight_decay"),
                                 QStringLiteral("spectral_clipped_weight_decay")};
const QStringList kClipMethods{QStringLiteral("spectral_hard_cap"), QStringLiteral("spectral_clip"),
                               QStringLiteral("spectral_relu"), QStringLiteral("spectral_clipped_weight_decay")};
const QStringList kNsMethods = kClipMethods + QStringList{QStringLiteral("stiefel")};

std::vector<FieldSpec> makeFields() {
  const QString run = tr("Run"), model = tr("Model"), optimizer = tr("Optimizer"), constraint = tr("Constraint"),
                logging = tr("Logging");
  const QStringList methods{QStringLiteral("none"), QStringLiteral("weight_decay"), QStringLiteral("spectral_weight_decay"),
                            QStringLiteral("spectral_normalize"), QStringLiteral("spectral_hammer"), QStringLiteral("stiefel"),
                            QStringLiteral("spectral_soft_cap"), QStringLiteral("spectral_hard_cap"),
                            QStringLiteral("spectral_clip"), QStringLiteral("spectral_relu"),
                            QStringLiteral("spectral_clipped_weight_decay"), QStringLiteral("svd_clip")};
  const QStringList fileTasks{QStringLiteral("mnist"), QStringLiteral("cifar10"), QStringLiteral("chars")};
  const QStringList modularTasks{QStringLiteral("modular_addition"), QStringLiteral("modular_multiplication")};
  return {
      {QStringLiteral("task"), run, tr("Task"), FieldKind::Choice, fileTasks + modularTasks,
       tr("chars: any text file; mnist: IDX folder; cifar10: binary folder; modular tasks are generated"), {}},
      {QStringLiteral("data_path"), run, tr("Data"), FieldKind::Path, {}, tr("file or folder the task reads"),
       whenText("task", fileTasks)},
      {QStringLiteral("modulus"), run, tr("Modulus p"), FieldKind::Integer, {}, {}, whenText("task", modularTasks)},
      {QStringLiteral("train_fraction"), run, tr("Train fraction"), FieldKind::Number, {}, {}, whenText("task", modularTasks)},
      {QStringLiteral("steps"), run, tr("Steps"), FieldKind::Integer, {}, {}, {}},
      {QStringLiteral("batch_size"), run, tr("Batch size"), FieldKind::Integer, {}, {}, {}},
      {QStringLiteral("seed"), run, tr("Seed"), FieldKind::Integer, {}, {}, {}},
      {QStringLiteral("device"), run, tr("Device"), FieldKind::Device, {}, {}, {}},
      {QStringLiteral("threads"), run, tr("Threads"), FieldKind::Integer, {}, tr("0: $LWB_THREADS or all cores"), {}},

      {QStringLiteral("model.kind"), model, tr("Model"), FieldKind::Choice,
       {QStringLiteral("mlp"), QStringLiteral("lipschitz_gpt"), QStringLiteral("modular_mlp")}, {}, {}},
      {QStringLiteral("model.widths"), model, tr("Hidden widths"), FieldKind::IntegerList, {}, tr("comma separated, e.g. 256, 256"),
       whenText("model.kind", {QStringLiteral("mlp")})},
      {QStringLiteral("model.d_model"), model, tr("d_model"), FieldKind::Integer, {}, {}, whenText("model.kind", {QStringLiteral("lipschitz_gpt")})},
      {QStringLiteral("model.blocks"), model, tr("Blocks"), FieldKind::Integer, {}, {}, whenText("model.kind", {QStringLiteral("lipschitz_gpt")})},
      {QStringLiteral("model.heads"), model, tr("Heads"), FieldKind::Integer, {}, {}, whenText("model.kind", {QStringLiteral("lipschitz_gpt")})},
      {QStringLiteral("model.seq_len"), model, tr("Sequence length"), FieldKind::Integer, {}, {},
       whenText("model.kind", {QStringLiteral("lipschitz_gpt")})},
      {QStringLiteral("model.embed_dim"), model, tr("Embedding dim"), FieldKind::Integer, {}, {},
       whenText("model.kind", {QStringLiteral("modular_mlp")})},
      {QStringLiteral("model.width"), model, tr("Width"), FieldKind::Integer, {}, {}, whenText("model.kind", {QStringLiteral("modular_mlp")})},

      {QStringLiteral("optimizer.kind"), optimizer, tr("Optimizer"), FieldKind::Choice,
       {QStringLiteral("muon"), QStringLiteral("adamw"), QStringLiteral("sgd")}, {}, {}},
      {QStringLiteral("optimizer.lr"), optimizer, tr("Learning rate η"), FieldKind::Number, {}, {}, {}},
      {QStringLiteral("optimizer.weight_decay"), optimizer, tr("Weight decay λ"), FieldKind::Number, {},
       tr("decoupled; the soft cap's α* also uses it"), {}},
      {QStringLiteral("optimizer.momentum"), optimizer, tr("Momentum"), FieldKind::Number, {}, {},
       whenText("optimizer.kind", {QStringLiteral("muon"), QStringLiteral("sgd")})},
      {QStringLiteral("optimizer.beta1"), optimizer, tr("β₁"), FieldKind::Number, {}, {}, whenText("optimizer.kind", {QStringLiteral("adamw")})},
      {QStringLiteral("optimizer.beta2"), optimizer, tr("β₂"), FieldKind::Number, {}, {}, whenText("optimizer.kind", {QStringLiteral("adamw")})},
      {QStringLiteral("optimizer.ns_steps"), optimizer, tr("Muon NS steps"), FieldKind::Integer, {}, {},
       whenText("optimizer.kind", {QStringLiteral("muon")})},
      {QStringLiteral("optimizer.schedule"), optimizer, tr("Schedule"), FieldKind::Choice,
       {QStringLiteral("constant"), QStringLiteral("linear"), QStringLiteral("cosine")}, {}, {}},

      {QStringLiteral("constraint.method"), constraint, tr("Method"), FieldKind::Choice, methods, {}, {}},
      {QStringLiteral("constraint.sigma_max"), constraint, tr("σmax"), FieldKind::Number, {},
       tr("target norm (RMS→RMS unless the norm is spectral)"), whenMethod(lab::usesSigmaMax)},
      {QStringLiteral("constraint.sigma_min"), constraint, tr("σmin"), FieldKind::Number, {}, {},
       whenMethod(lab::usesSigmaMin)},
      {QStringLiteral("constraint.alpha"), constraint, tr("α"), FieldKind::NumberOrAuto, {},
       tr("a number, or auto for the minimal α* of App. B"), whenText("constraint.method", {QStringLiteral("spectral_soft_cap")})},
      {QStringLiteral("constraint.lambda"), constraint, tr("λ"), FieldKind::Number, {}, {}, whenText("constraint.method", kLambdaMethods)},
      {QStringLiteral("constraint.impl"), constraint, tr("Implementation"), FieldKind::Choice,
       {QStringLiteral("nested"), QStringLiteral("abd_dense"), QStringLiteral("abd_block"), QStringLiteral("svd")}, {},
       whenText("constraint.method", kClipMethods)},
      {QStringLiteral("constraint.ns_coeffs"), constraint, tr("Coefficients"), FieldKind::Choice,
       {QStringLiteral("jordan5"), QStringLiteral("you6"), QStringLiteral("polish")}, {}, whenText("constraint.method", kNsMethods)},
      {QStringLiteral("constraint.ns_steps"), constraint, tr("NS steps"), FieldKind::Integer, {}, {}, whenText("constraint.method", kNsMethods)},
      {QStringLiteral("constraint.norm"), constraint, tr("Threshold norm"), FieldKind::Choice,
       {QStringLiteral("rms"), QStringLiteral("spectral")}, {}, whenMethod(usesSigmaBound)},

      {QStringLiteral("log_every"), logging, tr("Log every"), FieldKind::Integer, {}, tr("steps between metrics rows"), {}},
      {QStringLiteral("eval_every"), logging, tr("Evaluate every"), FieldKind::Integer, {}, {}, {}},
      {QStringLiteral("spectra_every"), logging, tr("Spectra every"), FieldKind::Integer, {}, tr("0: no spectra"), {}},
  };
}

}  // namespace

const std::vector<FieldSpec>& runFormFields() {
  // Built on first use, after the translators are installed.
  static const std::vector<FieldSpec> fields = makeFields();
  return fields;
}

QStringList runFormGroups() { return {tr("Run"), tr("Model"), tr("Optimizer"), tr("Constraint"), tr("Logging")}; }

const json& valueAt(const json& config, const QString& key) {
  static const json null;
  const json* node = &config;
  for (const QString& part : key.split(QLatin1Char('.'))) {
    if (!node->is_object()) return null;
    const auto it = node->find(part.toStdString());
    if (it == node->end()) return null;
    node = &*it;
  }
  return *node;
}

void setValueAt(json& config, const QString& key, json value) {
  json* node = &config;
  const QStringList parts = key.split(QLatin1Char('.'));
  for (int i = 0; i + 1 < parts.size(); ++i) {
    json& child = (*node)[parts[i].toStdString()];
    if (!child.is_object()) child = json::object();
    node = &child;
  }
  (*node)[parts.back().toStdString()] = std::move(value);
}

}  // namespace lwb::app
