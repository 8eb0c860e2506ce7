#include "app/pages/inspector/inspector_page.h"
#include "widgets/save_dialog.h"

#include "widgets/number_format.h"

#include "app/app_options.h"
#include "app/pages/common/latest_wins.h"
#include "app/pages/common/page_frame.h"
#include "app/pages/inspector/history_panel.h"
#include "app/pages/inspector/inspector_loader.h"
#include "app/pages/inspector/tensor_table_model.h"
#include "app/pages/inspector/text_sample_panel.h"
#include "app/pages/inspector/what_if_panel.h"
#include "data/task_kinds.h"
#include "inspect/orientation.h"
#include "run/run_directory_reader.h"
#include "run/run_layout.h"
#include "app/pages/common/method_form.h"
#include "widgets/bar_chart_plot.h"
#include "widgets/lipschitz_bound_plot.h"
#include "widgets/palette.h"
#include "widgets/spectrum_plot.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSizePolicy>
#include <QLineEdit>
#include <QMenu>
#include <QMimeData>
#include <QSaveFile>
#include <QToolButton>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace lwb::app::pages {
namespace {

const QString kRun = QStringLiteral("file");

}  // namespace

InspectorPage::InspectorPage(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("inspectorPage"));
  setAcceptDrops(true);
  loader_ = new LatestWins(this);
  model_ = new TensorTableModel(this);
  proxy_ = new TensorFilterProxy(this);
  proxy_->setSourceModel(model_);

  QHBoxLayout* top = createFileBar();
  QWidget* left = createTensorTable();
  QWidget* right = createPlots();
  QSplitter* split = twoPanes(Qt::Horizontal, left, right, this);
  split->setSizes({700, 900});
  // A run directory's checkpoints over steps (issue 29 §2) beside the one-file view.
  history_ = new HistoryPanel(this);
  tabs_ = new QTabWidget(this);
  tabs_->setObjectName(QStringLiteral("inspectorTabs"));
  tabs_->addTab(split, tr("Checkpoint"));
  tabs_->addTab(history_, tr("Run history"));
  tabs_->setTabToolTip(1, tr("Open a run directory: every metric per layer over its checkpoints, and two checkpoints side by side"));
  setPageLayout(this, top, message_, tabs_);
  connectWidgets();
}

bool InspectorPage::applyOptions(const AppOptions& options, QString*) {
  if (!options.inspectFile.isEmpty()) openFile(options.inspectFile);
  return true;
}

