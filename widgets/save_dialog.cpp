#include "widgets/save_dialog.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>

namespace lwb::widgets {

QString getSavePath(QWidget* parent, const QString& caption, const QString& defaultName, const QString& filter,
                    const QString& suffix) {
  QFileDialog dialog(parent, caption, defaultName, filter);
  dialog.setObjectName(QStringLiteral("saveDialog"));
  dialog.setAcceptMode(QFileDialog::AcceptSave);
  dialog.setFileMode(QFileDialog::AnyFile);
  // Added by the dialog itself, before its "replace?" question, so that question covers it.
  dialog.setDefaultSuffix(suffix);
  if (dialog.exec() != QDialog::Accepted || dialog.selectedFiles().isEmpty()) return {};
  QString path = dialog.selectedFiles().constFirst();
  // A native dialog may ignore the default suffix: add it, and ask here instead.
  if (QFileInfo(path).suffix().isEmpty() && !suffix.isEmpty()) {
    path += QLatin1Char('.') + suffix;
    if (!confirmReplacing(parent, {path})) return {};
  }
  return path;
}

bool confirmReplacing(QWidget* parent, const QStringList& files) {
  QStringList existing;
  for (const QString& f : files)
    if (QFileInfo::exists(f)) existing << QDir::toNativeSeparators(f);
  if (existing.isEmpty()) return true;
  QMessageBox box(QMessageBox::Question, QCoreApplication::translate("SaveDialog", "Replace files?"),
                  QCoreApplication::translate("SaveDialog", "These files exist and would be replaced:\n%1").arg(existing.join(QLatin1Char('\n'))),
                  QMessageBox::Yes | QMessageBox::Cancel, parent);
  box.setObjectName(QStringLiteral("replaceFilesBox"));
  box.setDefaultButton(QMessageBox::Cancel);
  return box.exec() == QMessageBox::Yes;
}

}  // namespace lwb::widgets
