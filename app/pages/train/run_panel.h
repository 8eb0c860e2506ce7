// The run panel: a preset picker, the run form, the form's verdict, and Start. Start is
// enabled only while the engine accepts the config; the reason is shown when it does not.
#pragma once

#include "app/runs/preset_catalog.h"
#include "app/pages/train/run_form.h"
#include "common/device_info.h"
#include "run/run_config.h"

#include <QWidget>

#include <nlohmann/json.hpp>

#include <functional>

class QComboBox;
class QLabel;
class QPushButton;
class QSettings;
class QSpinBox;
class QUndoStack;

namespace lwb::app {

class RunPanel : public QWidget {
  Q_OBJECT

 public:
  RunPanel(PresetCatalog catalog, QWidget* parent = nullptr);

  const PresetCatalog& catalog() const { return catalog_; }
  // Loads a preset into the form (data paths resolved); false for an unknown id.
  bool selectPreset(const QString& id);
  // Applies "key=value" assignments (config keys, dots for nesting, values as JSON) on
  // top of the form, as lipschitz-cli's --set does. Returns the first error, or empty.
  QString applyOverrides(const QStringList& assignments);
  // Loads RUN_DIR/config.json into the form, for a new run with the same settings; the preset
  // box then names the run. Returns why it could not (the form is left as it was), or empty.
  QString loadRunSettings(const QString& runDir);

  RunForm* form() const { return form_; }
  // Local processes (data-parallel ranks) for the next run: 1 trains inside the app.
  int processes() const;
  void setProcesses(int n);
  QPushButton* startButton() const { return start_; }
  bool canStart() const { return form_->valid(); }
  QString validationError() const { return form_->validationError(); }
  // The form's config as the engine parsed it (when canStart(); InputError otherwise).
  run::RunConfig runConfig() const;
  // What the run list calls a run started from here.
  QString runLabel() const;
  // The devices the form offers (one GPU entry: the config names "cuda").
  void setDevices(const std::vector<DeviceInfo>& devices);

  // Choosing a preset (the arrow keys or the wheel on the box choose too) or a run's settings
  // replaces the whole form: each such change is one step of this stack, so Edit → Undo
  // (Ctrl+Z) brings back the form as it was, edits included.
  QUndoStack* undoStack() const { return undo_; }
  QWidget* presetBox() const;
  // The preset box and the form as the user left them, for the next launch (issue: an edited
  // form was lost on quit); restore falls back to the first-launch preset for what it cannot read.
  void saveSettings(QSettings& settings) const;
  void restoreSettings(const QSettings& settings);

 public Q_SLOTS:
  // Emits startRequested() when the form is valid; otherwise leaves the reason shown.
  void requestStart();

 Q_SIGNALS:
  void startRequested(const lwb::run::RunConfig& config, const QString& label);
  void canStartChanged(bool canStart);

 private:
  QString presetId() const;  // empty when the form holds the engine defaults
  void showVerdict(bool valid, const QString& error);
  struct FormState {
    QString presetData;  // the box entry's data (its index moves when a run's entry is inserted)
    nlohmann::json config;
    nlohmann::json runSettings;
  };
  FormState formState() const;
  void setFormState(const FormState& s);
  // Runs `change` (which replaces the form) as one undoable step named `text`.
  void changeWithUndo(const QString& text, const std::function<void()>& change);
  void showRunSettingsEntry(const QString& label, const QString& tip);
  friend class FormChange;

  PresetCatalog catalog_;
  QComboBox* presets_ = nullptr;
  nlohmann::json runSettings_;  // what the "(settings of RUN)" entry of presets_ holds
  RunForm* form_ = nullptr;
  QLabel* verdict_ = nullptr;
  QPushButton* start_ = nullptr;
  QSpinBox* processes_ = nullptr;
  QUndoStack* undo_ = nullptr;
  int shownPreset_ = 0;  // the box's entry for what the form holds (activated reports it moved already)
};

}  // namespace lwb::app
