// Help → Keyboard shortcuts (F1): every shortcut of the window, read from its actions when
// the dialog opens (the actions are the one home of a shortcut: menus, tool bars and this
// list cannot disagree), with the menu each lives in.
#pragma once

#include <QDialog>

class QMainWindow;
class QTableWidget;

namespace lwb::app {

class ShortcutsDialog : public QDialog {
  Q_OBJECT

 public:
  explicit ShortcutsDialog(QMainWindow* window);
  QTableWidget* table() const { return table_; }

 private:
  QTableWidget* table_ = nullptr;
};

}  // namespace lwb::app
