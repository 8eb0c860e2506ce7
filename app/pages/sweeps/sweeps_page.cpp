#include "app/pages/sweeps/sweeps_page.h"
#include "widgets/save_dialog.h"

#include "app/app_options.h"
#include "app/pages/common/page_frame.h"
#include "app/pages/sweeps/sweep_estimate.h"
#include "app/pages/sweeps/sweep_form.h"
#include "app/pages/sweeps/sweep_points_model.h"
#include "app/pages/sweeps/sweep_process.h"
#include "run/run_layout.h"
#include "sweep/run_index.h"
#include "sweep/sweep_directory.h"
#include "sweep/sweep_spec.h"
#include "widgets/number_format.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QSplitter>
#include <QStandardPaths>
#include <QTableView>
#include <QThread>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace lwb::app::pages {
namespace {

using nlohmann::json;

std::vector<sweep::IndexRow> readSweepRows(const QString& sweepDir) {
  const std::string db = QDir(sweepDir).filePath(QString::fromLatin1(run::layout::kIndexFile)).toStdString();
  if (!QFileInfo::exists(QString::fromStdString(db))) return {};
  sweep::RunIndex index(db, sweep::RunIndex::Access::ReadOnly);
  return index.rows({sweep::indexPath(sweepDir.toStdString()), false});
}

// The id and settings of every point of `spec`, as the table lists them before they run: in
// the numbering of the sweep `dir` already holds, when the spec extends it (the CLI keeps the
// old points' ids and adds the new ones after them).
std::vector<std::pair<QString, QString>> planOf(const json& spec, const QString& dir) {
  std::vector<std::pair<QString, QString>> plan;
  try {
    auto points = sweep::expandSweep(sweep::parseSweepSpec(spec, "."));
    (void)sweep::SweepDirectory(dir.toStdString()).check(points);  // reads only
    for (const auto& p : points)
      plan.emplace_back(QString::fromStdString(p.id), QString::fromStdString(sweep::describe(p.assignment)));
  } catch (const std::exception&) {
    // The spec was checked before launch; a plan that no longer expands leaves the table to the index.
  }
  return plan;
}

// `lipschitz-cli sweep --dry-run` with these arguments, on a worker.
QFuture<std::pair<std::optional<json>, QString>> dryRunLater(const QStringList& args) {
  return QtConcurrent::run([args]() -> std::pair<std::optional<json>, QString> {
    QString err;
    auto plan = SweepProcess::dryRun(args, &err);
    return {plan, err};
  });
}

}  // namespace

SweepsPage::SweepsPage(const PageServices& services, QWidget* parent)
    : QWidget(parent), model_(new SweepPointsModel(this)), process_(new SweepProcess(this)) {
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
  QSplitter* split = twoPanes(Qt::Horizontal, createFormPane(services), createPoints(), this);
  split->setStretchFactor(0, 2);
  split->setStretchFactor(1, 3);
  // Start at 2 : 3 too (the form's size hint took half the window and more in German, and the
  // points' settings were cut off); Qt scales these to the splitter's width.
  split->setSizes({400, 600});
  setPageLayout(this, top, message_, split);
  top->addWidget(new QLabel(tr("Build a grid over a preset, launch it here or on Slurm, and watch every point."), this));
  top->addStretch(1);
  poll_ = new QTimer(this);
  poll_->setInterval(1000);
  connectProcess();
  updatePreview();
}

SweepsPage::~SweepsPage() = default;

// The form, then the preview line and the actions under it.
QWidget* SweepsPage::createFormPane(const PageServices& services) {
  auto* pane = new QWidget(this);
  form_ = new SweepForm(services.presets, runsRoot_, pane);
  preview_ = new QLabel(pane);
  preview_->setObjectName(QStringLiteral("sweepPreview"));
  preview_->setWordWrap(true);
  auto* previewButton = previewButton_ = new QPushButton(tr("&Preview points"), pane);
  launch_ = new QPushButton(tr("&Launch"), pane);
  launch_->setObjectName(QStringLiteral("sweepLaunch"));
  stop_ = new QPushButton(tr("S&top"), pane);
  stop_->setEnabled(false);
  auto* exportButton = exportButton_ = new QPushButton(tr("E&xport batch script…"), pane);
  auto* open = new QPushButton(tr("&Open sweep folder…"), pane);
  auto* actions = new QHBoxLayout;
  for (auto* b : {previewButton, launch_, stop_, exportButton, open}) actions->addWidget(b);
  actions->addStretch(1);
  auto* layout = new QVBoxLayout(pane);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(form_, 1);
  layout->addWidget(preview_);
  layout->addLayout(actions);
  connectActions(previewButton, exportButton, open);
  return pane;
}