QHBoxLayout* InspectorPage::createFileBar() {
  open_ = new QPushButton(tr("&Open file…"), this);
  openFolder_ = new QPushButton(tr("Open &model folder…"), this);
  openFolder_->setToolTip(tr("A Hugging Face model folder: model.safetensors.index.json (or pytorch_model.bin.index.json) and its shards; "
                             "or a run directory: its checkpoints as a history"));
  cancel_ = new QPushButton(tr("&Cancel"), this);
  cancel_->setEnabled(false);
  fileLabel_ = new QLabel(tr("No file. Open or drop a .safetensors, .npz, .npy or .pt file, or a model folder."), this);
  fileLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  // Wraps rather than widens: unwrapped, the German hint alone made this page, and with it
  // the main window, 1665 px wide, cut on a 1600-px screen (issue 32).
  fileLabel_->setWordWrap(true);
  fileLabel_->setMinimumWidth(150);
  progress_ = new QProgressBar(this);
  progress_->setMaximumWidth(220);
  progress_->setVisible(false);
  message_ = new QLabel(this);
  message_->setObjectName(QStringLiteral("inspectorMessage"));
  message_->setWordWrap(true);
  message_->setStyleSheet(QStringLiteral("color: #b00020;"));
  message_->setVisible(false);
  filter_ = new QLineEdit(this);
  filter_->setPlaceholderText(tr("Filter by name (text or *wildcard*)"));
  filter_->setClearButtonEnabled(true);
  matricesOnly_ = new QCheckBox(tr("Matrices only"), this);
  matricesOnly_->setChecked(true);
  sigmaMax_ = new QDoubleSpinBox(this);
  sigmaMax_->setRange(0.001, 1e6);
  sigmaMax_->setDecimals(3);
  sigmaMax_->setValue(1.0);
  rmsUnits_ = new QCheckBox(tr("RMS→RMS units"), this);
  rmsUnits_->setToolTip(tr("σmax and the bars in the RMS→RMS norm σ₁·√(d_in/d_out) of a (d_out, d_in) matrix"));
  rmsUnits_->setChecked(true);
  orientation_ = new QComboBox(this);
  orientation_->setObjectName(QStringLiteral("orientationBox"));
  orientation_->addItem(tr("stored (out, in): PyTorch Linear"), false);
  orientation_->addItem(tr("stored (in, out): Conv1D (GPT-2), JAX"), true);
  orientation_->setToolTip(tr("How the file stores 2-D weights. The RMS→RMS norm σ₁·√(d_in/d_out) depends on which side "
                              "is the input; Hugging Face GPT-2's c_attn, c_fc and c_proj are (in, out) and are detected (c_attn and c_fc "
                              "wider than tall; nanoGPT's and CLIP's Linear layers of the same names are not)."));
  // As wide as "stored (out, in)", not as the longest entry: the popup shows them whole, and the
  // full width pushed the page past a 1024 × 768 screen.
  orientation_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  orientation_->setMinimumContentsLength(16);

  auto* top = new QHBoxLayout;
  top->addWidget(open_);
  top->addWidget(openFolder_);
  top->addWidget(cancel_);
  top->addWidget(progress_);
  top->addWidget(fileLabel_, 1);
  top->addWidget(new QLabel(tr("σmax"), this));
  top->addWidget(sigmaMax_);
  top->addWidget(rmsUnits_);
  top->addWidget(orientation_);
  return top;
}

QWidget* InspectorPage::createTensorTable() {
  table_ = new QTableView(this);
  table_->setObjectName(QStringLiteral("tensorTable"));
  table_->setModel(proxy_);
  table_->setSortingEnabled(true);
  table_->sortByColumn(-1, Qt::AscendingOrder);  // file order until a header is clicked
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->verticalHeader()->setVisible(false);
  // Numbers sized to their contents; the name takes the rest (elided in the middle: the
  // tail names the matrix, the tooltip has it all).
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->horizontalHeader()->setSectionResizeMode(TensorTableModel::Name, QHeaderView::Stretch);
  table_->setTextElideMode(Qt::ElideMiddle);
  table_->setWordWrap(false);
  table_->setAlternatingRowColors(true);
  auto* filterRow = new QHBoxLayout;
  filterRow->addWidget(filter_, 1);
  filterRow->addWidget(matricesOnly_);
  filterRow->addWidget(createColumnChooser());
  exportCsv_ = new QPushButton(tr("E&xport CSV…"), this);
  exportCsv_->setObjectName(QStringLiteral("exportCsv"));
  exportCsv_->setToolTip(tr("Every tensor and every metric, with the key names of lipschitz-cli inspect"));
  exportCsv_->setEnabled(false);
  filterRow->addWidget(exportCsv_);
  auto* legend = new QLabel(tr("α colour: red below 2 (over-fit), amber above 6 (under-trained): WeightWatcher's heuristic for unconstrained "
                               "training, not a test (spectrally capped matrices read high by construction). "
                               "λmax = σ₁² is WeightWatcher's \"spectral norm\"; the bounds use σ₁."),
                            this);
  legend->setObjectName(QStringLiteral("metricLegend"));
  legend->setWordWrap(true);
  bound_ = new QLabel(this);
  bound_->setObjectName(QStringLiteral("boundLabel"));
  bound_->setWordWrap(true);
  bound_->setTextFormat(Qt::RichText);
  trace_ = new QTableWidget(0, 5, this);
  trace_->setHorizontalHeaderLabels({tr("Layer"), tr("L block"), tr("L after"), tr("activation bound"), tr("how L after follows")});
  // Say what each column is: "L block 376" beside "L after 94.8" is only readable with the rule.
  const QStringList tips{tr("The layer (residual block part, MLP layer or head)."),
                         tr("This layer's own Lipschitz factor: the attention or MLP block's constant, or an MLP layer's weight norm."),
                         tr("The bound of the network up to and including this layer (RMS→RMS)."),
                         tr("An upper bound on the largest token RMS of the activation after this layer."),
                         tr("How the previous row's L and this row's L block give L after: composition multiplies; a "
                            "residual block mixes, L ← (1 − α)·L + α·L·L_block (the Lipschitz-transformers paper, App. D eq. 14).")};
  for (int c = 0; c < tips.size(); ++c) trace_->horizontalHeaderItem(c)->setToolTip(tips[c]);
  trace_->verticalHeader()->setVisible(false);
  // Numbers and their headers whole ("activation bound" was cut to "tivierungsschrar" in
  // German); the explanation takes the rest.
  for (int c = 0; c < 4; ++c) trace_->horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
  trace_->horizontalHeader()->setStretchLastSection(true);
  trace_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  auto* left = new QWidget(this);
  auto* leftLayout = new QVBoxLayout(left);
  leftLayout->setContentsMargins(0, 0, 0, 0);
  leftLayout->addLayout(filterRow);
  leftLayout->addWidget(table_, 3);
  leftLayout->addWidget(legend);
  leftLayout->addWidget(bound_);
  leftLayout->addWidget(trace_, 1);
  return left;
}

