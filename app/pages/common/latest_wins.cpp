#include "app/pages/common/latest_wins.h"

#include <QtConcurrent/QtConcurrentRun>

#include <atomic>
#include <exception>
#include <stdexcept>

namespace lwb::app::pages {
namespace {

std::atomic<int> gJobsInFlight{0};

}  // namespace

bool LatestWins::anyJobInFlight() { return gJobsInFlight.load() > 0; }

LatestWins::LatestWins(QObject* parent) : QObject(parent) {
  // One thread: the jobs of one view never compete with each other for the cores.
  pool_.setMaxThreadCount(1);
  watcher_ = new QFutureWatcher<Outcome>(this);
  connect(watcher_, &QFutureWatcher<Outcome>::finished, this, &LatestWins::onFinished);
}

LatestWins::~LatestWins() {
  pending_.reset();
  if (cancel_) cancel_->store(true);
  pool_.waitForDone();
}

void LatestWins::submit(Job job) {
  if (running_) {
    if (pending_) ++dropped_;
    pending_ = std::move(job);
    return;
  }
  start(std::move(job));
}

void LatestWins::cancel() {
  if (pending_) ++dropped_;
  pending_.reset();
  if (cancel_) cancel_->store(true);
}

void LatestWins::start(Job job) {
  const bool wasRunning = running_;
  running_ = true;
  ++started_;
  cancel_ = std::make_shared<CancelFlag>(false);
  auto flag = cancel_;
  watcher_->setFuture(QtConcurrent::run(&pool_, [job = std::move(job), flag]() -> Outcome {
    struct InFlight {
      InFlight() { ++gJobsInFlight; }
      ~InFlight() { --gJobsInFlight; }
    } inFlight;
    try {
      return {job(*flag), {}};
    } catch (const Cancelled&) {
      return {};
    } catch (const std::exception& e) {
      return {{}, QString::fromUtf8(e.what())};
    }
  }));
  if (!wasRunning) Q_EMIT busyChanged(true);
}

void LatestWins::onFinished() {
  const bool wasCancelled = cancel_ && cancel_->load();
  const Outcome outcome = watcher_->future().result();
  // A cancelled job's result is unwanted even when its last uninterruptible call completed.
  if (wasCancelled) {
    if (!pending_) Q_EMIT cancelled();
  } else if (!outcome.error.isEmpty()) {
    Q_EMIT errorOccurred(outcome.error);
  } else if (outcome.then) {
    outcome.then();
  }
  if (pending_) {
    Job job = std::move(*pending_);
    pending_.reset();
    start(std::move(job));
    return;
  }
  running_ = false;
  cancel_.reset();
  Q_EMIT busyChanged(false);
}

}  // namespace lwb::app::pages
