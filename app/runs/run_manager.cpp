#include "app/runs/run_manager.h"

#include "app/app_options.h"

#include "common/threads.h"
#include "run/run_directory_reader.h"
#include "widgets/palette.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QThread>

#include <algorithm>

#include <nlohmann/json.hpp>

namespace lwb::app {

int applyAppIntraOpThreads() {
  // Not pinned: each run tunes its count between 1 and this ceiling (common/thread_tuner.h).
  return setDefaultIntraOpThreads(std::max(1, QThread::idealThreadCount() - 1));
}

RunManager::RunManager(QObject* parent) : QObject(parent) {
  throttle_.setSingleShot(true);
  throttle_.setInterval(kDefaultReplotIntervalMs);
  connect(&throttle_, &QTimer::timeout, this, &RunManager::flush);
  runsFolder_ = qEnvironmentVariable("LWB_RUNS_DIR");
  if (runsFolder_.isEmpty())
    runsFolder_ = QDir(QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation)).filePath(QStringLiteral("runs"));
}

RunManager::~RunManager() {
  // Ask every run to stop first so their threads wind down in parallel, then wait.
  stopAll();
  for (RunSession* s : retiring_) s->stop();
  const auto sessions = sessions_ + retiring_;
  sessions_.clear();
  retiring_.clear();
  for (RunSession* s : sessions) {
    disconnect(s, nullptr, this, nullptr);
    delete s;  // bounded wait for its thread (RunSession::kShutdownWaitMs)
  }
}

QString RunManager::newRunDir(const QString& label, QString* error) const {
  QDir root(runsFolder_);
  if (!root.mkpath(QStringLiteral("."))) {
    // Why, as --runs-dir says it ("is a file, not a folder"; "not writable"), and what to do.
    const QString why = runsFolderError(runsFolder_);
    *error = tr("Runs folder: %1 (File → Runs folder… chooses another)")
                 .arg(why.isEmpty() ? tr("'%1' cannot be created").arg(runsFolder_) : why);
    return {};
  }
  QString slug = label;
  slug.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9_.-]+")), QStringLiteral("_"));
  const QString base = QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss")) + QLatin1Char('-') + slug;
  // mkdir reserves the name at once: two runs started in the same second (or another app
  // writing to the same folder) never share a directory. The run fills it on its thread.
  QString name = base;
  for (int n = 2; !root.mkdir(name); ++n) {
    if (n > 1000) {
      *error = tr("cannot create a run directory in '%1'").arg(runsFolder_);
      return {};
    }
    name = base + QLatin1Char('-') + QString::number(n);
  }
  return root.filePath(name);
}

RunSession* RunManager::addSession(const QString& label, const QString& runDir) {
  const int index = nextIndex_++;
  auto* s = new RunSession(QStringLiteral("run-%1").arg(index + 1), label, widgets::runColor(index), runDir, this);
  connect(s, &RunSession::dataReady, this, [this, s] { onDataReady(s); });
  connect(s, &RunSession::stateChanged, this, [this, s] { Q_EMIT sessionStateChanged(s); });
  connect(s, &RunSession::threadFinished, this, [this] {
    if (!anyThreadRunning()) Q_EMIT allThreadsFinished();
  });
  sessions_.push_back(s);
  Q_EMIT sessionAdded(s);
  setCurrentRun(s);  // the newest run is the one to watch
  return s;
}

RunSession* RunManager::startRun(const run::RunConfig& config, const QString& label, QString* error) {
  const QString dir = newRunDir(label, error);
  if (dir.isEmpty()) return nullptr;
  RunSession* s = addSession(label, dir);
  s->startTraining(config);
  return s;
}

RunSession* RunManager::startRunInProcesses(const run::RunConfig& config, const QString& label, int processes,
                                             QString* error) {
  const QString dir = newRunDir(label, error);
  if (dir.isEmpty()) return nullptr;
  RunSession* s = addSession(label, dir);
  // The CLI reads the config from a file: the same resolved keys the run directory records.
  const std::string text = run::toJson(config).dump();
  if (!s->startProcesses(QByteArray(text.data(), static_cast<qsizetype>(text.size())), processes, error)) {
    removeRun(s);
    QDir().rmdir(dir);  // still empty: nothing was started
    return nullptr;
  }
  return s;
}

RunSession* RunManager::followRun(const QString& runDir, QString* error) {
  const QDir dir(runDir);
  if (!dir.exists()) {
    *error = tr("%1: no such folder").arg(runDir);
    return nullptr;
  }
  if (!run::RunDirectoryReader::isRunDirectory(runDir.toStdString())) {
    *error = tr("%1: not a run directory (no config.json or metrics.jsonl)").arg(runDir);
    return nullptr;
  }
  RunSession* s = addSession(QFileInfo(QDir::cleanPath(dir.absolutePath())).fileName(), dir.absolutePath());
  s->startFollowing();
  return s;
}

RunSession* RunManager::addRun(const QString& label, const QString& runDir) { return addSession(label, runDir); }

void RunManager::removeRun(RunSession* session) {
  if (!sessions_.contains(session)) return;
  session->stop();
  sessions_.removeAll(session);
  dirty_.remove(session);
  Q_EMIT sessionRemoved(session);
  // The run list has moved its selection to a neighbour by now, if it had one.
  if (current_ == session) setCurrentRun(nullptr);
  if (session->threadRunning()) {
    // Deleted once its thread has wound down, never waited for on the GUI thread.
    disconnect(session, nullptr, this, nullptr);
    retiring_.push_back(session);
    connect(session, &RunSession::threadFinished, this, [this, session] {
      retiring_.removeAll(session);
      session->deleteLater();
    });
  } else {
    delete session;
  }
}

void RunManager::setCurrentRun(RunSession* session) {
  if (session == current_) return;
  current_ = session;
  Q_EMIT currentRunChanged(session);
}

bool RunManager::anyThreadRunning() const {
  for (RunSession* s : sessions_)
    if (s->threadRunning()) return true;
  return false;
}

void RunManager::stopAll() {
  for (RunSession* s : sessions_) s->stop();
}

void RunManager::onDataReady(RunSession* session) {
  dirty_.insert(session);
  // Throttle, don't debounce: a timer restarted per event would never fire in a stream.
  if (!throttle_.isActive()) throttle_.start();
}

void RunManager::flush() {
  throttle_.stop();
  if (dirty_.isEmpty()) return;
  QList<SessionDelta> batch;
  for (RunSession* s : sessions_) {
    if (!dirty_.contains(s)) continue;
    RunDelta d = s->takeDelta();
    if (!d.empty()) batch.push_back({s, std::move(d)});
  }
  dirty_.clear();
  if (!batch.isEmpty()) Q_EMIT deltasReady(batch);
}

}  // namespace lwb::app
