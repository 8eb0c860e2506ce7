#include "app/pages/sweeps/sweeps_page.h"
#include "widgets/number_format.h"

#include "app/app_options.h"
#include "app/pages/common/page_frame.h"
#include "app/pages/sweeps/sweep_points_model.h"
#include "app/pages/sweeps/sweep_process.h"
#include "app/pages/sweeps/sweep_spec_text.h"
#include "io/json_read.h"
#include "run/config_schema.h"
#include "run/run_layout.h"
#include "sweep/run_index.h"
#include "sweep/sweep_directory.h"
#include "sweep/sweep_spec.h"

#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardPaths>
#include <QTableView>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>
#include <fstream>

namespace lwb::app::pages {
namespace {

using nlohmann::json;

QString clockText(double s) {
  if (!(s >= 0)) return QStringLiteral("?");
  const qint64 t = static_cast<qint64>(s + 0.5);
  return t >= 3600 ? QStringLiteral("%1:%2:%3").arg(t / 3600).arg(t / 60 % 60, 2, 10, QLatin1Char('0')).arg(t % 60, 2, 10, QLatin1Char('0'))
                   : QStringLiteral("%1:%2").arg(t / 60).arg(t % 60, 2, 10, QLatin1Char('0'));
}

// Median steps/s of finished runs of this task and model in the run indexes of `folder` and
// its subfolders one level down (earlier sweeps): what a time estimate can stand on.
double measuredStepsPerSecond(const QString& folder, const std::string& task, const std::string& model) {
  std::vector<double> rates;
  QStringList files;
  const QDir dir(folder);
  const QString index = QString::fromLatin1(run::layout::kIndexFile);
  if (dir.exists(index)) files << dir.filePath(index);
  for (const QString& sub : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot))
    if (QFileInfo::exists(dir.filePath(sub + u'/' + index))) files << dir.filePath(sub + u'/' + index);
  for (const QString& f : files) {
    try {
      sweep::RunIndex index(f.toStdString(), sweep::RunIndex::Access::ReadOnly);
      for (const auto& r : index.rows({"", false}))
        if (run::parseStatusWord(r.status) == run::RunStatus::Finished && r.task == task && r.model == model && std::isfinite(r.stepsPerSecond) && r.stepsPerSecond > 0)
          rates.push_back(r.stepsPerSecond);
    } catch (const std::exception&) {
    }
  }
  if (rates.empty()) return 0;
  std::nth_element(rates.begin(), rates.begin() + static_cast<long>(rates.size() / 2), rates.end());
  return rates[rates.size() / 2];
}

std::vector<sweep::IndexRow> readSweepRows(const QString& sweepDir) {
  const std::string db = (sweepDir + QStringLiteral("/index.sqlite")).toStdString();
  if (!QFileInfo::exists(QString::fromStdString(db))) return {};
  sweep::RunIndex index(db, sweep::RunIndex::Access::ReadOnly);
  return index.rows({sweep::indexPath(sweepDir.toStdString()), false});
}

}  // namespace

SweepsPage::SweepsPage(const PageServices& services, QWidget* parent)
    : QWidget(parent), presets_(services.presets), model_(new SweepPointsModel(this)), process_(new SweepProcess(this)) {
  setObjectName(QStringLiteral("sweepsPage"));
  runsRoot_ = qEnvironmentVariable("LWB_RUNS_DIR");
  if (runsRoot_.isEmpty())
    runsRoot_ = QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation) + QStringLiteral("/runs");
  message_ = new QLabel(this);
  message_->setObjectName(QStringLiteral("sweepsMessage"));
  message_->setWordWrap(true);
  message_->setVisible(false);
  message_->setStyleSheet(QStringLiteral("color: #b00020;"));
  auto* top = new QHBoxLayout;
  QSplitter* split = twoPanes(Qt::Horizontal, createForm(), createPoints(), this);
  split->setStretchFactor(0, 2);
  split->setStretchFactor(1, 3);
  setPageLayout(this, top, message_, split);
  top->addWidget(new QLabel(tr("Build a grid over a preset, launch it here or on Slurm, and watch every point."), this));
  top->addStretch(1);

  poll_ = new QTimer(this);
  poll_->setInterval(1000);
  connect(poll_, &QTimer::timeout, this, &SweepsPage::pollIndex);
  connect(process_, &SweepProcess::event, this, &SweepsPage::onEvent);
  connect(process_, &SweepProcess::finished, this, [this](int code, const QString& err) {
    poll_->stop();
    pollIndex();
    launch_->setEnabled(true);
    stop_->setEnabled(false);
    if (code != 0 && code != 130 && !err.isEmpty()) showError(err.section(QLatin1Char('\n'), -1));
    Q_EMIT sweepFinished(code);
  });
  updatePreview();
}

