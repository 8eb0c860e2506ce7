#include "app/pages/train/run_panel.h"

#include "app/device_query.h"
#include "io/input_error.h"
#include "io/json_read.h"
#include "run/run_config.h"
#include "run/run_layout.h"
#include "widgets/number_format.h"

#include <QComboBox>
#include <QSettings>
#include <QUndoStack>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QHBoxLayout>
#include <QScrollArea>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace lwb::app {
namespace {

// The preset box's entry for settings taken from a run directory (not a preset id).
const QString kRunSettingsId = QStringLiteral("@run");

const QString kPresetKey = QStringLiteral("runSetup/preset");
const QString kConfigKey = QStringLiteral("runSetup/config");
const QString kProcessesKey = QStringLiteral("runSetup/processes");

}  // namespace

// One replacement of the whole form (a preset chosen, a run's settings loaded): undo puts
// back the form as it was before, edits included.
class FormChange : public QUndoCommand {
 public:
  FormChange(RunPanel* panel, const QString& text, RunPanel::FormState before, RunPanel::FormState after)
      : QUndoCommand(text), panel_(panel), before_(std::move(before)), after_(std::move(after)) {}
  void undo() override { panel_->setFormState(before_); }
  void redo() override {
    if (first_) first_ = false;  // pushed after the change was made
    else panel_->setFormState(after_);
  }

 private:
  RunPanel* panel_;
  RunPanel::FormState before_, after_;
  bool first_ = true;
};

RunPanel::RunPanel(PresetCatalog catalog, QWidget* parent) : QWidget(parent), catalog_(std::move(catalog)) {
  presets_ = new QComboBox(this);
  presets_->setObjectName(QStringLiteral("presetBox"));
  presets_->addItem(tr("(engine defaults)"), QString());
  for (const QString& id : catalog_.ids()) {
    presets_->addItem(id, id);
    presets_->setItemData(presets_->count() - 1, catalog_.find(id)->summary, Qt::ToolTipRole);
  }

  form_ = new RunForm(this);
  auto* scroll = new QScrollArea(this);
  scroll->setWidget(form_);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  // A form wider than the dock (German labels beside the combos) scrolls instead of hiding
  // its right edge under the vertical scroll bar.
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);

  verdict_ = new QLabel(this);
  verdict_->setObjectName(QStringLiteral("formVerdict"));
  verdict_->setWordWrap(true);
  verdict_->setTextInteractionFlags(Qt::TextSelectableByMouse);

  start_ = new QPushButton(tr("&Start run"), this);
  start_->setObjectName(QStringLiteral("startButton"));
  start_->setToolTip(tr("Start training this configuration (F5)"));

  // Several processes train one run data-parallel (lipschitz-cli train --nproc, issue 28):
  // the global batch is split between them, so the run trains the same model.
  processes_ = new QSpinBox(this);
  processes_->setObjectName(QStringLiteral("processesBox"));
  processes_->setRange(1, 64);  // more than the cores is allowed (oversubscribed, slower)
  processes_->setValue(1);
  processes_->setToolTip(tr("Local processes that train this run together (data-parallel ranks). 1 trains inside the app; "
                            "more start lipschitz-cli train --nproc N, which splits each batch between them, and the app "
                            "follows the run directory rank 0 writes. Pause is not offered for such runs."));

  auto* top = new QFormLayout;
  top->addRow(tr("Preset"), presets_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addLayout(top);
  layout->addWidget(scroll, 1);
  layout->addWidget(verdict_);
  auto* startRow = new QHBoxLayout;
  auto* processesLabel = new QLabel(tr("Processes"), this);
  processesLabel->setBuddy(processes_);
  startRow->addWidget(processesLabel);
  startRow->addWidget(processes_);
  startRow->addWidget(start_, 1);
  layout->addLayout(startRow);

  undo_ = new QUndoStack(this);
  // The box's index has already moved when activated arrives: the state before is the one
  // recorded after the last change.
  connect(presets_, &QComboBox::activated, this, [this] {
    const QString id = presets_->currentData().toString();
    const int now = presets_->currentIndex();
    presets_->setCurrentIndex(shownPreset_);
    changeWithUndo(tr("Preset %1").arg(presets_->itemText(now)), [this, now, id] {
      presets_->setCurrentIndex(now);
      if (id.isEmpty()) form_->setConfig(run::toJson(run::RunConfig{}));
      else if (id == kRunSettingsId) form_->setConfig(runSettings_);
      else selectPreset(id);
    });
  });
  connect(form_, &RunForm::validityChanged, this, [this](bool valid, const QString& error) {
    showVerdict(valid, error);
    Q_EMIT canStartChanged(valid);
  });
  connect(start_, &QPushButton::clicked, this, &RunPanel::requestStart);
  // A first launch shows a configuration that can start at once (the engine's defaults
  // need a data file): the small CPU preset when it is there.
  if (!selectPreset(QStringLiteral("chars_small_cpu")) && presets_->count() > 1) selectPreset(presets_->itemData(1).toString());
  showVerdict(form_->valid(), form_->validationError());
}

RunPanel::FormState RunPanel::formState() const {
  return {presets_->currentData().toString(), form_->config(), runSettings_};
}

void RunPanel::setFormState(const FormState& s) {
  runSettings_ = s.runSettings;
  presets_->setCurrentIndex(std::max(0, presets_->findData(s.presetData)));
  shownPreset_ = presets_->currentIndex();
  form_->setConfig(s.config);
}

void RunPanel::changeWithUndo(const QString& text, const std::function<void()>& change) {
  FormState before = formState();
  change();
  FormState after = formState();
  shownPreset_ = presets_->currentIndex();
  if (after.config == before.config && after.presetData == before.presetData) return;
  undo_->push(new FormChange(this, text, std::move(before), std::move(after)));
}

