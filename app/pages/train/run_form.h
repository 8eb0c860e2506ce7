// The run form: editors for the config keys of run_form_fields.h over a base config (a
// preset, or the engine's defaults), so keys the form does not show keep the preset's
// values. Every edit is validated at once by the engine's own parser (parseRunConfig):
// an invalid value is refused with the engine's message naming the key, its editor is
// marked, and valid() stays false until it is fixed.
#pragma once

#include "app/pages/train/run_form_fields.h"

#include <QString>
#include <QWidget>

#include <nlohmann/json.hpp>

#include <vector>

class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;

namespace lwb::app {

struct DeviceChoice {
  QString configValue;  // "cpu" | "cuda"
  QString label;        // "CPU (2 threads)", "NVIDIA H100 80GB HBM3 — 74.1 GiB free"
};

class RunForm : public QWidget {
  Q_OBJECT

 public:
  explicit RunForm(QWidget* parent = nullptr);

  // The base config; the editors show its values. Not validated here (see valid()).
  void setConfig(const nlohmann::json& config);
  // The base config with every applicable editor's value.
  nlohmann::json config() const;

  bool valid() const { return error_.isEmpty(); }
  QString validationError() const { return error_; }

  void setDevices(const std::vector<DeviceChoice>& devices);

  // For tests and command-line overrides: the editor's text (combo: the id) by key.
  bool setFieldText(const QString& key, const QString& text);
  QString fieldText(const QString& key) const;
  QWidget* editor(const QString& key) const;
  bool isFieldVisible(const QString& key) const;

 Q_SIGNALS:
  // After every edit (and after setConfig), once validation has run.
  void validityChanged(bool valid, const QString& error);

 private:
  struct Editor {
    const FieldSpec* spec = nullptr;
    QFormLayout* form = nullptr;  // owner of the row hidden when the field does not apply
    QWidget* field = nullptr;           // the row's field widget
    QLabel* label = nullptr;
    QLineEdit* line = nullptr;
    QComboBox* combo = nullptr;
    QLabel* zero = nullptr;  // "= auto" beside a field whose 0 is a setting, shown while it holds 0
  };
  void buildEditors();
  void showValue(Editor& e, const nlohmann::json& value);
  // The editor's value as JSON; on bad text sets *error ("key: 'x' is not a number").
  nlohmann::json editorValue(const Editor& e, QString* error) const;
  void revalidate();
  void showZeroMeaning(const Editor& e) const;
  void updateVisibility(const nlohmann::json& config);
  void markInvalid(const QString& key);
  void browseDataPath(QLineEdit* line);

  std::vector<Editor> editors_;
  nlohmann::json base_;
  QString error_;
  bool loading_ = false;
};

}  // namespace lwb::app
