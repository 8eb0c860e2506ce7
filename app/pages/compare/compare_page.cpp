#include "app/pages/compare/compare_page.h"

#include "io/tfevents.h"

#include "app/app_options.h"
#include "app/pages/common/page_export.h"
#include "app/pages/common/page_frame.h"
#include "app/pages/compare/compare_table_model.h"
#include "app/pages/compare/lr_robustness_demo.h"
#include "app/run_manager.h"
#include "run/config_schema.h"
#include "app/run_session.h"
#include "widgets/frontier_scatter_plot.h"
#include "widgets/metric_plot.h"
#include "widgets/palette.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHash>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QMessageBox>
#include <QRegularExpression>
#include <QFileDialog>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <map>
#include <cmath>

namespace lwb::app::pages {
namespace {

struct Batch {
  std::vector<RunRecord> runs;
  QStringList errors;
};

Batch loadBatch(const QStringList& dirs) {
  Batch b;
  for (const QString& dir : dirs) {
    // A run index (a file, or a folder holding index.sqlite that is no run directory itself):
    // one query for every run in it.
    const QFileInfo info(dir);
    if (info.isDir() && io::isTfEventsFileName(info.fileName().toStdString())) {
      b.errors << QObject::tr("%1: named like a TensorBoard event file, but it is a folder").arg(dir);
      continue;
    }
    if (info.isFile() && isTensorBoardRun(dir)) {
      try {
        b.runs.push_back(loadTensorBoardRecord(dir, &b.errors));
      } catch (const std::exception& e) {
        b.errors << QString::fromUtf8(e.what());
      }
      continue;
    }
    const QString indexFile = info.isFile() ? dir : dir + QStringLiteral("/index.sqlite");
    if (info.isFile() || (QFileInfo::exists(indexFile) && findRunDirectories(dir) != QStringList{info.absoluteFilePath()})) {
      try {
        for (RunRecord& r : loadIndexRecords(indexFile)) b.runs.push_back(std::move(r));
      } catch (const std::exception& e) {
        b.errors << QString::fromUtf8(e.what());
      }
      continue;
    }
    const QStringList found = findRunDirectories(dir);
    if (found.isEmpty()) b.errors << QObject::tr("%1: not a run directory and holds none").arg(dir);
    for (const QString& runDir : found) {
      try {
        b.runs.push_back(isTensorBoardRun(runDir) ? loadTensorBoardRecord(runDir, &b.errors) : loadRunRecord(runDir));
      } catch (const std::exception& e) {
        b.errors << QString::fromUtf8(e.what());
      }
    }
  }
  return b;
}

}  // namespace

ComparePage::ComparePage(RunManager* sessionRuns, QWidget* parent) : QWidget(parent), sessionRuns_(sessionRuns) {
  setObjectName(QStringLiteral("comparePage"));
  QHBoxLayout* bar = createButtonBar();
  message_ = new QLabel(this);
  message_->setObjectName(QStringLiteral("compareMessage"));
  message_->setWordWrap(true);
  message_->setVisible(false);
  QWidget* plots = createPlots();
  QWidget* table = createTable();
  QSplitter* split = twoPanes(Qt::Vertical, plots, table, this);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  setPageLayout(this, bar, message_, split);
  connect(metricBox_, &QComboBox::currentIndexChanged, this, &ComparePage::showMetric);
}

bool ComparePage::applyOptions(const AppOptions& options, QString*) {
  addRunDirectories(options.compareDirs);
  return true;
}

QHBoxLayout* ComparePage::createButtonBar() {
  auto* addOne = new QPushButton(tr("Add run folder…"), this);
  auto* addMany = new QPushButton(tr("Add all runs in a folder…"), this);
  auto* addSession = new QPushButton(tr("Add this session's runs"), this);
  auto* openIndexButton = new QPushButton(tr("Open run index…"), this);
  openIndexButton->setToolTip(tr("A sweep's index.sqlite (or any run index): thousands of runs in one query"));
  auto* reloadButton = new QPushButton(tr("Reload"), this);
  auto* remove = new QPushButton(tr("Remove selected"), this);
  auto* exportCsv = new QPushButton(tr("Export table as CSV…"), this);
  auto* savePlotsButton = new QPushButton(tr("Save plots…"), this);
  auto* demo = new QPushButton(tr("Learning-rate robustness demo"), this);
  demo->setObjectName(QStringLiteral("lrDemoButton"));
  demo->setToolTip(tr("Seed 002 Fig. 2: AdamW, Muon and Manifold Muon on the CPU ICL presets at their best "
                      "learning rate and at 10×, trained now and compared here"));
  demo->setEnabled(sessionRuns_ != nullptr);
  auto* bar = new QHBoxLayout;
  for (auto* b : {addOne, addMany, addSession, openIndexButton, reloadButton, remove}) bar->addWidget(b);
  bar->addWidget(demo);
  bar->addStretch(1);
  bar->addWidget(exportCsv);
  bar->addWidget(savePlotsButton);

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

QWidget* ComparePage::createPlots() {
  metricBox_ = new QComboBox(this);
  metricBox_->setObjectName(QStringLiteral("metricBox"));
  metricBox_->setMinimumContentsLength(18);
  metric_ = new widgets::MetricPlot(this);
  metric_->setObjectName(QStringLiteral("compareMetricPlot"));
  scatter_ = new widgets::FrontierScatterPlot(this);
  scatter_->setObjectName(QStringLiteral("frontierPlot"));
  scatter_->setTitle(tr("Lipschitz bound vs validation loss (best loss per bound bin ringed)"));
  scatter_->setAxisLabels(tr("Lipschitz upper bound"), tr("final validation loss"));
  scatter_->setLogX(true);
  auto* metricPane = new QWidget(this);
  auto* metricLayout = new QVBoxLayout(metricPane);
  metricLayout->setContentsMargins(0, 0, 0, 0);
  auto* metricRow = new QHBoxLayout;
  metricRow->addWidget(new QLabel(tr("Metric"), this));
  metricRow->addWidget(metricBox_, 1);
  metricLayout->addLayout(metricRow);
  metricLayout->addWidget(metric_, 1);
  colorBy_ = new QComboBox(this);
  colorBy_->setObjectName(QStringLiteral("colorBy"));
  colorBy_->addItem(tr("method"), QStringLiteral("method"));
  colorBy_->addItem(tr("optimizer / method"), QStringLiteral("optimizer/method"));
  colorBy_->addItem(tr("optimizer"), QStringLiteral("optimizer"));
  for (const run::FormField& f : run::formFields()) colorBy_->addItem(QString::fromStdString(f.key), QString::fromStdString(f.key));
  groupSeeds_ = new QCheckBox(tr("Group seeds (mean ± std)"), this);
  groupSeeds_->setObjectName(QStringLiteral("groupSeeds"));
  perGroup_ = new QCheckBox(tr("Frontier per colour"), this);
  perGroup_->setObjectName(QStringLiteral("frontierPerGroup"));
  perGroup_->setChecked(true);
  scatter_->setFrontierPerGroup(true);
  auto* scatterPane = new QWidget(this);
  auto* scatterLayout = new QVBoxLayout(scatterPane);
  scatterLayout->setContentsMargins(0, 0, 0, 0);
  auto* scatterRow = new QHBoxLayout;
  scatterRow->addWidget(new QLabel(tr("Colour by"), this));
  scatterRow->addWidget(colorBy_, 1);
  scatterRow->addWidget(groupSeeds_);
  scatterRow->addWidget(perGroup_);
  scatterLayout->addLayout(scatterRow);
  scatterLayout->addWidget(scatter_, 1);
  connect(colorBy_, &QComboBox::currentIndexChanged, this, &ComparePage::updateScatter);
  connect(groupSeeds_, &QCheckBox::toggled, this, [this] {
    updateScatter();
    showMetric();
  });
  connect(perGroup_, &QCheckBox::toggled, this, [this](bool on) {
    scatter_->setFrontierPerGroup(on);
    scatter_->requestReplot();
  });
  QSplitter* plots = twoPanes(Qt::Horizontal, metricPane, scatterPane, this);
  plots->setSizes({800, 800});
  return plots;
}

QWidget* ComparePage::createTable() {
  model_ = new CompareTableModel(this);
  model_->setRuns(&runs_, &colors_);
  proxy_ = new QSortFilterProxyModel(this);
  proxy_->setSourceModel(model_);
  proxy_->setSortRole(Qt::UserRole);
  table_ = new QTableView(this);
  table_->setObjectName(QStringLiteral("compareTable"));
  table_->setModel(proxy_);
  table_->setSortingEnabled(true);
  table_->sortByColumn(-1, Qt::AscendingOrder);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->verticalHeader()->setVisible(false);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->setAlternatingRowColors(true);
  connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &ComparePage::loadSelectedSeries);
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

void ComparePage::setColorBy(const QString& key) {
  const int i = colorBy_->findData(key);
  if (i >= 0) colorBy_->setCurrentIndex(i);
}
void ComparePage::setGroupSeeds(bool on) { groupSeeds_->setChecked(on); }
void ComparePage::setFrontierPerGroup(bool on) { perGroup_->setChecked(on); }

void ComparePage::openIndex(const QString& file) { addRunDirectories({file}); }

QString ComparePage::colorKeyOf(const RunRecord& r) const {
  const QString key = colorBy_->currentData().toString();
  if (key == QLatin1String("method")) return r.method;
  const QString optimizer = configValue(r, QStringLiteral("optimizer.kind"));
  if (key == QLatin1String("optimizer")) return optimizer;
  if (key == QLatin1String("optimizer/method")) return optimizer + QStringLiteral(" / ") + r.method;
  const QString v = configValue(r, key);
  return key + QStringLiteral(" = ") + (v.isEmpty() ? QStringLiteral("—") : v);
}

// The frontier plot from the runs the filter shows: one point per run, or with "Group seeds"
// one per group of runs that differ only by seed (mean bound, mean loss ± std).
void ComparePage::updateScatter() {
  std::vector<widgets::ScatterPoint> points;
  QHash<QString, int> groupAt;
  std::vector<std::vector<std::pair<double, double>>> members;
  const bool grouped = groupSeeds_->isChecked();
  for (int row = 0; row < proxy_->rowCount(); ++row) {
    const RunRecord& r = runs_[static_cast<size_t>(proxy_->mapToSource(proxy_->index(row, 0)).row())];
    if (!r.lipschitzBound || !r.valLoss || *r.lipschitzBound <= 0) continue;
    if (!grouped) {
      points.push_back({colorKeyOf(r), r.name, *r.lipschitzBound, *r.valLoss, 0, r.task});
      continue;
    }
    const QString key = seedGroupKey(r);
    auto it = groupAt.find(key);
    if (it == groupAt.end()) {
      it = groupAt.insert(key, static_cast<int>(points.size()));
      points.push_back({colorKeyOf(r), r.name, 0, 0, 0, r.task});
      members.emplace_back();
    }
    members[static_cast<size_t>(*it)].push_back({*r.lipschitzBound, *r.valLoss});
  }
  if (grouped)
    for (size_t i = 0; i < points.size(); ++i) {
      const auto& m = members[i];
      double mx = 0, my = 0, vy = 0;
      for (const auto& [x, y] : m) {
        mx += x / static_cast<double>(m.size());
        my += y / static_cast<double>(m.size());
      }
      for (const auto& [x, y] : m) vy += (y - my) * (y - my);
      points[i].x = mx;
      points[i].y = my;
      points[i].yStd = m.size() > 1 ? std::sqrt(vy / static_cast<double>(m.size() - 1)) : 0;
      points[i].label += tr(" (mean of %n seed(s))", nullptr, static_cast<int>(m.size()));
    }
  scatter_->setPoints(points);
  scatter_->requestReplot();
}

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
  const QModelIndexList rows = table_->selectionModel()->selectedRows();
  std::vector<int> indices;
  for (const QModelIndex& i : rows) indices.push_back(proxy_->mapToSource(i).row());
  std::sort(indices.rbegin(), indices.rend());
  for (int i : indices) removeRun(i);
}

void ComparePage::addRunDirectories(const QStringList& dirs) {
  if (dirs.isEmpty()) return;
  ++pending_;
  auto* watcher = new QFutureWatcher<Batch>(this);
  connect(watcher, &QFutureWatcher<Batch>::finished, this, [this, watcher] {
    Batch b = watcher->result();
    watcher->deleteLater();
    --pending_;
    merge(std::move(b.runs), b.errors);
  });
  watcher->setFuture(QtConcurrent::run([dirs] { return loadBatch(dirs); }));
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
  auto* watcher = new QFutureWatcher<Batch>(this);
  connect(watcher, &QFutureWatcher<Batch>::finished, this, [this, watcher] {
    Batch b = watcher->result();
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
  watcher->setFuture(QtConcurrent::run([shown = std::move(shown)]() mutable {
    Batch b;
    for (RunRecord& r : shown) {
      try {
        if (followTensorBoardRecord(r, &b.errors)) b.runs.push_back(std::move(r));
      } catch (const std::exception& e) {
        b.errors << QString::fromUtf8(e.what());
      }
    }
    return b;
  }));
}

void ComparePage::removeRun(int index) {
  if (index < 0 || index >= static_cast<int>(runs_.size())) return;
  runs_.erase(runs_.begin() + index);
  rebuild();
}

QString ComparePage::errorText() const { return message_->isVisible() ? message_->text() : QString(); }
QString ComparePage::currentMetric() const { return metricBox_->currentText(); }

void ComparePage::setMetric(const QString& name) {
  const int i = metricBox_->findText(name);
  if (i >= 0) metricBox_->setCurrentIndex(i);
}

void ComparePage::rebuild() {
  colors_.clear();
  for (size_t i = 0; i < runs_.size(); ++i) colors_.push_back(widgets::runColor(static_cast<int>(i)));
  model_->refresh();
  if (runs_.size() <= 500) table_->resizeColumnsToContents();  // it measures every row

  const QString keep = metricBox_->currentText();
  {
    const QSignalBlocker block(metricBox_);
    metricBox_->clear();
    metricBox_->addItems(metricNames(runs_));
    const int i = metricBox_->findText(keep.isEmpty() ? QStringLiteral("val_loss") : keep);
    metricBox_->setCurrentIndex(i >= 0 ? i : 0);
  }
  showMetric();

  updateScatter();
  Q_EMIT runsChanged();
}

void ComparePage::showMetric() {
  const QString name = metricBox_->currentText();
  metric_->clearRuns();
  metric_->setAxisLabels(tr("step"), name);
  metric_->setTitle(name);
  // Runs read from an index have no curves until selected; with "Group seeds", runs that
  // differ only by seed become one mean curve with a ± std envelope (two faint lines).
  std::map<QString, std::vector<size_t>> groups;
  std::vector<QString> order;
  for (size_t i = 0; i < runs_.size(); ++i) {
    if (runs_[i].series.find(name) == runs_[i].series.end()) continue;
    const QString key = groupSeeds_->isChecked() ? seedGroupKey(runs_[i]) : runs_[i].dir;
    if (!groups.count(key)) order.push_back(key);
    groups[key].push_back(i);
  }
  for (const QString& key : order) {
    const std::vector<size_t>& members = groups[key];
    const RunRecord& first = runs_[members.front()];
    const QColor color = colors_[members.front()];
    if (members.size() == 1) {
      const MetricSeries& ms = first.series.at(name);
      metric_->setRun(first.dir, first.name, color);
      metric_->setSeries(first.dir, ms.steps, ms.values);
      continue;
    }
    std::map<double, std::vector<double>> byStep;  // steps every member logged
    for (size_t m : members) {
      const MetricSeries& ms = runs_[m].series.at(name);
      for (size_t k = 0; k < ms.steps.size(); ++k) byStep[ms.steps[k]].push_back(ms.values[k]);
    }
    std::vector<double> steps, mean, lo, hi;
    for (const auto& [step, values] : byStep) {
      if (values.size() != members.size()) continue;
      double mu = 0, var = 0;
      for (double v : values) mu += v / static_cast<double>(values.size());
      for (double v : values) var += (v - mu) * (v - mu);
      const double sd = std::sqrt(var / static_cast<double>(values.size() - 1));
      steps.push_back(step);
      mean.push_back(mu);
      lo.push_back(mu - sd);
      hi.push_back(mu + sd);
    }
    const QString label = tr("%1 (mean of %n seed(s))", nullptr, static_cast<int>(members.size())).arg(first.name);
    metric_->setRun(first.dir, label, color);
    metric_->setSeries(first.dir, steps, mean);
    for (const auto& [suffix, values] : {std::pair{QStringLiteral("#lo"), &lo}, std::pair{QStringLiteral("#hi"), &hi}}) {
      metric_->setRun(first.dir + suffix, label + (suffix == QLatin1String("#lo") ? QStringLiteral(" − std") : QStringLiteral(" + std")),
                      widgets::withAlpha(color, 110));
      metric_->setSeries(first.dir + suffix, steps, *values);
    }
  }
  if (order.empty() && !runs_.empty())
    metric_->setTitle(tr("Select runs in the table to plot their curves (runs from a run index are read on demand)"));
  // A run that blew up (seed 002 Fig. 2's 10x runs: losses of 1e16 beside 3.7) flattens every
  // other curve to a line at 0 on a linear axis. Such a metric opens on a log axis, once per
  // metric name; after that the box is the user's.
  double lo = INFINITY, hi = 0;
  for (const QString& key : order)
    for (size_t m : groups[key])
      for (double v : runs_[m].series.at(name).values)
        if (v > 0 && std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
  if (hi > 1e4 * lo && !autoLogY_.contains(name)) {
    autoLogY_ << name;
    metric_->setLogY(true);
  }
  metric_->requestReplot();
}

bool ComparePage::exportTableCsv(const QString& path, QString* error) const {
  return writeCsvFile(path, model_->toCsvTable(), error);
}

bool ComparePage::savePlots(const QString& path, QString* error) {
  return savePlotPair(path, metric_, QStringLiteral("metric"), scatter_, QStringLiteral("frontier"), error);
}

void ComparePage::replotNow() {
  metric_->replotNow();
  scatter_->replotNow();
}

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