void RunPanel::saveSettings(QSettings& settings) const {
  const QString id = presets_->currentData().toString();
  settings.setValue(kPresetKey, id);
  settings.setValue(kConfigKey, QString::fromStdString(form_->config().dump()));
  settings.setValue(kProcessesKey, processes_->value());
}

void RunPanel::restoreSettings(const QSettings& settings) {
  const QString id = settings.value(kPresetKey).toString();
  const auto config = jsonio::tryParse(settings.value(kConfigKey).toString().toStdString());
  if (!config || !config->is_object()) return;  // none saved, or not ours: the first-launch preset stays
  if (id == kRunSettingsId) {
    runSettings_ = *config;
    showRunSettingsEntry(tr("(settings from the last session)"), QString());
  } else {
    const int at = presets_->findData(id);
    if (at < 0) return;  // a preset that is gone
    presets_->setCurrentIndex(at);
  }
  shownPreset_ = presets_->currentIndex();
  form_->setConfig(*config);  // validated: a value this version refuses is shown with its reason
  processes_->setValue(std::clamp(settings.value(kProcessesKey, 1).toInt(), processes_->minimum(), processes_->maximum()));
}

void RunPanel::showRunSettingsEntry(const QString& label, const QString& tip) {
  int at = presets_->findData(kRunSettingsId);
  if (at < 0) {
    presets_->insertItem(1, label, kRunSettingsId);
    at = 1;
  }
  presets_->setItemText(at, label);
  presets_->setItemData(at, tip, Qt::ToolTipRole);
  presets_->setCurrentIndex(at);
}

bool RunPanel::selectPreset(const QString& id) {
  const Preset* p = catalog_.find(id);
  if (!p) return false;
  presets_->setCurrentIndex(presets_->findData(id));
  shownPreset_ = presets_->currentIndex();
  form_->setConfig(p->config);  // "@data/..." stays as the preset names it: portable run configs
  return true;
}

QString RunPanel::loadRunSettings(const QString& runDir) {
  const QString path = QDir(runDir).filePath(QString::fromLatin1(run::layout::kConfigFile));
  nlohmann::json config;
  try {
    // A directory, FIFO, missing, unreadable or oversized file is refused naming the path.
    config = jsonio::readFile(path.toStdString(), uint64_t{1} << 20);
  } catch (const InputError& e) {
    return tr("Cannot use the run's settings: %1").arg(QString::fromStdString(e.what()));
  }
  if (!config.is_object()) return tr("Cannot use the run's settings: %1 is not a JSON object").arg(path);
  const QString label = tr("(settings of %1)").arg(QFileInfo(runDir).fileName());
  changeWithUndo(tr("Settings of %1").arg(QFileInfo(runDir).fileName()), [&] {
    runSettings_ = config;
    showRunSettingsEntry(label, QDir::toNativeSeparators(runDir));
    form_->setConfig(runSettings_);  // validated at once; a run of an older version may be refused, with the reason shown
  });
  return {};
}

QWidget* RunPanel::presetBox() const { return presets_; }

int RunPanel::processes() const { return processes_->value(); }

void RunPanel::setProcesses(int n) { processes_->setValue(n); }

QString RunPanel::presetId() const {
  const QString id = presets_->currentData().toString();
  return id == kRunSettingsId ? QString() : id;
}

QString RunPanel::applyOverrides(const QStringList& assignments) {
  nlohmann::json cfg = form_->config();
  try {
    for (const QString& a : assignments) run::applyOverride(cfg, a.toStdString());
  } catch (const InputError& e) {
    return QString::fromStdString(e.what());
  } catch (const nlohmann::json::exception& e) {
    return QString::fromStdString(e.what());
  }
  form_->setConfig(cfg);
  return form_->validationError();
}

void RunPanel::setDevices(const std::vector<DeviceInfo>& devices) {
  std::vector<DeviceChoice> choices;
  for (const DeviceInfo& d : devices) {
    const bool cuda = d.id.rfind("cuda", 0) == 0;
    // The config names "cuda" (LibTorch's current device), so one GPU entry is offered.
    if (cuda && std::any_of(choices.begin(), choices.end(), [](const DeviceChoice& c) { return c.configValue == QLatin1String("cuda"); }))
      continue;
    QString label = deviceLabel(d);
    if (cuda && d.freeBytes >= 0)
      label += tr(" — %1 free of %2").arg(widgets::bytesText(d.freeBytes), widgets::bytesText(d.totalBytes));
    choices.push_back({cuda ? QStringLiteral("cuda") : QStringLiteral("cpu"), label});
  }
  form_->setDevices(choices);
}

QString RunPanel::runLabel() const {
  const QString preset = presetId();
  return preset.isEmpty() ? form_->fieldText(QStringLiteral("task")) : preset;
}

run::RunConfig RunPanel::runConfig() const { return run::parseRunConfig(form_->config()); }

void RunPanel::requestStart() {
  if (!form_->valid()) {
    showVerdict(false, form_->validationError());
    return;
  }
  Q_EMIT startRequested(runConfig(), runLabel());
}

void RunPanel::showVerdict(bool valid, const QString& error) {
  start_->setEnabled(valid);
  if (valid) {
    verdict_->setText(tr("Ready: the engine accepts this configuration."));
    verdict_->setStyleSheet(QString());
  } else {
    verdict_->setText(tr("Refused — %1").arg(error));
    verdict_->setStyleSheet(QStringLiteral("color: #d55e00;"));
  }
}

}  // namespace lwb::app
