#include "app/runs/mailbox.h"

namespace lwb::app {

Mailbox::Mailbox(QObject* parent) : QObject(parent) {}

template <class Fill>
void Mailbox::post(Fill&& fill) {
  bool signal = false;
  {
    std::lock_guard lock(mutex_);
    fill(pending_);
    signal = !signalled_;
    signalled_ = true;
  }
  // Outside the lock: a direct connection (same thread) may call take() at once.
  if (signal) Q_EMIT dataReady();
}

void Mailbox::postStep(run::StepMetrics s) {
  post([&](RunDelta& d) { d.steps.push_back(std::move(s)); });
}

void Mailbox::postSpectra(run::SpectraRecord s) {
  post([&](RunDelta& d) { d.spectra.push_back(std::move(s)); });
}

void Mailbox::postTotalSteps(int64_t steps) {
  post([&](RunDelta& d) { d.totalSteps = steps; });
}

void Mailbox::postConstraint(ConstraintInfo c) {
  post([&](RunDelta& d) { d.constraint = std::move(c); });
}

void Mailbox::postLevels(std::vector<data::ReferenceLevel> levels) {
  post([&](RunDelta& d) { d.levels = std::move(levels); });
}

void Mailbox::postWorldSize(int ranks) {
  post([&](RunDelta& d) { d.worldSize = ranks; });
}

void Mailbox::postWarnings(std::vector<std::string> warnings) {
  post([&](RunDelta& d) { d.warnings.insert(d.warnings.end(), warnings.begin(), warnings.end()); });
}

void Mailbox::postState(RunState s) {
  post([&](RunDelta& d) { d.state = s; });
}

void Mailbox::postEnd(run::RunSummary e) {
  post([&](RunDelta& d) { d.end = std::move(e); });
}

void Mailbox::postReset() {
  post([&](RunDelta& d) {
    d.steps.clear();
    d.spectra.clear();
    d.end.reset();
    d.reset = true;
  });
}

RunDelta Mailbox::take() {
  RunDelta out;
  std::lock_guard lock(mutex_);
  std::swap(out, pending_);
  signalled_ = false;
  return out;
}

}  // namespace lwb::app
