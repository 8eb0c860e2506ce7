#include "app/pages/compare/compare_page.h"

#include "app/app_options.h"
#include "app/pages/common/page_export.h"
#include "app/pages/common/page_frame.h"
#include "app/pages/compare/compare_loading.h"
#include "app/pages/compare/compare_plots.h"
#include "app/pages/compare/compare_table_model.h"
#include "app/pages/compare/lr_robustness_demo.h"
#include "app/runs/run_manager.h"
#include "run/config_schema.h"
#include "app/runs/run_session.h"
#include "widgets/frontier_scatter_plot.h"
#include "widgets/metric_plot.h"
#include "widgets/palette.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QHash>
#include <QSet>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QMessageBox>
#include <QRegularExpression>
#include <QFileDialog>
#include <QFutureWatcher>
#include "widgets/flow_layout.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QUndoCommand>
#include <QUndoStack>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <map>
#include <cmath>

namespace lwb::app::pages {

// "Remove selected" as one undo step. Runs are named by folder, not row: between removal and
// undo the table may have been re-sorted, reloaded or had runs added.
class RemoveRunsCommand : public QUndoCommand {
 public:
  RemoveRunsCommand(ComparePage* page, QStringList dirs)
      : QUndoCommand(dirs.size() == 1 ? ComparePage::tr("Remove 1 run from the comparison")
                                      : ComparePage::tr("Remove %1 runs from the comparison").arg(dirs.size())),
        page_(page), dirs_(std::move(dirs)) {}
  void redo() override { taken_ = page_->takeRuns(dirs_); }
  void undo() override { page_->putBackRuns(taken_); }