QWidget* InspectorPage::createPlots() {
  spectrum_ = new widgets::SpectrumPlot(this);
  spectrum_->setObjectName(QStringLiteral("inspectorSpectrum"));
  spectrum_->setTitle(tr("Spectrum of the selected matrix"));
  spectrum_->setLogY(true);
  spectrum_->setStepControlsVisible(false);
  bars_ = new widgets::BarChartPlot(this);
  for (widgets::PlotView* p : std::initializer_list<widgets::PlotView*>{spectrum_, bars_})
    p->setEmptyText(tr("Nothing open (Open file… or drop one here)"));
  bars_->setObjectName(QStringLiteral("inspectorBars"));
  barMetric_ = new QComboBox(this);
  barMetric_->setObjectName(QStringLiteral("barMetricBox"));
  barMetric_->addItem(tr("σ₁ or RMS→RMS norm (σmax units)"), -1);
  for (int c = TensorTableModel::Frobenius; c < TensorTableModel::noteColumn(); ++c)
    barMetric_->addItem(model_->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString(), c);
  barMetric_->setToolTip(tr("What the bars show for every shown matrix"));
  auto* barsBox = new QWidget(this);
  auto* barsLayout = new QVBoxLayout(barsBox);
  barsLayout->setContentsMargins(0, 0, 0, 0);
  auto* barsRow = new QHBoxLayout;
  barsRow->addWidget(new QLabel(tr("Bars:"), this));
  barsRow->addWidget(barMetric_, 1);
  barsLayout->addLayout(barsRow);
  barsLayout->addWidget(bars_, 1);
  // What if and Generate text share one place as tabs: stacked under the two plots they left
  // the spectrum 40 px tall at 1600 × 1000. The text tab is offered for character-level runs.
  whatIf_ = new WhatIfPanel(this);
  sample_ = new TextSamplePanel(this);
  tools_ = new QTabWidget(this);
  tools_->setObjectName(QStringLiteral("inspectorTools"));
  tools_->setDocumentMode(true);
  const QString whatIfTitle = whatIf_->title(), sampleTitle = sample_->title();
  whatIf_->setTitle(QString());  // the tab says it
  sample_->setTitle(QString());
  tools_->addTab(whatIf_, whatIfTitle);
  tools_->addTab(sample_, tr("Generate text"));
  tools_->setTabToolTip(1, sampleTitle);
  tools_->setTabVisible(1, false);
  lineNote_ = new QLabel(this);
  lineNote_->setObjectName(QStringLiteral("sigmaMaxNote"));
  lineNote_->setWordWrap(true);
  auto* spectrumBox = new QWidget(this);
  auto* spectrumLayout = new QVBoxLayout(spectrumBox);
  spectrumLayout->setContentsMargins(0, 0, 0, 0);
  spectrumLayout->addWidget(spectrum_, 1);
  spectrumLayout->addWidget(lineNote_);
  auto* right = new QSplitter(Qt::Vertical, this);
  right->addWidget(spectrumBox);
  right->addWidget(barsBox);
  right->addWidget(tools_);
  right->setSizes({420, 300, 260});
  // At 1024 × 768 the splitter gave the bars ~30 px: a title over the tick labels and no bars
  // (newcomer's trial). Below these heights the page scrolls instead.
  spectrum_->setMinimumHeight(170);
  bars_->setMinimumHeight(210);
  right->setChildrenCollapsible(false);
  return right;
}

