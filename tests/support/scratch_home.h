// Keeps an app test away from the user's settings and runs folder: HOME, the XDG folders
// and $LWB_RUNS_DIR point into a temporary folder, and QStandardPaths' test mode is on
// (QSettings and the default runs folder both go through QStandardPaths on Linux). Call
// it first in initTestCase, before anything opens a QSettings: QSettings keeps the
// folder it first found for the rest of the process.
#pragma once

#include <QByteArray>
#include <QDir>
#include <QStandardPaths>
#include <QString>
#include <QTemporaryDir>

namespace lwb::test {

class ScratchHome {
 public:
  ScratchHome() {
    for (const char* var : {"HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"}) {
      const QString dir = var == QByteArray("HOME") ? dir_.path() : dir_.filePath(QString::fromLatin1(var).toLower());
      QDir().mkpath(dir);
      qputenv(var, QFile::encodeName(dir));
    }
    qputenv("LWB_RUNS_DIR", QFile::encodeName(dir_.filePath(QStringLiteral("runs"))));
    QStandardPaths::setTestModeEnabled(true);
  }
  QString path() const { return dir_.path(); }
  QString filePath(const QString& name) const { return dir_.filePath(name); }
  bool isValid() const { return dir_.isValid(); }

 private:
  QTemporaryDir dir_;
};

}  // namespace lwb::test
