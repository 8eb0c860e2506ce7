#include "app/runs/run_types.h"

#include <QCoreApplication>

namespace lwb::app {

QString toDisplayString(RunState s) {
  switch (s) {
    case RunState::Starting: return QCoreApplication::translate("RunState", "starting");
    case RunState::Running: return QCoreApplication::translate("RunState", "running");
    case RunState::Paused: return QCoreApplication::translate("RunState", "paused");
    case RunState::Stopping: return QCoreApplication::translate("RunState", "stopping");
    case RunState::Finished: return QCoreApplication::translate("RunState", "finished");
    case RunState::Diverged: return QCoreApplication::translate("RunState", "diverged");
    case RunState::Stopped: return QCoreApplication::translate("RunState", "stopped");
    case RunState::Failed: return QCoreApplication::translate("RunState", "failed");
    case RunState::Following: return QCoreApplication::translate("RunState", "following");
  }
  return {};
}

QString statusWord(const QString& word) {
  // The words only files and sweeps use; RunState's are the translations above.
  static const char* const kFileWords[] = {QT_TRANSLATE_NOOP("RunState", "pending"),
                                           QT_TRANSLATE_NOOP("RunState", "queued"),
                                           QT_TRANSLATE_NOOP("RunState", "unknown")};
  (void)kFileWords;
  return QCoreApplication::translate("RunState", word.toUtf8().constData());
}

bool isActive(RunState s) {
  return s == RunState::Starting || s == RunState::Running || s == RunState::Paused || s == RunState::Stopping ||
         s == RunState::Following;
}

RunState runState(run::RunStatus s) {
  switch (s) {
    case run::RunStatus::Running: return RunState::Running;
    case run::RunStatus::Finished: return RunState::Finished;
    case run::RunStatus::Diverged: return RunState::Diverged;
    case run::RunStatus::Stopped: return RunState::Stopped;
    case run::RunStatus::Failed: return RunState::Failed;
  }
  return RunState::Failed;
}

}  // namespace lwb::app
