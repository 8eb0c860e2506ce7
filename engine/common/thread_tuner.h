#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace lwb {

// Chooses a run's intra-op thread count from its own step times, and chooses again when they
// change. On a quiet 2-core machine all threads win for every preset; as soon as one core is
// busy (a browser, a build, another run) one thread wins by 2-15x, because every OpenMP
// region waits for its slowest thread and that thread shares a core
// (docs/BENCHMARKS.md, "Issue 17"). No fixed count is within 10 % of the best in both
// cases, so the run measures: a probe alternates the candidates (two steps each, the
// second measured; paired, so a load that comes and goes hits both), keeps the one with
// the lowest median step time,
// holds it for 8 times the probe's length, doubling while the answer repeats (up to 128x: a
// first probe taken in a moment of noise on a shared machine is soon corrected; a move to
// fewer threads holds only 2x the probe, since it is often a passing load), and
// probes again early when the held count's steps become clearly slower than at the decision.
//
// A sample is the mean of as many consecutive steps as fill minSampleSeconds: a 1-ms MNIST
// step alone varies by more than the 1.3x between its counts, a 150-ms ICL step does not
// (and needs no settling step either: a switch costs microseconds to a millisecond).
//
// Pure bookkeeping: the trainer applies threads() before each step and reports the step's
// time with observe(). Only used when the user did not pin a count (common/threads.h).
class ThreadTuner {
 public:
  struct Options {
    int warmupSteps = 3;          // first steps (allocator, first touch) are not measured (2 when long) ...
    double warmupSeconds = 0.25;  // ... nor the run's first quarter second (short steps: ~100 steps)
    int probeRounds = 4;          // each candidate sampled at most this many times per probe (2 when clear-cut)
    double minSampleSeconds = 0.03;  // a sample spans at least this long ...
    int maxStepsPerSample = 32;      // ... or this many steps
    double longStepSeconds = 0.05;   // steps this long need no settling step after a switch
    double clearlyWorse = 1.5;    // a candidate this much slower (median) leaves the probe early
    int holdFactor = 8;           // hold a decision for holdFactor x the probe's steps (x2 per repeat, up to x16) ...
    int minHoldSteps = 60;        // ... and at least this many steps
    int watchSteps = 8;           // held steps compared with the decision's step time
    double slowdownToReprobe = 1.4;  // median of the last watchSteps this much slower: probe now
  };

  explicit ThreadTuner(int ceiling) : ThreadTuner(ceiling, Options{}) {}
  ThreadTuner(int ceiling, Options options);

  bool enabled() const { return candidates_.size() > 1; }
  int threads() const { return threads_; }   // the count for the next step
  void observe(double stepSeconds);          // the step just taken, at threads()
  int decisions() const { return decisions_; }
  const std::vector<int>& candidates() const { return candidates_; }

 private:
  enum class Phase { Warmup, Probe, Hold };
  void startProbe();
  void nextProbeStep();
  void decide();
  bool separated() const;
  static double median(std::vector<double> v);

  Options o_;
  std::vector<int> candidates_;            // ceiling, ceiling / 2, ..., 1
  Phase phase_ = Phase::Warmup;
  int threads_ = 1;
  int stepsInPhase_ = 0;
  int holdSteps_ = 0;
  int decisions_ = 0;
  int threads_held_ = 0;                   // the count the last decision kept
  int repeats_ = 0;                        // decisions in a row that kept it (hold doubles)
  double decidedSeconds_ = 0;              // median step time of the held count at the decision
  std::vector<std::vector<double>> samples_;  // per candidate, this probe
  std::vector<bool> active_;               // still in this probe
  size_t cursor_ = 0;                      // candidate measured by the current probe step
  bool settled_ = false;                   // false: the next step follows a switch, not measured
  double sampleSeconds_ = 0;               // the sample being filled
  int sampleSteps_ = 0;
  std::vector<double> watch_;              // recent held step times
  double warmupElapsed_ = 0;
};

}  // namespace lwb
