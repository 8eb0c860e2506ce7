#include "app/pages/inspector/tensor_table_model.h"

#include "app/pages/common/id_combo.h"
#include "inspect/spectral_metrics.h"
#include "widgets/number_format.h"

#include <QColor>
#include <QCoreApplication>
#include <QRegularExpression>

#include <cmath>
#include <limits>

namespace lwb::app::pages {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

QString number(double v) { return widgets::displayNumber(v, 'g', 5); }

const inspect::SpectralMetricInfo* metricOf(int column) {
  const auto table = inspect::spectralMetricTable();
  const int i = column - TensorTableModel::FirstMetric;
  return i >= 0 && i < static_cast<int>(table.size()) ? &table[static_cast<size_t>(i)] : nullptr;
}

QString csvField(const QString& s) {
  if (!s.contains(QLatin1Char(',')) && !s.contains(QLatin1Char('"')) && !s.contains(QLatin1Char('\n'))) return s;
  QString q = s;
  q.replace(QLatin1Char('"'), QLatin1String("\"\""));
  return QLatin1Char('"') + q + QLatin1Char('"');
}

}  // namespace

int TensorTableModel::metricCount() { return static_cast<int>(inspect::spectralMetricTable().size()); }

int TensorTableModel::metricColumn(QStringView key) {
  const auto table = inspect::spectralMetricTable();
  for (size_t i = 0; i < table.size(); ++i)
    if (key == QLatin1String(table[i].key.data(), static_cast<qsizetype>(table[i].key.size()))) return FirstMetric + static_cast<int>(i);
  return -1;
}

QString TensorTableModel::columnKey(int column) {
  switch (column) {
    case Name: return QStringLiteral("name");
    case Shape: return QStringLiteral("shape");
    case DType: return QStringLiteral("dtype");
    case Sigma1: return QStringLiteral("sigma1");
    case RmsNorm: return QStringLiteral("rms_norm");
    case Frobenius: return QStringLiteral("frobenius");
    default: break;
  }
  if (const auto* m = metricOf(column)) return QString::fromUtf8(m->key.data(), static_cast<qsizetype>(m->key.size()));
  return column == noteColumn() ? QStringLiteral("note") : QString();
}

bool TensorTableModel::shownByDefault(int column) {
  if (column < FirstMetric || column == noteColumn()) return true;
  const QString key = columnKey(column);
  // Not λmax = σ₁² (WeightWatcher's "spectral norm"): σ₁ is there, and its 100-px column
  // left the name 70 px ("par…n.o") in the pane's default width.
  return key == QLatin1String("stable_rank") || key == QLatin1String("alpha");
}

TensorTableModel::TensorTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void TensorTableModel::setTensors(std::vector<InspectedTensor> tensors) {
  beginResetModel();
  tensors_ = std::move(tensors);
  endResetModel();
}

const InspectedTensor* TensorTableModel::tensorAt(int row) const {
  return row >= 0 && row < static_cast<int>(tensors_.size()) ? &tensors_[static_cast<size_t>(row)] : nullptr;
}

double TensorTableModel::value(const InspectedTensor& t, int column) {
  if (!t.hasStats) return kNaN;
  switch (column) {
    case Sigma1: return t.sigma1;
    case RmsNorm: return t.rmsNorm;
    case Frobenius: return t.frobenius;
    default: break;
  }
  const int i = column - FirstMetric;
  return i >= 0 && i < static_cast<int>(t.metrics.size()) ? t.metrics[static_cast<size_t>(i)] : kNaN;
}

int TensorTableModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(tensors_.size()); }
int TensorTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : noteColumn() + 1; }

