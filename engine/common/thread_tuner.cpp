#include "common/thread_tuner.h"

#include <algorithm>

namespace lwb {

ThreadTuner::ThreadTuner(int ceiling, Options options) : o_(options) {
  for (int n = std::max(1, ceiling); n > 1; n /= 2) candidates_.push_back(n);
  candidates_.push_back(1);
  threads_ = candidates_.front();
}

double ThreadTuner::median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

void ThreadTuner::startProbe() {
  phase_ = Phase::Probe;
  stepsInPhase_ = 0;
  samples_.assign(candidates_.size(), {});
  active_.assign(candidates_.size(), true);
  cursor_ = 0;
  sampleSeconds_ = 0;
  sampleSteps_ = 0;
  settled_ = threads_ == candidates_[cursor_];  // no switch: this step already counts
  threads_ = candidates_[cursor_];
}

// Round robin over the candidates still in the probe; a round ends after the last one.
void ThreadTuner::nextProbeStep() {
  size_t next = cursor_;
  do {
    next = (next + 1) % candidates_.size();
  } while (!active_[next]);
  const bool roundDone = next <= cursor_;
  if (roundDone) {
    // Drop candidates clearly slower than the best so far: under contention a bad count can
    // cost 5-15x a step, so it is measured as few times as needed to know. Its *fastest*
    // step must be clearly slower than the best median, so one hiccup does not drop it.
    double best = 0;
    for (size_t i = 0; i < candidates_.size(); ++i)
      if (active_[i] && (best == 0 || median(samples_[i]) < best)) best = median(samples_[i]);
    int left = 0;
    for (size_t i = 0; i < candidates_.size(); ++i) {
      if (active_[i] && *std::min_element(samples_[i].begin(), samples_[i].end()) > o_.clearlyWorse * best)
        active_[i] = false;
      left += active_[i] ? 1 : 0;
    }
    const auto rounds = samples_[std::distance(active_.begin(), std::find(active_.begin(), active_.end(), true))].size();
    if (left <= 1 || static_cast<int>(rounds) >= o_.probeRounds || (rounds >= 2 && separated())) return decide();
    next = 0;
    while (!active_[next]) ++next;
  }
  cursor_ = next;
  settled_ = threads_ == candidates_[cursor_];
  threads_ = candidates_[cursor_];
}

// After two rounds: the fastest candidate's slowest step beats every other candidate's
// fastest step, so more rounds cannot change the answer (a quiet machine, usually).
bool ThreadTuner::separated() const {
  size_t best = candidates_.size();
  for (size_t i = 0; i < candidates_.size(); ++i)
    if (active_[i] && (best == candidates_.size() || median(samples_[i]) < median(samples_[best]))) best = i;
  const double worstOfBest = *std::max_element(samples_[best].begin(), samples_[best].end());
  for (size_t i = 0; i < candidates_.size(); ++i)
    if (active_[i] && i != best && *std::min_element(samples_[i].begin(), samples_[i].end()) <= worstOfBest) return false;
  return true;
}

void ThreadTuner::decide() {
  size_t best = 0;
  double bestSeconds = -1;
  for (size_t i = 0; i < candidates_.size(); ++i) {
    if (!active_[i]) continue;
    const double m = median(samples_[i]);
    if (bestSeconds < 0 || m < bestSeconds) best = i, bestSeconds = m;
  }
  // The same answer again: the machine is steady, so probe half as often (up to 16x less).
  repeats_ = (decisions_ > 0 && candidates_[best] == threads_held_) ? std::min(repeats_ + 1, 4) : 0;
  // A move to fewer threads (from the held count, or from the ceiling at the first decision)
  // is often a passing load (a shared host's other tenant, a burst in another program): held
  // for 2x the probe only, then checked again; if the load stays, the next decision repeats
  // and holds as usual. Measured: a quiet run's 2-thread samples jumping from 2.4 to 4-5 ms
  // for a moment kept a 1.45x slower count for seconds.
  const int previous = decisions_ > 0 ? threads_held_ : candidates_.front();
  const bool movedDown = repeats_ == 0 && candidates_[best] < previous;
  threads_ = threads_held_ = candidates_[best];
  decidedSeconds_ = bestSeconds;
  holdSteps_ = std::max(o_.minHoldSteps, (movedDown ? 2 : o_.holdFactor) * stepsInPhase_) << repeats_;
  phase_ = Phase::Hold;
  stepsInPhase_ = 0;
  watch_.clear();
  ++decisions_;
}

void ThreadTuner::observe(double stepSeconds) {
  if (!enabled()) return;
  ++stepsInPhase_;
  switch (phase_) {
    case Phase::Warmup:
      // Long steps: the first one carries the start-up cost, the second is representative.
      // Short steps: the first ~0.1 s ran 1.5-2x slower than later ones (allocator, first
      // touch of activations and BLAS buffers), enough to pick the wrong count.
      warmupElapsed_ += stepSeconds;
      if ((stepsInPhase_ >= o_.warmupSteps && warmupElapsed_ >= o_.warmupSeconds) ||
          (stepsInPhase_ >= 2 && stepSeconds >= o_.longStepSeconds))
        startProbe();
      return;
    case Phase::Probe:
      // The first step after a switch wakes or parks threads: short steps measure from the
      // second one; for long ones that cost is noise.
      if (!settled_) {
        settled_ = true;
        if (stepSeconds < o_.longStepSeconds) return;
      }
      sampleSeconds_ += stepSeconds;
      if (++sampleSteps_ < o_.maxStepsPerSample && sampleSeconds_ < o_.minSampleSeconds) return;
      samples_[cursor_].push_back(sampleSeconds_ / sampleSteps_);
      sampleSeconds_ = 0;
      sampleSteps_ = 0;
      settled_ = false;
      nextProbeStep();
      return;
    case Phase::Hold:
      watch_.push_back(stepSeconds);
      if (static_cast<int>(watch_.size()) > o_.watchSteps) watch_.erase(watch_.begin());
      // Load arrived (or left, for a held single thread): probe now rather than at the end.
      if (static_cast<int>(watch_.size()) == o_.watchSteps && median(watch_) > o_.slowdownToReprobe * decidedSeconds_)
        return startProbe();
      if (stepsInPhase_ >= holdSteps_) startProbe();
      return;
  }
}

}  // namespace lwb