 private:
  ComparePage* page_;
  QStringList dirs_;
  std::vector<std::pair<size_t, RunRecord>> taken_;
};

ComparePage::ComparePage(RunManager* sessionRuns, QWidget* parent) : QWidget(parent), sessionRuns_(sessionRuns) {
  setObjectName(QStringLiteral("comparePage"));
  undo_ = new QUndoStack(this);
  undo_->setUndoLimit(50);  // each step keeps the removed runs' records (thousands from an index)
  QLayout* bar = createButtonBar();
  message_ = new QLabel(this);
  message_->setObjectName(QStringLiteral("compareMessage"));
  message_->setWordWrap(true);
  message_->setVisible(false);
  plots_ = new ComparePlots(&runs_, &colors_, this);
  QWidget* table = createTable();
  QSplitter* split = twoPanes(Qt::Vertical, plots_, table, this);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  setPageLayout(this, bar, message_, split);
  connect(plots_, &ComparePlots::frontierOptionsChanged, this, &ComparePage::updateScatter);
}

bool ComparePage::applyOptions(const AppOptions& options, QString*) {
  addRunDirectories(options.compareDirs);
  return true;
}

QLayout* ComparePage::createButtonBar() {
  auto* addOne = new QPushButton(tr("&Add run folder…"), this);
  auto* addMany = new QPushButton(tr("Add a&ll runs in a folder…"), this);
  auto* addSession = new QPushButton(tr("Add this &session's runs"), this);
  auto* openIndexButton = new QPushButton(tr("Open run &index…"), this);
  openIndexButton->setToolTip(tr("A sweep's index.sqlite (or any run index): thousands of runs in one query"));
  auto* reloadButton = new QPushButton(tr("Rel&oad"), this);
  auto* remove = new QPushButton(tr("Re&move selected"), this);
  remove->setObjectName(QStringLiteral("removeRunsButton"));
  remove->setToolTip(tr("Take the selected runs out of the comparison (Delete in the table; Ctrl+Z brings them back). "
                        "Their folders are not touched."));
  auto* exportCsv = new QPushButton(tr("Export table as &CSV…"), this);
  auto* savePlotsButton = new QPushButton(tr("Save &plots…"), this);
  auto* demo = new QPushButton(tr("Learning-rate robustness &demo"), this);
  demo->setObjectName(QStringLiteral("lrDemoButton"));
  demo->setToolTip(tr("The Manifold Muon paper's Fig. 2: AdamW, Muon and Manifold Muon on the CPU ICL presets at their best "
                      "learning rate and at 10×, trained now and compared here"));
  demo->setEnabled(sessionRuns_ != nullptr);
  // Wraps onto a second line in a narrow window (widgets/flow_layout.h).
  auto* bar = new widgets::FlowLayout;
  for (auto* b : {addOne, addMany, addSession, openIndexButton, reloadButton, remove, demo, exportCsv, savePlotsButton}) bar->addWidget(b);

  connect(addOne, &QPushButton::clicked, this, [this] { chooseFolder(false); });
  connect(addMany, &QPushButton::clicked, this, [this] { chooseFolder(true); });
  connect(addSession, &QPushButton::clicked, this, &ComparePage::addSessionRuns);
  connect(reloadButton, &QPushButton::clicked, this, &ComparePage::reload);
  connect(openIndexButton, &QPushButton::clicked, this, [this] {
    const QString f = QFileDialog::getOpenFileName(this, tr("A run index"), QString(), tr("Run index (*.sqlite);;All files (*)"));
    if (!f.isEmpty()) openIndex(f);
  });
  connect(remove, &QPushButton::clicked, this, &ComparePage::removeSelected);
  connect(exportCsv, &QPushButton::clicked, this, &ComparePage::exportDialog);
  connect(savePlotsButton, &QPushButton::clicked, this, &ComparePage::savePlotsDialog);
  connect(demo, &QPushButton::clicked, this, [this] {
    QString error;
    if (!startLrRobustnessDemo(&error)) QMessageBox::warning(this, tr("Cannot start the demo"), error);
  });
  return bar;
}

bool ComparePage::startLrRobustnessDemo(QString* error) {
  if (!sessionRuns_) {
    if (error) *error = tr("no run manager in this window");
    return false;
  }
  const QList<DemoRun> runs = lrRobustnessRuns(PresetCatalog::load(), error);
  if (runs.isEmpty()) return false;
  demoDirs_.clear();
  for (const DemoRun& r : runs) {
    run::RunConfig config;
    try {
      config = run::parseRunConfig(r.config);
    } catch (const InputError& e) {
      if (error) *error = r.label + QStringLiteral(": ") + QString::fromStdString(e.what());
      return false;
    }
    RunSession* s = sessionRuns_->startRun(config, r.label, error);
    if (!s) return false;
    demoDirs_ << s->runDir();
  }
  if (!demoTimer_) {
    demoTimer_ = new QTimer(this);
    demoTimer_->setInterval(3000);
    connect(demoTimer_, &QTimer::timeout, this, &ComparePage::refreshDemo);
  }
  demoTimer_->start();
  setMetric(QStringLiteral("train_loss"));
  return true;
}

void ComparePage::refreshDemo() {
  // The run folders appear once each worker has written its config; read what exists.
  QStringList ready;
  bool active = false;
  for (const RunSession* s : sessionRuns_->sessions())
    if (demoDirs_.contains(s->runDir())) {
      active = active || isActive(s->state());
      if (QFileInfo::exists(s->runDir() + QStringLiteral("/config.json"))) ready << s->runDir();
    }
  if (!ready.isEmpty() && pending_ == 0) addRunDirectories(ready);
  if (!active) demoTimer_->stop();
}

QWidget* ComparePage::createTable() {
  model_ = new CompareTableModel(this);
  model_->setRuns(&runs_, &colors_);
  proxy_ = new QSortFilterProxyModel(this);
  proxy_->setSourceModel(model_);
  proxy_->setSortRole(Qt::UserRole);
  proxy_->setFilterRole(CompareTableModel::kFilterRole);
  table_ = new QTableView(this);
  table_->setObjectName(QStringLiteral("compareTable"));
  table_->setModel(proxy_);
  table_->setSortingEnabled(true);
  table_->sortByColumn(-1, Qt::AscendingOrder);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->verticalHeader()->setVisible(false);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->setAlternatingRowColors(true);
  // Before any run: the headers at their own width ("loss (paper window)" was cut at both ends
  // in a 100-px column until the first run resized the columns).
  table_->resizeColumnsToContents();
  connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &ComparePage::loadSelectedSeries);
  auto* removeKey = new QAction(tr("Remove selected"), table_);
  removeKey->setShortcut(QKeySequence::Delete);
  removeKey->setShortcutContext(Qt::WidgetShortcut);
  removeKey->setProperty("shortcutScope", tr("Compare runs: the runs table"));  // Help → Keyboard shortcuts
  table_->addAction(removeKey);
  connect(removeKey, &QAction::triggered, this, &ComparePage::removeSelected);
  auto* pane = new QWidget(this);
  auto* layout = new QVBoxLayout(pane);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(createFilterRow());
  layout->addWidget(table_, 1);
  return pane;
}

