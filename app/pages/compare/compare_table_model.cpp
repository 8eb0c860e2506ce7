#include "app/pages/compare/compare_table_model.h"

#include "app/runs/run_types.h"
#include "widgets/number_format.h"

#include <QCoreApplication>

#include <limits>

namespace lwb::app::pages {
namespace {

std::optional<double> numberOf(const RunRecord& r, int column) {
  switch (column) {
    case CompareTableModel::Steps: return static_cast<double>(r.steps);
    case CompareTableModel::ValLoss: return r.valLoss;
    case CompareTableModel::ValLossPaper: return r.valLossPaper;
    case CompareTableModel::ValLossFull: return r.valLossFull;
    case CompareTableModel::ValAcc: return r.valAcc;
    case CompareTableModel::Bound: return r.lipschitzBound;
    case CompareTableModel::MaxActEntry: return r.maxActEntry;
    case CompareTableModel::MaxActRms: return r.maxActRms;
    case CompareTableModel::StepsPerSecond: return r.stepsPerSecond;
    case CompareTableModel::AttentionPgd: return r.attentionPgd;
    case CompareTableModel::AttentionBound: return r.attentionBound;
    default: return std::nullopt;
  }
}

bool isNumeric(int column) { return column >= CompareTableModel::Steps; }

}  // namespace

CompareTableModel::CompareTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void CompareTableModel::setRuns(const std::vector<RunRecord>* runs, const std::vector<QColor>* colors) {
  beginResetModel();
  runs_ = runs;
  colors_ = colors;
  endResetModel();
}

void CompareTableModel::refresh() {
  beginResetModel();
  endResetModel();
}

int CompareTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() || !runs_ ? 0 : static_cast<int>(runs_->size());
}

int CompareTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QString CompareTableModel::text(const RunRecord& r, int column) const {
  switch (column) {
    case Run: return r.name;
    case Status: return statusWord(r.status);  // the CSV keeps the word
    case Method: return methodText(r);
    case Parameters: return r.parameters;
    case Optimizer: return r.optimizer.isEmpty() ? QString() : optimizerText(r);
    case Attention:
      return r.attentionCertificate.isEmpty() ? r.attention
                                              : QStringLiteral("%1 · %2").arg(r.attention, attentionCertificateText(r.attentionCertificate));
    case AttentionBound:  // measured, and no bound exists (standard attention): said, not left blank
      if (!r.attentionBound && r.attentionPgd) return tr("none");
      [[fallthrough]];
    default: {
      const auto v = numberOf(r, column);
      return v ? widgets::displayNumber(*v, 'g', column == Steps ? 12 : 5) : QString();
    }
  }
}

QVariant CompareTableModel::data(const QModelIndex& index, int role) const {
  if (!runs_ || index.row() < 0 || index.row() >= static_cast<int>(runs_->size())) return {};
  const RunRecord& r = (*runs_)[static_cast<size_t>(index.row())];
  const int col = index.column();
  switch (role) {
    case Qt::DisplayRole: return text(r, col);
    case Qt::UserRole:
      if (isNumeric(col)) return numberOf(r, col).value_or(-std::numeric_limits<double>::infinity());
      return text(r, col);
    case kFilterRole:
      if (col == Method) return text(r, col) + QLatin1Char(' ') + r.method;
      if (col == Optimizer) return text(r, col) + QLatin1Char(' ') + r.optimizer;
      return text(r, col);
    case Qt::TextAlignmentRole:
      return isNumeric(col) ? QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    case Qt::DecorationRole:
      if (col == Run && colors_ && index.row() < static_cast<int>(colors_->size())) return (*colors_)[static_cast<size_t>(index.row())];
      return {};
    case Qt::ToolTipRole:
      if (col == Run) return r.dir;
      if (col == Status) return r.statusMessage;
      if (col == Method) return r.method;  // the config's id, as filters and the CSV have it
      if (col == Optimizer) return r.optimizer;
      if (col == Attention && r.attentionMixing)
        return tr("Where the converged prox moves the tokens, ÷‖X‖: %1 made of other tokens (mixing), %2 of each token itself")
            .arg(widgets::displayNumber(*r.attentionMixing, 'g', 3), widgets::displayNumber(r.attentionSelf.value_or(0), 'g', 3));
      if (col == Attention && !r.attentionCertificate.isEmpty())
        return tr("Certificate of the evaluated attention: converged (the prox reached its tolerance), certified_step "
                  "(a step rule 1-Lipschitz for every K) or none");
      return {};
    default: return {};
  }
}

QVariant CompareTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Run: return tr("Run");
    case Status: return tr("Status");
    case Method: return tr("Method");
    case Parameters: return tr("Parameters");
    case Optimizer: return tr("Optimizer");
    case Steps: return tr("Steps");
    case ValLoss: return tr("Val loss");
    case ValLossPaper: return tr("Val loss (paper window)");
    case ValLossFull: return tr("Val loss (full split)");
    case ValAcc: return tr("Val acc");
    case Bound: return tr("Lipschitz bound (RMS→RMS)");
    case MaxActEntry: return tr("Max act entry");
    case MaxActRms: return tr("Max act RMS");
    case StepsPerSecond: return tr("Steps/s");
    case Attention: return tr("Attention");
    case AttentionPgd: return tr("Attention PGD");
    case AttentionBound: return tr("Attention bound");
  }
  return {};
}

widgets::CsvTable CompareTableModel::toCsvTable() const {
  widgets::CsvTable t;
  t.header = {QStringLiteral("run"), QStringLiteral("dir"), QStringLiteral("status"), QStringLiteral("method"),
              QStringLiteral("parameters"), QStringLiteral("optimizer"), QStringLiteral("attention"),
              QStringLiteral("attention_certificate"), QStringLiteral("steps"), QStringLiteral("val_loss"),
              QStringLiteral("val_loss_paper"), QStringLiteral("val_loss_full"), QStringLiteral("val_acc"), QStringLiteral("lipschitz_bound"), QStringLiteral("max_act_entry"),
              QStringLiteral("max_act_rms"), QStringLiteral("steps_per_s"), QStringLiteral("attention_pgd_estimate"),
              QStringLiteral("attention_bound"), QStringLiteral("attention_mixing_movement"), QStringLiteral("attention_self_movement")};
  if (!runs_) return t;
  const auto cell = [](const std::optional<double>& v) { return v ? widgets::csvNumber(*v) : QString(); };
  for (const RunRecord& r : *runs_) {
    QStringList row = {r.name, r.dir, r.status, r.method, r.parameters, r.optimizer, r.attention, r.attentionCertificate};
    for (int col = Steps; col < ColumnCount; ++col) row << cell(numberOf(r, col));
    row << cell(r.attentionMixing) << cell(r.attentionSelf);
    t.rows.push_back(row);
  }
  return t;
}

}  // namespace lwb::app::pages
