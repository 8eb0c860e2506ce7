// The Compare page's table: one row per run with its final figures and settings. Sortable
// (Qt::UserRole holds numbers; missing values sort first as NaN-free -inf), exportable as CSV.
#pragma once

#include "app/pages/compare/run_record.h"
#include "widgets/csv_table.h"

#include <QAbstractTableModel>
#include <QColor>

#include <vector>

namespace lwb::app::pages {

class CompareTableModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  // Attention and after it are seed 004's masked-LM figures (empty for other models): the
  // attention kind with the evaluated forward's certificate, then its PGD estimate and bound.
  enum Column { Run, Status, Method, Parameters, Optimizer, Attention, Steps, ValLoss, ValLossPaper, ValLossFull, ValAcc, Bound,
                MaxActEntry, MaxActRms, StepsPerSecond, AttentionPgd, AttentionBound, ColumnCount };

  // What the filter reads: the shown text and, for Method and Optimizer, the config's ids
  // ("spectral_soft_cap", "muon lr 0.1"), so a filter typed either way matches.
  static constexpr int kFilterRole = Qt::UserRole + 1;

  explicit CompareTableModel(QObject* parent = nullptr);

  void setRuns(const std::vector<RunRecord>* runs, const std::vector<QColor>* colors);
  void refresh();  // the runs changed

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

  // Every row in run order, numbers at full precision: what "Export table as CSV" writes.
  widgets::CsvTable toCsvTable() const;

 private:
  QString text(const RunRecord& r, int column) const;
  const std::vector<RunRecord>* runs_ = nullptr;
  const std::vector<QColor>* colors_ = nullptr;
};

}  // namespace lwb::app::pages
