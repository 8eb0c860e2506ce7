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

std::span<const ScheduleRow> scheduleRows() {
  static constexpr ScheduleRow rows[]{
      {ScheduleKind::Constant, "constant", "constant"},
      {ScheduleKind::Linear, "linear", "linear decay to 0"},
      {ScheduleKind::Cosine, "cosine", "cosine decay to 0"},
      {ScheduleKind::StableDecay, "stable_decay", "constant, then linear to 0 (seed 002)"},
  };
  return rows;
}

std::string_view toString(ScheduleKind kind) {
  for (const auto& r : scheduleRows())
    if (r.kind == kind) return r.key;
  return {};
}

ScheduleKind parseScheduleKind(std::string_view id) {
  for (const auto& r : scheduleRows())
    if (r.key == id) return r.kind;
  throw std::invalid_argument("unknown schedule '" + std::string(id) + "'");
}

}  // namespace lwb::optim