SweepsPage::~SweepsPage() = default;

QWidget* SweepsPage::createForm() {
  auto* pane = new QWidget(this);
  auto* form = new QFormLayout;
  preset_ = new QComboBox(pane);
  preset_->setObjectName(QStringLiteral("sweepPreset"));
  preset_->addItems(presets_.ids());
  const int mnist = preset_->findText(QStringLiteral("mnist_muon_softcap"));
  if (mnist >= 0) preset_->setCurrentIndex(mnist);
  steps_ = new QSpinBox(pane);
  steps_->setRange(0, 10000000);
  steps_->setSpecialValueText(tr("the preset's"));
  seeds_ = new QLineEdit(QStringLiteral("0"), pane);
  seeds_->setPlaceholderText(tr("the preset's seed"));
  seeds_->setToolTip(tr("Seeds: \"0, 1, 2\" or \"0..4\"; each grid point runs once per seed."));
  out_ = new QLineEdit(runsRoot_ + QStringLiteral("/sweeps/sweep-") +
                           QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")),
                       pane);
  out_->setObjectName(QStringLiteral("sweepOut"));
  auto* browse = new QPushButton(tr("Browse…"), pane);
  auto* outRow = new QHBoxLayout;
  outRow->addWidget(out_, 1);
  outRow->addWidget(browse);
  backend_ = new QComboBox(pane);
  backend_->addItem(tr("this machine"), QStringLiteral("local"));
  backend_->addItem(tr("Slurm (one job array)"), QStringLiteral("slurm"));
  jobs_ = new QSpinBox(pane);
  jobs_->setRange(0, 100000);
  jobs_->setSpecialValueText(tr("one per core"));
  jobs_->setToolTip(tr("Runs at a time. Locally each run gets cores ÷ runs threads; on Slurm this is the array's %limit."));
  slurmArgs_ = new QLineEdit(pane);
  slurmArgs_->setPlaceholderText(QStringLiteral("--partition=gpu --time=02:00:00 --gres=gpu:1"));
  slurmArgs_->setToolTip(tr("sbatch options for the job array, separated by spaces"));
  form->addRow(tr("Preset"), preset_);
  form->addRow(tr("Steps"), steps_);
  form->addRow(tr("Seeds"), seeds_);
  form->addRow(tr("Sweep folder"), outRow);
  form->addRow(tr("Run on"), backend_);
  form->addRow(tr("At a time"), jobs_);
  form->addRow(tr("Slurm options"), slurmArgs_);

  grid_ = new QTableWidget(0, 2, pane);
  grid_->setObjectName(QStringLiteral("sweepGrid"));
  grid_->setHorizontalHeaderLabels({tr("Config key"), tr("Values (a, b, c  or  from..to xN [log])")});
  grid_->horizontalHeader()->setStretchLastSection(true);
  grid_->verticalHeader()->setVisible(false);
  auto* addRow = new QPushButton(tr("Add key"), pane);
  auto* removeRow = new QPushButton(tr("Remove key"), pane);
  auto* gridButtons = new QHBoxLayout;
  gridButtons->addWidget(addRow);
  gridButtons->addWidget(removeRow);
  gridButtons->addStretch(1);

  preview_ = new QLabel(pane);
  preview_->setObjectName(QStringLiteral("sweepPreview"));
  preview_->setWordWrap(true);
  auto* previewButton = new QPushButton(tr("Preview points"), pane);
  launch_ = new QPushButton(tr("Launch"), pane);
  launch_->setObjectName(QStringLiteral("sweepLaunch"));
  stop_ = new QPushButton(tr("Stop"), pane);
  stop_->setEnabled(false);
  auto* exportButton = new QPushButton(tr("Export batch script…"), pane);
  auto* open = new QPushButton(tr("Open sweep folder…"), pane);
  auto* actions = new QHBoxLayout;
  for (auto* b : {previewButton, launch_, stop_, exportButton, open}) actions->addWidget(b);
  actions->addStretch(1);

  auto* layout = new QVBoxLayout(pane);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(form);
  layout->addWidget(new QLabel(tr("Grid: the cross product of these keys' values, times the seeds"), pane));
  layout->addWidget(grid_, 1);
  layout->addLayout(gridButtons);
  layout->addWidget(preview_);
  layout->addLayout(actions);

  connect(browse, &QPushButton::clicked, this, [this] {
    const QString d = QFileDialog::getExistingDirectory(this, tr("Sweep folder"), QFileInfo(out_->text()).absolutePath());
    if (!d.isEmpty()) out_->setText(d);
  });
  connect(addRow, &QPushButton::clicked, this, [this] { addGridRow(QStringLiteral("optimizer.lr"), QString()); });
  connect(removeRow, &QPushButton::clicked, this, [this] {
    grid_->removeRow(grid_->currentRow() >= 0 ? grid_->currentRow() : grid_->rowCount() - 1);
    updatePreview();
  });
  connect(previewButton, &QPushButton::clicked, this, &SweepsPage::previewPlan);
  connect(launch_, &QPushButton::clicked, this, [this] {
    QString error;
    if (!launch(&error)) showError(error);
  });
  connect(stop_, &QPushButton::clicked, this, &SweepsPage::stop);
  connect(exportButton, &QPushButton::clicked, this, &SweepsPage::exportScript);
  connect(open, &QPushButton::clicked, this, [this] {
    const QString d = QFileDialog::getExistingDirectory(this, tr("A sweep folder"), runsRoot_);
    QString error;
    if (!d.isEmpty() && !openSweep(d, &error)) showError(error);
  });
  for (QLineEdit* e : {seeds_, out_, slurmArgs_}) connect(e, &QLineEdit::textChanged, this, &SweepsPage::updatePreview);
  connect(preset_, &QComboBox::currentIndexChanged, this, &SweepsPage::updatePreview);
  connect(steps_, &QSpinBox::valueChanged, this, &SweepsPage::updatePreview);
  connect(jobs_, &QSpinBox::valueChanged, this, &SweepsPage::updatePreview);
  connect(grid_, &QTableWidget::cellChanged, this, &SweepsPage::updatePreview);
  return pane;
}

