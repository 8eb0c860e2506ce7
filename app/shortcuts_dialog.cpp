#include "app/shortcuts_dialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>
#include <QSet>
#include <QTableWidget>
#include <QVBoxLayout>

namespace lwb::app {
namespace {

QString plain(QString text) {
  text.remove(QRegularExpression(QStringLiteral("&(?!&)")));
  return text.replace(QStringLiteral("&&"), QStringLiteral("&")).remove(QChar(0x2026));  // "…"
}

struct Row {
  QString where, what, keys;
};

void collect(const QString& where, const QList<QAction*>& actions, QList<Row>& rows, QSet<const QAction*>& seen) {
  for (QAction* a : actions) {
    if (a->isSeparator()) continue;
    if (QMenu* sub = a->menu()) {
      collect(where.isEmpty() ? plain(a->text()) : where + QStringLiteral(" ▸ ") + plain(a->text()), sub->actions(), rows, seen);
      continue;
    }
    if (a->shortcuts().isEmpty() || seen.contains(a)) continue;
    seen.insert(a);
    QStringList keys;
    for (const QKeySequence& k : a->shortcuts()) keys << k.toString(QKeySequence::NativeText);
    rows.push_back({where, plain(a->text()), keys.join(QStringLiteral(", "))});
  }
}

}  // namespace

ShortcutsDialog::ShortcutsDialog(QMainWindow* window) : QDialog(window) {
  setObjectName(QStringLiteral("shortcutsDialog"));
  setWindowTitle(tr("Keyboard shortcuts"));
  QList<Row> rows;
  QSet<const QAction*> seen;
  collect(QString(), window->menuBar()->actions(), rows, seen);
  // Shortcuts that live on an action outside the menus (a page's own).
  // A key that acts in one list or table only (Delete) says where: its "shortcutScope".
  for (QAction* a : window->findChildren<QAction*>())
    if (!a->menu() && !a->shortcuts().isEmpty() && !seen.contains(a)) {
      const QString scope = a->property("shortcutScope").toString();
      collect(scope.isEmpty() ? tr("Window") : scope, {a}, rows, seen);
    }
  table_ = new QTableWidget(static_cast<int>(rows.size()), 3, this);
  table_->setObjectName(QStringLiteral("shortcutsTable"));
  table_->setHorizontalHeaderLabels({tr("Keys"), tr("Action"), tr("Menu")});
  for (int i = 0; i < rows.size(); ++i) {
    table_->setItem(i, 0, new QTableWidgetItem(rows[i].keys));
    table_->setItem(i, 1, new QTableWidgetItem(rows[i].what));
    table_->setItem(i, 2, new QTableWidgetItem(rows[i].where));
  }
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->resizeColumnsToContents();
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(table_);
  layout->addWidget(buttons);
  resize(560, 480);
}

}  // namespace lwb::app
