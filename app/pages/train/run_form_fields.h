// The run form's fields: the engine's config schema (run/config_schema.h, derived from the
// task, model, optimizer and constraint-method registries) with translated labels. The form
// (run_form.h) builds its editors from this list; nothing here names a key or a kind.
#pragma once

#include "run/config_schema.h"

#include <nlohmann/json_fwd.hpp>

#include <QString>
#include <QStringList>

#include <functional>
#include <vector>

namespace lwb::app {

using FieldKind = run::FieldType;

struct FieldSpec {
  QString key;      // dotted config key, e.g. "constraint.sigma_max"
  QString group;    // "Run", "Model", "Optimizer", "Constraint", "Logging"
  QString label;
  FieldKind kind;
  QStringList choices;     // Choice
  QStringList choiceTips;  // per choice: its registry title (and description), translated
  QString tip;
  QString zero;  // what the value 0 stands for ("auto"), shown beside the field; empty: a plain 0
  // Whether the field applies to this config (hidden otherwise, and its key left as the
  // base config has it). Empty: always.
  std::function<bool(const nlohmann::json& config)> applies;
};

const std::vector<FieldSpec>& runFormFields();
QStringList runFormGroups();

// Value at a dotted key, or null json when absent.
const nlohmann::json& valueAt(const nlohmann::json& config, const QString& key);
void setValueAt(nlohmann::json& config, const QString& key, nlohmann::json value);

}  // namespace lwb::app
