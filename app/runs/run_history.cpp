#include "app/runs/run_history.h"

#include <cmath>

namespace lwb::app {

void RunHistory::clear() { *this = RunHistory(); }

void RunHistory::apply(const RunDelta& delta) {
  if (delta.reset) {
    const auto total = totalSteps_;
    const auto constraint = constraint_;
    const bool has = hasConstraint_;
    const auto levels = levels_;
    clear();
    levels_ = levels;
    totalSteps_ = total;
    constraint_ = constraint;
    hasConstraint_ = has;
  }
  if (delta.totalSteps) totalSteps_ = delta.totalSteps;
  if (delta.levels) levels_ = *delta.levels;
  if (delta.constraint) {
    constraint_ = *delta.constraint;
    hasConstraint_ = true;
  }
  for (const run::StepMetrics& s : delta.steps) {
    // Rows that carry σ₁ (live runs, and run directories since they record it): RMS scale =
    // rmsNorm / σ₁.
    for (const auto& n : s.norms)
      if (n.sigma1 > 0 && std::isfinite(n.rmsNorm) && !rmsScale_.count(n.name)) rmsScale_[n.name] = n.rmsNorm / n.sigma1;
    if (s.activations && !s.activations->names.empty()) latestEval_ = s;
    steps_.push_back(s);
  }
  if (steps_.size() > kMaxSteps) {
    // Keep every other older step and the newest half intact.
    std::vector<run::StepMetrics> thinned;
    thinned.reserve(steps_.size() * 3 / 4);
    const std::size_t half = steps_.size() / 2;
    for (std::size_t i = 0; i < half; i += 2) thinned.push_back(std::move(steps_[i]));
    for (std::size_t i = half; i < steps_.size(); ++i) thinned.push_back(std::move(steps_[i]));
    steps_ = std::move(thinned);
  }
  for (const run::SpectraRecord& s : delta.spectra) {
    learnScales(s);
    spectra_[s.step] = s;
  }
  while (spectra_.size() > kMaxSnapshots) spectra_.erase(std::next(spectra_.begin()));  // keep the first
}

void RunHistory::learnScales(const run::SpectraRecord& s) {
  // Rows of older run directories carry RMS norms but not σ₁: match the snapshot with the
  // row of its step.
  for (auto it = steps_.rbegin(); it != steps_.rend(); ++it) {
    if (it->step > s.step) continue;
    if (it->step < s.step) return;
    for (const auto& n : it->norms) {
      const auto sv = s.after.find(n.name);
      if (rmsScale_.count(n.name) || sv == s.after.end() || sv->second.empty() || !(sv->second.front() > 0)) continue;
      if (std::isfinite(n.rmsNorm)) rmsScale_[n.name] = n.rmsNorm / sv->second.front();
    }
    return;
  }
}

const run::SpectraRecord* RunHistory::spectraAt(int64_t step) const {
  auto it = spectra_.upper_bound(step);
  if (it == spectra_.begin()) return nullptr;
  return &std::prev(it)->second;
}

double RunHistory::rmsScale(const std::string& layer) const {
  const auto it = rmsScale_.find(layer);
  return it == rmsScale_.end() ? 1.0 : it->second;
}

}  // namespace lwb::app
