#include "app/run_types.h"

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

bool isActive(RunState s) {
  return s == RunState::Starting || s == RunState::Running || s == RunState::Paused || s == RunState::Stopping ||
         s == RunState::Following;
}

RunState runStateFromStatus(const QString& status) {
  if (status == QLatin1String("finished")) return RunState::Finished;
  if (status == QLatin1String("diverged")) return RunState::Diverged;
  if (status == QLatin1String("stopped")) return RunState::Stopped;
  if (status == QLatin1String("running")) return RunState::Running;
  return RunState::Failed;
}

}  // namespace lwb::app
