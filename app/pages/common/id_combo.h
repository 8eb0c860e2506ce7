// Combo boxes of canonical ids: the id is the item data, the text is the id or, for registry
// rows, their translated title. Used by every page control that picks a method,
// implementation, coefficient set or precision.
#pragma once

#include <QComboBox>
#include <QCoreApplication>

#include <string>
#include <string_view>
#include <vector>

namespace lwb::app::pages {

inline QString fromView(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }

// A registry's English text, translated in the "Registry" context (engine/common/tr_noop.h).
inline QString registryText(std::string_view text) { return QCoreApplication::translate("Registry", std::string(text).c_str()); }

inline QComboBox* idCombo(const std::vector<std::string>& ids, QWidget* parent) {
  auto* box = new QComboBox(parent);
  for (const auto& id : ids) box->addItem(QString::fromStdString(id), QString::fromStdString(id));
  return box;
}

// Rows of a registry table (members `key` and `title`); titled: show titles, else keys
// (where a row beside other fields has no room), each with its title as the item's tooltip.
template <class Table>
QComboBox* registryCombo(const Table& table, QWidget* parent, bool titled) {
  auto* box = new QComboBox(parent);
  for (const auto& row : table) {
    box->addItem(titled ? registryText(row.title) : fromView(row.key), fromView(row.key));
    if (!titled) box->setItemData(box->count() - 1, registryText(row.title), Qt::ToolTipRole);
  }
  return box;
}

// A registry row's short label (members `key` and `label`), translated, for legends; a key
// the registry does not know (another version's) as it is.
template <class Table>
QString registryLabel(const Table& table, std::string_view key) {
  for (const auto& row : table)
    if (row.key == key) return registryText(row.label);
  return fromView(key);
}

inline void selectId(QComboBox* box, std::string_view id) {
  const int i = box->findData(fromView(id));
  if (i >= 0) box->setCurrentIndex(i);
}

inline std::string currentId(const QComboBox* box) { return box->currentData().toString().toStdString(); }

}  // namespace lwb::app::pages
