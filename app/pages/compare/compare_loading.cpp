#include "app/pages/compare/compare_loading.h"

#include "io/tfevents.h"

#include <QFileInfo>
#include <QObject>

namespace lwb::app::pages {

RunBatch loadRunBatch(const QStringList& dirs) {
  RunBatch b;
  for (const QString& dir : dirs) {
    // A run index (a file, or a folder holding index.sqlite that is no run directory itself):
    // one query for every run in it.
    const QFileInfo info(dir);
    if (info.isDir() && io::isTfEventsFileName(info.fileName().toStdString())) {
      b.errors << QObject::tr("%1: named like a TensorBoard event file, but it is a folder").arg(dir);
      continue;
    }
    if (info.isFile() && isTensorBoardRun(dir)) {
      try {
        b.runs.push_back(loadTensorBoardRecord(dir, &b.errors));
      } catch (const std::exception& e) {
        b.errors << QString::fromUtf8(e.what());
      }
      continue;
    }
    const QString indexFile = info.isFile() ? dir : dir + QStringLiteral("/index.sqlite");
    if (info.isFile() || (QFileInfo::exists(indexFile) && findRunDirectories(dir) != QStringList{info.absoluteFilePath()})) {
      try {
        for (RunRecord& r : loadIndexRecords(indexFile)) b.runs.push_back(std::move(r));
      } catch (const std::exception& e) {
        b.errors << QString::fromUtf8(e.what());
      }
      continue;
    }
    const QStringList found = findRunDirectories(dir);
    if (found.isEmpty()) b.errors << QObject::tr("%1: not a run directory and holds none").arg(dir);
    for (const QString& runDir : found) {
      try {
        b.runs.push_back(isTensorBoardRun(runDir) ? loadTensorBoardRecord(runDir, &b.errors) : loadRunRecord(runDir));
      } catch (const std::exception& e) {
        b.errors << QString::fromUtf8(e.what());
      }
    }
  }
  return b;
}

RunBatch followTensorBoardRuns(std::vector<RunRecord> shown) {
  RunBatch b;
  for (RunRecord& r : shown) {
    try {
      if (followTensorBoardRecord(r, &b.errors)) b.runs.push_back(std::move(r));
    } catch (const std::exception& e) {
      b.errors << QString::fromUtf8(e.what());
    }
  }
  return b;
}

}  // namespace lwb::app::pages
