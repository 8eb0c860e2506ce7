// The hand-over point between a run's thread and the GUI (ARCHITECTURE.md "Threading"):
// producers copy values in under a mutex; the GUI swaps everything out under the same
// mutex in one short critical section and does the slow work after unlocking.
//
// dataReady() carries no payload and is emitted only when the mailbox goes from empty to
// non-empty, so a producer posting 10 000 steps while the GUI is busy queues one event,
// not 10 000. The GUI's throttle timer decides when to take().
#pragma once

#include "app/runs/run_types.h"

#include <QObject>

#include <mutex>

namespace lwb::app {

class Mailbox : public QObject {
  Q_OBJECT

 public:
  explicit Mailbox(QObject* parent = nullptr);

  // Any thread.
  void postStep(run::StepMetrics s);
  void postSpectra(run::SpectraRecord s);
  void postTotalSteps(int64_t steps);
  void postConstraint(ConstraintInfo c);
  void postLevels(std::vector<data::ReferenceLevel> levels);
  void postWorldSize(int ranks);
  void postWarnings(std::vector<std::string> warnings);
  void postState(RunState s);
  void postEnd(run::RunSummary e);
  // Everything posted before is obsolete (a followed run's metrics were rewritten).
  void postReset();

  // GUI thread: moves the pending values out; the next post signals again.
  RunDelta take();

 Q_SIGNALS:
  // Emitted from the posting thread; connect with an automatic (queued) connection.
  void dataReady();

 private:
  template <class Fill>
  void post(Fill&& fill);

  std::mutex mutex_;
  RunDelta pending_;
  bool signalled_ = false;
};

}  // namespace lwb::app
