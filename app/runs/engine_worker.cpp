#include "app/runs/engine_worker.h"

#include "app/runs/mailbox.h"
#include "app/runs/mailbox_sink.h"
#include "app/runs/run_json.h"
#include "run/launch_run.h"
#include "run/trainer_control.h"

#include <QDir>

namespace lwb::app {

RunControl::RunControl() : control_(std::make_shared<run::TrainerControl>()) {}
void RunControl::setPaused(bool paused) const { control_->pause.store(paused); }
void RunControl::requestStop() const { control_->stop.store(true); }

EngineWorker::EngineWorker(run::RunConfig config, QString runDir, std::shared_ptr<Mailbox> mailbox, RunControl control)
    : config_(std::move(config)), runDir_(std::move(runDir)), mailbox_(std::move(mailbox)), control_(std::move(control)) {}

EngineWorker::~EngineWorker() = default;

void EngineWorker::run() {
  try {
    mailbox_->postTotalSteps(config_.steps);
    mailbox_->postConstraint(run::trainingConstraint(config_));
    mailbox_->postLevels(run::lossReferenceLevels(config_));
    MailboxSink live(*mailbox_);
    run::LaunchOptions launch;
    launch.runDir = runDir_.toStdString();
    launch.sinks = {&live};
    launch.ready = [this](const std::vector<std::string>&, const std::vector<std::string>& warnings) {
      if (!warnings.empty()) mailbox_->postWarnings(warnings);
    };
    launch.recording = [this] { mailbox_->postState(RunState::Running); };
    run::launchRun(config_, launch, control_.engineControl());  // MailboxSink::onFinished posts the summary
  } catch (const std::exception& e) {
    // Bad data or model, a taken folder, LibTorch errors (out of memory, a kernel missing for
    // this device): they end the run, not the app. launchRun has set status "failed" when
    // the run directory was written; the empty folder the manager reserved for a run that
    // never started is removed (rmdir leaves a folder with files alone).
    QDir().rmdir(runDir_);
    run::RunSummary end;
    end.status = run::RunStatus::Failed;
    end.message = run::failureReason(e);
    mailbox_->postEnd(std::move(end));
  }
  Q_EMIT finished();
}

}  // namespace lwb::app
