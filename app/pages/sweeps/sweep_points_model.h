// The Sweeps page's table: one row per point of the sweep — its id, what sets it apart,
// its status (the run index's, or the scheduler's while a Slurm task waits), its progress
// (steps done of steps, live from the sweep's progress events) and its final figures.
#pragma once

#include "sweep/run_index.h"

#include <QAbstractTableModel>

#include <map>
#include <string>
#include <vector>

namespace lwb::app::pages {

struct SweepPointRow {
  QString id, assignment;
  run::RunStatus status = run::RunStatus::Pending;
  QString scheduler;  // Slurm state, empty for local runs
  qint64 step = 0, steps = 0;
  double valLoss = run::kNotMeasured, bound = run::kNotMeasured;
};

class SweepPointsModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { Id, Assignment, Status, Progress, ValLoss, Bound, ColumnCount };
  using QAbstractTableModel::QAbstractTableModel;

  // The plan (dry run): ids and assignments; every row pending.
  void setPlan(const std::vector<std::pair<QString, QString>>& points);
  // The index's rows of this sweep (by id).
  void updateFromIndex(const std::vector<sweep::IndexRow>& rows);
  // A progress event's running points.
  void updateActive(const std::map<QString, std::pair<qint64, qint64>>& steps);

  const std::vector<SweepPointRow>& points() const { return rows_; }
  int countWithStatus(run::RunStatus status) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation o, int role) const override;

 private:
  int rowOf(const QString& id) const;
  std::vector<SweepPointRow> rows_;
};

}  // namespace lwb::app::pages