QWidget* SweepsPage::createPoints() {
  auto* pane = new QWidget(this);
  progress_ = new QLabel(tr("No sweep yet: build one on the left, or open a sweep folder."), pane);
  progress_->setObjectName(QStringLiteral("sweepProgress"));
  bar_ = new QProgressBar(pane);
  bar_->setRange(0, 1);
  bar_->setValue(0);
  table_ = new QTableView(pane);
  table_->setObjectName(QStringLiteral("sweepPoints"));
  table_->setModel(model_);
  table_->verticalHeader()->setVisible(false);
  table_->setWordWrap(false);
  table_->horizontalHeader()->setResizeContentsPrecision(50);  // thousands of rows: measure a few
  table_->horizontalHeader()->setSectionResizeMode(SweepPointsModel::Assignment, QHeaderView::Stretch);
  for (int c : {SweepPointsModel::Id, SweepPointsModel::Status, SweepPointsModel::Progress, SweepPointsModel::ValLoss,
                SweepPointsModel::Bound})
    table_->horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
  table_->setAlternatingRowColors(true);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  auto* layout = new QVBoxLayout(pane);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(progress_);
  layout->addWidget(bar_);
  layout->addWidget(table_, 1);
  return pane;
}

void SweepsPage::addGridRow(const QString& key, const QString& values) {
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
  connect(keys, &QComboBox::currentIndexChanged, this, &SweepsPage::updatePreview);
  grid_->resizeColumnToContents(0);
  updatePreview();
}

