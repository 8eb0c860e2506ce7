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
