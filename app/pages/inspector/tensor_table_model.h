// The Inspector's table: one row per tensor (name, shape, dtype, σ₁, RMS→RMS norm, Frobenius
// norm, then one column per WeightWatcher-parity metric of inspect::spectralMetricTable(),
// then the note). Qt::UserRole holds sortable values (numbers as doubles, -1 where a tensor
// has no statistics, +inf where a metric is undefined, so those sort last);
// TensorFilterProxy sorts and filters by name.
#pragma once

#include "app/pages/inspector/inspected_file.h"

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

namespace lwb::app::pages {

class TensorTableModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { Name, Shape, DType, Sigma1, RmsNorm, Frobenius, FirstMetric };
  static int metricCount();
  static int metricColumn(QStringView key);  // -1 if no metric has that key
  static int noteColumn() { return FirstMetric + metricCount(); }
  // The JSON/CSV key of a column ("sigma1", "alpha", ...).
  static QString columnKey(int column);
  // Columns shown before the user picks (σ₁, RMS→RMS, Frobenius, stable rank, α).
  static bool shownByDefault(int column);

  explicit TensorTableModel(QObject* parent = nullptr);

  void setTensors(std::vector<InspectedTensor> tensors);
  const std::vector<InspectedTensor>& tensors() const { return tensors_; }
  const InspectedTensor* tensorAt(int row) const;
  // A column's value for a tensor (NaN where undefined or without statistics).
  static double value(const InspectedTensor& t, int column);

  // Every tensor, every column, with `inspect`'s JSON key names as the header row; numbers at
  // full precision, undefined ones empty.
  QString toCsv() const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

 private:
  std::vector<InspectedTensor> tensors_;
};

// Case-insensitive name filter (plain text or a wildcard such as *attn*weight), optionally
// matrices only.
class TensorFilterProxy : public QSortFilterProxyModel {
  Q_OBJECT

 public:
  explicit TensorFilterProxy(QObject* parent = nullptr);
  void setNameFilter(const QString& text);
  void setMatricesOnly(bool on);

 protected:
  bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

 private:
  bool matricesOnly_ = true;
};

}  // namespace lwb::app::pages
