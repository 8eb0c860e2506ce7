// The run config as forms see it: the keys a run form edits, their labels, groups and editor
// types, the choices of every choice key and when a key applies — all derived from the
// registries (tasks, models, optimizers, constraint methods and their settings, Newton–Schulz
// sets), so the app's run form is generated, not typed out. No LibTorch, no Qt: the app
// translates the English labels (context "RunForm";
// constraint rows use the method registry's own labels and tips, context "Registry").
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace lwb::run {

enum class FieldType {
  Choice,        // one of choicesFor(key)
  Number,
  Integer,
  IntegerList,   // "256, 256"
  NumberOrAuto,  // constraint.alpha: a number or "auto"
  Path,          // data_path: a file or folder
  Device,        // filled from the devices LibTorch reports
  Boolean,       // off | on (true / false in the config)
};

struct FormField {
  std::string key;    // dotted config key
  std::string group;  // "Run", "Model", "Optimizer", "Constraint", "Logging"
  std::string label;
  FieldType type;
  std::string tip;
  // What the value 0 stands for, in a word or two ("auto", "none"), for number fields where 0
  // is a setting rather than a size; the form shows it beside a field that holds 0. Empty: 0
  // is just a number.
  std::string zero = {};
};

// The groups, in form order, and the fields, in form order within their group.
const std::vector<std::string>& formGroups();
const std::vector<FormField>& formFields();

// The ids a choice key accepts (empty for other keys).
std::vector<std::string_view> choicesFor(std::string_view key);

// What a choice id of a registry family is, in words: its registry title and description
// ("spectral soft cap", {}; "ReLU MLP", "bias-free ReLU MLP; …"). Empty for other keys. The app
// translates both in context "Registry" and shows them as the choice's tooltip.
struct ChoiceText {
  std::string_view title;
  std::string_view description;
};
ChoiceText choiceText(std::string_view key, std::string_view id);

// Whether `key` matters for this config (a config JSON, possibly partial): a key that a kind
// of its family claims (task, model.kind, optimizer.kind) applies when that kind is selected;
// a constraint setting applies when the selected method reads it.
bool appliesTo(const nlohmann::json& config, std::string_view key);

}  // namespace lwb::run