void SweepsPage::connectActions(QPushButton* preview, QPushButton* exportButton, QPushButton* open) {
  connect(form_, &SweepForm::changed, this, &SweepsPage::updatePreview);
  connect(preview, &QPushButton::clicked, this, &SweepsPage::previewPlan);
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
}

void SweepsPage::connectProcess() {
  connect(poll_, &QTimer::timeout, this, &SweepsPage::pollIndex);
  connect(process_, &SweepProcess::event, this, &SweepsPage::onEvent);
  connect(process_, &SweepProcess::finished, this, [this](int code, const QString& err) {
    poll_->stop();
    pollIndex();
    launch_->setEnabled(specValid_);
    stop_->setEnabled(false);
    if (code != 0 && code != 130 && !err.isEmpty()) showError(err.section(QLatin1Char('\n'), -1));
    Q_EMIT sweepFinished(code);
  });
}
QWidget* SweepsPage::createPoints() {
  auto* pane = new QWidget(this);
  progress_ = new QLabel(tr("No sweep yet: build one on the left, or open a sweep folder."), pane);
  progress_->setObjectName(QStringLiteral("sweepProgress"));
  // Wrapped: the CLI's notes name folders and the plan rides beside the counts; one long line
  // would widen the page's minimum past the window.
  progress_->setWordWrap(true);
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


void SweepsPage::updatePreview() {
  QString error;
  const std::vector<sweep::SweepPoint> points = form_->points(&error);
  specValid_ = !points.empty();
  for (QPushButton* b : {previewButton_, exportButton_}) b->setEnabled(specValid_);
  launch_->setEnabled(specValid_ && !process_->isRunning());
  if (points.empty()) {
    ++previewGeneration_;
    preview_->setText(tr("Spec: %1").arg(error));
    preview_->setStyleSheet(QStringLiteral("color: #b00020;"));
    return;
  }
  preview_->setStyleSheet(QString());
  // The engine resolved every point's config: its steps, task and model, defaults included.
  const json& config = points.front().config;
  const long long n = static_cast<long long>(points.size());
  const long long steps = config.value("steps", 0LL);
  const std::string task = config.value("task", std::string());
  const std::string model = config.contains("model") ? config["model"].value("kind", std::string()) : std::string();
  // Earlier runs of this task and model (off the GUI thread; the label updates when known).
  auto* watcher = new QFutureWatcher<double>(this);
  const int generation = ++previewGeneration_;
  connect(watcher, &QFutureWatcher<double>::finished, this, [this, watcher, n, steps, generation] {
    watcher->deleteLater();
    if (generation != previewGeneration_) return;  // the form changed since: a newer estimate follows
    showEstimate(n, steps, watcher->result());
  });
  const QString folder = QFileInfo(form_->outputFolder()).absolutePath();
  watcher->setFuture(QtConcurrent::run([folder, task, model] { return measuredStepsPerSecond(folder, task, model); }));
}

void SweepsPage::showEstimate(long long points, long long steps, double stepsPerSecond) {
  const int cores = QThread::idealThreadCount();
  const int jobs = form_->jobs() > 0 ? form_->jobs() : cores;
  const SweepWorkload work{points, steps, stepsPerSecond};
  QString estimate = tr("time: unknown until a run of this task and model has finished in this folder");
  if (stepsPerSecond > 0)
    estimate = form_->local() ? tr("about %1 on this machine (%2 steps/s per run measured here)")
                                    .arg(clockText(estimatedSecondsLocal(work, jobs, cores)))
                                    .arg(widgets::displayNumber(stepsPerSecond, 'f', 1))
                              : tr("about %1 with %2 tasks at a time").arg(clockText(estimatedSecondsSlurm(work, jobs))).arg(jobs);
  preview_->setText(tr("%n point(s) × %1 steps — %2", nullptr, static_cast<int>(points)).arg(steps).arg(estimate));
}

QString SweepsPage::previewText() const { return preview_->text(); }
QString SweepsPage::progressText() const { return progress_->text(); }
QString SweepsPage::errorText() const { return message_->isVisible() ? message_->text() : QString(); }

void SweepsPage::showError(const QString& text) {
  message_->setText(text);
  message_->setVisible(!text.isEmpty());
}

bool SweepsPage::launch(QString* error) {
  if (process_->isRunning()) {
    if (error) *error = tr("A sweep is running: stop it first");
    return false;
  }
  QString why;
  if (form_->pointCount(&why) == 0) {
    if (error) *error = why;
    return false;
  }
  if (!form_->writeSpecFile(error)) return false;
  showError({});
  sweepDir_ = QDir(form_->outputFolder()).absolutePath();
  if (!process_->start(form_->cliArgs(true), error)) return false;
  launch_->setEnabled(false);
  stop_->setEnabled(true);
  planNote_.clear();
  progress_->setText(tr("Starting…"));
  // The table: the plan first (ids and settings), then the index as points run.
  QString planError;
  if (auto s = form_->spec(&planError)) showPlanOf(*s);
  poll_->start();
  return true;
}

void SweepsPage::showPlanOf(const json& spec) {
  auto* watcher = new QFutureWatcher<std::vector<std::pair<QString, QString>>>(this);
  connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher] {
    model_->setPlan(watcher->result());
    watcher->deleteLater();
    pollIndex();
  });
  watcher->setFuture(QtConcurrent::run([spec, dir = sweepDir_] { return planOf(spec, dir); }));
}

