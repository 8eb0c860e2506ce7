#include "app/pages/sweeps/sweep_points_model.h"

#include "app/runs/run_types.h"
#include "widgets/number_format.h"

#include <QColor>

#include <cmath>

namespace lwb::app::pages {

void SweepPointsModel::setPlan(const std::vector<std::pair<QString, QString>>& points) {
  beginResetModel();
  rows_.clear();
  for (const auto& [id, assignment] : points) {
    SweepPointRow row;  // every other field at its default (pending)
    row.id = id;
    row.assignment = assignment;
    rows_.push_back(std::move(row));
  }
  endResetModel();
}

int SweepPointsModel::rowOf(const QString& id) const {
  // Ids are the zero-padded point index: row i holds point i.
  bool ok = false;
  const int i = id.toInt(&ok);
  if (ok && i >= 0 && i < static_cast<int>(rows_.size()) && rows_[static_cast<size_t>(i)].id == id) return i;
  for (size_t r = 0; r < rows_.size(); ++r)
    if (rows_[r].id == id) return static_cast<int>(r);
  return -1;
}

void SweepPointsModel::updateFromIndex(const std::vector<sweep::IndexRow>& rows) {
  for (const sweep::IndexRow& r : rows) {
    const int i = rowOf(QString::fromStdString(r.id));
    if (i < 0) continue;
    SweepPointRow& p = rows_[static_cast<size_t>(i)];
    // A word the codec does not know (a hostile index) reads as failed, as in a status file.
    p.status = run::parseStatusWord(r.status).value_or(run::RunStatus::Failed);
    p.scheduler = QString::fromStdString(r.schedulerState);
    p.steps = r.steps;
    p.step = std::max<qint64>(p.step * (p.status == run::RunStatus::Running), r.stepDone);
    p.valLoss = r.valLoss;
    p.bound = r.lipschitzBound;
  }
  if (!rows_.empty()) Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

void SweepPointsModel::updateActive(const std::map<QString, std::pair<qint64, qint64>>& steps) {
  for (const auto& [id, s] : steps) {
    const int i = rowOf(id);
    if (i < 0) continue;
    SweepPointRow& p = rows_[static_cast<size_t>(i)];
    p.status = run::RunStatus::Running;
    p.step = s.first;
    if (s.second > 0) p.steps = s.second;
    Q_EMIT dataChanged(index(i, 0), index(i, ColumnCount - 1));
  }
}

int SweepPointsModel::countWithStatus(run::RunStatus status) const {
  int n = 0;
  for (const auto& r : rows_) n += r.status == status;
  return n;
}

int SweepPointsModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(rows_.size()); }
int SweepPointsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant SweepPointsModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid()) return {};
  const SweepPointRow& p = rows_[static_cast<size_t>(index.row())];
  const auto number = [](double v) { return std::isfinite(v) ? QVariant(widgets::displayNumber(v, 'g', 4)) : QVariant(); };
  if (role == Qt::DisplayRole) {
    switch (index.column()) {
      case Id: return p.id;
      case Assignment: return p.assignment;
      case Status:
        return p.scheduler.isEmpty() || p.status != run::RunStatus::Pending
                   ? toDisplayString(p.status)
                   : QStringLiteral("%1 (%2)").arg(toDisplayString(p.status), p.scheduler);
      case Progress:
        if (p.steps <= 0) return {};
        return QStringLiteral("%1 / %2 (%3%)").arg(p.step).arg(p.steps).arg(100 * p.step / p.steps);
      case ValLoss: return number(p.valLoss);
      case Bound: return number(p.bound);
      default: return {};
    }
  }
  // The settings column is the narrow one in a half-width pane: the whole text on hover.
  if (role == Qt::ToolTipRole && index.column() == Assignment) return p.assignment;
  if (role == Qt::ForegroundRole && index.column() == Status) {
    if (run::info(p.status).problem) return QColor(0xb0, 0x00, 0x20);
    if (p.status == run::RunStatus::Running) return QColor(0x1f, 0x77, 0xb4);
  }
  return {};
}

QVariant SweepPointsModel::headerData(int section, Qt::Orientation o, int role) const {
  if (o != Qt::Horizontal) return {};
  if (role == Qt::ToolTipRole && section == Bound)
    return tr("The whole model's Lipschitz bound at the end of the run, from RMS to RMS norms");
  if (role != Qt::DisplayRole) return {};
  switch (section) {
    case Id: return tr("Point");
    case Assignment: return tr("Settings");
    case Status: return tr("Status");
    case Progress: return tr("Steps");
    case ValLoss: return tr("Val loss");
    case Bound: return tr("Lipschitz bound");  // RMS→RMS: in its tooltip, so Settings keeps its width
    default: return {};
  }
}

}  // namespace lwb::app::pages
