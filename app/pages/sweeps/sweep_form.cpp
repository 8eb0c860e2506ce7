#include "app/pages/sweeps/sweep_form.h"

#include "app/pages/sweeps/sweep_spec_text.h"
#include "io/json_read.h"
#include "run/config_schema.h"
#include "run/run_layout.h"
#include "sweep/sweep_spec.h"

#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSaveFile>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace lwb::app::pages {

using nlohmann::json;

SweepForm::SweepForm(PresetCatalog presets, const QString& runsRoot, QWidget* parent)
    : QWidget(parent), presets_(std::move(presets)) {
  createFields();
  out_->setText(runsRoot + QStringLiteral("/sweeps/sweep-") + QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")));
  auto* browse = new QPushButton(tr("&Browse…"), this);
  auto* outRow = new QHBoxLayout;
  outRow->addWidget(out_, 1);
  outRow->addWidget(browse);
  auto* form = new QFormLayout;
  form->addRow(tr("Preset"), preset_);
  form->addRow(tr("Steps"), steps_);
  form->addRow(tr("Seeds"), seeds_);
  form->addRow(tr("Sweep folder"), outRow);
  form->addRow(tr("Run on"), backend_);
  form->addRow(tr("At a time"), jobs_);
  form->addRow(tr("Slurm options"), slurmArgs_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(form);
  layout->addWidget(new QLabel(tr("Grid: the cross product of these keys' values, times the seeds"), this));
  layout->addWidget(createGrid(), 1);
  connect(browse, &QPushButton::clicked, this, [this] {
    const QString d = QFileDialog::getExistingDirectory(this, tr("Sweep folder"), QFileInfo(out_->text()).absolutePath());
    if (!d.isEmpty()) out_->setText(d);
  });
  connectFields();
}

SweepForm::~SweepForm() = default;

void SweepForm::createFields() {
  preset_ = new QComboBox(this);
  preset_->setObjectName(QStringLiteral("sweepPreset"));
  preset_->addItems(presets_.ids());
  const int mnist = preset_->findText(QStringLiteral("mnist_muon_softcap"));
  if (mnist >= 0) preset_->setCurrentIndex(mnist);
  steps_ = new QSpinBox(this);
  steps_->setRange(0, 10000000);
  steps_->setSpecialValueText(tr("the preset's"));
  seeds_ = new QLineEdit(QStringLiteral("0"), this);
  seeds_->setPlaceholderText(tr("the preset's seed"));
  seeds_->setToolTip(tr("Seeds: \"0, 1, 2\" or \"0..4\"; each grid point runs once per seed."));
  out_ = new QLineEdit(this);
  out_->setObjectName(QStringLiteral("sweepOut"));
  backend_ = new QComboBox(this);
  backend_->addItem(tr("this machine"), QStringLiteral("local"));
  backend_->addItem(tr("Slurm (one job array)"), QStringLiteral("slurm"));
  jobs_ = new QSpinBox(this);
  jobs_->setRange(0, 100000);
  jobs_->setSpecialValueText(tr("one per core"));
  jobs_->setToolTip(tr("Runs at a time. Locally each run gets cores ÷ runs threads; on Slurm this is the array's %limit."));
  slurmArgs_ = new QLineEdit(this);
  slurmArgs_->setPlaceholderText(QStringLiteral("--partition=gpu --time=02:00:00 --gres=gpu:1"));
  slurmArgs_->setToolTip(tr("sbatch options for the job array, separated by spaces"));
}

QWidget* SweepForm::createGrid() {
  auto* pane = new QWidget(this);
  grid_ = new QTableWidget(0, 2, pane);
  grid_->setObjectName(QStringLiteral("sweepGrid"));
  grid_->setHorizontalHeaderLabels({tr("Config key"), tr("Values (a, b, c  or  from..to xN [log])")});
  grid_->horizontalHeader()->setStretchLastSection(true);
  grid_->verticalHeader()->setVisible(false);
  auto* addRow = new QPushButton(tr("Add &key"), pane);
  auto* removeRow = new QPushButton(tr("Re&move key"), pane);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(addRow);
  buttons->addWidget(removeRow);
  buttons->addStretch(1);
  auto* layout = new QVBoxLayout(pane);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(grid_, 1);
  layout->addLayout(buttons);
  connect(addRow, &QPushButton::clicked, this, [this] { addGridRow(QStringLiteral("optimizer.lr"), QString()); });
  connect(removeRow, &QPushButton::clicked, this, [this] {
    grid_->removeRow(grid_->currentRow() >= 0 ? grid_->currentRow() : grid_->rowCount() - 1);
    Q_EMIT changed();
  });
  return pane;
}

void SweepForm::connectFields() {
  for (QLineEdit* e : {seeds_, out_, slurmArgs_}) connect(e, &QLineEdit::textChanged, this, &SweepForm::changed);
  connect(preset_, &QComboBox::currentIndexChanged, this, &SweepForm::changed);
  connect(steps_, &QSpinBox::valueChanged, this, &SweepForm::changed);
  connect(jobs_, &QSpinBox::valueChanged, this, &SweepForm::changed);
  connect(grid_, &QTableWidget::cellChanged, this, &SweepForm::changed);
}

void SweepForm::addGridRow(const QString& key, const QString& values) {
  const QSignalBlocker block(grid_);
  const int row = grid_->rowCount();
  grid_->insertRow(row);
  auto* keys = new QComboBox(grid_);
  for (const run::FormField& f : run::formFields()) {
    const QString k = QString::fromStdString(f.key);
    keys->addItem(k, k);
    std::string tip = f.label;
    const auto choices = run::choicesFor(f.key);
    if (!choices.empty()) {
      tip += ": ";
      for (size_t i = 0; i < choices.size(); ++i) tip += (i ? ", " : "") + std::string(choices[i]);
    }
    keys->setItemData(keys->count() - 1, QString::fromStdString(tip), Qt::ToolTipRole);
  }
  keys->addItem(QStringLiteral("seed"), QStringLiteral("seed"));
  const int at = keys->findData(key);
  if (at >= 0) keys->setCurrentIndex(at);
  grid_->setCellWidget(row, 0, keys);
  grid_->setItem(row, 1, new QTableWidgetItem(values));
  connect(keys, &QComboBox::currentIndexChanged, this, &SweepForm::changed);
  grid_->resizeColumnToContents(0);
  Q_EMIT changed();
}

void SweepForm::setPreset(const QString& id) { preset_->setCurrentIndex(std::max(0, preset_->findText(id))); }
void SweepForm::setSeeds(const QString& seeds) { seeds_->setText(seeds); }
void SweepForm::setSteps(int steps) { steps_->setValue(steps); }
void SweepForm::setOutputFolder(const QString& dir) { out_->setText(dir); }
void SweepForm::setBackend(const QString& backend) { backend_->setCurrentIndex(std::max(0, backend_->findData(backend))); }
void SweepForm::setJobs(int jobs) { jobs_->setValue(jobs); }
QString SweepForm::outputFolder() const { return out_->text().trimmed(); }
int SweepForm::jobs() const { return jobs_->value(); }
bool SweepForm::local() const { return backend_->currentData().toString() == QLatin1String("local"); }
QStringList SweepForm::slurmArgs() const { return slurmArgs_->text().split(QLatin1Char(' '), Qt::SkipEmptyParts); }

std::optional<json> SweepForm::spec(QString* error) const {
  const Preset* p = presets_.find(preset_->currentText());
  if (!p) {
    if (error) *error = tr("Choose a preset");
    return std::nullopt;
  }
  json grid = json::object();
  for (int r = 0; r < grid_->rowCount(); ++r) {
    const auto* keys = qobject_cast<QComboBox*>(grid_->cellWidget(r, 0));
    const QString key = keys ? keys->currentData().toString() : QString();
    const QString text = grid_->item(r, 1) ? grid_->item(r, 1)->text() : QString();
    QString why;
    const auto values = parseGridValues(text, &why);
    if (!values) {
      if (error) *error = QStringLiteral("%1: %2").arg(key, why);
      return std::nullopt;
    }
    grid[key.toStdString()] = *values;
  }
  QString why;
  const auto seeds = parseSeeds(seeds_->text(), &why);
  if (!seeds) {
    if (error) *error = why;
    return std::nullopt;
  }
  json s{{"base", p->config}, {"grid", grid}};
  if (!seeds->is_null()) s["seeds"] = *seeds;
  if (steps_->value() > 0) s["steps"] = steps_->value();
  return s;
}

std::vector<sweep::SweepPoint> SweepForm::points(QString* error) const {
  const auto s = spec(error);
  if (!s) return {};
  try {
    // The engine's own reading: every point validated as a run config, errors name the key.
    return sweep::expandSweep(sweep::parseSweepSpec(*s, "."));
  } catch (const std::exception& e) {
    if (error) *error = QString::fromUtf8(e.what());
    return {};
  }
}

long long SweepForm::pointCount(QString* error) const { return static_cast<long long>(points(error).size()); }

QStringList SweepForm::cliArgs(bool withBackendOptions) const {
  const QString dir = outputFolder();
  QStringList args{QStringLiteral("--spec"), dir + QLatin1Char('/') + QLatin1String(run::layout::kSweepSpecInputFile), QStringLiteral("--out"), dir,
                   QStringLiteral("--backend"), backend_->currentData().toString()};
  if (jobs_->value() > 0) args << QStringLiteral("--jobs") << QString::number(jobs_->value());
  if (withBackendOptions && !local())
    for (const QString& a : slurmArgs()) args << QStringLiteral("--slurm-arg=") + a;
  return args;
}

bool SweepForm::writeSpecFile(QString* error) const {
  auto s = spec(error);
  if (!s) return false;
  const QString dir = outputFolder();
  if (dir.isEmpty() || !QDir().mkpath(dir)) {
    if (error) *error = tr("Cannot create the sweep folder '%1'").arg(dir);
    return false;
  }
  QSaveFile f(dir + QLatin1Char('/') + QLatin1String(run::layout::kSweepSpecInputFile));
  const QByteArray bytes = QByteArray::fromStdString(s->dump(2) + "\n");
  if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit()) {
    if (error) *error = tr("Cannot write %1: %2").arg(f.fileName(), f.errorString());
    return false;
  }
  return true;
}

namespace {
// A grid entry as the form's values column writes it: "a, b, c" or "from..to xN [log]".
QString gridText(const json& values) {
  QStringList parts;
  if (values.is_array()) {
    for (const json& v : values) parts << QString::fromStdString(v.is_string() ? v.get<std::string>() : v.dump());
  } else if (values.is_object()) {
    parts << QStringLiteral("%1..%2 x%3%4")
                 .arg(QString::fromStdString(values.value("from", json(0)).dump()),
                      QString::fromStdString(values.value("to", json(0)).dump()))
                 .arg(values.value("count", 1))
                 .arg(values.value("scale", std::string()) == "log" ? QStringLiteral(" log") : QString());
  }
  return parts.join(QStringLiteral(", "));
}
}  // namespace

QString SweepForm::fillFromSpec(const QString& specFile) {
  QFile f(specFile);
  if (!f.open(QIODevice::ReadOnly) || f.size() > (4 << 20)) return {};
  const QByteArray bytes = f.readAll();
  const json spec = jsonio::tryParse(std::string_view(bytes.constData(), static_cast<size_t>(bytes.size()))).value_or(json());
  if (!spec.is_object() || !spec.contains("grid")) return {};
  // The sweep writes its spec with "grid" as a list of grids (a union; one for a form's
  // sweep). Reading only an object left every opened sweep's form empty ("grid: empty").
  const json& grids = spec["grid"];
  const json* grid = grids.is_object() ? &grids : (grids.is_array() && !grids.empty() ? &grids[0] : nullptr);
  if (!grid || !grid->is_object()) return {};
  // The base: a preset id (a spec written by hand), or the config itself (this form writes
  // the preset's config out in full), found again among the presets.
  QString note;
  // A base given as a file (a spec written for the CLI) is compared through the config the
  // sweep resolved it to (spec.json's base_config): before, the form kept whatever preset it
  // showed, and its preview priced the sweep with that preset's steps.
  const json& base = spec.value("base", json());
  if (base.is_string() && presets_.find(QString::fromStdString(base.get<std::string>()))) {
    setPreset(QString::fromStdString(base.get<std::string>()));
  } else if (const json& config = base.is_object() ? base : spec.value("base_config", json()); config.is_object()) {
    const QStringList ids = presets_.ids();
    const auto same = std::find_if(ids.begin(), ids.end(), [&](const QString& id) {
      const Preset* p = presets_.find(id);
      return p && p->config == config;
    });
    if (same != ids.end()) setPreset(*same);
    else note = tr("This sweep's base config is none of the presets (changed since?); the form keeps %1.").arg(preset_->currentText());
  } else if (base.is_string()) {
    note = tr("This sweep's base %1 is none of the presets; the form keeps %2.")
               .arg(QString::fromStdString(base.get<std::string>()), preset_->currentText());
  }
  grid_->setRowCount(0);
  for (const auto& [key, values] : grid->items()) addGridRow(QString::fromStdString(key), gridText(values));
  QStringList seeds;
  for (const json& v : spec.value("seeds", json::array())) seeds << QString::fromStdString(v.dump());
  setSeeds(seeds.join(QStringLiteral(", ")));
  const json steps = spec.value("steps", json(0));
  setSteps(steps.is_number_integer() ? steps.get<int>() : 0);
  if (grids.is_array() && grids.size() > 1)
    note += (note.isEmpty() ? QString() : QStringLiteral(" ")) +
            tr("This sweep is a union of %n grid(s); the form shows the first (%1 has them all).", "", static_cast<int>(grids.size()))
                .arg(QDir::toNativeSeparators(specFile));
  return note;
}

}  // namespace lwb::app::pages
