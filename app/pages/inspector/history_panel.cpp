#include "app/pages/inspector/history_panel.h"

#include "app/pages/common/id_combo.h"
#include "widgets/curve_plot.h"
#include "app/pages/common/latest_wins.h"
#include "inspect/checkpoint_history.h"
#include "widgets/number_format.h"
#include "widgets/palette.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSplitter>
#include <QStringList>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

namespace lwb::app::pages {
namespace {

// Progress from a worker to a bar on the GUI thread (the bar may be gone by then).
std::function<void(size_t, size_t)> reportTo(QProgressBar* bar) {
  QPointer<QProgressBar> p = bar;
  return [p](size_t done, size_t total) {
    QMetaObject::invokeMethod(p, [p, done, total] {
      if (!p) return;
      p->setRange(0, static_cast<int>(total));
      p->setValue(static_cast<int>(done));
    }, Qt::QueuedConnection);
  };
}

QTableWidgetItem* numberItem(double v) {
  auto* item = new QTableWidgetItem(std::isfinite(v) ? widgets::displayNumber(v, 'g', 5) : QStringLiteral("—"));
  item->setData(Qt::UserRole, v);
  item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
  return item;
}

}  // namespace

HistoryPanel::HistoryPanel(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("historyPanel"));
  loader_ = new LatestWins(this);
  deltaJob_ = new LatestWins(this);
  createHistoryFields();
  createDeltaFields();
  layOut();
  connectFields();
}

// The metric over steps: its box, Cancel, progress, messages and the plot.
void HistoryPanel::createHistoryFields() {
  title_ = new QLabel(tr("Open a run directory (a folder with checkpoints/step_N.safetensors) to see its checkpoints over steps."), this);
  title_->setWordWrap(true);
  metric_ = new QComboBox(this);
  metric_->setObjectName(QStringLiteral("historyMetricBox"));
  for (const auto& m : inspect::historyMetrics()) {
    metric_->addItem(registryText(m.title), QString::fromUtf8(m.key.data(), static_cast<qsizetype>(m.key.size())));
    metric_->setItemData(metric_->count() - 1, registryText(m.description), Qt::ToolTipRole);
  }
  metric_->setToolTip(tr("The metric drawn per layer over the checkpoints' steps"));
  cancel_ = new QPushButton(tr("Ca&ncel"), this);
  cancel_->setEnabled(false);
  progress_ = new QProgressBar(this);
  progress_->setMaximumWidth(220);
  progress_->setVisible(false);
  message_ = new QLabel(this);
  message_->setWordWrap(true);
  message_->setStyleSheet(QStringLiteral("color: #b00020;"));
  message_->setVisible(false);
  skipped_ = new QLabel(this);
  skipped_->setWordWrap(true);
  skipped_->setVisible(false);
  plot_ = new widgets::CurvePlot(this);
  plot_->setObjectName(QStringLiteral("historyPlot"));
  plot_->setTitle(tr("Per layer over steps"));
  plot_->setLegendColumns(3);
}

// Two checkpoints and the per-layer table of what changed between them.
void HistoryPanel::createDeltaFields() {
  a_ = new QComboBox(this);
  a_->setObjectName(QStringLiteral("checkpointA"));
  b_ = new QComboBox(this);
  b_->setObjectName(QStringLiteral("checkpointB"));
  compare_ = new QPushButton(tr("Com&pare"), this);
  compare_->setEnabled(false);
  compare_->setToolTip(tr("Per layer: Δσ₁ = σ₁(B) − σ₁(A), Δα = α(B) − α(A), and ‖W_B − W_A‖_F / ‖W_A‖_F"));
  delta_ = new QTableWidget(0, DeltaColumns, this);
  delta_->setObjectName(QStringLiteral("deltaTable"));
  delta_->setHorizontalHeaderLabels({tr("Layer"), tr("Shape"), tr("σ₁ (A)"), tr("σ₁ (B)"), tr("Δσ₁"), tr("Δα"), tr("‖ΔW‖/‖W‖")});
  delta_->horizontalHeaderItem(RelativeChange)->setToolTip(tr("‖W_B − W_A‖_F / ‖W_A‖_F: how far the layer moved between the two checkpoints"));
  delta_->horizontalHeaderItem(DeltaAlpha)->setToolTip(tr("Change of WeightWatcher's power-law α (a heuristic reading, see the table's legend)"));
  delta_->verticalHeader()->setVisible(false);
  delta_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  delta_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  delta_->horizontalHeader()->setSectionResizeMode(Layer, QHeaderView::Stretch);
  delta_->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);  // file order until a header is clicked
  delta_->setSortingEnabled(true);
}

