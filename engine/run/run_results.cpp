#include "run/run_results.h"

namespace lwb::run {

namespace {
constexpr RunStatus kAll[] = {RunStatus::Running, RunStatus::Finished, RunStatus::Diverged, RunStatus::Stopped,
                              RunStatus::Failed};
}

const char* toString(RunStatus s) {
  switch (s) {
    case RunStatus::Running: return "running";
    case RunStatus::Finished: return "finished";
    case RunStatus::Diverged: return "diverged";
    case RunStatus::Stopped: return "stopped";
    case RunStatus::Failed: return "failed";
  }
  return "failed";
}

std::optional<RunStatus> parseRunStatus(std::string_view word) {
  const auto first = word.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return std::nullopt;
  word = word.substr(first, word.find_last_not_of(" \t\r\n") - first + 1);
  for (const RunStatus s : kAll)
    if (word == toString(s)) return s;
  return std::nullopt;
}

bool isTerminal(RunStatus s) { return s != RunStatus::Running; }

}  // namespace lwb::run