void InspectorPage::connectWidgets() {
  connect(open_, &QPushButton::clicked, this, &InspectorPage::chooseFile);
  connect(openFolder_, &QPushButton::clicked, this, [this] {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Open a Hugging Face model folder"), QFileInfo(file_.path).absolutePath());
    if (!dir.isEmpty()) openFile(dir);
  });
  connect(cancel_, &QPushButton::clicked, this, &InspectorPage::cancelLoad);
  connect(filter_, &QLineEdit::textChanged, this, [this](const QString& t) {
    proxy_->setNameFilter(t);
    updateBars();
  });
  connect(matricesOnly_, &QCheckBox::toggled, this, [this](bool on) {
    proxy_->setMatricesOnly(on);
    updateBars();
  });
  connect(proxy_, &QSortFilterProxyModel::layoutChanged, this, &InspectorPage::updateBars);
  connect(sigmaMax_, &QDoubleSpinBox::valueChanged, this, [this] {
    updateSigmaMaxLine();
    updateBars();
  });
  connect(rmsUnits_, &QCheckBox::toggled, this, [this] {
    updateSigmaMaxLine();
    updateBars();
  });
  connect(orientation_, &QComboBox::currentIndexChanged, this, &InspectorPage::applyOrientation);
  connect(barMetric_, &QComboBox::currentIndexChanged, this, &InspectorPage::updateBars);
  connect(exportCsv_, &QPushButton::clicked, this, &InspectorPage::chooseCsvFile);
  connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &InspectorPage::onSelectionChanged);
  connect(bars_, &widgets::BarChartPlot::barClicked, this, [this](int, const QString& name) { selectTensor(name); });
  connect(loader_, &LatestWins::busyChanged, this, [this](bool busy) {
    cancel_->setEnabled(busy);
    progress_->setVisible(busy);
  });
  connect(loader_, &LatestWins::errorOccurred, this, &InspectorPage::showError);
  connect(loader_, &LatestWins::cancelled, this, [this] {
    message_->setText(file_.path.isEmpty() ? tr("Loading cancelled.") : tr("Loading cancelled; still showing %1.").arg(QFileInfo(file_.path).fileName()));
    message_->setVisible(true);
    Q_EMIT loadCancelled();
  });
  connect(whatIf_, &WhatIfPanel::previewReady, this, [this](const std::vector<double>& before, const std::vector<double>& after) {
    if (selected_.isEmpty()) return;
    // Solid: what the method makes of the tensor; dashed: the tensor as it is.
    spectrum_->setCurveNames(tr("after the method (what if)"), tr("%1 now").arg(selected_));
    spectrum_->setRun(kRun, tr("after the method (what if)"), widgets::runColor(1));
    spectrum_->addSnapshot(kRun, selected_, 0, after, before);
    spectrum_->requestReplot();
  });
  connect(whatIf_, &WhatIfPanel::previewCleared, this, &InspectorPage::onSelectionChanged);
  connect(whatIf_, &WhatIfPanel::openInClipLab, this, &InspectorPage::openInClipLab);
}

void InspectorPage::chooseFile() {
  const QString path = QFileDialog::getOpenFileName(this, tr("Open a checkpoint"), QFileInfo(file_.path).absolutePath(),
                                                    tr("Tensor files (*.safetensors *.npz *.npy *.pt *.pth);;All files (*)"));
  if (!path.isEmpty()) openFile(path);
}

