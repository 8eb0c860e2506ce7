#include "optim/schedule.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

namespace lwb::optim {

double LrSchedule::factor(int64_t step) const {
  if (step < warmupSteps) return static_cast<double>(step + 1) / static_cast<double>(warmupSteps + 1);
  const int64_t span = std::max<int64_t>(1, totalSteps - warmupSteps);
  const double progress = std::clamp(static_cast<double>(step - warmupSteps) / static_cast<double>(span), 0.0, 1.0);
  switch (kind) {
    case ScheduleKind::Constant: return 1.0;
    case ScheduleKind::Linear: return 1.0 - progress;
    case ScheduleKind::Cosine: return 0.5 * (1.0 + std::cos(std::numbers::pi * progress));
  }
  return 1.0;
}

ScheduleKind parseScheduleKind(const std::string& id) {
  if (id == "constant") return ScheduleKind::Constant;
  if (id == "linear") return ScheduleKind::Linear;
  if (id == "cosine") return ScheduleKind::Cosine;
  throw std::invalid_argument("unknown schedule '" + id + "'");
}

}  // namespace lwb::optim
