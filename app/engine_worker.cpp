#include "app/engine_worker.h"

#include "app/mailbox.h"
#include "app/mailbox_sink.h"
#include "app/run_json.h"
#include "common/json_read.h"
#include "io/input_error.h"
#include "run/run_config.h"
#include "run/run_directory_sink.h"
#include "run/trainer.h"

#include <QDir>

#include <filesystem>
#include <optional>

namespace lwb::app {
namespace {

// c10::Error messages carry a C++ backtrace after the reason; the user needs the reason.
QString withoutBacktrace(const char* what) {
  QString text = QString::fromUtf8(what);
  const qsizetype cut = text.indexOf(QLatin1String("Exception raised from"));
  if (cut >= 0) text.truncate(cut);
  return text.trimmed();
}

}  // namespace

RunControl::RunControl() : control_(std::make_shared<run::TrainerControl>()) {}
void RunControl::setPaused(bool paused) const { control_->pause.store(paused); }
void RunControl::requestStop() const { control_->stop.store(true); }

EngineWorker::EngineWorker(QByteArray configJson, QString runDir, std::shared_ptr<Mailbox> mailbox, RunControl control)
    : configJson_(std::move(configJson)), runDir_(std::move(runDir)), mailbox_(std::move(mailbox)), control_(std::move(control)) {}

EngineWorker::~EngineWorker() = default;

void EngineWorker::run() {
  std::optional<run::RunDirectory> dir;
  auto fail = [&](const QString& message) {
    // The manager reserved the (empty) directory; a run that never started leaves nothing.
    if (!dir) QDir().rmdir(runDir_);
    if (dir) {
      try {
        dir->setStatus(run::RunStatus::Failed, message.toStdString());
      } catch (const std::exception&) {
        // The disk refused the status file too; the GUI still shows the reason.
      }
    }
    run::RunSummary end;
    end.status = run::RunStatus::Failed;
    end.message = message.toStdString();
    mailbox_->postEnd(std::move(end));
  };

  try {
    const auto json = jsonio::parse(std::string_view(configJson_.constData(), static_cast<size_t>(configJson_.size())),
                                    "run config");
    const run::RunConfig cfg = run::parseRunConfig(json);
    mailbox_->postTotalSteps(cfg.steps);
    mailbox_->postConstraint(run::trainingConstraint(cfg));
    mailbox_->postLevels(run::lossReferenceLevels(cfg));

    // The Trainer validates data and model first, so a bad data path leaves no directory.
    run::Trainer trainer(cfg);
    if (auto warnings = trainer.startWarnings(); !warnings.empty()) mailbox_->postWarnings(std::move(warnings));
    const std::string path = runDir_.toStdString();
    dir.emplace(path);
    dir->writeConfig(run::resolvedConfigJson(cfg));
    dir->setStatus(run::RunStatus::Running);
    trainer.setCheckpointDir((std::filesystem::path(path) / "checkpoints").string());
    run::RunDirectorySink record(*dir);
    MailboxSink live(*mailbox_);
    trainer.addSink(&record);
    trainer.addSink(&live);
    mailbox_->postState(RunState::Running);
    trainer.run(control_.engineControl());  // MailboxSink::onFinished posts the summary
  } catch (const InputError& e) {
    fail(QString::fromStdString(e.what()));
  } catch (const nlohmann::json::exception& e) {
    fail(QStringLiteral("config: %1").arg(QString::fromStdString(e.what())));
  } catch (const std::exception& e) {
    // LibTorch errors (out of memory, a kernel missing for this device) end the run, not the app.
    fail(withoutBacktrace(e.what()));
  }
  Q_EMIT finished();
}

}  // namespace lwb::app