QWidget* ComparePage::createFilterRow() {
  auto* row = new QWidget(this);
  auto* layout = new QHBoxLayout(row);
  layout->setContentsMargins(0, 0, 0, 0);
  filterColumn_ = new QComboBox(row);
  filterColumn_->addItem(tr("any column"), -1);
  for (int c = 0; c < CompareTableModel::ColumnCount; ++c)
    filterColumn_->addItem(model_->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString(), c);
  filter_ = new QLineEdit(row);
  filter_->setObjectName(QStringLiteral("compareFilter"));
  filter_->setPlaceholderText(tr("regular expression, e.g. muon|adamw  or  ^00[0-4]"));
  filter_->setClearButtonEnabled(true);
  layout->addWidget(new QLabel(tr("Filter"), row));
  layout->addWidget(filterColumn_);
  layout->addWidget(filter_, 1);
  const auto apply = [this] { setFilter(filter_->text(), filterColumn_->currentData().toInt()); };
  connect(filter_, &QLineEdit::textChanged, this, apply);
  connect(filterColumn_, &QComboBox::currentIndexChanged, this, apply);
  return row;
}

bool ComparePage::setFilter(const QString& regex, int column) {
  const QRegularExpression re(regex, QRegularExpression::CaseInsensitiveOption);
  if (!re.isValid()) {
    filter_->setStyleSheet(QStringLiteral("color: #b00020;"));
    filter_->setToolTip(tr("Not a regular expression: %1").arg(re.errorString()));
    return false;
  }
  filter_->setStyleSheet(QString());
  filter_->setToolTip(QString());
  if (filter_->text() != regex) {
    const QSignalBlocker block(filter_);
    filter_->setText(regex);
  }
  proxy_->setFilterKeyColumn(column);
  proxy_->setFilterRegularExpression(re);
  updateScatter();
  return true;
}

int ComparePage::visibleRunCount() const { return proxy_->rowCount(); }

void ComparePage::setColorBy(const QString& key) { plots_->setColorBy(key); }
void ComparePage::setGroupSeeds(bool on) { plots_->setGroupSeeds(on); }
void ComparePage::setFrontierPerGroup(bool on) { plots_->setFrontierPerGroup(on); }
QComboBox* ComparePage::metricBox() const { return plots_->metricBox(); }
widgets::MetricPlot* ComparePage::metricPlot() const { return plots_->metricPlot(); }
widgets::FrontierScatterPlot* ComparePage::scatterPlot() const { return plots_->scatterPlot(); }

// The frontier from the runs the filter shows.
void ComparePage::updateScatter() {
  std::vector<size_t> shown;
  for (int row = 0; row < proxy_->rowCount(); ++row) shown.push_back(static_cast<size_t>(proxy_->mapToSource(proxy_->index(row, 0)).row()));
  plots_->showFrontier(shown);
}


void ComparePage::openIndex(const QString& file) { addRunDirectories({file}); }

// Runs read from an index have no curves yet: the selected ones (at most 50) are read from
// their folders on a worker.
void ComparePage::loadSelectedSeries() {
  QStringList dirs;
  for (const QModelIndex& i : table_->selectionModel()->selectedRows()) {
    const RunRecord& r = runs_[static_cast<size_t>(proxy_->mapToSource(i).row())];
    if (!r.seriesLoaded) dirs << r.dir;
    if (dirs.size() >= 50) break;
  }
  if (!dirs.isEmpty()) addRunDirectories(dirs);
}