void HistoryPanel::layOut() {
  auto* top = new QHBoxLayout;
  top->addWidget(new QLabel(tr("Metric:"), this));
  top->addWidget(metric_, 1);
  top->addWidget(cancel_);
  top->addWidget(progress_);
  auto* pair = new QHBoxLayout;
  pair->addWidget(new QLabel(tr("Checkpoint A:"), this));
  pair->addWidget(a_, 1);
  pair->addWidget(new QLabel(tr("B:"), this));
  pair->addWidget(b_, 1);
  pair->addWidget(compare_);
  auto* lower = new QWidget(this);
  auto* lowerLayout = new QVBoxLayout(lower);
  lowerLayout->setContentsMargins(0, 0, 0, 0);
  lowerLayout->addLayout(pair);
  lowerLayout->addWidget(delta_, 1);
  auto* split = new QSplitter(Qt::Vertical, this);
  split->addWidget(plot_);
  split->addWidget(lower);
  split->setSizes({500, 300});
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(title_);
  layout->addLayout(top);
  layout->addWidget(message_);
  layout->addWidget(skipped_);
  layout->addWidget(split, 1);
}

void HistoryPanel::connectFields() {
  connect(metric_, &QComboBox::currentIndexChanged, this, &HistoryPanel::replot);
  connect(compare_, &QPushButton::clicked, this, &HistoryPanel::compare);
  // Choosing a checkpoint shows that pair's deltas (LatestWins drops superseded pairs).
  connect(a_, &QComboBox::currentIndexChanged, this, &HistoryPanel::compare);
  connect(b_, &QComboBox::currentIndexChanged, this, &HistoryPanel::compare);
  connect(cancel_, &QPushButton::clicked, this, &HistoryPanel::cancel);
  const auto busy = [this] {
    const bool on = loader_->busy() || deltaJob_->busy();
    cancel_->setEnabled(on);
    progress_->setVisible(on);
    compare_->setEnabled(!deltaJob_->busy() && history_ && !history_->checkpoints.empty());
  };
  for (LatestWins* job : {loader_, deltaJob_}) {
    connect(job, &LatestWins::busyChanged, this, busy);
    connect(job, &LatestWins::errorOccurred, this, &HistoryPanel::showError);
    connect(job, &LatestWins::cancelled, this, [this] {
      message_->setText(tr("Cancelled."));
      message_->setVisible(true);
      Q_EMIT cancelled();
    });
  }
}

HistoryPanel::~HistoryPanel() = default;

void HistoryPanel::openRun(const QString& runDir) {
  runDir_ = runDir;
  message_->setVisible(false);
  title_->setText(tr("Reading the checkpoints of %1…").arg(QDir::toNativeSeparators(runDir)));
  progress_->setRange(0, 0);
  const std::string dir = runDir.toStdString();
  const auto progress = reportTo(progress_);
  loader_->submit([this, dir, progress](const CancelFlag& cancel) -> LatestWins::Continuation {
    auto h = std::make_shared<const inspect::CheckpointHistory>(inspect::checkpointHistory(dir, progress, &cancel));
    if (!h->complete) throw Cancelled();  // a part-read history is not shown as the run's
    return [this, h] { showHistory(h); };
  });
}

void HistoryPanel::cancel() {
  loader_->cancel();
  deltaJob_->cancel();
}

bool HistoryPanel::isBusy() const { return loader_->busy() || deltaJob_->busy(); }

void HistoryPanel::showError(const QString& message) {
  message_->setText(message);
  message_->setVisible(true);
  Q_EMIT failed(message);
}

void HistoryPanel::showHistory(std::shared_ptr<const inspect::CheckpointHistory> h) {
  history_ = std::move(h);
  QString title = tr("%1: %n checkpoint(s)", nullptr, static_cast<int>(history_->checkpoints.size())).arg(QDir::toNativeSeparators(runDir_));
  // One checkpoint (a run with the defaults keeps only its last): every Δ would read 0.
  if (history_->checkpoints.size() == 1)
    title += tr(" — a history needs two: train with checkpoint_every (e.g. 100) and keep_checkpoints (e.g. 20)");
  title_->setText(title);
  QStringList skipped;
  for (const auto& s : history_->skipped) skipped << tr("step %1 skipped: %2").arg(s.step).arg(QString::fromStdString(s.error));
  skipped_->setText(skipped.join(QLatin1Char('\n')));
  skipped_->setVisible(!skipped.isEmpty());
  for (QComboBox* box : {a_, b_}) {
    const QSignalBlocker block(box);
    box->clear();
    for (const auto& c : history_->checkpoints)
      box->addItem(tr("step %1").arg(c.step), QString::fromStdString(c.path.string()));
  }
  // Default pair: the first and the newest checkpoint, compared at once.
  {
    const QSignalBlocker blockA(a_), blockB(b_);
    a_->setCurrentIndex(0);
    b_->setCurrentIndex(b_->count() - 1);
  }
  compare_->setEnabled(!history_->checkpoints.empty());
  delta_->setRowCount(0);
  replot();
  Q_EMIT historyLoaded();
  compare();
}

