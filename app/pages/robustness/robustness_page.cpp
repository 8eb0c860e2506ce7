#include "app/pages/robustness/robustness_page.h"
#include "widgets/number_format.h"

#include "app/app_options.h"
#include "widgets/curve_plot.h"
#include "app/pages/common/latest_wins.h"
#include "app/pages/common/page_export.h"
#include "app/pages/common/page_frame.h"
#include "app/runs/run_manager.h"
#include "widgets/csv_table.h"
#include "widgets/palette.h"

#include <QComboBox>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPointer>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QAction>
#include <QSet>
#include <QTableWidget>
#include <QUndoCommand>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <vector>

namespace lwb::app::pages {
namespace {

QString runLabel(const QString& target) {
  const QFileInfo info(target);
  return info.isDir() ? info.fileName() : info.dir().dirName() + QLatin1Char('/') + info.fileName();
}

// A row of the table as text: full precision for the CSV export, 4 digits on screen.
QStringList rowCells(const RobustnessOutcome& o, const RobustnessRow& r, bool full) {
  const auto num = [full](double v) { return full ? widgets::csvNumber(v) : widgets::displayNumber(v, 'g', 4); };
  return {runLabel(o.target), num(r.eps), num(r.pgdAcc), num(r.certifiedAcc), num(r.meanPCorrect),
          num(o.cleanAcc), num(o.bound), num(o.l2Bound)};
}

}  // namespace

// "Remove selected" as one undo step, as on the Compare page. Targets are named by their text
// (a folder or file, unique in the list), not by row: targets may be added between the two.
class RemoveTargetsCommand : public QUndoCommand {
 public:
  RemoveTargetsCommand(RobustnessPage* page, QStringList texts)
      : QUndoCommand(texts.size() == 1 ? RobustnessPage::tr("Remove 1 target from the robustness list")
                                       : RobustnessPage::tr("Remove %1 targets from the robustness list").arg(texts.size())),
        page_(page), texts_(std::move(texts)) {}
  void redo() override { taken_ = page_->takeTargets(texts_); }
  void undo() override { page_->putBackTargets(taken_); }

