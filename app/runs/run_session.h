// One run in the app: a training run on its own engine thread, or a run directory being
// followed. Owns the thread, the mailbox its producer posts to, and the run's history.
// Lives on the GUI thread; nothing here blocks except the bounded wait in the destructor
// (application exit).
#pragma once

#include "app/runs/engine_worker.h"
#include "app/runs/run_history.h"
#include "app/runs/run_types.h"

#include <QByteArray>
#include <QColor>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

class QProcess;
class QTemporaryFile;
class QThread;

namespace lwb::app {

class Mailbox;
class RunFollower;

class RunSession : public QObject {
  Q_OBJECT

 public:
  // How long the destructor waits for the thread after asking it to stop (one training
  // step on a slow device is the longest it should need).
  static constexpr int kShutdownWaitMs = 30000;

  RunSession(QString id, QString label, QColor color, QString runDir, QObject* parent = nullptr);
  ~RunSession() override;

  // Starts training `config` into runDir (which must not exist yet) on a new thread.
  void startTraining(const run::RunConfig& config);
  // The same for a config as JSON text; one the engine refuses ends the session "failed"
  // with the reason.
  void startTraining(const QByteArray& configJson);
  // Starts following runDir (polling every pollMs on a new thread).
  void startFollowing(int pollMs = 250);
  // Trains `configJson` in `processes` data-parallel ranks: runs `lipschitz-cli train --nproc`
  // as a child process (rank 0 writes runDir) and follows runDir. Stop sends the launcher
  // SIGTERM, which stops every rank after its step; pause is not offered. False with *error
  // when lipschitz-cli cannot be found or started.
  bool startProcesses(const QByteArray& configJson, int processes, QString* error);

  void pause();
  void resume();
  void stop();  // training: stop after the current step; following: stop following

  QString id() const { return id_; }
  QString label() const { return label_; }
  QColor color() const { return color_; }
  QString runDir() const { return runDir_; }
  // Following a run that something else trains (not one this session launched).
  bool isFollowing() const { return following_ && !launcher_; }
  // Training inside the app (a launched run's ranks cannot be paused).
  bool canPause() const { return !following_; }
  // Local data-parallel ranks training this run (startProcesses), 1 otherwise.
  int processes() const { return processes_; }
  RunState state() const { return state_; }
  const std::optional<run::RunSummary>& end() const { return end_; }
  const RunHistory& history() const { return history_; }
  // The engine's start warnings for this run (RunDelta::warnings), in the order given.
  const QStringList& warnings() const { return warnings_; }
  bool threadRunning() const;
  // Progress in [0, 1], or -1 when the total is unknown.
  double progress() const;
  // Speed to show: the last logged interval's while the run is active, the whole run's
  // (its summary's) once it ended; 0 when unknown. The run list and the status bar both
  // show this one number (they once showed 61.2 and 53.8 for the same finished run).
  double stepsPerSecond() const;

  // The producer's end: what a worker, a follower (or a test) posts to.
  std::shared_ptr<Mailbox> mailbox() const { return mailbox_; }

  // GUI thread: swaps the mailbox out (short lock) and folds it into history().
  RunDelta takeDelta();

 Q_SIGNALS:
  void dataReady();  // the mailbox has something (payload-free)
  void stateChanged(lwb::app::RunState state);
  void threadFinished();

 private:
  void setState(RunState s);
  QThread* newThread();
  void launcherFinished(int exitCode);

  QString id_, label_, runDir_;
  QColor color_;
  bool following_ = false;
  RunState state_ = RunState::Starting;
  std::optional<run::RunSummary> end_;
  QStringList warnings_;
  RunHistory history_;
  std::shared_ptr<Mailbox> mailbox_;
  RunControl control_;
  QThread* thread_ = nullptr;
  QPointer<RunFollower> follower_;
  int processes_ = 1;
  QProcess* launcher_ = nullptr;
  std::unique_ptr<QTemporaryFile> launcherConfig_;
  QString launcherErrors_;  // the launcher's stderr (its last line explains a failed start)
};

}  // namespace lwb::app