void SweepsPage::setPreset(const QString& id) { preset_->setCurrentIndex(std::max(0, preset_->findText(id))); }
void SweepsPage::setSeeds(const QString& seeds) { seeds_->setText(seeds); }
void SweepsPage::setSteps(int steps) { steps_->setValue(steps); }
void SweepsPage::setOutputFolder(const QString& dir) { out_->setText(dir); }
void SweepsPage::setBackend(const QString& backend) { backend_->setCurrentIndex(std::max(0, backend_->findData(backend))); }
void SweepsPage::setJobs(int jobs) { jobs_->setValue(jobs); }

std::optional<json> SweepsPage::spec(QString* error) const {
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

long long SweepsPage::pointCount(QString* error) const {
  const auto s = spec(error);
  if (!s) return 0;
  try {
    // The engine's own reading: every point validated as a run config, errors name the key.
    return static_cast<long long>(sweep::expandSweep(sweep::parseSweepSpec(*s, ".")).size());
  } catch (const std::exception& e) {
    if (error) *error = QString::fromUtf8(e.what());
    return 0;
  }
}

void SweepsPage::updatePreview() {
  QString error;
  const long long n = pointCount(&error);
  if (n == 0) {
    ++previewGeneration_;
    preview_->setText(tr("Spec: %1").arg(error));
    preview_->setStyleSheet(QStringLiteral("color: #b00020;"));
    return;
  }
  preview_->setStyleSheet(QString());
  const Preset* p = presets_.find(preset_->currentText());
  const qint64 steps = steps_->value() > 0 ? steps_->value() : (p ? p->config.value("steps", 1000) : 1000);
  const std::string task = p ? p->config.value("task", std::string()) : std::string();
  const std::string model = p && p->config.contains("model") ? p->config["model"].value("kind", std::string("mlp")) : std::string("mlp");
  // Earlier runs of this task and model (off the GUI thread; the label updates when known).
  auto* watcher = new QFutureWatcher<double>(this);
  const int generation = ++previewGeneration_;
  connect(watcher, &QFutureWatcher<double>::finished, this, [this, watcher, n, steps, generation] {
    watcher->deleteLater();
    if (generation != previewGeneration_) return;  // the form changed since: a newer estimate follows
    stepsPerSecond_ = watcher->result();
    const int jobs = jobs_->value() > 0 ? jobs_->value() : QThread::idealThreadCount();
    const bool local = backend_->currentData().toString() == QLatin1String("local");
    QString estimate = tr("time: unknown until a run of this task and model has finished in this folder");
    if (stepsPerSecond_ > 0) {
      // Locally the runs share the cores: at N at a time each runs at about 1/N the speed of
      // a run alone, so the total is close to running them one after another.
      const double alone = static_cast<double>(n) * steps / stepsPerSecond_;
      estimate = local ? tr("about %1 on this machine (%2 steps/s per run measured here)")
                             .arg(clockText(alone / std::max(1.0, std::min<double>(jobs, QThread::idealThreadCount()) * 0.6)))
                             .arg(widgets::displayNumber(stepsPerSecond_, 'f', 1))
                       : tr("about %1 with %2 tasks at a time").arg(clockText(alone / std::max(1, jobs))).arg(jobs);
    }
    preview_->setText(tr("%n point(s) × %1 steps — %2", nullptr, static_cast<int>(n)).arg(steps).arg(estimate));
  });
  const QString folder = QFileInfo(out_->text()).absolutePath();
  watcher->setFuture(QtConcurrent::run([folder, task, model] { return measuredStepsPerSecond(folder, task, model); }));
}

QString SweepsPage::previewText() const { return preview_->text(); }
QString SweepsPage::progressText() const { return progress_->text(); }
QString SweepsPage::errorText() const { return message_->isVisible() ? message_->text() : QString(); }

void SweepsPage::showError(const QString& text) {
  message_->setText(text);
  message_->setVisible(!text.isEmpty());
}

bool SweepsPage::writeSpecFiles(QString* error) const {
  auto s = spec(error);
  if (!s) return false;
  const QString dir = out_->text().trimmed();
  if (dir.isEmpty() || !QDir().mkpath(dir)) {
    if (error) *error = tr("Cannot create the sweep folder '%1'").arg(dir);
    return false;
  }
  QSaveFile f(dir + QStringLiteral("/spec.input.json"));
  const QByteArray bytes = QByteArray::fromStdString(s->dump(2) + "\n");
  if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit()) {
    if (error) *error = tr("Cannot write %1: %2").arg(f.fileName(), f.errorString());
    return false;
  }
  return true;
}

