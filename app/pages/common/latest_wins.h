// Runs one kind of background job at a time with "latest wins" scheduling: while a job runs,
// a newly submitted job replaces the pending one (so a slider dragged across a hundred values
// causes at most two computations: the one in flight and the newest), and nothing stale is
// ever queued. Jobs run on this object's own one-thread pool and return a continuation that
// is invoked on the GUI thread when they finish; exceptions are turned into errorOccurred().
#pragma once

#include "common/cancel.h"

#include <QFutureWatcher>
#include <QObject>
#include <QThreadPool>

#include <functional>
#include <memory>
#include <optional>

namespace lwb::app::pages {

class LatestWins : public QObject {
  Q_OBJECT

 public:
  // Runs on the worker thread; checks `cancel` where it can; returns the GUI-thread part.
  using Continuation = std::function<void()>;
  using Job = std::function<Continuation(const CancelFlag& cancel)>;

  explicit LatestWins(QObject* parent = nullptr);
  // Cancels and waits for the running job (a LibTorch call in flight finishes first).
  ~LatestWins() override;

  void submit(Job job);
  // Asks the running job to stop at its next check and drops the pending one.
  void cancel();
  bool busy() const { return running_; }
  // True while a job of any LatestWins runs on its worker thread. The app checks it at exit:
  // a LibTorch call in flight (an SVD of a large matrix, a 2 GiB read) cannot be cancelled,
  // and waiting for it kept the app open 43–92 s after its window closed.
  static bool anyJobInFlight();

  // Jobs started and jobs replaced before they started (for tests and the status line).
  int startedCount() const { return started_; }
  int droppedCount() const { return dropped_; }

 Q_SIGNALS:
  void busyChanged(bool busy);
  void errorOccurred(const QString& message);  // a job threw (InputError etc.)
  void cancelled();                            // a job stopped because of cancel()

 private:
  void start(Job job);
  void onFinished();

  struct Outcome {
    Continuation then;
    QString error;
  };
  QThreadPool pool_;
  QFutureWatcher<Outcome>* watcher_ = nullptr;
  std::shared_ptr<CancelFlag> cancel_;
  std::optional<Job> pending_;
  bool running_ = false;
  int started_ = 0, dropped_ = 0;
};

}  // namespace lwb::app::pages
