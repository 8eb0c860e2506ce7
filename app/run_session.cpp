#include "app/run_session.h"

#include "app/mailbox.h"
#include "app/run_follower.h"
#include "common/json_read.h"

#include <QDir>
#include <QThread>
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

RunDelta RunSession::takeDelta() {
  RunDelta d = mailbox_->take();
  history_.apply(d);
  for (const auto& w : d.warnings) warnings_ << QString::fromStdString(w);
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