 private:
  RobustnessPage* page_;
  QStringList texts_;
  std::vector<std::pair<int, QString>> taken_;
};

RobustnessPage::RobustnessPage(RunManager* sessionRuns, QWidget* parent)
    : QWidget(parent), sessionRuns_(sessionRuns), worker_(new LatestWins(this)) {
  setObjectName(QStringLiteral("robustnessPage"));
  undo_ = new QUndoStack(this);
  QHBoxLayout* top = createTopBar();
  message_ = new QLabel(this);
  message_->setObjectName(QStringLiteral("robustnessMessage"));
  message_->setWordWrap(true);
  message_->setVisible(false);
  setPageLayout(this, top, message_, createContent());

  // Compute needs something to evaluate: disabled, and saying why, while the list is empty.
  const auto updateCompute = [this] {
    const bool empty = targets_->count() == 0;
    compute_->setEnabled(!worker_->busy() && !empty);
    compute_->setToolTip(empty ? tr("Add a run folder or checkpoint first") : tr("Evaluate every run and checkpoint of the list"));
  };
  connect(worker_, &LatestWins::busyChanged, this, [this, updateCompute](bool busy) {
    cancel_->setEnabled(busy);
    updateCompute();
    progress_->setVisible(busy);
  });
  for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
    connect(targets_->model(), signal, this, updateCompute);
  updateCompute();
  connect(worker_, &LatestWins::errorOccurred, this, [this](const QString& m) { showMessage(m, true); });
  connect(worker_, &LatestWins::cancelled, this, [this] { showMessage(tr("Computation cancelled; the previous results stay."), false); });
}

RobustnessPage::~RobustnessPage() = default;

QHBoxLayout* RobustnessPage::createTopBar() {
  auto* addRun = new QPushButton(tr("&Add run folder…"), this);
  auto* addFile = new QPushButton(tr("Add &checkpoint…"), this);
  auto* addSession = new QPushButton(tr("Add this &session's runs"), this);
  auto* remove = new QPushButton(tr("Re&move selected"), this);
  remove->setObjectName(QStringLiteral("removeTargetsButton"));
  remove->setToolTip(tr("Take the selected runs and checkpoints off the list (Delete in the list; Ctrl+Z brings them "
                        "back). Results already computed stay until the next Compute."));
  eps_ = new QLineEdit(QStringLiteral("0, 0.25, 0.5, 1, 1.5, 2, 3"), this);
  eps_->setObjectName(QStringLiteral("epsList"));
  eps_->setToolTip(tr("l2 radii of the attack in pixel units (pixels in [0, 1]), increasing"));
  examples_ = new QSpinBox(this);
  examples_->setObjectName(QStringLiteral("examplesSpin"));
  examples_->setRange(10, 100000);
  examples_->setValue(500);
  examples_->setToolTip(tr("Examples: the last N of the validation split (held out from the trainer's validation)"));
  steps_ = new QSpinBox(this);
  steps_->setObjectName(QStringLiteral("attackStepsSpin"));
  steps_->setRange(1, 10000);
  steps_->setValue(50);
  steps_->setToolTip(tr("PGD steps; step size 2.5 ε / steps"));
  compute_ = new QPushButton(tr("C&ompute"), this);
  compute_->setObjectName(QStringLiteral("computeButton"));
  cancel_ = new QPushButton(tr("Ca&ncel"), this);
  cancel_->setEnabled(false);
  progress_ = new QProgressBar(this);
  progress_->setMaximumWidth(200);
  progress_->setVisible(false);
  auto* exportCsv = new QPushButton(tr("E&xport table as CSV…"), this);
  auto* savePlotsButton = new QPushButton(tr("Save &plots…"), this);

  // The target buttons go under the target list (createContent): in one row with the
  // attack settings the German bar alone was wider than a 1600-px window (issue 32).
  targetButtons_ = new QWidget(this);
  auto* buttons = new QVBoxLayout(targetButtons_);
  buttons->setContentsMargins(0, 0, 0, 0);
  for (auto* b : {addRun, addFile, addSession, remove}) buttons->addWidget(b);
  auto* bar = new QHBoxLayout;
  bar->addWidget(new QLabel(tr("ε"), this));
  bar->addWidget(eps_, 1);
  bar->addWidget(new QLabel(tr("Examples"), this));
  bar->addWidget(examples_);
  bar->addWidget(new QLabel(tr("PGD steps"), this));
  bar->addWidget(steps_);
  for (auto* w : std::initializer_list<QWidget*>{compute_, cancel_, progress_, exportCsv, savePlotsButton}) bar->addWidget(w);

  connect(addRun, &QPushButton::clicked, this, &RobustnessPage::chooseRunFolder);
  connect(addFile, &QPushButton::clicked, this, &RobustnessPage::chooseCheckpoint);
  connect(addSession, &QPushButton::clicked, this, [this] {
    if (!sessionRuns_) return;
    QStringList dirs;
    for (const RunSession* s : sessionRuns_->sessions()) dirs << s->runDir();
    addTargets(dirs);
  });
  connect(remove, &QPushButton::clicked, this, &RobustnessPage::removeSelectedTargets);
  connect(compute_, &QPushButton::clicked, this, &RobustnessPage::compute);
  connect(cancel_, &QPushButton::clicked, this, &RobustnessPage::cancel);
  connect(exportCsv, &QPushButton::clicked, this, &RobustnessPage::exportDialog);
  connect(savePlotsButton, &QPushButton::clicked, this, &RobustnessPage::savePlotsDialog);
  return bar;
}

QWidget* RobustnessPage::createContent() {
  targets_ = new QListWidget(this);
  targets_->setObjectName(QStringLiteral("robustnessTargets"));
  targets_->setSelectionMode(QAbstractItemView::ExtendedSelection);
  targets_->setToolTip(tr("Runs (newest checkpoint) and checkpoint files to evaluate"));
  auto* removeKey = new QAction(tr("Remove selected"), targets_);  // named: Help → Keyboard shortcuts lists it
  removeKey->setShortcut(QKeySequence::Delete);
  removeKey->setShortcutContext(Qt::WidgetShortcut);
  removeKey->setProperty("shortcutScope", tr("Robustness: the list of runs and checkpoints"));
  targets_->addAction(removeKey);
  connect(removeKey, &QAction::triggered, this, &RobustnessPage::removeSelectedTargets);

  accuracy_ = new widgets::CurvePlot(this);
  accuracy_->setObjectName(QStringLiteral("robustnessAccuracyPlot"));
  accuracy_->setTitle(tr("Accuracy vs ε (PGD-ℓ2 solid, certified by the bound dashed)"));
  accuracy_->setAxisLabels(tr("ε (ℓ2, pixels in [0, 1])"), tr("accuracy"));
  accuracy_->setLegendColumns(2);  // one row per run: PGD, certified
  pCorrect_ = new widgets::CurvePlot(this);
  for (widgets::PlotView* p : std::initializer_list<widgets::PlotView*>{accuracy_, pCorrect_})
    p->setEmptyText(tr("No points yet (add runs, then Compute)"));
  pCorrect_->setObjectName(QStringLiteral("robustnessPCorrectPlot"));
  pCorrect_->setTitle(tr("Mean probability of the correct class under attack"));
  pCorrect_->setAxisLabels(tr("ε (ℓ2, pixels in [0, 1])"), tr("mean p(correct)"));
  pCorrect_->setLegendColumns(2);
  QSplitter* plots = twoPanes(Qt::Horizontal, accuracy_, pCorrect_, this);

  table_ = new QTableWidget(0, 8, this);
  table_->setObjectName(QStringLiteral("robustnessTable"));
  table_->setHorizontalHeaderLabels({tr("run"), tr("ε"), tr("PGD accuracy"), tr("certified accuracy"), tr("mean p(correct)"),
                                     tr("clean accuracy"), tr("bound (RMS→RMS)"), tr("ℓ2 bound")});
  table_->verticalHeader()->setVisible(false);
  // Compare's "val acc" is the trainer's validation examples; this page's are the last N of the
  // split, held out from those, so the two accuracies differ: the header says which is which.
  table_->horizontalHeaderItem(5)->setToolTip(
      tr("Accuracy without attack on the examples evaluated here (the last N of the validation split, held out from "
         "the trainer's validation examples), so it can differ from the val acc of the Compare page"));
  // The table fits its pane (issue 32: eight columns sized to their one-line headers were
  // wider than the pane, "bound (RMS→R…" cut and "ℓ2 bound" out of sight). Headers wrap onto
  // two lines ("certified / accuracy"), so a short number never pays for a long title, and
  // fitColumns() sizes the columns whenever the pane or the rows change.
  QHeaderView* header = table_->horizontalHeader();
  header->setDefaultAlignment(Qt::Alignment(Qt::AlignCenter) | Qt::Alignment(Qt::TextWordWrap));
  header->setFixedHeight(2 * header->fontMetrics().lineSpacing() + 10);
  table_->viewport()->installEventFilter(this);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setAlternatingRowColors(true);

  auto* imagePane = new QWidget(this);
  auto* imageLayout = new QVBoxLayout(imagePane);
  imageLayout->setContentsMargins(0, 0, 0, 0);
  auto* imageRow = new QHBoxLayout;
  imageRow->addWidget(new QLabel(tr("Attacked example of"), this));
  imageRun_ = new QComboBox(this);
  imageRun_->setObjectName(QStringLiteral("imageRun"));
  imageRow->addWidget(imageRun_, 1);
  imageLayout->addLayout(imageRow);
  images_ = new QWidget(this);
  images_->setObjectName(QStringLiteral("attackedImages"));
  new QHBoxLayout(images_);
  auto* scroll = new QScrollArea(this);
  scroll->setWidget(images_);
  scroll->setWidgetResizable(true);
  imageLayout->addWidget(scroll, 1);
  connect(imageRun_, &QComboBox::currentIndexChanged, this, &RobustnessPage::showImages);

  QSplitter* bottom = twoPanes(Qt::Horizontal, table_, imagePane, this);
  bottom->setSizes({900, 700});
  QSplitter* right = twoPanes(Qt::Vertical, plots, bottom, this);
  right->setStretchFactor(0, 3);
  right->setStretchFactor(1, 2);
  auto* left = new QWidget(this);
  auto* leftLayout = new QVBoxLayout(left);
  leftLayout->setContentsMargins(0, 0, 0, 0);
  leftLayout->addWidget(targets_, 1);
  leftLayout->addWidget(targetButtons_);
  QSplitter* all = twoPanes(Qt::Horizontal, left, right, this);
  all->setSizes({260, 1340});
  return all;
}

bool RobustnessPage::eventFilter(QObject* watched, QEvent* event) {
  if (watched == table_->viewport() && event->type() == QEvent::Resize) fitColumns();
  return QWidget::eventFilter(watched, event);
}

void RobustnessPage::fitColumns() {
  // Each column as wide as its widest cell or header word needs; what the pane has left is
  // shared in proportion to those needs. Wider than the pane (then it scrolls) only when the
  // needs alone are.
  QHeaderView* header = table_->horizontalHeader();
  const QFontMetrics cells(table_->font()), titles(header->font());
  const int pad = titles.horizontalAdvance(QStringLiteral("00"));
  const int columns = table_->columnCount();
  std::vector<int> need(static_cast<size_t>(columns));
  int total = 0;
  for (int c = 0; c < columns; ++c) {
    int w = 0;
    if (const QTableWidgetItem* title = table_->horizontalHeaderItem(c))
      for (const QString& word : title->text().split(QLatin1Char(' '), Qt::SkipEmptyParts)) w = std::max(w, titles.horizontalAdvance(word));
    for (int r = 0; r < table_->rowCount(); ++r)
      if (const QTableWidgetItem* item = table_->item(r, c)) w = std::max(w, cells.horizontalAdvance(item->text()));
    // Never below the header's minimum section (resizeSection would round up and overflow).
    need[static_cast<size_t>(c)] = std::max(w + pad, header->minimumSectionSize());
    total += need[static_cast<size_t>(c)];
  }
  if (total <= 0) return;
  const int extra = std::max(0, table_->viewport()->width() - total);
  int given = 0;
  for (int c = 0; c < columns; ++c) {
    const int share = c + 1 == columns ? extra - given : extra * need[static_cast<size_t>(c)] / total;
    given += share;
    header->resizeSection(c, need[static_cast<size_t>(c)] + share);
  }
}

bool RobustnessPage::applyOptions(const AppOptions& options, QString*) {
  if (options.robustnessTargets.isEmpty()) return true;
  addTargets(options.robustnessTargets);
  compute();
  return true;
}

void RobustnessPage::addTargets(const QStringList& targets) {
  for (const QString& t : targets) {
    if (t.isEmpty() || !targets_->findItems(t, Qt::MatchExactly).isEmpty()) continue;
    targets_->addItem(t);
  }
}

void RobustnessPage::removeSelectedTargets() {
  QStringList texts;
  for (int i = 0; i < targets_->count(); ++i)
    if (targets_->item(i)->isSelected()) texts << targets_->item(i)->text();
  if (!texts.isEmpty()) undo_->push(new RemoveTargetsCommand(this, texts));
}

std::vector<std::pair<int, QString>> RobustnessPage::takeTargets(const QStringList& texts) {
  const QSet<QString> wanted(texts.begin(), texts.end());
  std::vector<std::pair<int, QString>> taken;
  for (int i = 0; i < targets_->count();) {  // ascending rows, as they were before the removal
    if (wanted.contains(targets_->item(i)->text())) {
      taken.emplace_back(i + static_cast<int>(taken.size()), targets_->item(i)->text());
      delete targets_->takeItem(i);
    } else {
      ++i;
    }
  }
  return taken;
}

void RobustnessPage::putBackTargets(const std::vector<std::pair<int, QString>>& taken) {
  for (const auto& [row, text] : taken) {  // ascending rows: each lands where it was
    if (!targets_->findItems(text, Qt::MatchExactly).isEmpty()) continue;  // added again meanwhile
    targets_->insertItem(std::min(row, targets_->count()), text);
  }
}

QStringList RobustnessPage::targets() const {
  QStringList out;
  for (int i = 0; i < targets_->count(); ++i) out << targets_->item(i)->text();
  return out;
}

bool RobustnessPage::request(RobustnessRequest* out, QString* error) const {
  RobustnessRequest r;
  double last = -1;
  for (QString part : eps_->text().split(QLatin1Char(','), Qt::SkipEmptyParts)) {
    part = part.trimmed();
    bool ok = false;
    const double v = part.toDouble(&ok);
    if (!ok || !std::isfinite(v) || v < 0) {
      if (error) *error = tr("ε: '%1' is not a radius ≥ 0").arg(part);
      return false;
    }
    if (v <= last) {
      if (error) *error = tr("ε: the radii must increase (%1 after %2)").arg(part).arg(last);
      return false;
    }
    r.eps.push_back(last = v);
  }
  if (r.eps.empty()) {
    if (error) *error = tr("ε: give at least one radius, e.g. 0, 0.5, 1");
    return false;
  }
  r.examples = examples_->value();
  r.attackSteps = steps_->value();
  *out = r;
  return true;
}

void RobustnessPage::compute() {
  RobustnessRequest req;
  QString error;
  if (!request(&req, &error)) return showMessage(error, true);
  const QStringList list = targets();
  if (list.isEmpty()) return showMessage(tr("Add a run folder or checkpoint first."), true);
  message_->setVisible(false);
  progress_->setRange(0, 0);
  QPointer<QProgressBar> bar = progress_;
  worker_->submit([this, list, req, bar](const CancelFlag& cancel) -> LatestWins::Continuation {
    std::vector<RobustnessOutcome> outcomes;
    QStringList errors;
    for (int i = 0; i < list.size(); ++i) {
      const auto report = [bar, i, n = static_cast<int>(list.size())](int64_t done, int64_t total) {
        QMetaObject::invokeMethod(
            bar,
            [bar, i, n, done, total] {
              if (!bar) return;
              bar->setRange(0, 1000 * n);
              bar->setValue(static_cast<int>(1000 * i + 1000 * done / std::max<int64_t>(1, total)));
            },
            Qt::QueuedConnection);
      };
      try {
        outcomes.push_back(computeRobustness(list[i], req, report, &cancel));
      } catch (const Cancelled&) {
        throw;
      } catch (const std::exception& e) {
        errors << QString::fromUtf8(e.what());
      }
    }
    return [this, outcomes = std::move(outcomes), errors]() mutable { showOutcomes(std::move(outcomes), errors); };
  });
}

void RobustnessPage::cancel() { worker_->cancel(); }
bool RobustnessPage::isBusy() const { return worker_->busy(); }
QString RobustnessPage::errorText() const { return message_->isVisible() ? message_->text() : QString(); }

void RobustnessPage::showMessage(const QString& text, bool error) {
  message_->setText(text);
  message_->setStyleSheet(error ? QStringLiteral("color: #b00020;") : QString());
  message_->setVisible(!text.isEmpty());
}

void RobustnessPage::showOutcomes(std::vector<RobustnessOutcome> outcomes, const QStringList& errors) {
  outcomes_ = std::move(outcomes);
  accuracy_->clearCurves();
  pCorrect_->clearCurves();
  table_->setRowCount(0);
  const QString keep = imageRun_->currentText();
  imageRun_->blockSignals(true);
  imageRun_->clear();
  for (size_t i = 0; i < outcomes_.size(); ++i) {
    const RobustnessOutcome& o = outcomes_[i];
    const QColor color = widgets::runColor(static_cast<int>(i));
    const QString label = runLabel(o.target);
    std::vector<double> xs, pgd, cert, p;
    for (const RobustnessRow& r : o.rows) {
      xs.push_back(r.eps);
      pgd.push_back(r.pgdAcc);
      cert.push_back(r.certifiedAcc);
      p.push_back(r.meanPCorrect);
      const int row = table_->rowCount();
      table_->insertRow(row);
      const QStringList cells = rowCells(o, r, false);
      for (int c = 0; c < cells.size(); ++c) table_->setItem(row, c, new QTableWidgetItem(cells[c]));
      table_->item(row, 0)->setForeground(color);
      table_->item(row, 0)->setToolTip(tr("%1, step %2, %3 examples").arg(o.file).arg(o.step).arg(o.examples));
      table_->item(row, 6)->setToolTip(tr("σ₁ of every matrix: %1 (an upper bound, never an estimate)").arg(o.sigmaMethod));
    }
    accuracy_->setCurve(tr("%1 · PGD").arg(label), xs, pgd, {color, Qt::SolidLine, 1.8, true});
    accuracy_->setCurve(tr("%1 · certified").arg(label), xs, cert, {color, Qt::DashLine, 1.6, true});
    pCorrect_->setCurve(label, xs, p, {color, Qt::SolidLine, 1.8, true});
    imageRun_->addItem(label);
  }
  const int i = imageRun_->findText(keep);
  imageRun_->setCurrentIndex(i >= 0 ? i : 0);
  imageRun_->blockSignals(false);
  fitColumns();
  accuracy_->requestReplot();
  pCorrect_->requestReplot();
  showImages();
  // Every run refused (a chars run is no image classifier): the plots point at the reason
  // above them instead of "add runs, then Compute" (newcomer's trial).
  for (widgets::PlotView* p : std::initializer_list<widgets::PlotView*>{accuracy_, pCorrect_})
    p->setEmptyText(outcomes_.empty() && !errors.isEmpty() ? tr("Nothing to plot: no run could be attacked (the reason is above)")
                                                           : tr("No points yet (add runs, then Compute)"));
  QStringList notes = errors;
  for (const RobustnessOutcome& o : outcomes_)
    if (!o.heldOut) notes << tr("%1: the examples overlap the trainer's validation examples").arg(runLabel(o.target));
  showMessage(notes.join(QLatin1Char('\n')), !errors.isEmpty());
  Q_EMIT computed();
}

void RobustnessPage::showImages() {
  auto* layout = static_cast<QHBoxLayout*>(images_->layout());
  while (QLayoutItem* item = layout->takeAt(0)) {
    delete item->widget();
    delete item;
  }
  const int index = imageRun_->currentIndex();
  if (index < 0 || index >= static_cast<int>(outcomes_.size())) return;
  const RobustnessOutcome& o = outcomes_[static_cast<size_t>(index)];
  for (const AttackedImage& shot : o.images) {
    auto* cell = new QLabel(images_);
    cell->setAlignment(Qt::AlignHCenter | Qt::AlignTop);
    cell->setPixmap(QPixmap::fromImage(shot.image.scaled(shot.image.width() * 3, shot.image.height() * 3)));
    auto* caption = new QLabel(tr("ε = %L1\npredicted %2 (true %3)\np(correct) %L4")
                                   .arg(shot.eps)
                                   .arg(shot.predicted)
                                   .arg(o.label)
                                   .arg(widgets::displayNumber(shot.pCorrect, 'f', 3)),
                               images_);
    caption->setAlignment(Qt::AlignHCenter);
    if (shot.predicted != o.label) caption->setStyleSheet(QStringLiteral("color: #b00020;"));
    auto* box = new QWidget(images_);
    auto* v = new QVBoxLayout(box);
    v->addWidget(cell);
    v->addWidget(caption);
    v->addStretch(1);  // image and caption together at the top
    layout->addWidget(box);
  }
  layout->addStretch(1);
}

bool RobustnessPage::exportTableCsv(const QString& path, QString* error) const {
  widgets::CsvTable t;
  t.header = {QStringLiteral("run"), QStringLiteral("eps"), QStringLiteral("pgd_acc"), QStringLiteral("certified_acc"),
              QStringLiteral("mean_p_correct"), QStringLiteral("clean_acc"), QStringLiteral("bound"), QStringLiteral("l2_bound")};
  for (const RobustnessOutcome& o : outcomes_)
    for (const RobustnessRow& r : o.rows) t.rows << rowCells(o, r, true);
  return writeCsvFile(path, t, error);
}

bool RobustnessPage::savePlots(const QString& path, QString* error) {
  return savePlotPair(path, accuracy_, QStringLiteral("accuracy"), pCorrect_, QStringLiteral("pcorrect"), error);
}

void RobustnessPage::chooseRunFolder() {
  const QString dir = QFileDialog::getExistingDirectory(this, tr("A run directory"));
  if (!dir.isEmpty()) addTargets({dir});
}

void RobustnessPage::chooseCheckpoint() {
  const QString file = QFileDialog::getOpenFileName(this, tr("A workbench checkpoint"), QString(), tr("Checkpoints (*.safetensors)"));
  if (!file.isEmpty()) addTargets({file});
}

void RobustnessPage::exportDialog() {
  exportCsvDialog(this, QStringLiteral("robustness.csv"), [this](const QString& path, QString* error) { return exportTableCsv(path, error); });
}

void RobustnessPage::savePlotsDialog() {
  pages::savePlotsDialog(this, QStringLiteral("robustness.png"), [this](const QString& path, QString* error) { return savePlots(path, error); });
}

}  // namespace lwb::app::pages