QStringList SweepsPage::cliArgs(bool withBackendOptions) const {
  const QString dir = out_->text().trimmed();
  QStringList args{QStringLiteral("--spec"), dir + QStringLiteral("/spec.input.json"), QStringLiteral("--out"), dir,
                   QStringLiteral("--backend"), backend_->currentData().toString()};
  if (jobs_->value() > 0) args << QStringLiteral("--jobs") << QString::number(jobs_->value());
  if (withBackendOptions && backend_->currentData().toString() == QLatin1String("slurm"))
    for (const QString& a : slurmArgs_->text().split(QLatin1Char(' '), Qt::SkipEmptyParts))
      args << QStringLiteral("--slurm-arg=") + a;
  return args;
}

bool SweepsPage::launch(QString* error) {
  if (process_->isRunning()) {
    if (error) *error = tr("A sweep is running: stop it first");
    return false;
  }
  QString why;
  if (pointCount(&why) == 0) {
    if (error) *error = why;
    return false;
  }
  if (!writeSpecFiles(error)) return false;
  showError({});
  sweepDir_ = QDir(out_->text().trimmed()).absolutePath();
  if (!process_->start(cliArgs(true), error)) return false;
  launch_->setEnabled(false);
  stop_->setEnabled(true);
  progress_->setText(tr("Starting…"));
  // The table: the plan first (ids and settings), then the index as points run.
  QString planError;
  if (auto s = spec(&planError)) {
    const QString dir = sweepDir_;
    auto* watcher = new QFutureWatcher<std::vector<std::pair<QString, QString>>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher] {
      model_->setPlan(watcher->result());
      watcher->deleteLater();
      pollIndex();
    });
    const json specJson = *s;
    watcher->setFuture(QtConcurrent::run([specJson] {
      std::vector<std::pair<QString, QString>> plan;
      try {
        for (const auto& p : sweep::expandSweep(sweep::parseSweepSpec(specJson, ".")))
          plan.emplace_back(QString::fromStdString(p.id), QString::fromStdString(sweep::describe(p.assignment)));
      } catch (const std::exception&) {
      }
      return plan;
    }));
  }
  poll_->start();
  return true;
}

void SweepsPage::stop() {
  process_->stop();
  progress_->setText(tr("Stopping: every run writes status 'stopped'…"));
}

bool SweepsPage::isRunning() const { return process_->isRunning(); }