QWidget* InspectorPage::createColumnChooser() {
  columns_ = new QToolButton(this);
  columns_->setObjectName(QStringLiteral("columnsButton"));
  columns_->setText(tr("Columns"));
  columns_->setToolTip(tr("Choose the table's columns (WeightWatcher-parity metrics among them)"));
  columns_->setPopupMode(QToolButton::InstantPopup);
  auto* menu = new QMenu(columns_);
  for (int c = TensorTableModel::Sigma1; c < TensorTableModel::noteColumn(); ++c) {
    QAction* a = menu->addAction(model_->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString());
    a->setToolTip(model_->headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString());
    a->setCheckable(true);
    a->setChecked(TensorTableModel::shownByDefault(c));
    a->setData(c);
    table_->setColumnHidden(c, !a->isChecked());
    connect(a, &QAction::toggled, this, [this, c](bool on) { table_->setColumnHidden(c, !on); });
  }
  menu->setToolTipsVisible(true);
  columns_->setMenu(menu);
  // The same menu from the header's context menu.
  table_->horizontalHeader()->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(table_->horizontalHeader(), &QWidget::customContextMenuRequested, this,
          [this, menu](const QPoint& p) { menu->popup(table_->horizontalHeader()->mapToGlobal(p)); });
  return columns_;
}

bool InspectorPage::exportCsv(const QString& path, QString* error) const {
  QSaveFile f(path);
  if (!f.open(QIODevice::WriteOnly | QIODevice::Text)) {
    if (error) *error = tr("cannot write %1: %2").arg(path, f.errorString());
    return false;
  }
  f.write(model_->toCsv().toUtf8());
  if (!f.commit()) {
    if (error) *error = tr("cannot write %1: %2").arg(path, f.errorString());
    return false;
  }
  return true;
}

void InspectorPage::chooseCsvFile() {
  const QFileInfo source(file_.path);
  const QString path = widgets::getSavePath(this, tr("Export the table as CSV"),
                                            source.absoluteDir().filePath(source.completeBaseName() + QStringLiteral("_spectra.csv")),
                                            tr("CSV files (*.csv)"), QStringLiteral("csv"));
  if (path.isEmpty()) return;
  QString error;
  if (!exportCsv(path, &error)) {
    message_->setText(error);
    message_->setVisible(true);
  }
}

void InspectorPage::openFile(const QString& path) {
  // A run directory (checkpoints/ inside) opens as a history of its checkpoints.
  const QFileInfo info(path);
  if (info.isDir() && QFileInfo(QDir(path).filePath(QString::fromLatin1(run::layout::kCheckpointsDir))).isDir()) {
    message_->setVisible(false);
    history_->openRun(path);
    tabs_->setCurrentWidget(history_);
    // The Checkpoint tab gets the run's newest checkpoint (its σmax and bound): it said "No
    // file" beside σmax 1 for a run trained at σmax 2 (newcomer's trial). Its own errors show
    // on that tab (loadFile quiet); the history is open either way.
    std::optional<std::filesystem::path> newest;
    try {
      newest = run::RunDirectoryReader(path.toStdString()).newestCheckpoint();
    } catch (const std::exception&) {
    }
    if (newest) loadFile(QString::fromStdString(newest->string()), true);
    return;
  }
  loadFile(path, false);
}

void InspectorPage::loadFile(const QString& path, bool quiet) {
  quietLoad_ = quiet;
  if (!quiet) message_->setVisible(false);
  progress_->setRange(0, 0);
  fileLabel_->setText(tr("Reading %1…").arg(QFileInfo(path).fileName()));
  QPointer<QProgressBar> bar = progress_;
  loader_->submit([this, path, bar](const CancelFlag& cancel) -> LatestWins::Continuation {
    const auto report = [bar](int done, int total) {
      QMetaObject::invokeMethod(
          bar,
          [bar, done, total] {
            if (!bar) return;
            bar->setRange(0, total);
            bar->setValue(done);
          },
          Qt::QueuedConnection);
    };
    InspectedFile file = inspectFile(path, report, &cancel);
    return [this, file = std::move(file)]() mutable { showFile(std::move(file)); };
  });
}

void InspectorPage::cancelLoad() {
  loader_->cancel();
  history_->cancel();
}
bool InspectorPage::isLoading() const { return loader_->busy() || history_->isBusy(); }
QString InspectorPage::errorText() const { return message_->isVisible() ? message_->text() : QString(); }

