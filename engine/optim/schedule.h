// Learning-rate schedules: a multiplier of the base lr at each step.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace lwb::optim {

// StableDecay: seed 002's schedule (bluey training.py): warm-up, constant, then linear to 0 over
// the last `decaySteps` steps.
enum class ScheduleKind { Constant, Linear, Cosine, StableDecay };

struct LrSchedule {
  ScheduleKind kind = ScheduleKind::Constant;
  int64_t totalSteps = 1;
  int64_t warmupSteps = 0;
  int64_t decaySteps = 0;  // StableDecay only

  // Multiplier at step s (0-based): linear warm-up from 1/(warmup+1) to 1 over the warm-up
  // steps, then constant, linear decay to 0 at the last step, or cosine decay to 0.
  double factor(int64_t step) const;
};

// The schedule registry: one row per kind, its config id (optimizer.schedule) and a title.
struct ScheduleRow {
  ScheduleKind kind;
  std::string_view key;
  std::string_view title;
};
std::span<const ScheduleRow> scheduleRows();
std::string_view toString(ScheduleKind kind);
// A row's key; throws std::invalid_argument otherwise.
ScheduleKind parseScheduleKind(std::string_view id);

}  // namespace lwb::optim