void ComparePage::addSessionRuns() {
  if (!sessionRuns_) return;
  QStringList dirs;
  for (const RunSession* s : sessionRuns_->sessions()) dirs << s->runDir();
  addRunDirectories(dirs);
}

void ComparePage::removeSelected() {
  QStringList dirs;
  for (const QModelIndex& i : table_->selectionModel()->selectedRows())
    dirs << runs_[static_cast<size_t>(proxy_->mapToSource(i).row())].dir;
  if (!dirs.isEmpty()) undo_->push(new RemoveRunsCommand(this, dirs));
}

std::vector<std::pair<size_t, RunRecord>> ComparePage::takeRuns(const QStringList& dirs) {
  const QSet<QString> wanted(dirs.begin(), dirs.end());
  std::vector<std::pair<size_t, RunRecord>> taken;
  std::vector<RunRecord> kept;
  kept.reserve(runs_.size());
  for (size_t i = 0; i < runs_.size(); ++i) {
    if (wanted.contains(runs_[i].dir)) taken.emplace_back(i, std::move(runs_[i]));
    else kept.push_back(std::move(runs_[i]));
  }
  runs_ = std::move(kept);
  rebuild();
  return taken;
}

void ComparePage::putBackRuns(const std::vector<std::pair<size_t, RunRecord>>& taken) {
  QSet<QString> present;
  for (const RunRecord& r : runs_) present.insert(r.dir);
  for (const auto& [row, record] : taken)  // ascending rows: each lands where it was
    if (!present.contains(record.dir)) runs_.insert(runs_.begin() + static_cast<std::ptrdiff_t>(std::min(row, runs_.size())), record);
  rebuild();
}

void ComparePage::addRunDirectories(const QStringList& dirs) {
  if (dirs.isEmpty()) return;
  ++pending_;
  auto* watcher = new QFutureWatcher<RunBatch>(this);
  connect(watcher, &QFutureWatcher<RunBatch>::finished, this, [this, watcher] {
    RunBatch b = watcher->result();
    watcher->deleteLater();
    --pending_;
    merge(std::move(b.runs), b.errors);
  });
  watcher->setFuture(QtConcurrent::run([dirs] { return loadRunBatch(dirs); }));
}

void ComparePage::reload() {
  QStringList dirs;
  for (const auto& r : runs_) dirs << r.dir;
  addRunDirectories(dirs);
}

void ComparePage::merge(std::vector<RunRecord> loaded, const QStringList& errors) {
  QHash<QString, size_t> at;  // thousands of runs from an index: no quadratic search
  at.reserve(static_cast<qsizetype>(runs_.size()));
  for (size_t i = 0; i < runs_.size(); ++i) at.insert(runs_[i].dir, i);
  for (RunRecord& r : loaded) {
    const auto same = at.constFind(r.dir);
    if (same != at.constEnd()) {
      // An index row does not replace a run already read in full.
      if (r.seriesLoaded || !runs_[*same].seriesLoaded) runs_[*same] = std::move(r);
    } else {
      at.insert(r.dir, runs_.size());
      runs_.push_back(std::move(r));
    }
  }
  message_->setText(errors.join(QLatin1Char('\n')));
  message_->setStyleSheet(errors.isEmpty() ? QString() : QStringLiteral("color: #b00020;"));
  message_->setVisible(!errors.isEmpty());
  rebuild();
  // TensorBoard runs are followed live: appended records appear without a Reload.
  if (std::any_of(runs_.begin(), runs_.end(), [](const RunRecord& r) { return r.tensorBoard; })) {
    if (!followTimer_) {
      followTimer_ = new QTimer(this);
      followTimer_->setInterval(followIntervalMs_);
      connect(followTimer_, &QTimer::timeout, this, &ComparePage::followTensorBoard);
    }
    if (!followTimer_->isActive()) followTimer_->start();
  }
}

void ComparePage::setFollowInterval(int ms) {
  followIntervalMs_ = ms;
  if (followTimer_) followTimer_->setInterval(ms);
}