void InspectorPage::showError(const QString& message) {
  if (quietLoad_) {
    quietLoad_ = false;
    fileLabel_->setText(tr("The run's newest checkpoint could not be shown: %1").arg(message));
    return;
  }
  message_->setText(tr("Cannot open: %1").arg(message));
  message_->setVisible(true);
  fileLabel_->setText(file_.path.isEmpty() ? tr("No file.") : file_.path);
  Q_EMIT failed(message);
}

void InspectorPage::showFile(InspectedFile file) {
  quietLoad_ = false;
  file_ = std::move(file);
  int matrices = 0;
  for (const auto& t : file_.tensors) matrices += t.isMatrix() ? 1 : 0;
  QString label = tr("%1 — %2, %3 tensors, %4 matrices").arg(file_.path, file_.format).arg(file_.tensors.size()).arg(matrices);
  // What the reader left out (a pickled nn.Module, a NumPy array) is said, not silently dropped.
  if (!file_.skipped.isEmpty()) label += tr(", entries left out: %n (hover for which)", "", static_cast<int>(file_.skipped.size()));
  fileLabel_->setText(label);
  fileLabel_->setToolTip(file_.skipped.isEmpty() ? QString() : tr("Left out by the reader:\n%1").arg(file_.skipped.join(QLatin1Char('\n'))));
  // GPT-2's Conv1D layers store (in, out); everything else read here is (out, in).
  std::vector<inspect::NamedShape> shapes;
  for (const auto& t : file_.tensors) shapes.push_back({t.name.toStdString(), t.shape});
  const bool conv1d = inspect::storedInOut(shapes);
  {
    const QSignalBlocker block(orientation_);
    orientation_->setCurrentIndex(conv1d ? 1 : 0);
  }
  model_->setTensors(file_.tensors);
  if (conv1d) applyOrientation();
  // Workbench checkpoints also hold optimizer moments: start with the weights.
  filter_->setText(file_.workbenchCheckpoint ? QStringLiteral("param.") : QString());
  trace_->setRowCount(0);
  if (file_.sigmaMax) {
    const QSignalBlocker block(sigmaMax_);
    sigmaMax_->setValue(*file_.sigmaMax);
    rmsUnits_->setChecked(file_.sigmaMaxRms);
  }
  // The note column only when some tensor has a note.
  exportCsv_->setEnabled(!file_.tensors.empty());
  table_->setColumnHidden(TensorTableModel::noteColumn(), std::none_of(file_.tensors.begin(), file_.tensors.end(),
                                                               [](const InspectedTensor& t) { return !t.note.isEmpty(); }));
  if (file_.workbenchCheckpoint) {
    QString text = tr("<b>Workbench checkpoint</b>, step %1: %2<br>").arg(file_.step).arg(file_.runSummary.toHtmlEscaped());
    if (file_.lipschitzBound) text += tr("Lipschitz upper bound (RMS→RMS): <b>%L1</b>").arg(widgets::displayNumber(*file_.lipschitzBound, 'g', 5));
    if (file_.lipschitzBound && file_.singleHeadBound > 0)
      text += tr(" · App. D, single-head argument: %L1 (not a bound with several heads)").arg(widgets::displayNumber(file_.singleHeadBound, 'g', 5));
    else text += file_.boundNote.toHtmlEscaped();
    bound_->setText(text);
    std::vector<widgets::TraceFactor> factors;
    for (const auto& r : file_.trace) factors.push_back({QString::fromStdString(r.name), r.blockLipschitz, r.lipschitzAfter});
    for (const auto& r : file_.trace) {
      const int row = trace_->rowCount();
      trace_->insertRow(row);
      trace_->setItem(row, 0, new QTableWidgetItem(QString::fromStdString(r.name)));
      int col = 1;
      // Not every model's bound comes with an activation bound (AttLip's): a dash, not "nan".
      for (double v : {r.blockLipschitz, r.lipschitzAfter, r.activationBound})
        trace_->setItem(row, col++, new QTableWidgetItem(std::isfinite(v) ? widgets::displayNumber(v, 'g', 5) : QStringLiteral("—")));
      const QString how = widgets::traceRowExplanation(factors, static_cast<std::size_t>(row));
      auto* item = new QTableWidgetItem(how);
      item->setToolTip(how);
      trace_->setItem(row, col, item);
    }
  } else {
    bound_->setText(tr("Lipschitz bound: only for the workbench's own checkpoints (this is a %1 file).").arg(file_.format));
  }
  trace_->setVisible(!file_.trace.empty());
  trace_->setColumnHidden(3, std::none_of(file_.trace.begin(), file_.trace.end(),
                                          [](const auto& r) { return std::isfinite(r.activationBound); }));
  const bool chars = file_.workbenchCheckpoint && data::generatesText(file_.task.toStdString());
  sample_->setCheckpoint(chars ? file_.path : QString());
  tools_->setTabVisible(tools_->indexOf(sample_), chars);
  updateBars();
  whatIf_->clearTensor();
  selected_.clear();
  // Select the first matrix so the spectrum is never empty after a load.
  if (proxy_->rowCount() > 0) table_->selectRow(0);
  Q_EMIT loaded();
}

