#include "app/pages/compare/compare_page.h"

#include "app/app_options.h"
#include "app/pages/common/page_frame.h"
#include "app/pages/compare/compare_table_model.h"
#include "app/pages/compare/lr_robustness_demo.h"
#include "app/run_manager.h"
#include "app/run_session.h"
#include "widgets/frontier_scatter_plot.h"
#include "widgets/metric_plot.h"
#include "widgets/palette.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QSignalBlocker>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
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
    const QStringList found = findRunDirectories(dir);
    if (found.isEmpty()) b.errors << QObject::tr("%1: not a run directory and holds none").arg(dir);
    for (const QString& runDir : found) {
      try {
        b.runs.push_back(loadRunRecord(runDir));
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
  for (auto* b : {addOne, addMany, addSession, reloadButton, remove}) bar->addWidget(b);
  bar->addWidget(demo);
  bar->addStretch(1);
  bar->addWidget(exportCsv);
  bar->addWidget(savePlotsButton);

  connect(addOne, &QPushButton::clicked, this, [this] { chooseFolder(false); });
  connect(addMany, &QPushButton::clicked, this, [this] { chooseFolder(true); });
  connect(addSession, &QPushButton::clicked, this, &ComparePage::addSessionRuns);
  connect(reloadButton, &QPushButton::clicked, this, &ComparePage::reload);
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
    RunSession* s = sessionRuns_->startRun(r.config, r.label, error);
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
  QSplitter* plots = twoPanes(Qt::Horizontal, metricPane, scatter_, this);
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
  return table_;
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
  for (RunRecord& r : loaded) {
    auto same = std::find_if(runs_.begin(), runs_.end(), [&](const RunRecord& x) { return x.dir == r.dir; });
    if (same != runs_.end()) *same = std::move(r);
    else runs_.push_back(std::move(r));
  }
  message_->setText(errors.join(QLatin1Char('\n')));
  message_->setStyleSheet(errors.isEmpty() ? QString() : QStringLiteral("color: #b00020;"));
  message_->setVisible(!errors.isEmpty());
  rebuild();
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
  table_->resizeColumnsToContents();

  const QString keep = metricBox_->currentText();
  {
    const QSignalBlocker block(metricBox_);
    metricBox_->clear();
    metricBox_->addItems(metricNames(runs_));
    const int i = metricBox_->findText(keep.isEmpty() ? QStringLiteral("val_loss") : keep);
    metricBox_->setCurrentIndex(i >= 0 ? i : 0);
  }
  showMetric();

  std::vector<widgets::ScatterPoint> points;
  for (const RunRecord& r : runs_)
    if (r.lipschitzBound && r.valLoss && *r.lipschitzBound > 0) points.push_back({r.method, r.name, *r.lipschitzBound, *r.valLoss});
  scatter_->setPoints(points);
  scatter_->requestReplot();
  Q_EMIT runsChanged();
}

void ComparePage::showMetric() {
  const QString name = metricBox_->currentText();
  metric_->clearRuns();
  metric_->setAxisLabels(tr("step"), name);
  metric_->setTitle(name);
  for (size_t i = 0; i < runs_.size(); ++i) {
    const RunRecord& r = runs_[i];
    metric_->setRun(r.dir, r.name, colors_[i]);
    const auto it = r.series.find(name);
    if (it != r.series.end()) metric_->setSeries(r.dir, it->second.steps, it->second.values);
  }
  metric_->requestReplot();
}

bool ComparePage::exportTableCsv(const QString& path, QString* error) const {
  QSaveFile f(path);
  if (!f.open(QIODevice::WriteOnly) || f.write(widgets::toCsvText(model_->toCsvTable()).toUtf8()) < 0 || !f.commit()) {
    if (error) *error = tr("Cannot write %1: %2").arg(path, f.errorString());
    return false;
  }
  return true;
}

bool ComparePage::savePlots(const QString& path, QString* error) {
  const QFileInfo info(path);
  const QString ext = info.suffix().toLower();
  if (ext != QLatin1String("png") && ext != QLatin1String("pdf")) {
    if (error) *error = tr("%1: the file name must end in .png or .pdf").arg(path);
    return false;
  }
  const QString stem = info.absolutePath() + QLatin1Char('/') + info.completeBaseName();
  const QString metricPath = stem + QStringLiteral("-metric.") + ext, frontierPath = stem + QStringLiteral("-frontier.") + ext;
  if (ext == QLatin1String("png")) return metric_->savePng(metricPath, 0, 0, error) && scatter_->savePng(frontierPath, 0, 0, error);
  return metric_->savePdf(metricPath, 0, 0, error) && scatter_->savePdf(frontierPath, 0, 0, error);
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
  const QString path = QFileDialog::getSaveFileName(this, tr("Export the table as CSV"), QStringLiteral("runs.csv"), tr("CSV (*.csv)"));
  QString error;
  if (!path.isEmpty() && !exportTableCsv(path, &error)) QMessageBox::warning(this, tr("Export failed"), error);
}

void ComparePage::savePlotsDialog() {
  const QString path = QFileDialog::getSaveFileName(this, tr("Save both plots"), QStringLiteral("compare.png"),
                                                    tr("PNG image (*.png);;PDF document (*.pdf)"));
  QString error;
  if (!path.isEmpty() && !savePlots(path, &error)) QMessageBox::warning(this, tr("Saving failed"), error);
}

}  // namespace lwb::app::pages