void HistoryPanel::replot() {
  plot_->clearCurves();
  if (!history_) return;
  const size_t metric = static_cast<size_t>(std::max(0, metric_->currentIndex()));
  plot_->setAxisLabels(tr("step"), metric_->currentText());
  int i = 0;
  for (const auto& layer : history_->layerNames()) {
    const auto values = history_->series(layer, metric);
    std::vector<double> xs, ys;
    for (size_t k = 0; k < values.size(); ++k)
      if (std::isfinite(values[k])) {  // undefined (NaN) or absent: a gap, not a zero
        xs.push_back(static_cast<double>(history_->checkpoints[k].step));
        ys.push_back(values[k]);
      }
    widgets::CurvePlot::Style style;
    style.pen = widgets::runPenStyle(i);
    style.color = widgets::runColor(i++);
    style.markers = true;
    plot_->setCurve(QString::fromStdString(layer), std::move(xs), std::move(ys), style);
  }
  plot_->requestReplot();
}

void HistoryPanel::compare() {
  if (!history_ || a_->currentIndex() < 0 || b_->currentIndex() < 0) return;
  const std::string pa = a_->currentData().toString().toStdString(), pb = b_->currentData().toString().toStdString();
  message_->setVisible(false);
  progress_->setRange(0, 0);
  const auto progress = reportTo(progress_);
  deltaJob_->submit([this, pa, pb, progress](const CancelFlag& cancel) -> LatestWins::Continuation {
    auto d = std::make_shared<const inspect::CheckpointDelta>(inspect::checkpointDelta(pa, pb, progress, &cancel));
    if (!d->complete) throw Cancelled();
    return [this, d] {
      delta_->setSortingEnabled(false);
      delta_->setRowCount(static_cast<int>(d->layers.size()));
      for (int r = 0; r < static_cast<int>(d->layers.size()); ++r) {
        const auto& l = d->layers[static_cast<size_t>(r)];
        delta_->setItem(r, Layer, new QTableWidgetItem(QString::fromStdString(l.name)));
        QStringList dims;
        for (int64_t s : l.shape) dims << QString::number(s);
        delta_->setItem(r, Shape, new QTableWidgetItem(dims.join(QStringLiteral("×"))));
        delta_->setItem(r, Sigma1A, numberItem(l.sigma1A));
        delta_->setItem(r, Sigma1B, numberItem(l.sigma1B));
        delta_->setItem(r, DeltaSigma1, numberItem(l.deltaSigma1()));
        delta_->setItem(r, DeltaAlpha, numberItem(l.deltaAlpha()));
        delta_->setItem(r, RelativeChange, numberItem(l.relativeChange));
      }
      delta_->setSortingEnabled(true);
      QStringList notes;
      if (!d->onlyInA.empty()) notes << tr("only in A: %n layer(s)", nullptr, static_cast<int>(d->onlyInA.size()));
      if (!d->onlyInB.empty()) notes << tr("only in B: %n layer(s)", nullptr, static_cast<int>(d->onlyInB.size()));
      if (!d->shapeChanged.empty()) notes << tr("shape changed: %n layer(s)", nullptr, static_cast<int>(d->shapeChanged.size()));
      if (!d->noSpectrum.empty())
        notes << tr("NaN/Inf, no spectrum: %n layer(s)", nullptr, static_cast<int>(d->noSpectrum.size()));
      if (!d->prefixA.empty() || !d->prefixB.empty())
        notes << tr("no names in common as written: matched without “%1” (A) and “%2” (B)")
                     .arg(QString::fromStdString(d->prefixA), QString::fromStdString(d->prefixB));
      message_->setText(notes.join(QStringLiteral("; ")));
      message_->setVisible(!notes.isEmpty());
      Q_EMIT deltaReady();
    };
  });
}

}  // namespace lwb::app::pages