bool InspectorPage::weightsStoredInOut() const { return orientation_->currentData().toBool(); }

void InspectorPage::setWeightsStoredInOut(bool inOut) { orientation_->setCurrentIndex(inOut ? 1 : 0); }

double InspectorPage::rmsScaleOf(const InspectedTensor& t) const {
  if (!t.isMatrix() || t.shape[0] <= 0 || t.shape[1] <= 0) return 1.0;
  // √(d_in/d_out): shape (out, in) by default, (in, out) when the file stores it so.
  const double rows = static_cast<double>(t.shape[0]), cols = static_cast<double>(t.shape[1]);
  return weightsStoredInOut() ? std::sqrt(rows / cols) : std::sqrt(cols / rows);
}

void InspectorPage::applyOrientation() {
  std::vector<InspectedTensor> tensors = file_.tensors;
  for (InspectedTensor& t : tensors)
    if (t.hasStats) t.rmsNorm = t.sigma1 * rmsScaleOf(t);
  const QString keep = selected_;
  model_->setTensors(std::move(tensors));
  selected_.clear();
  if (!keep.isEmpty()) selectTensor(keep);
  updateSigmaMaxLine();
  updateBars();
}

QString InspectorPage::sigmaMaxNote() const { return lineNote_->text(); }

void InspectorPage::onSelectionChanged() {
  const QModelIndex current = table_->currentIndex();
  const InspectedTensor* t = current.isValid() ? model_->tensorAt(proxy_->mapToSource(current).row()) : nullptr;
  spectrum_->clearSnapshots();
  if (!t || !t->hasStats || t->singularValues.empty()) {
    selected_.clear();
    whatIf_->clearTensor();
    spectrum_->requestReplot();
    bars_->setHighlighted(-1);
    return;
  }
  const bool changed = selected_ != t->name;
  selected_ = t->name;
  spectrum_->setCurveNames(tr("σᵢ of %1").arg(t->name), QString());
  spectrum_->setRun(kRun, t->name, widgets::runColor(0));
  spectrum_->addSnapshot(kRun, t->name, 0, t->singularValues);
  updateSigmaMaxLine();
  spectrum_->requestReplot();
  bars_->setHighlighted(static_cast<int>(bars_->names().indexOf(t->name)));
  if (changed) {
    whatIf_->setTensor(file_.file, t->name);
    // The what-if starts from the run's own σmax, not the form's default 1.0. It works in σ₁
    // (spectral) units: an RMS→RMS σmax is σmax / √(d_in/d_out) for this matrix.
    if (file_.sigmaMax) {
      lab::ConstraintRequest r = whatIf_->form()->request();
      r.sigmaMax = file_.sigmaMaxRms ? *file_.sigmaMax / rmsScaleOf(*t) : *file_.sigmaMax;
      whatIf_->form()->setRequest(r);
    }
  }
}

bool InspectorPage::selectTensor(const QString& name) {
  for (int row = 0; row < proxy_->rowCount(); ++row) {
    const QModelIndex index = proxy_->index(row, TensorTableModel::Name);
    if (index.data().toString() == name) {
      table_->setCurrentIndex(index);
      table_->selectRow(row);
      return true;
    }
  }
  return false;
}