bool ComparePage::isFollowingTensorBoard() const { return followTimer_ && followTimer_->isActive(); }

void ComparePage::followTensorBoard() {
  if (following_) return;  // one read at a time; the next tick catches up
  std::vector<RunRecord> shown;
  for (const RunRecord& r : runs_)
    if (r.tensorBoard) shown.push_back(r);
  if (shown.empty()) {
    followTimer_->stop();
    return;
  }
  following_ = true;
  auto* watcher = new QFutureWatcher<RunBatch>(this);
  connect(watcher, &QFutureWatcher<RunBatch>::finished, this, [this, watcher] {
    RunBatch b = watcher->result();
    watcher->deleteLater();
    following_ = false;
    if (b.runs.empty() && b.errors.isEmpty()) return;
    for (RunRecord& r : b.runs)
      for (RunRecord& old : runs_)
        if (old.dir == r.dir && old.tensorBoard) old = std::move(r);  // a run removed meanwhile stays removed
    if (!b.errors.isEmpty()) {
      message_->setText(b.errors.join(QLatin1Char('\n')));
      message_->setStyleSheet(QStringLiteral("color: #b00020;"));
      message_->setVisible(true);
    }
    rebuild();
    Q_EMIT tensorBoardFollowed();
  });
  // On a worker: only the bytes appended since the last read (followTensorBoardRecord).
  watcher->setFuture(QtConcurrent::run([shown = std::move(shown)]() mutable { return followTensorBoardRuns(std::move(shown)); }));
}

void ComparePage::removeRun(int index) {
  if (index < 0 || index >= static_cast<int>(runs_.size())) return;
  undo_->push(new RemoveRunsCommand(this, {runs_[static_cast<size_t>(index)].dir}));
}

QString ComparePage::errorText() const { return message_->isVisible() ? message_->text() : QString(); }
QString ComparePage::currentMetric() const { return plots_->currentMetric(); }
void ComparePage::setMetric(const QString& name) { plots_->setMetric(name); }

void ComparePage::rebuild() {
  colors_.clear();
  for (size_t i = 0; i < runs_.size(); ++i) colors_.push_back(widgets::runColor(static_cast<int>(i)));
  model_->refresh();
  // Columns no run fills (attention figures of MLP runs, paper-window losses of runs that
  // have none) are hidden: three empty columns pushed the bound and speed out of view. The
  // CSV export keeps every column.
  for (int c = CompareTableModel::Optimizer; c < CompareTableModel::ColumnCount; ++c) {
    bool any = false;
    for (int r = 0; r < model_->rowCount() && !any; ++r)
      any = !model_->data(model_->index(r, c), Qt::DisplayRole).toString().isEmpty();
    table_->setColumnHidden(c, !any && model_->rowCount() > 0);
  }
  if (runs_.size() <= 500) table_->resizeColumnsToContents();  // it measures every row

  plots_->setMetricNames(metricNames(runs_));
  updateScatter();
  Q_EMIT runsChanged();
}

bool ComparePage::exportTableCsv(const QString& path, QString* error) const {
  return writeCsvFile(path, model_->toCsvTable(), error);
}

bool ComparePage::savePlots(const QString& path, QString* error) {
  return savePlotPair(path, plots_->metricPlot(), QStringLiteral("metric"), plots_->scatterPlot(), QStringLiteral("frontier"), error);
}

void ComparePage::replotNow() { plots_->replotNow(); }

void ComparePage::chooseFolder(bool scanChildren) {
  const QString dir = QFileDialog::getExistingDirectory(
      this, scanChildren ? tr("A folder of run directories") : tr("A run directory"), runs_.empty() ? QString() : runs_.back().dir);
  if (!dir.isEmpty()) addRunDirectories({dir});
}

void ComparePage::exportDialog() {
  exportCsvDialog(this, QStringLiteral("runs.csv"), [this](const QString& path, QString* error) { return exportTableCsv(path, error); });
}

void ComparePage::savePlotsDialog() {
  pages::savePlotsDialog(this, QStringLiteral("compare.png"), [this](const QString& path, QString* error) { return savePlots(path, error); });
}

}  // namespace lwb::app::pages
