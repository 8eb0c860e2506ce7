#include "run/run_status.h"

#include "common/tr_noop.h"

namespace lwb::run {

namespace {

using S = RunStatus;
// The words are marked for the app's translation in context "RunState" (app/run_types.cpp).
constexpr RunStatusInfo kTable[] = {
    //  status       word                                  written ended  result problem
    {S::Pending, LWB_TR_NOOP("RunState", "pending"), false, false, false, false},
    {S::Running, LWB_TR_NOOP("RunState", "running"), true, false, false, false},
    {S::Finished, LWB_TR_NOOP("RunState", "finished"), true, true, true, false},
    {S::Diverged, LWB_TR_NOOP("RunState", "diverged"), true, true, true, true},
    {S::Stopped, LWB_TR_NOOP("RunState", "stopped"), true, true, false, false},
    {S::Failed, LWB_TR_NOOP("RunState", "failed"), true, true, false, true},
};
static_assert(std::size(kTable) == static_cast<size_t>(S::Failed) + 1, "one row per status, in enum order");

constexpr bool inEnumOrder() {
  for (size_t i = 0; i < std::size(kTable); ++i)
    if (static_cast<size_t>(kTable[i].status) != i) return false;
  return true;
}
static_assert(inEnumOrder(), "kTable[i].status == i");

std::string_view trimmed(std::string_view word) {
  const auto first = word.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  return word.substr(first, word.find_last_not_of(" \t\r\n") - first + 1);
}

}  // namespace

std::span<const RunStatusInfo> runStatusTable() { return kTable; }

const RunStatusInfo& info(RunStatus s) {
  const auto i = static_cast<size_t>(s);
  return i < std::size(kTable) ? kTable[i] : kTable[static_cast<size_t>(S::Failed)];
}

const char* toString(RunStatus s) { return info(s).word; }

std::optional<RunStatus> parseStatusWord(std::string_view word) {
  word = trimmed(word);
  if (word.empty()) return std::nullopt;
  for (const RunStatusInfo& row : kTable)
    if (word == row.word) return row.status;
  return std::nullopt;
}

std::optional<RunStatus> parseRunStatus(std::string_view word) {
  const auto s = parseStatusWord(word);
  if (s && info(*s).runWritten) return s;
  return std::nullopt;
}

bool isTerminal(RunStatus s) { return info(s).ended; }

}  // namespace lwb::run
