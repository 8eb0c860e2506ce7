// The run form's fields: one table naming each config key the form edits, its label, the
// kind of editor and when it applies (model kind, optimizer, constraint method). The form
// (run_form.h) builds its editors from this table, so adding a key is one line here.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <QString>
#include <QStringList>

#include <functional>
#include <vector>

namespace lwb::app {

enum class FieldKind {
  Choice,        // combo box of ids
  Number,        // decimal text, checked by the engine's validation
  Integer,
  IntegerList,   // "256, 256"
  NumberOrAuto,  // constraint.alpha: a number or "auto"
  Path,          // data_path: text + file/folder picker
  Device,        // filled from the devices LibTorch reports
};

struct FieldSpec {
  QString key;      // dotted config key, e.g. "constraint.sigma_max"
  QString group;    // "Run", "Model", "Optimizer", "Constraint", "Logging"
  QString label;
  FieldKind kind;
  QStringList choices;  // Choice
  QString tip;
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