QVariant TensorTableModel::data(const QModelIndex& index, int role) const {
  const InspectedTensor* t = tensorAt(index.row());
  if (!t) return {};
  const int col = index.column();
  const bool numeric = col >= Sigma1 && col < noteColumn();
  const double value = numeric ? TensorTableModel::value(*t, col) : kNaN;
  if (role == Qt::UserRole) {
    if (numeric) return !t->hasStats ? -1.0 : std::isnan(value) ? std::numeric_limits<double>::infinity() : value;
    if (col == Shape) {
      qint64 n = 1;
      for (int64_t d : t->shape) n *= d;
      return n;  // sort shapes by element count
    }
  }
  const auto* metric = metricOf(col);
  const bool alphaColumn = metric && metric->key == "alpha";
  // WeightWatcher's reading of α, as a hint colour (a heuristic, said so in the tooltip).
  if (alphaColumn && (role == Qt::BackgroundRole || role == Qt::ToolTipRole)) {
    const auto reading = inspect::readAlpha(value);
    if (role == Qt::BackgroundRole)
      return reading == inspect::AlphaReading::OverFit        ? QVariant(QColor(0xf4, 0xc7, 0xc3))
             : reading == inspect::AlphaReading::UnderTrained ? QVariant(QColor(0xfd, 0xe2, 0x93))
                                                              : QVariant();
    if (reading == inspect::AlphaReading::OverFit) return tr("α < 2: WeightWatcher's heuristic reads this as over-fit (a rule of thumb, not a test)");
    if (reading == inspect::AlphaReading::UnderTrained) return tr("α > 6: WeightWatcher's heuristic reads this as under-trained (a rule of thumb, not a test). A spectral cap "
                                                                 "piles the largest singular values up at σmax and so thins the tail α is fitted to: "
                                                                 "capped matrices read high by construction");
    return {};
  }
  if (role == Qt::TextAlignmentRole && numeric) return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
  if (role == Qt::ToolTipRole && col == Name) return t->name;
  if (role != Qt::DisplayRole && role != Qt::UserRole) return {};
  switch (col) {
    case Name: return t->name;
    case Shape: return t->shapeText();
    case DType: return t->dtype;
    default: break;
  }
  if (col == noteColumn()) return t->note;
  if (!t->hasStats || std::isnan(value)) return QString();
  return metric && metric->integer ? QString::number(static_cast<qint64>(value)) : number(value);
}

QVariant TensorTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return {};
  const auto* metric = metricOf(section);
  if (role == Qt::ToolTipRole) {
    if (metric) return registryText(metric->description) + QStringLiteral(" [%1]").arg(columnKey(section));
    switch (section) {
      case Sigma1: return tr("σ₁, the largest singular value: the spectral norm the workbench's bounds use (WeightWatcher's \"spectral norm\" is λmax = σ₁²)");
      case RmsNorm: return tr("RMS→RMS operator norm σ₁·√(d_in/d_out) of a (d_out, d_in) matrix");
      default: return {};
    }
  }
  if (role != Qt::DisplayRole) return {};
  if (metric) return registryText(metric->title);
  switch (section) {
    case Name: return tr("Name");
    case Shape: return tr("Shape");
    case DType: return tr("dtype");
    case Sigma1: return tr("σ₁");
    case RmsNorm: return tr("RMS→RMS");
    case Frobenius: return tr("Frobenius");
    default: break;
  }
  return section == noteColumn() ? tr("Note") : QVariant();
}

QString TensorTableModel::toCsv() const {
  QStringList header;
  for (int c = 0; c <= noteColumn(); ++c) header << columnKey(c);
  QString out = header.join(QLatin1Char(',')) + QLatin1Char('\n');
  for (const InspectedTensor& t : tensors_) {
    QStringList dims;
    for (int64_t d : t.shape) dims << QString::number(d);
    QStringList row{csvField(t.name), dims.join(QLatin1Char('x')), csvField(t.dtype)};
    for (int c = Sigma1; c < noteColumn(); ++c) {
      const double v = value(t, c);
      row << (std::isnan(v) ? QString() : QString::number(v, 'g', 17));
    }
    row << csvField(t.note);
    out += row.join(QLatin1Char(',')) + QLatin1Char('\n');
  }
  return out;
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
