#include "app/run_form_fields.h"

#include "run/config_schema.h"

#include <QCoreApplication>

#include <nlohmann/json.hpp>

namespace lwb::app {
namespace {

using nlohmann::json;

QString tr(const std::string& text) { return text.empty() ? QString() : QCoreApplication::translate("RunForm", text.c_str()); }

// The engine's schema (run/config_schema.h: keys, labels, choices and when each applies, all
// from the registries) in the form's terms, with translated labels.
std::vector<FieldSpec> makeFields() {
  std::vector<FieldSpec> out;
  for (const run::FormField& f : run::formFields()) {
    QStringList choices;  // a Device field lists the devices LibTorch reports instead
    if (f.type == FieldKind::Choice)
      for (std::string_view id : run::choicesFor(f.key)) choices << QString::fromUtf8(id.data(), static_cast<qsizetype>(id.size()));
    FieldSpec spec{QString::fromStdString(f.key), tr(f.group), tr(f.label), f.type, choices, tr(f.tip), {}};
    spec.applies = [key = f.key](const json& c) { return run::appliesTo(c, key); };
    out.push_back(std::move(spec));
  }
  return out;
}

}  // namespace

const std::vector<FieldSpec>& runFormFields() {
  // Built on first use, after the translators are installed.
  static const std::vector<FieldSpec> fields = makeFields();
  return fields;
}

QStringList runFormGroups() {
  QStringList groups;
  for (const std::string& g : run::formGroups()) groups << tr(g);
  return groups;
}

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
