#include "app/pages/train/run_form.h"

#include "data/data_location.h"
#include "io/input_error.h"
#include "run/run_config.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QToolButton>
#include <QVBoxLayout>

#include <cmath>
#include <map>

namespace lwb::app {

using nlohmann::json;

namespace {

// A config value as an id (combo data): the config's own text.
QString valueText(const json& v) {
  if (v.is_boolean()) return v.get<bool>() ? QStringLiteral("true") : QStringLiteral("false");
  if (v.is_string()) return QString::fromStdString(v.get<std::string>());
  if (v.is_number_integer()) return QString::number(v.get<int64_t>());
  if (v.is_number_unsigned()) return QString::number(v.get<uint64_t>());
  if (v.is_number()) return QString::number(v.get<double>(), 'g', 12);
  if (v.is_array()) {
    QStringList parts;
    for (const auto& e : v) parts << valueText(e);
    return parts.join(QStringLiteral(", "));
  }
  return {};
}

// A config value as a line edit shows it: numbers in the UI's locale (a German "0,002"; the
// default locale has no group separators, language.cpp), everything else as the config has it.
QString displayText(const json& v) {
  if (v.is_number_float()) return QLocale().toString(v.get<double>(), 'g', 12);
  return valueText(v);
}

// What the user typed as a number: the UI locale's decimal separator or the config's point,
// never a group separator (a German "0.003" is 0.003 and "1.000" is not a whole number).
double parseNumber(const QString& text, bool* ok) {
  QLocale ui;
  ui.setNumberOptions(QLocale::RejectGroupSeparator);
  const double v = ui.toDouble(text, ok);
  if (*ok) return v;
  QLocale c = QLocale::c();
  c.setNumberOptions(QLocale::RejectGroupSeparator);
  return c.toDouble(text, ok);
}

qlonglong parseInteger(const QString& text, bool* ok) {
  QLocale c = QLocale::c();
  c.setNumberOptions(QLocale::RejectGroupSeparator);
  return c.toLongLong(text, ok);
}

// Marks a device entry the config asks for but this machine does not have.
constexpr int kUnavailableRole = Qt::UserRole + 1;

const char* kInvalidStyle = "QLineEdit, QComboBox { border: 2px solid #d55e00; }";

}  // namespace

RunForm::RunForm(QWidget* parent) : QWidget(parent) {
  buildEditors();
  setConfig(run::toJson(run::RunConfig{}));
}

void RunForm::buildEditors() {
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(0, 0, 0, 0);
  std::map<QString, QFormLayout*> forms;
  for (const QString& group : runFormGroups()) {
    auto* box = new QGroupBox(group, this);
    auto* form = new QFormLayout(box);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    outer->addWidget(box);
    forms[group] = form;
  }
  outer->addStretch(1);

  for (const FieldSpec& spec : runFormFields()) {
    Editor e;
    e.spec = &spec;
    e.form = forms.at(spec.group);
    e.label = new QLabel(spec.label, this);
    if (spec.kind == FieldKind::Choice || spec.kind == FieldKind::Device || spec.kind == FieldKind::Boolean) {
      e.combo = new QComboBox(this);
      // Long ids (spectral_clipped_weight_decay, a GPU's name) must not widen the dock.
      e.combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
      e.combo->setMinimumContentsLength(8);
      for (qsizetype i = 0; i < spec.choices.size(); ++i) {
        e.combo->addItem(spec.choices[i], spec.choices[i]);
        if (!spec.choiceTips.value(i).isEmpty()) e.combo->setItemData(e.combo->count() - 1, spec.choiceTips[i], Qt::ToolTipRole);
      }
      if (spec.kind == FieldKind::Boolean) {  // the ids are the config's own values
        e.combo->addItem(tr("off"), QStringLiteral("false"));
        e.combo->addItem(tr("on"), QStringLiteral("true"));
      }
      // Until the device query answers (off the GUI thread), the CPU is always there.
      if (spec.kind == FieldKind::Device) e.combo->addItem(tr("CPU"), QStringLiteral("cpu"));
      connect(e.combo, &QComboBox::currentIndexChanged, this, &RunForm::revalidate);
      e.field = e.combo;
    } else {
      e.line = new QLineEdit(this);
      connect(e.line, &QLineEdit::textEdited, this, &RunForm::revalidate);
      e.field = e.line;
      if (!spec.zero.isEmpty()) {
        // "Threads 0" reads as no threads: say beside the field what 0 stands for.
        auto* row = new QWidget(this);
        auto* h = new QHBoxLayout(row);
        h->setContentsMargins(0, 0, 0, 0);
        e.zero = new QLabel(QStringLiteral("= ") + spec.zero, row);
        e.zero->setObjectName(spec.key + QStringLiteral(".zero"));
        e.zero->setEnabled(false);  // drawn grey: a reading of the value, not a control
        h->addWidget(e.line, 1);
        h->addWidget(e.zero);
        e.field = row;
      }
      if (spec.kind == FieldKind::Path) {
        auto* row = new QWidget(this);
        auto* h = new QHBoxLayout(row);
        h->setContentsMargins(0, 0, 0, 0);
        auto* browse = new QToolButton(row);
        browse->setText(QStringLiteral("…"));
        browse->setToolTip(tr("Choose a file or folder"));
        h->addWidget(e.line, 1);
        h->addWidget(browse);
        QLineEdit* line = e.line;
        connect(browse, &QToolButton::clicked, this, [this, line] { browseDataPath(line); });
        e.field = row;
      }
    }
    e.field->setObjectName(spec.key);
    if (!spec.tip.isEmpty()) e.field->setToolTip(spec.tip);
    e.form->addRow(e.label, e.field);
    editors_.push_back(e);
  }
}

void RunForm::browseDataPath(QLineEdit* line) {
  // The task's row says what data_path names: one text file, or a folder of files.
  // A bundled name ("@data/...") opens the dialog where that file really is.
  const data::TaskRow* task = data::findTask(fieldText(QStringLiteral("task")).toStdString());
  const QString start = QString::fromStdString(data::findDataPath(line->text().toStdString()).value_or(std::string()));
  const QString path = task && task->data == data::TaskData::TextFile
                           ? QFileDialog::getOpenFileName(this, tr("Text file for the %1 task").arg(QString::fromUtf8(task->info.id)), start)
                           : QFileDialog::getExistingDirectory(this, tr("Data folder"), start);
  if (path.isEmpty()) return;
  line->setText(path);
  revalidate();
}

void RunForm::setConfig(const json& config) {
  // Presets name only what they change: the engine's defaults fill in the rest, so every
  // editor shows the value the run will really use.
  base_ = run::toJson(run::RunConfig{});
  if (config.is_object()) base_.merge_patch(config);
  loading_ = true;
  for (Editor& e : editors_) showValue(e, valueAt(base_, e.spec->key));
  loading_ = false;
  revalidate();
}

void RunForm::showValue(Editor& e, const json& value) {
  if (e.combo) {
    const QString id = value.is_null() ? QString() : valueText(value);
    int index = e.combo->findData(id);
    if (index < 0 && !id.isEmpty()) {
      // An id this form does not list (a newer preset, a device this machine lacks): show
      // it; validation judges it.
      e.combo->addItem(e.spec->kind == FieldKind::Device ? tr("%1 (not available)").arg(id) : id, id);
      if (e.spec->kind == FieldKind::Device) e.combo->setItemData(e.combo->count() - 1, true, kUnavailableRole);
      index = e.combo->count() - 1;
    }
    if (index >= 0) e.combo->setCurrentIndex(index);
  } else {
    e.line->setText(e.spec->kind == FieldKind::NumberOrAuto && !value.is_number() ? QStringLiteral("auto") : displayText(value));
    showZeroMeaning(e);
  }
}

void RunForm::showZeroMeaning(const Editor& e) const {
  if (!e.zero) return;
  bool ok = false;
  const double v = parseNumber(e.line->text().trimmed(), &ok);
  e.zero->setVisible(ok && v == 0.0);
}

void RunForm::setDevices(const std::vector<DeviceChoice>& devices) {
  for (Editor& e : editors_) {
    if (e.spec->kind != FieldKind::Device) continue;
    const QString current = e.combo->currentData().toString();
    loading_ = true;
    e.combo->clear();
    for (const auto& d : devices) e.combo->addItem(d.label, d.configValue);
    int index = e.combo->findData(current.isEmpty() ? valueText(valueAt(base_, e.spec->key)) : current);
    if (index < 0 && !current.isEmpty()) {
      // The config asks for a device this machine lacks: keep it visible, refused below.
      e.combo->addItem(tr("%1 (not available)").arg(current), current);
      e.combo->setItemData(e.combo->count() - 1, true, kUnavailableRole);
      index = e.combo->count() - 1;
    }
    e.combo->setCurrentIndex(std::max(index, 0));
    loading_ = false;
  }
  revalidate();
}

json RunForm::editorValue(const Editor& e, QString* error) const {
  const FieldSpec& spec = *e.spec;
  if (e.combo && spec.kind == FieldKind::Boolean) return e.combo->currentData().toString() == QLatin1String("true");
  if (e.combo) return e.combo->currentData().toString().toStdString();
  const QString text = e.line->text().trimmed();
  bool ok = false;
  auto bad = [&](const QString& what) {
    *error = tr("%1: '%2' is not %3").arg(spec.key, text, what);
    return json();
  };
  switch (spec.kind) {
    case FieldKind::Number: {
      const double v = parseNumber(text, &ok);
      return ok && std::isfinite(v) ? json(v) : bad(tr("a number"));
    }
    case FieldKind::NumberOrAuto: {
      if (text.compare(QLatin1String("auto"), Qt::CaseInsensitive) == 0) return "auto";
      const double v = parseNumber(text, &ok);
      return ok && std::isfinite(v) ? json(v) : bad(tr("a number or auto"));
    }
    case FieldKind::Integer: {
      const qlonglong v = parseInteger(text, &ok);
      return ok ? json(static_cast<int64_t>(v)) : bad(tr("a whole number"));
    }
    case FieldKind::IntegerList: {
      json list = json::array();
      for (const QString& part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const qlonglong v = parseInteger(part.trimmed(), &ok);
        if (!ok) return bad(tr("a list of whole numbers"));
        list.push_back(static_cast<int64_t>(v));
      }
      return list;
    }
    default: return text.toStdString();
  }
}

json RunForm::config() const {
  json out = base_;
  QString ignored;
  for (const Editor& e : editors_)
    if (!e.spec->applies || e.spec->applies(out)) setValueAt(out, e.spec->key, editorValue(e, &ignored));
  return out;
}

void RunForm::revalidate() {
  if (loading_) return;
  for (const Editor& e : editors_) showZeroMeaning(e);
  // Which fields apply depends on the choices (model kind, method): settle those first.
  json cfg = base_;
  QString error;
  for (const Editor& e : editors_)
    if (e.combo) setValueAt(cfg, e.spec->key, editorValue(e, &error));
  updateVisibility(cfg);
  for (const Editor& e : editors_) {
    if (e.combo || (e.spec->applies && !e.spec->applies(cfg))) continue;
    QString fieldError;
    json v = editorValue(e, &fieldError);
    if (!fieldError.isEmpty() && error.isEmpty()) error = fieldError;
    if (fieldError.isEmpty()) setValueAt(cfg, e.spec->key, std::move(v));
  }
  for (const Editor& e : editors_)
    if (error.isEmpty() && e.spec->kind == FieldKind::Device && e.combo->currentData(kUnavailableRole).toBool())
      error = tr("device: %1 is not available here (this LibTorch has no CUDA, or no GPU was found)")
                  .arg(e.combo->currentData().toString());
  if (error.isEmpty()) {
    try {
      const run::RunConfig parsed = run::parseRunConfig(cfg);
      const data::TaskRow& task = data::row(parsed.task);
      const bool needsFile = task.data != data::TaskData::Generated;
      const QString path = QString::fromStdString(parsed.dataPath);
      if (needsFile && path.isEmpty())
        error = (task.data == data::TaskData::TextFile ? tr("data_path: the %1 task needs a text file")
                                                       : tr("data_path: the %1 task needs a data folder"))
                    .arg(QString::fromUtf8(task.info.id));
      // The trainer's own lookup: "@data/..." (bundled, InputError naming the folders searched
      // when absent) or the user's path as given.
      else if (needsFile && !QFileInfo::exists(QString::fromStdString(data::resolveDataPath(parsed.dataPath))))
        error = tr("data_path: '%1' does not exist").arg(path);
    } catch (const InputError& e) {
      error = QString::fromStdString(e.what());
    }
  }
  error_ = error;
  markInvalid(error.section(QLatin1Char(':'), 0, 0));
  Q_EMIT validityChanged(error_.isEmpty(), error_);
}

void RunForm::updateVisibility(const json& config) {
  for (Editor& e : editors_) e.form->setRowVisible(e.field, !e.spec->applies || e.spec->applies(config));
}

void RunForm::markInvalid(const QString& key) {
  for (Editor& e : editors_) {
    const bool bad = !error_.isEmpty() && e.spec->key == key;
    e.field->setStyleSheet(bad ? QString::fromLatin1(kInvalidStyle) : QString());
    if (e.line) e.line->setToolTip(bad ? error_ : e.spec->tip);
  }
}

bool RunForm::setFieldText(const QString& key, const QString& text) {
  for (Editor& e : editors_) {
    if (e.spec->key != key) continue;
    if (e.combo) {
      const int index = e.combo->findData(text);
      if (index < 0) return false;
      e.combo->setCurrentIndex(index);
    } else {
      e.line->setText(text);
      revalidate();
    }
    return true;
  }
  return false;
}

QString RunForm::fieldText(const QString& key) const {
  for (const Editor& e : editors_)
    if (e.spec->key == key) return e.combo ? e.combo->currentData().toString() : e.line->text();
  return {};
}

QWidget* RunForm::editor(const QString& key) const {
  for (const Editor& e : editors_)
    if (e.spec->key == key) return e.combo ? static_cast<QWidget*>(e.combo) : e.line;
  return nullptr;
}

bool RunForm::isFieldVisible(const QString& key) const {
  for (const Editor& e : editors_)
    if (e.spec->key == key) return e.form->isRowVisible(e.field);
  return false;
}

}  // namespace lwb::app
