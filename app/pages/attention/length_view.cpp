#include "app/pages/attention/length_view.h"

#include "app/pages/attention/attention_common.h"
#include "widgets/curve_plot.h"
#include "app/pages/common/latest_wins.h"
#include "app/pages/common/page_export.h"
#include "widgets/csv_table.h"
#include "widgets/number_format.h"
#include "widgets/palette.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QCoreApplication>
#include <QGridLayout>
#include "widgets/flow_layout.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMetaObject>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>

#include <algorithm>
#include <map>

namespace lwb::app::pages {
namespace {

constexpr int kMaxTokens = 4096;  // lab::lipschitzAtTokens' range
constexpr int kUnits = 1000;      // progress units per (N, kind)

// A table row's cells: full precision for the CSV, 4 digits on screen.
QStringList cells(const LengthPoint& p, bool full) {
  const auto num = [full](double v) { return full ? widgets::csvNumber(v) : widgets::displayNumber(v, 'g', 4); };
  const auto opt = [&](const std::optional<double>& v) { return v ? num(*v) : QString(); };
  return {QString::number(p.point.tokens),
          full ? QString::fromStdString(p.kind) : attentionKindTitle(p.kind),
          num(p.point.pgdEstimate),
          // Standard attention has no global bound (004): said on screen, empty in the CSV.
          p.point.bound || full ? opt(p.point.bound) : QCoreApplication::translate("AttentionLab", "none"),
          opt(p.point.eq6AsPrinted),
          opt(p.point.residual),
          p.kind != attLipId() ? QString()
          : full            ? QString::fromLatin1(p.point.converged ? "yes" : "no")
          : p.point.converged ? QCoreApplication::translate("AttentionLab", "yes")  // literals: lupdate sees them
                              : QCoreApplication::translate("AttentionLab", "no"),
          full ? widgets::csvNumber(p.point.seconds) : widgets::displayNumber(p.point.seconds, 'f', 2)};
}

}  // namespace

LengthView::LengthView(QWidget* parent) : QWidget(parent) {
  qRegisterMetaType<LengthPoint>();
  runner_ = new LatestWins(this);
  createFields();
  createResults();
  layOut();
  connectActions();
}

void LengthView::createFields() {
  dim_ = makeSpin(2, 512, 16, "lengthDim", this);
  heads_ = makeSpin(1, 64, 2, "lengthHeads", this);
  tokens_ = new QLineEdit(QStringLiteral("8, 16, 32, 64"), this);
  tokens_->setObjectName(QStringLiteral("lengthTokens"));
  tokens_->setToolTip(tr("Token counts N, increasing, e.g. 16, 32, 64, 128"));
  iters_ = makeSpin(1, 1000, 20, "lengthIters", this);
  iters_->setToolTip(tr("PGD iterations per restart (step 2.5 r / iterations; SEEDS §D)"));
  restarts_ = makeSpin(1, 64, 2, "lengthRestarts", this);
  restarts_->setToolTip(tr("PGD restarts, run as one batch"));
  seed_ = makeSpin(0, 1000000, 0, "lengthSeed", this);
  seed_->setToolTip(tr("Seed of the weights (the same for every N) and of the inputs x₀ ~ N(0, 1)"));
  relaxation_ = makeRelaxationSpin("lengthRelaxation", this);
  for (const std::string& kind : lab::attentionKindIds()) {
    auto* box = new QCheckBox(attentionKindTitle(kind), this);
    box->setChecked(true);
    box->setProperty("kind", QString::fromStdString(kind));
    kindBoxes_.push_back(box);
  }
  paper_ = new QCheckBox(tr("&Paper's Table 1"), this);
  paper_->setToolTip(tr("The AttLip paper's Table 1 (d 512, H 8, AttLip K = 20) as dotted lines"));
  run_ = new QPushButton(tr("R&un"), this);
  run_->setObjectName(QStringLiteral("lengthRun"));
  cancel_ = new QPushButton(tr("&Cancel"), this);
  cancel_->setEnabled(false);
  progress_ = new QProgressBar(this);
  progress_->setRange(0, 1);
  progress_->setValue(0);
  message_ = new QLabel(tr("PGD ascends ‖f(x) − f(y)‖ / ‖x − y‖ over pairs in an ℓ2 ball around x₀ (radius ‖x₀‖_F). A correct "
                           "AttLip stays ≤ 1 at every N; the ℓ2 bound (Kim et al., ‖W_Q‖² per head) grows as √N·log N while its "
                           "estimate stays small. The AttLip paper's Eq. 6 as printed charges ‖W_Q‖ once: it is the paper's number, not a bound."),
                        this);
  message_->setWordWrap(true);
}

// The plot and the table of points beside it.
void LengthView::createResults() {
  plot_ = new widgets::CurvePlot(this);
  plot_->setObjectName(QStringLiteral("lengthPlot"));
  plot_->setTitle(tr("Lipschitz constant vs sequence length (PGD estimate solid, bound dashed)"));
  plot_->setAxisLabels(tr("tokens N"), tr("Lipschitz constant (ℓ2)"));
  plot_->setLogXAvailable(true);
  plot_->setLogX(true);
  plot_->setLogY(true);
  plot_->setEmptyText(tr("No points yet: pick a lecture preset or press Run."));
  plot_->setLegendColumns(3);

  table_ = new QTableWidget(0, 8, this);
  table_->setObjectName(QStringLiteral("lengthTable"));
  // 004's formula on two header lines, so the column stays narrow beside the plot.
  table_->setHorizontalHeaderLabels({tr("N"), tr("kind"), tr("PGD estimate"), tr("bound"), tr("Eq. 6 as printed\n(not a bound)"),
                                     tr("prox residual"), tr("converged"), tr("seconds")});
  table_->horizontalHeaderItem(4)->setToolTip(
      tr("The AttLip paper's Eq. 6 as printed: ‖W_Q‖ once per head. The block carries W_Q twice (A_h = W_Q W_Qᵀ/√d_h), so this "
         "number can be below the true Lipschitz constant; the bound column is Kim et al.'s, with ‖W_Q‖²."));
  table_->verticalHeader()->setVisible(false);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setAlternatingRowColors(true);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->resizeColumnsToContents();
}

void LengthView::layOut() {
  // Both rows wrap in a narrow window (1024 × 768): their sums of widths set the page's.
  auto* block = new widgets::FlowLayout;
  addField(block, tr("d"), dim_);
  addField(block, tr("H"), heads_);
  addField(block, tr("&N"), tokens_);
  for (QCheckBox* b : kindBoxes_) block->addWidget(b);
  block->addWidget(paper_);
  auto* pgd = new widgets::FlowLayout;
  addField(pgd, tr("PGD iterations"), iters_);
  addField(pgd, tr("restarts"), restarts_);
  addField(pgd, tr("seed"), seed_);
  addField(pgd, tr("AttLip α"), relaxation_);
  pgd->addWidget(run_);
  pgd->addWidget(cancel_);
  pgd->addWidget(progress_);
  addExportButtons(pgd, this, QStringLiteral("attention_lipschitz_vs_n"), false,
                   [this](const QString& path, QString* error) { return savePlot(path, error); },
                   [this](const QString& path, QString* error) { return this->exportCsv(path, error); });
  auto* split = new QSplitter(Qt::Horizontal, this);
  split->addWidget(plot_);
  split->addWidget(table_);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  split->setSizes({860, 680});  // the table's eight columns readable beside the plot
  auto* grid = new QGridLayout(this);
  grid->setContentsMargins(0, 0, 0, 0);
  grid->addLayout(block, 0, 0);
  grid->addLayout(pgd, 1, 0);
  grid->addWidget(message_, 2, 0);
  grid->addWidget(split, 3, 0);
  grid->setRowStretch(3, 1);
}

void LengthView::connectActions() {
  connect(run_, &QPushButton::clicked, this, &LengthView::run);
  connect(cancel_, &QPushButton::clicked, this, &LengthView::cancel);
  connect(paper_, &QCheckBox::toggled, this, &LengthView::replot);
  connect(runner_, &LatestWins::busyChanged, this, [this](bool busy) {
    run_->setEnabled(!busy);
    cancel_->setEnabled(busy);
    // While the first point is computed the plot said "pick a preset or press Run" beside a
    // greyed-out Run button and a moving progress bar (a newcomer's trial).
    plot_->setEmptyText(busy ? tr("Computing the first point…") : tr("No points yet: pick a lecture preset or press Run."));
  });
  connect(runner_, &LatestWins::errorOccurred, this, [this](const QString& m) { showMessage(m, true); });
  connect(runner_, &LatestWins::cancelled, this, [this] { showMessage(tr("Cancelled; the points computed so far stay."), false); });
}

// The worker posts points to this object: stop it before the members go.
LengthView::~LengthView() { delete runner_; }

bool LengthView::request(LengthRequest* out, QString* error) const {
  LengthRequest r;
  if (!readBlock(dim_, heads_, seed_, attLipId(), &r.block, error)) return false;  // kind set per point
  const auto tokens = parseTokenList(tokens_->text(), kMaxTokens, error);
  if (!tokens) return false;
  r.tokens = *tokens;
  for (QCheckBox* b : kindBoxes_)
    if (b->isChecked()) r.kinds.push_back(b->property("kind").toString().toStdString());
  if (r.kinds.empty()) {
    if (error) *error = tr("Kinds: tick at least one attention kind");
    return false;
  }
  r.pgd.iters = iters_->value();
  r.pgd.restarts = restarts_->value();
  r.pgd.seed = r.block.seed;
  r.block.relaxation = relaxation_->value();
  *out = r;
  return true;
}

void LengthView::setRequest(const LengthRequest& r) {
  dim_->setValue(r.block.dim);
  heads_->setValue(r.block.heads);
  QStringList n;
  for (int t : r.tokens) n << QString::number(t);
  tokens_->setText(n.join(QStringLiteral(", ")));
  iters_->setValue(r.pgd.iters);
  restarts_->setValue(r.pgd.restarts);
  seed_->setValue(static_cast<int>(r.block.seed));
  relaxation_->setValue(r.block.relaxation);
  for (QCheckBox* b : kindBoxes_)
    b->setChecked(std::find(r.kinds.begin(), r.kinds.end(), b->property("kind").toString().toStdString()) != r.kinds.end());
}

void LengthView::setPaperOverlay(bool on) { paper_->setChecked(on); }

void LengthView::run() {
  LengthRequest r;
  QString error;
  if (!request(&r, &error)) return showMessage(error, true);
  const int generation = ++generation_;
  points_.clear();
  table_->setRowCount(0);
  replot();
  const int total = static_cast<int>(r.tokens.size() * r.kinds.size());
  progress_->setRange(0, total * kUnits);
  progress_->setValue(0);
  showMessage(tr("Computing %1 points (d %2, H %3, PGD %4 × %5)…").arg(total).arg(r.block.dim).arg(r.block.heads).arg(r.pgd.iters).arg(r.pgd.restarts),
              false);
  runner_->submit([this, r, generation](const CancelFlag& cancel) -> LatestWins::Continuation {
    int index = 0;
    // N outer, kinds inner: each N's column of the table completes before the next begins.
    for (int n : r.tokens)
      for (const std::string& kind : r.kinds) {
        lab::AttentionBlockSpec spec = r.block;
        spec.kind = kind;
        const auto progress = [this, index](int done, int of) {
          const int value = index * kUnits + (of > 0 ? kUnits * done / of : 0);
          QMetaObject::invokeMethod(this, [this, value] { progress_->setValue(value); }, Qt::QueuedConnection);
        };
        LengthPoint p{kind, lab::lipschitzAtTokens(spec, n, r.pgd, &cancel, progress)};
        ++index;
        QMetaObject::invokeMethod(this, [this, generation, p] { addPoint(generation, p); }, Qt::QueuedConnection);
      }
    return [this, generation] {
      if (generation != generation_) return;
      QStringList notes;
      for (const LengthPoint& p : points_)
        if (!p.point.converged)
          notes << tr("AttLip at N = %1: the prox stopped at residual %L2 above its tolerance, so 1 is not certified there.")
                       .arg(p.point.tokens)
                       .arg(widgets::displayNumber(p.point.residual.value_or(0), 'g', 3));
      showMessage(notes.isEmpty() ? tr("Done: %1 points.").arg(points_.size()) : notes.join(QLatin1Char(' ')), !notes.isEmpty());
      Q_EMIT finished();
    };
  });
}

void LengthView::cancel() { runner_->cancel(); }
bool LengthView::isBusy() const { return runner_->busy(); }
QString LengthView::messageText() const { return message_->text(); }

void LengthView::showMessage(const QString& text, bool error) {
  message_->setText(text);
  message_->setStyleSheet(error ? QStringLiteral("color: #b00020;") : QString());
}

void LengthView::addPoint(int generation, const LengthPoint& p) {
  if (generation != generation_) return;  // from a run replaced meanwhile
  points_.push_back(p);
  const int row = table_->rowCount();
  table_->insertRow(row);
  const QStringList text = cells(p, false);
  for (int c = 0; c < text.size(); ++c) table_->setItem(row, c, new QTableWidgetItem(text[c]));
  table_->item(row, 1)->setForeground(attentionKindColor(p.kind));
  if (const auto paper = paperTable1At(p.point.tokens)) {
    const QString tip = p.kind == attLipId() ? tr("AttLip paper, Table 1 at N = %1 (d 512, H 8): PGD %L2, bound 1").arg(paper->tokens).arg(paper->attlipPgd)
                        : p.kind == l2Id()   ? tr("AttLip paper, Table 1 at N = %1 (d 512, H 8): PGD %L2, Eq. 6 as printed %L3 (not a bound)")
                                                   .arg(paper->tokens).arg(paper->l2Pgd).arg(paper->l2Eq6AsPrinted)
                                           : tr("The AttLip paper's Table 1 has no row for standard attention");
    for (int c = 0; c < text.size(); ++c) table_->item(row, c)->setToolTip(tip);
  }
  if (p.kind == attLipId() && !p.point.converged) table_->item(row, 6)->setForeground(QColor(0xb0, 0x00, 0x20));
  table_->resizeColumnsToContents();
  replot();
  Q_EMIT pointAdded(p);
}

void LengthView::replot() {
  plot_->clearCurves();
  std::map<std::string, std::vector<const LengthPoint*>> byKind;
  for (const LengthPoint& p : points_) byKind[p.kind].push_back(&p);
  for (const std::string& kind : lab::attentionKindIds()) {
    const auto it = byKind.find(kind);
    if (it == byKind.end()) continue;
    std::vector<double> n, est, bn, bound, pn, printed;
    for (const LengthPoint* p : it->second) {
      n.push_back(p->point.tokens);
      est.push_back(p->point.pgdEstimate);
      if (p->point.bound) {
        bn.push_back(p->point.tokens);
        bound.push_back(*p->point.bound);
      }
      if (p->point.eq6AsPrinted) {
        pn.push_back(p->point.tokens);
        printed.push_back(*p->point.eq6AsPrinted);
      }
    }
    const QColor color = attentionKindColor(kind);
    const QString title = attentionKindTitle(kind);
    plot_->setCurve(tr("%1 · PGD estimate").arg(title), n, est, {color, Qt::SolidLine, 2.0, true});
    if (!bound.empty()) {
      const QString name = kind == l2Id() ? tr("%1 · bound, Kim ‖W_Q‖² (∝ √N·log N)").arg(title) : tr("%1 · bound").arg(title);
      plot_->setCurve(name, bn, bound, {color, Qt::DashLine, 1.6, true});
    }
    // 004's formula, drawn fainter and dash-dotted so it is never read as the bound.
    if (!printed.empty())
      plot_->setCurve(tr("%1 · Eq. 6 as printed (not a bound)").arg(title), pn, printed,
                      {widgets::withAlpha(color, 150), Qt::DashDotDotLine, 1.2, true});
  }
  if (paper_->isChecked()) {
    std::vector<double> n, attlip, l2, l2Printed;
    for (const auto& row : paperTable1()) {
      n.push_back(row.tokens);
      attlip.push_back(row.attlipPgd);
      l2.push_back(row.l2Pgd);
      l2Printed.push_back(row.l2Eq6AsPrinted);
    }
    const auto faint = [](const std::string& kind) { return widgets::withAlpha(attentionKindColor(kind), 150); };
    plot_->setCurve(tr("paper · AttLip PGD"), n, attlip, {faint(attLipId()), Qt::DotLine, 1.4, false});
    plot_->setCurve(tr("paper · ℓ2 PGD"), n, l2, {faint(l2Id()), Qt::DotLine, 1.4, false});
    plot_->setCurve(tr("paper · ℓ2 Eq. 6 as printed"), n, l2Printed, {faint(l2Id()), Qt::DashDotLine, 1.4, false});
  }
  plot_->setReferenceLines({{1.0, tr("1"), QColor()}});
  plot_->requestReplot();
}

bool LengthView::exportCsv(const QString& path, QString* error) const {
  widgets::CsvTable t;
  t.header = {QStringLiteral("tokens"), QStringLiteral("kind"), QStringLiteral("pgd_estimate"), QStringLiteral("bound"),
              QStringLiteral("eq6_as_printed"), QStringLiteral("residual"), QStringLiteral("converged"), QStringLiteral("seconds")};
  for (const LengthPoint& p : points_) t.rows << cells(p, true);
  return writeCsvFile(path, t, error);
}

bool LengthView::savePlot(const QString& path, QString* error) { return savePlotSet(path, {{plot_, QStringLiteral("lipschitz")}}, error); }

void LengthView::replotNow() { plot_->replotNow(); }

}  // namespace lwb::app::pages