bool SweepsPage::openSweep(const QString& dir, QString* error) {
  if (!QFileInfo::exists(QDir(dir).filePath(QString::fromLatin1(run::layout::kSweepPointsFile)))) {
    // An empty or unrelated folder: say what it is not, rather than which file is missing.
    if (error)
      *error = tr("%1: not a sweep folder (it has no points.json; a sweep folder is what a sweep run writes)").arg(dir);
    return false;
  }
  try {
    const auto points = sweep::SweepDirectory::readPoints(dir.toStdString());
    std::vector<std::pair<QString, QString>> plan;
    for (const auto& p : points) plan.emplace_back(QString::fromStdString(p.id), QString::fromStdString(sweep::describe(p.assignment)));
    model_->setPlan(plan);
  } catch (const std::exception& e) {
    if (error) *error = QString::fromUtf8(e.what());
    return false;
  }
  sweepDir_ = QDir(dir).absolutePath();
  out_->setText(sweepDir_);
  fillFormFromSpec(sweepDir_ + QStringLiteral("/spec.json"));
  pollIndex();
  poll_->start();  // a sweep run from a terminal or on Slurm: followed through its index
  return true;
}

// The form shows an opened sweep's spec where it can (a preset base and one grid object);
// anything else leaves the form as it was.
void SweepsPage::fillFormFromSpec(const QString& specFile) {
  QFile f(specFile);
  if (!f.open(QIODevice::ReadOnly) || f.size() > (4 << 20)) return;
  const QByteArray bytes = f.readAll();
  const json spec = jsonio::tryParse(std::string_view(bytes.constData(), static_cast<size_t>(bytes.size()))).value_or(json());
  if (!spec.is_object() || !spec.contains("grid") || !spec["grid"].is_object()) return;
  if (spec.contains("base") && spec["base"].is_string()) setPreset(QString::fromStdString(spec["base"].get<std::string>()));
  grid_->setRowCount(0);
  for (const auto& [key, values] : spec["grid"].items()) {
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
    addGridRow(QString::fromStdString(key), parts.join(QStringLiteral(", ")));
  }
  QStringList seeds;
  for (const json& v : spec.value("seeds", json::array())) seeds << QString::fromStdString(v.dump());
  setSeeds(seeds.join(QStringLiteral(", ")));
  setSteps(spec.value("steps", 0));
}

bool SweepsPage::applyOptions(const AppOptions& options, QString* error) {
  if (options.sweepDir.isEmpty()) return true;
  return openSweep(options.sweepDir, error);
}

void SweepsPage::pollIndex() {
  if (sweepDir_.isEmpty() || polling_) return;
  polling_ = true;
  auto* watcher = new QFutureWatcher<std::pair<std::vector<sweep::IndexRow>, QString>>(this);
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher] {
    polling_ = false;
    const auto [rows, error] = watcher->result();
    watcher->deleteLater();
    if (!error.isEmpty()) {
      showError(error);
      return;
    }
    model_->updateFromIndex(rows);
    const int total = model_->rowCount();
    using run::RunStatus;
    const int done = model_->countWithStatus(RunStatus::Finished) + model_->countWithStatus(RunStatus::Diverged);
    bar_->setRange(0, std::max(1, total));
    bar_->setValue(done);
    const bool active = model_->countWithStatus(RunStatus::Running) + model_->countWithStatus(RunStatus::Pending) > 0;
    if (!process_->isRunning() && !active) poll_->stop();
    if (!process_->isRunning())
      progress_->setText(tr("%1 of %2 points done, %3 failed, %4 stopped, %5 pending")
                             .arg(done)
                             .arg(total)
                             .arg(model_->countWithStatus(RunStatus::Failed))
                             .arg(model_->countWithStatus(RunStatus::Stopped))
                             .arg(model_->countWithStatus(RunStatus::Pending)));
  });
  const QString dir = sweepDir_;
  watcher->setFuture(QtConcurrent::run([dir]() -> std::pair<std::vector<sweep::IndexRow>, QString> {
    try {
      return {readSweepRows(dir), QString()};
    } catch (const std::exception& e) {
      return {{}, QString::fromUtf8(e.what())};
    }
  }));
}

