#include "app/pages/inspector/tensor_table_model.h"

#include "widgets/number_format.h"

#include <QRegularExpression>

namespace lwb::app::pages {
namespace {

QString number(double v) { return widgets::displayNumber(v, 'g', 5); }

}  // namespace

TensorTableModel::TensorTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void TensorTableModel::setTensors(std::vector<InspectedTensor> tensors) {
  beginResetModel();
  tensors_ = std::move(tensors);
  endResetModel();
}

const InspectedTensor* TensorTableModel::tensorAt(int row) const {
  return row >= 0 && row < static_cast<int>(tensors_.size()) ? &tensors_[static_cast<size_t>(row)] : nullptr;
}

int TensorTableModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(tensors_.size()); }
int TensorTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant TensorTableModel::data(const QModelIndex& index, int role) const {
  const InspectedTensor* t = tensorAt(index.row());
  if (!t) return {};
  const int col = index.column();
  const bool numeric = col >= Sigma1 && col <= Frobenius;
  const double value = !t->hasStats ? -1.0
                       : col == Sigma1 ? t->sigma1
                       : col == RmsNorm ? t->rmsNorm
                       : col == StableRank ? t->stableRank
                                           : t->frobenius;
  if (role == Qt::UserRole) {
    if (numeric) return value;
    if (col == Shape) {
      qint64 n = 1;
      for (int64_t d : t->shape) n *= d;
      return n;  // sort shapes by element count
    }
  }
  if (role == Qt::TextAlignmentRole && numeric) return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
  if (role == Qt::ToolTipRole && col == Name) return t->name;
  if (role != Qt::DisplayRole && role != Qt::UserRole) return {};
  switch (col) {
    case Name: return t->name;
    case Shape: return t->shapeText();
    case DType: return t->dtype;
    case Note: return t->note;
    default: return t->hasStats ? number(value) : QString();
  }
}

QVariant TensorTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return {};
  if (role == Qt::ToolTipRole) {
    switch (section) {
      case RmsNorm: return tr("RMS→RMS operator norm σ₁·√(d_in/d_out) of a (d_out, d_in) matrix");
      case StableRank: return tr("‖W‖²_F / σ₁²");
      default: return {};
    }
  }
  if (role != Qt::DisplayRole) return {};
  switch (section) {
    case Name: return tr("Name");
    case Shape: return tr("Shape");
    case DType: return tr("dtype");
    case Sigma1: return tr("σ₁");
    case RmsNorm: return tr("RMS→RMS");
    case StableRank: return tr("Stable rank");
    case Frobenius: return tr("Frobenius");
    case Note: return tr("Note");
  }
  return {};
}

TensorFilterProxy::TensorFilterProxy(QObject* parent) : QSortFilterProxyModel(parent) {
  setSortRole(Qt::UserRole);
  setFilterKeyColumn(TensorTableModel::Name);
  setFilterCaseSensitivity(Qt::CaseInsensitive);
}

void TensorFilterProxy::setNameFilter(const QString& text) {
  const QString t = text.trimmed();
  if (t.contains(QLatin1Char('*')) || t.contains(QLatin1Char('?')))
    setFilterRegularExpression(QRegularExpression(QRegularExpression::wildcardToRegularExpression(t, QRegularExpression::UnanchoredWildcardConversion),
                                                  QRegularExpression::CaseInsensitiveOption));
  else
    setFilterFixedString(t);
}

void TensorFilterProxy::setMatricesOnly(bool on) {
  matricesOnly_ = on;
  invalidateFilter();
}

bool TensorFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
  const auto* model = static_cast<const TensorTableModel*>(sourceModel());
  const InspectedTensor* t = model->tensorAt(sourceRow);
  if (matricesOnly_ && t && !t->isMatrix()) return false;
  return QSortFilterProxyModel::filterAcceptsRow(sourceRow, sourceParent);
}

}  // namespace lwb::app::pages