void InspectorPage::updateSigmaMaxLine() {
  const InspectedTensor* t = nullptr;
  for (const auto& x : model_->tensors())
    if (x.name == selected_) t = &x;
  const double line = !t ? std::numeric_limits<double>::quiet_NaN() : rmsUnits_->isChecked() ? sigmaMax_->value() / rmsScaleOf(*t) : sigmaMax_->value();
  spectrum_->setSigmaMax(line);
  // The spectrum is in σ₁ units; an RMS→RMS σmax lands at σmax/√(d_in/d_out) of each matrix,
  // so the line moves from one shape to the next: say so, with the numbers.
  if (!t || !t->isMatrix()) lineNote_->clear();
  else if (rmsUnits_->isChecked())
    lineNote_->setText(tr("Dashed σmax line: σmax %1 (RMS→RMS) = σ₁ %2 for this %3 matrix (÷ √(d_in/d_out) = %4, %5); "
                          "it moves with the shape.")
                           .arg(widgets::displayNumber(sigmaMax_->value(), 'g', 4), widgets::displayNumber(line, 'g', 4), t->shapeText(),
                                widgets::displayNumber(rmsScaleOf(*t), 'g', 4),
                                weightsStoredInOut() ? tr("stored (in, out)") : tr("stored (out, in)")));
  else lineNote_->setText(tr("Dashed σmax line: σmax %1 in σ₁ (spectral norm), the same for every matrix.")
                              .arg(widgets::displayNumber(sigmaMax_->value(), 'g', 4)));
  spectrum_->requestReplot();
}

void InspectorPage::updateBars() {
  QStringList names;
  std::vector<double> values;
  const bool rms = rmsUnits_->isChecked();
  const int metric = barMetric_->currentData().toInt();  // -1: σ₁ / RMS→RMS against σmax
  for (int row = 0; row < proxy_->rowCount(); ++row) {
    const InspectedTensor* t = model_->tensorAt(proxy_->mapToSource(proxy_->index(row, 0)).row());
    if (!t || !t->hasStats) continue;
    const double v = metric >= 0 ? TensorTableModel::value(*t, metric) : rms ? t->rmsNorm : t->sigma1;
    if (std::isnan(v)) continue;  // undefined for this matrix (e.g. α of a flat spectrum)
    names << t->name;
    values.push_back(v);
  }
  bars_->setBars(names, values);
  if (metric >= 0) {
    const QString title = barMetric_->currentText();
    bars_->setValueLabel(title);
    bars_->setTitle(tr("Every matrix's %1 (shown rows)").arg(title));
    // α's heuristic band edges instead of σmax.
    const bool alpha = TensorTableModel::columnKey(metric) == QLatin1String("alpha");
    bars_->setReferenceLine(alpha ? 2.0 : std::numeric_limits<double>::quiet_NaN(), alpha ? tr("α = 2 (heuristic)") : QString());
  } else {
    bars_->setValueLabel(rms ? tr("RMS→RMS norm") : tr("σ₁"));
    bars_->setTitle(rms ? tr("Every matrix's RMS→RMS norm (shown rows)") : tr("Every matrix's σ₁ (shown rows)"));
    bars_->setReferenceLine(sigmaMax_->value(), tr("σmax"));
  }
  bars_->setHighlighted(static_cast<int>(names.indexOf(selected_)));
  bars_->requestReplot();
}

void InspectorPage::replotNow() {
  spectrum_->replotNow();
  bars_->replotNow();
}

void InspectorPage::dragEnterEvent(QDragEnterEvent* event) {
  const QList<QUrl> urls = event->mimeData()->urls();
  if (urls.size() == 1 && urls.front().isLocalFile()) event->acceptProposedAction();
}

void InspectorPage::dropEvent(QDropEvent* event) {
  const QList<QUrl> urls = event->mimeData()->urls();
  if (urls.size() == 1 && urls.front().isLocalFile()) {
    openFile(urls.front().toLocalFile());
    event->acceptProposedAction();
  }
}

}  // namespace lwb::app::pages
