#include "optim/schedule.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

namespace lwb::optim {

double LrSchedule::factor(int64_t step) const {
  if (step < warmupSteps) return static_cast<double>(step + 1) / static_cast<double>(warmupSteps + 1);
  if (kind == ScheduleKind::StableDecay) {
    const int64_t left = totalSteps - step;  // steps left including this one
    return decaySteps > 0 && left <= decaySteps ? static_cast<double>(left) / static_cast<double>(decaySteps + 1) : 1.0;
  }
  const int64_t span = std::max<int64_t>(1, totalSteps - warmupSteps);
  const double progress = std::clamp(static_cast<double>(step - warmupSteps) / static_cast<double>(span), 0.0, 1.0);
  switch (kind) {
    case ScheduleKind::Constant: return 1.0;
    case ScheduleKind::Linear: return 1.0 - progress;
    case ScheduleKind::Cosine: return 0.5 * (1.0 + std::cos(std::numbers::pi * progress));
    case ScheduleKind::StableDecay: return 1.0;
  }
  return 1.0;
}

ScheduleKind parseScheduleKind(const std::string& id) {
  if (id == "constant") return ScheduleKind::Constant;
  if (id == "linear") return ScheduleKind::Linear;
  if (id == "cosine") return ScheduleKind::Cosine;
  if (id == "stable_decay") return ScheduleKind::StableDecay;
  throw std::invalid_argument("unknown schedule '" + id + "'");
}

}  // namespace lwb::optim