void SweepsPage::onEvent(const json& e) {
  const std::string kind = e.value("event", std::string());
  if (kind == "progress") {
    std::map<QString, std::pair<qint64, qint64>> active;
    for (const json& a : e.value("active", json::array()))
      active[QString::fromStdString(a.value("id", std::string()))] = {a.value("step", qint64{0}), a.value("steps", qint64{0})};
    model_->updateActive(active);
    const double eta = e["eta_s"].is_number() ? e["eta_s"].get<double>() : -1.0;
    progress_->setText(tr("%1 of %2 done · %3 running · %4 failed · %5 stopped · ETA %6")
                           .arg(e.value("done", 0))
                           .arg(e.value("total", 0))
                           .arg(e.value(run::toString(run::RunStatus::Running), 0))
                           .arg(e.value(run::toString(run::RunStatus::Failed), 0))
                           .arg(e.value(run::toString(run::RunStatus::Stopped), 0))
                           .arg(clockText(eta)));
    bar_->setRange(0, std::max(1, e.value("total", 1)));
    bar_->setValue(e.value("done", 0));
  } else if (kind == "note") {
    progress_->setText(QString::fromStdString(e.value("text", std::string())));
  }
}

void SweepsPage::previewPlan() {
  QString error;
  if (pointCount(&error) == 0 || !writeSpecFiles(&error)) {
    showError(error);
    return;
  }
  showError({});
  sweepDir_ = QDir(out_->text().trimmed()).absolutePath();
  const QStringList args = cliArgs(true);
  auto* watcher = new QFutureWatcher<std::pair<std::optional<json>, QString>>(this);
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher] {
    const auto [plan, err] = watcher->result();
    watcher->deleteLater();
    if (!plan) {
      showError(err);
      return;
    }
    std::vector<std::pair<QString, QString>> rows;
    for (const json& p : plan->value("assignments", json::array()))
      rows.emplace_back(QString::fromStdString(p.value("id", std::string())), QString::fromStdString(sweep::describe(p["assignment"])));
    model_->setPlan(rows);
    progress_->setText(tr("%1 points: %2 to run, %3 already done")
                           .arg(plan->value("points", 0))
                           .arg((*plan)["to_run"].size())
                           .arg(plan->value("done", 0)));
    pollIndex();
  });
  watcher->setFuture(QtConcurrent::run([args]() -> std::pair<std::optional<json>, QString> {
    QString err;
    auto plan = SweepProcess::dryRun(args, &err);
    return {plan, err};
  }));
}

void SweepsPage::exportScript() {
  QString error;
  if (pointCount(&error) == 0 || !writeSpecFiles(&error)) {
    showError(error);
    return;
  }
  const QString path = QFileDialog::getSaveFileName(this, tr("Export the Slurm batch script"),
                                                    out_->text() + QStringLiteral("/sweep.sbatch"), tr("Batch script (*.sbatch *.sh)"));
  if (path.isEmpty()) return;
  QStringList args = cliArgs(true);
  const int b = args.indexOf(QStringLiteral("--backend"));
  args[b + 1] = QStringLiteral("slurm");
  for (const QString& a : slurmArgs_->text().split(QLatin1Char(' '), Qt::SkipEmptyParts))
    if (!args.contains(QStringLiteral("--slurm-arg=") + a)) args << QStringLiteral("--slurm-arg=") + a;
  auto* watcher = new QFutureWatcher<std::pair<std::optional<json>, QString>>(this);
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, path] {
    const auto [plan, err] = watcher->result();
    watcher->deleteLater();
    if (!plan || !plan->contains("batch_script")) {
      showError(err);
      return;
    }
    QSaveFile f(path);
    const QByteArray bytes = QByteArray::fromStdString((*plan)["batch_script"].get<std::string>());
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit())
      QMessageBox::warning(this, tr("Export failed"), tr("Cannot write %1: %2").arg(path, f.errorString()));
    else
      progress_->setText(tr("Wrote %1: submit it with sbatch %1").arg(path));
  });
  watcher->setFuture(QtConcurrent::run([args]() -> std::pair<std::optional<json>, QString> {
    QString err;
    auto plan = SweepProcess::dryRun(args, &err);
    return {plan, err};
  }));
}

}  // namespace lwb::app::pages
