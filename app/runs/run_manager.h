// The app's runs: starts training runs and follows run directories, gives each a colour,
// keeps which one is current (the run list's selection, which the dashboard's single-run
// plots, the status bar and the Run actions follow; a new run becomes current), and
// coalesces their live data (ARCHITECTURE.md "Threading"): a session's payload-free
// dataReady() only marks it dirty and starts ONE single-shot throttle timer if it is not
// already running (never restarted per event); when it fires, every dirty session's
// mailbox is swapped out and deltasReady() is emitted once, so the dashboard replots at
// most 1000 / replotIntervalMs times per second however many runs stream.
#pragma once

#include "app/runs/run_session.h"

#include <QList>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QTimer>


namespace lwb::app {

// LibTorch intra-op threads for the app's runs: $LWB_THREADS when set (pinned), else every core but
// one. The GUI thread needs a core of its own: OpenMP workers spin while they wait, so
// with every core training the event loop and the workers slow each other down. (A run's
// `threads` key still sets its own count.) Unpinned, it is the ceiling each run tunes under
// (common/thread_tuner.h). Returns the count in effect.
int applyAppIntraOpThreads();

struct SessionDelta {
  RunSession* session = nullptr;
  RunDelta delta;
};

class RunManager : public QObject {
  Q_OBJECT

 public:
  static constexpr int kDefaultReplotIntervalMs = 34;  // <= 30 replots per second

  explicit RunManager(QObject* parent = nullptr);
  ~RunManager() override;

  // Where new runs write their run directories ($LWB_RUNS_DIR, the settings, or the
  // app's data folder).
  void setRunsFolder(const QString& folder) { runsFolder_ = folder; }
  QString runsFolder() const { return runsFolder_; }

  // Starts training a parsed config; label names the run in the list ("chars_small_cpu").
  // Returns nullptr and sets *error when the runs folder cannot be used. What the engine
  // refuses later (data, model, the folder) ends the session "failed" with the reason.
  RunSession* startRun(const run::RunConfig& config, const QString& label, QString* error);
  // Follows an existing run directory (finished or still being written).
  RunSession* followRun(const QString& runDir, QString* error);
  // As startRun, in `processes` local data-parallel ranks (RunSession::startProcesses).
  RunSession* startRunInProcesses(const run::RunConfig& config, const QString& label, int processes, QString* error);
  // A run fed by the caller through session->mailbox() (synthetic data in tests).
  RunSession* addRun(const QString& label, const QString& runDir = QString());
  void removeRun(RunSession* session);  // stops it first

  QList<RunSession*> sessions() const { return sessions_; }
  bool anyThreadRunning() const;
  void stopAll();

  RunSession* currentRun() const { return current_; }
  void setCurrentRun(RunSession* session);  // nullptr: none

  // Takes and publishes pending data now (tests, screenshots).
  void flush();

 Q_SIGNALS:
  void sessionAdded(lwb::app::RunSession* session);
  void sessionRemoved(lwb::app::RunSession* session);  // before deletion
  void sessionStateChanged(lwb::app::RunSession* session);
  void currentRunChanged(lwb::app::RunSession* session);  // may be nullptr
  // Once per throttle tick, with every session that had data.
  void deltasReady(const QList<lwb::app::SessionDelta>& batch);
  void allThreadsFinished();

 private:
  RunSession* addSession(const QString& label, const QString& runDir);
  void onDataReady(RunSession* session);
  QString newRunDir(const QString& label, QString* error) const;

  QList<RunSession*> sessions_;
  QList<RunSession*> retiring_;  // removed, thread still winding down
  QSet<RunSession*> dirty_;
  QTimer throttle_;
  QString runsFolder_;
  QPointer<RunSession> current_;
  int nextIndex_ = 0;
};

}  // namespace lwb::app