QString SweepsPage::runningWork() const { return isRunning() ? tr("a sweep") : QString(); }

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
  planNote_.clear();
  form_->setOutputFolder(sweepDir_);
  showError(form_->fillFromSpec(sweepDir_ + QStringLiteral("/spec.json")));
  pollIndex();
  poll_->start();  // a sweep run from a terminal or on Slurm: followed through its index
  return true;
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
    if (!process_->isRunning()) {
      // The preview's plan stays beside the counts (it was replaced by them at once).
      QString text = tr("%1 of %2 points done, %3 failed, %4 stopped, %5 pending")
                         .arg(done)
                         .arg(total)
                         .arg(model_->countWithStatus(RunStatus::Failed))
                         .arg(model_->countWithStatus(RunStatus::Stopped))
                         .arg(model_->countWithStatus(RunStatus::Pending));
      if (!planNote_.isEmpty()) text += QStringLiteral(" — ") + planNote_;
      progress_->setText(text);
    }
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
  if (form_->pointCount(&error) == 0 || !form_->writeSpecFile(&error)) {
    showError(error);
    return;
  }
  showError({});
  sweepDir_ = QDir(form_->outputFolder()).absolutePath();
  const QStringList args = form_->cliArgs(true);
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
    QString text = tr("%1 points: %2 to run, %3 already done")
                       .arg(plan->value("points", 0))
                       .arg((*plan)["to_run"].size())
                       .arg(plan->value("done", 0));
    if (const json e = plan->value("extension", json()); e.is_object() && e.value("added", 0) > 0)
      text += QStringLiteral(" ") + tr("(extends the sweep in this folder: its %1 points keep their ids, %2 are new)")
                                        .arg(e.value("kept", 0))
                                        .arg(e.value("added", 0));
    planNote_ = text;
    progress_->setText(text);
    pollIndex();
  });
  watcher->setFuture(dryRunLater(args));
}

void SweepsPage::exportScript() {
  QString error;
  if (form_->pointCount(&error) == 0 || !form_->writeSpecFile(&error)) {
    showError(error);
    return;
  }
  const QString path = widgets::getSavePath(this, tr("Export the Slurm batch script"), form_->outputFolder() + QStringLiteral("/sweep.sbatch"),
                                            tr("Batch script (*.sbatch *.sh)"), QStringLiteral("sbatch"));
  if (path.isEmpty()) return;
  QStringList args = form_->cliArgs(true);
  const int b = args.indexOf(QStringLiteral("--backend"));
  args[b + 1] = QStringLiteral("slurm");
  for (const QString& a : form_->slurmArgs())
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
  watcher->setFuture(dryRunLater(args));
}

}  // namespace lwb::app::pages
