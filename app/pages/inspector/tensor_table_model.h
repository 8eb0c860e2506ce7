// The Inspector's table: one row per tensor (name, shape, dtype, σ₁, RMS→RMS norm, stable
// rank, Frobenius norm, note). Qt::UserRole holds sortable values (numbers as doubles, -1
// where a tensor has no statistics); TensorFilterProxy sorts and filters by name.
#pragma once

#include "app/pages/inspector/inspected_file.h"

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>

namespace lwb::app::pages {

class TensorTableModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { Name, Shape, DType, Sigma1, RmsNorm, StableRank, Frobenius, Note, ColumnCount };

  explicit TensorTableModel(QObject* parent = nullptr);

  void setTensors(std::vector<InspectedTensor> tensors);
  const std::vector<InspectedTensor>& tensors() const { return tensors_; }
  const InspectedTensor* tensorAt(int row) const;

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
