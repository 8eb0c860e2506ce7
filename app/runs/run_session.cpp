#include "app/runs/run_session.h"

#include "app/runs/cli_program.h"
#include "app/runs/mailbox.h"
#include "app/runs/run_follower.h"
#include "io/json_read.h"

#include <QDir>
#include <QProcess>
#include <QTemporaryFile>
#include <QThread>
#include <QTimer>
#include <QtDebug>

namespace lwb::app {

RunSession::RunSession(QString id, QString label, QColor color, QString runDir, QObject* parent)
    : QObject(parent),
      id_(std::move(id)),
      label_(std::move(label)),
      runDir_(std::move(runDir)),
      color_(std::move(color)),
      mailbox_(std::make_shared<Mailbox>()) {
  connect(mailbox_.get(), &Mailbox::dataReady, this, &RunSession::dataReady, Qt::QueuedConnection);
}

RunSession::~RunSession() {
  if (launcher_ && launcher_->state() != QProcess::NotRunning) {
    // Closing the app while its ranks train: stop them as Stop does (each writes its last
    // checkpoint and status), and do not leave them behind.
    disconnect(launcher_, nullptr, this, nullptr);
    launcher_->terminate();
    if (!launcher_->waitForFinished(kShutdownWaitMs)) launcher_->kill();
  }
  if (!thread_) return;
  control_.requestStop();
  if (follower_) QMetaObject::invokeMethod(follower_, &RunFollower::stop, Qt::QueuedConnection);
  thread_->requestInterruption();
  thread_->quit();
  if (!thread_->wait(kShutdownWaitMs)) {
    // A step that never returns (a hung device) must not hang the exit: leave the thread
    // to the process's end. It only touches the mailbox, which it co-owns.
    qWarning("run %s: engine thread did not stop within %d ms; leaving it behind", qPrintable(id_), kShutdownWaitMs);
    disconnect(mailbox_.get(), nullptr, this, nullptr);
    thread_->setParent(nullptr);
  }
}

QThread* RunSession::newThread() {
  thread_ = new QThread(this);
  thread_->setObjectName(QStringLiteral("lwb-%1").arg(id_));
  connect(thread_, &QThread::finished, this, [this] { Q_EMIT threadFinished(); });
  return thread_;
}

void RunSession::startTraining(const QByteArray& configJson) {
  try {
    const auto json = jsonio::parse(std::string_view(configJson.constData(), static_cast<size_t>(configJson.size())), "run config");
    startTraining(run::parseRunConfig(json));
  } catch (const std::exception& e) {
    // As a run the engine refuses: the session ends "failed" with the reason, and the empty
    // folder the manager reserved for it goes.
    if (thread_) return;
    QDir().rmdir(runDir_);
    run::RunSummary end;
    end.status = run::RunStatus::Failed;
    end.message = e.what();
    mailbox_->postEnd(std::move(end));
  }
}

void RunSession::startTraining(const run::RunConfig& config) {
  if (thread_) return;
  QThread* thread = newThread();
  auto* worker = new EngineWorker(config, runDir_, mailbox_, control_);
  worker->moveToThread(thread);
  // Queued: run() starts inside the thread's event loop, so quit() from finished() ends it.
  connect(thread, &QThread::started, worker, &EngineWorker::run, Qt::QueuedConnection);
  connect(worker, &EngineWorker::finished, thread, &QThread::quit, Qt::DirectConnection);
  connect(thread, &QThread::finished, worker, &QObject::deleteLater);
  setState(RunState::Starting);
  thread->start();
}

void RunSession::startFollowing(int pollMs) {
  if (thread_) return;
  following_ = true;
  QThread* thread = newThread();
  auto* follower = new RunFollower(runDir_, mailbox_, pollMs);
  follower->moveToThread(thread);
  follower_ = follower;
  connect(thread, &QThread::started, follower, &RunFollower::start, Qt::QueuedConnection);
  connect(follower, &RunFollower::finished, thread, &QThread::quit, Qt::DirectConnection);
  connect(thread, &QThread::finished, follower, &QObject::deleteLater);
  setState(RunState::Following);
  thread->start();
}

bool RunSession::startProcesses(const QByteArray& configJson, int processes, QString* error) {
  if (thread_ || launcher_) return false;
  const QString cli = findCliProgram();
  if (cli.isEmpty()) {
    *error = tr("%1 processes need lipschitz-cli, which is neither next to this program nor in PATH (or set LWB_CLI)").arg(processes);
    return false;
  }
  // The config goes to a file of its own: the run directory holds only what rank 0 writes.
  launcherConfig_ = std::make_unique<QTemporaryFile>(QDir::temp().filePath(QStringLiteral("lwb-run-XXXXXX.json")));
  if (!launcherConfig_->open() || launcherConfig_->write(configJson) != configJson.size() || !launcherConfig_->flush()) {
    *error = tr("cannot write the run's config to %1: %2").arg(launcherConfig_->fileName(), launcherConfig_->errorString());
    return false;
  }
  launcher_ = new QProcess(this);
  launcher_->setProgram(cli);
  launcher_->setArguments({QStringLiteral("train"), QStringLiteral("--config"), launcherConfig_->fileName(), QStringLiteral("--out"), runDir_,
                           QStringLiteral("--nproc"), QString::number(processes)});
  // Its progress lines are what the run directory says; only stderr explains a failure.
  launcher_->setStandardOutputFile(QProcess::nullDevice());
  connect(launcher_, &QProcess::readyReadStandardError, this, [this] {
    launcherErrors_ += QString::fromUtf8(launcher_->readAllStandardError());
    if (launcherErrors_.size() > 16384) launcherErrors_ = launcherErrors_.right(16384);
  });
  connect(launcher_, &QProcess::finished, this, [this](int code, QProcess::ExitStatus) { launcherFinished(code); });
  connect(launcher_, &QProcess::errorOccurred, this, [this](QProcess::ProcessError e) {
    if (e == QProcess::FailedToStart) launcherFinished(-1);
  });
  processes_ = processes;
  launcher_->start();
  startFollowing();
  setState(RunState::Starting);  // "running" once rank 0's status says so (takeDelta)
  return true;
}

void RunSession::launcherFinished(int exitCode) {
  if (exitCode == 0) return;  // the follower reads the final status rank 0 wrote
  const QString why = launcherErrors_.trimmed().isEmpty()
                          ? (exitCode < 0 ? launcher_->errorString() : tr("lipschitz-cli exited with status %1").arg(exitCode))
                          : launcherErrors_.trimmed().split(QLatin1Char('\n')).last();
  // A rank that failed after the run started wrote its status; give the follower a moment
  // to read it, then end the run with the launcher's own reason if nothing came.
  QTimer::singleShot(3 * 250 + 100, this, [this, why] {
    if (end_) return;
    if (follower_) QMetaObject::invokeMethod(follower_, &RunFollower::stop, Qt::QueuedConnection);
    run::RunSummary end;
    end.status = run::RunStatus::Failed;
    end.message = why.toStdString();
    end.steps = history_.latest() ? history_.latest()->step : 0;
    end_ = end;
    setState(RunState::Failed);
  });
}

void RunSession::pause() {
  if (following_ || (state_ != RunState::Running && state_ != RunState::Starting)) return;
  control_.setPaused(true);
  setState(RunState::Paused);
}

void RunSession::resume() {
  if (state_ != RunState::Paused) return;
  control_.setPaused(false);
  setState(RunState::Running);
}

void RunSession::stop() {
  if (!isActive(state_) || state_ == RunState::Stopping) return;
  if (launcher_ && launcher_->state() != QProcess::NotRunning) {
    launcher_->terminate();  // SIGTERM: the launcher passes it to every rank
    setState(RunState::Stopping);
    return;
  }
  if (following_) {
    if (follower_) QMetaObject::invokeMethod(follower_, &RunFollower::stop, Qt::QueuedConnection);
    run::RunSummary end;
    end.status = run::RunStatus::Stopped;
    end.message = tr("no longer following (the run itself is not affected)").toStdString();
    end.steps = history_.latest() ? history_.latest()->step : 0;
    end_ = end;
    setState(RunState::Stopped);
    return;
  }
  control_.setPaused(false);
  control_.requestStop();
  setState(RunState::Stopping);
}

bool RunSession::threadRunning() const { return thread_ && thread_->isRunning(); }

double RunSession::progress() const {
  const auto total = history_.totalSteps();
  if (!total || *total <= 0) return -1;
  const int64_t done = end_ ? end_->steps : (history_.latest() ? history_.latest()->step : 0);
  return std::clamp(static_cast<double>(done) / static_cast<double>(*total), 0.0, 1.0);
}

double RunSession::stepsPerSecond() const {
  const run::StepMetrics* latest = history_.latest();
  if (!isActive(state_) && end_ && end_->stepsPerSecond > 0) return end_->stepsPerSecond;
  return latest && latest->stepsPerSecond > 0 ? latest->stepsPerSecond : 0.0;
}

RunDelta RunSession::takeDelta() {
  RunDelta d = mailbox_->take();
  // The follower of a run this session launched reports a run it trains, not one it watches.
  if (launcher_ && d.state == RunState::Following) d.state = RunState::Running;
  history_.apply(d);
  if (d.worldSize) processes_ = *d.worldSize;
  for (const auto& w : d.warnings) warnings_ << statusMessageText(w);  // in the user's language
  if (d.end && !(following_ && end_)) {
    end_ = d.end;
    setState(runState(d.end->status));
  } else if (d.state && !end_) {
    // A pause or stop the user asked for outranks the worker's "running".
    if (!(*d.state == RunState::Running && (state_ == RunState::Paused || state_ == RunState::Stopping))) setState(*d.state);
  }
  return d;
}

void RunSession::setState(RunState s) {
  if (s == state_) return;
  state_ = s;
  Q_EMIT stateChanged(s);
}

}  // namespace lwb::app
