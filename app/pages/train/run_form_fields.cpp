#include "app/pages/train/run_form_fields.h"

#include "run/config_schema.h"
#include "spectral/constraint_methods.h"

#include <QCoreApplication>

#include <nlohmann/json.hpp>

#include <map>

namespace lwb::app {
namespace {

using nlohmann::json;

// The engine marks these strings with LWB_TR_NOOP (engine/common/tr_noop.h) in the same contexts.
QString translated(const char* context, std::string_view text) {
  return text.empty() ? QString() : QCoreApplication::translate(context, std::string(text).c_str());
}
QString tr(const std::string& text) { return translated("RunForm", text); }

// A constraint row is one of the method registry's settings: its label and tip are the
// registry's (context "Registry"); the schema capitalises the label, so the form does the same
// with the translation.
const spectral::SettingInfo* constraintSetting(std::string_view key) {
  constexpr std::string_view kPrefix = "constraint.";
  if (!key.starts_with(kPrefix)) return nullptr;
  for (const auto& s : spectral::constraintSettings())
    if (s.key == key.substr(kPrefix.size())) return &s;
  return nullptr;
}

// Like the schema: ASCII letters only (σmax must not become Σmax).
QString capitalised(QString text) {
  if (!text.isEmpty() && text[0] >= QLatin1Char('a') && text[0] <= QLatin1Char('z')) text[0] = text[0].toUpper();
  return text;
}

QString choiceTip(std::string_view key, std::string_view id) {
  const run::ChoiceText t = run::choiceText(key, id);
  const QString title = translated("Registry", t.title), description = translated("Registry", t.description);
  return description.isEmpty() ? title : title.isEmpty() ? description : title + QStringLiteral(": ") + description;
}

// The engine's schema (run/config_schema.h: keys, labels, choices and when each applies, all
// from the registries) in the form's terms, with translated labels.
std::vector<FieldSpec> makeFields() {
  std::vector<FieldSpec> out;
  for (const run::FormField& f : run::formFields()) {
    QStringList choices, choiceTips;  // a Device field lists the devices LibTorch reports instead
    if (f.type == FieldKind::Choice)
      for (std::string_view id : run::choicesFor(f.key)) {
        choices << QString::fromUtf8(id.data(), static_cast<qsizetype>(id.size()));
        choiceTips << choiceTip(f.key, id);
      }
    FieldSpec spec{QString::fromStdString(f.key), tr(f.group), tr(f.label), f.type, choices, choiceTips, tr(f.tip), tr(f.zero), {}};
    if (const spectral::SettingInfo* setting = constraintSetting(f.key)) {
      spec.label = capitalised(translated("Registry", setting->label));
      spec.tip = translated("Registry", setting->tip);
    }
    spec.applies = [key = f.key](const json& c) { return run::appliesTo(c, key); };
    out.push_back(std::move(spec));
  }
  return out;
}

}  // namespace

const std::vector<FieldSpec>& runFormFields() {
  // Built on first use, after the translators are installed, and once more for each language
  // the group names are in: built once for all, a form made after the language changed (a
  // test's German scope) looked its English groups up among German ones and threw. Never
  // freed: forms keep pointers into their language's list (GUI thread only).
  static std::map<QString, std::vector<FieldSpec>> byLanguage;
  const QString language = runFormGroups().join(QLatin1Char('|'));
  auto it = byLanguage.find(language);
  if (it == byLanguage.end()) it = byLanguage.emplace(language, makeFields()).first;
  return it->second;
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
