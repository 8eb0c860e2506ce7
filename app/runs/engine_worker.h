// One training run on its own QThread (ARCHITECTURE.md "Threading"): an EngineWorker is
// moved to the thread, run() launches the run as the CLI does (run::launchRun: the Trainer,
// the run directory) and trains until the run ends or RunControl asks it to stop. Results
// leave only through the Mailbox; the GUI never waits on this object.
#pragma once

#include "run/run_config.h"

#include <QObject>
#include <QString>

#include <memory>

namespace lwb::run {
struct TrainerControl;
}

namespace lwb::app {

class Mailbox;

// Pause/stop flags shared by the GUI and the worker: the engine's TrainerControl atomics,
// checked by the trainer between steps. Copies share the same flags.
class RunControl {
 public:
  RunControl();
  void setPaused(bool paused) const;
  void requestStop() const;
  run::TrainerControl& engineControl() const { return *control_; }

 private:
  std::shared_ptr<run::TrainerControl> control_;
};

class EngineWorker : public QObject {
  Q_OBJECT

 public:
  // config: a parsed run config; runDir: created by the run, must not exist or be empty
  // (an empty folder reserved for it is removed when the run never starts). The worker
  // shares the mailbox so that a run outliving its window at exit never writes into freed
  // memory.
  EngineWorker(run::RunConfig config, QString runDir, std::shared_ptr<Mailbox> mailbox, RunControl control);
  ~EngineWorker() override;

 public Q_SLOTS:
  // Blocks this worker's thread until the run ends; always posts a run::RunSummary, then finished().
  void run();

 Q_SIGNALS:
  void finished();

 private:
  run::RunConfig config_;
  QString runDir_;
  std::shared_ptr<Mailbox> mailbox_;
  RunControl control_;
};

}  // namespace lwb::app
