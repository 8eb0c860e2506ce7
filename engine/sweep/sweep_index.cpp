#include "sweep/sweep_index.h"

#include <algorithm>

namespace lwb::sweep {

SweepIndex::SweepIndex(const SweepDirectory& dir, std::chrono::milliseconds tryWait, Note note)
    : dir_(dir), tryWait_(tryWait), note_(std::move(note)) {
  flush(static_cast<int>(tryWait_.count()));
}

SweepIndex::~SweepIndex() = default;

void SweepIndex::sync(const std::vector<SweepPoint>& points) {
  for (const SweepPoint& p : points) points_.insert_or_assign(p.index, p);
  flush(static_cast<int>(tryWait_.count()));
}

void SweepIndex::setSchedulerState(const std::string& path, const std::string& job, const std::string& state) {
  scheduler_[path] = {job, state};  // written with the next sync()
}

bool SweepIndex::flush(int busyMs) {
  try {
    if (!index_) index_ = std::make_unique<RunIndex>(dir_.indexFile(), RunIndex::Access::ReadWrite, busyMs);
    else index_->setBusyTimeout(busyMs);
    if (!pruned_) {
      index_->pruneVanished();  // rows a moved or deleted folder left behind (issue 33)
      pruned_ = true;
    }
    if (!points_.empty()) {
      std::vector<SweepPoint> points;
      for (const auto& [i, p] : points_) points.push_back(p);
      dir_.syncIndex(*index_, points);  // reads the run directories now: the newest state
      points_.clear();
    }
    while (!scheduler_.empty()) {
      const auto it = scheduler_.begin();
      index_->setSchedulerState(it->first, it->second.first, it->second.second);
      scheduler_.erase(it);
    }
  } catch (const IndexBusy& e) {
    if (!lockReported_ && note_)
      note_(std::string(e.what()) + "; the sweep goes on and writes its rows when the lock is free");
    lockReported_ = true;
    return false;
  }
  if (lockReported_ && note_) note_(dir_.indexFile().string() + ": the run index is free again; its rows are written");
  lockReported_ = false;
  return true;
}

bool SweepIndex::finish(std::chrono::milliseconds wait, const std::atomic<bool>& stop) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  auto told = start;
  constexpr int64_t kSliceMs = 1000;  // short waits: Ctrl-C is honoured and the user hears of it
  for (;;) {
    const int64_t left = std::chrono::duration_cast<std::chrono::milliseconds>(wait - (Clock::now() - start)).count();
    if (flush(static_cast<int>(std::clamp<int64_t>(left, 0, kSliceMs)))) return true;
    const auto now = Clock::now();
    if (stop.load() || now - start >= wait) return false;
    if (now - told >= std::chrono::seconds(30) && note_) {
      note_(dir_.indexFile().string() + ": every run has ended; still waiting for the run index lock (" +
            std::to_string(std::chrono::duration_cast<std::chrono::seconds>(now - start).count()) + " s so far)");
      told = now;
    }
  }
}

}  // namespace lwb::sweep
