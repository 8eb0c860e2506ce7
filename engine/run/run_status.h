// The status of a run, a sweep point or a row of the run index, and its one codec: every
// status word the project writes or reads (a run's `status` file and summary.json, the run
// index's status column, sweep events, the Sweeps page) is spelled once, in the table of
// run_status.cpp, with its traits. No LibTorch, no Qt.
#pragma once

#include <optional>
#include <span>
#include <string_view>

namespace lwb::run {

enum class RunStatus {
  Pending,   // a sweep point without a run directory yet (the index and sweep events only)
  Running,
  Finished,
  Diverged,
  Stopped,
  Failed,
};

struct RunStatusInfo {
  RunStatus status;
  const char* word;   // as files, the index and events spell it; translated by the app ("RunState")
  bool runWritten;    // a run writes it to its status file and summary.json (all but pending)
  bool ended;         // the run wrote its last record
  bool hasResult;     // finished or diverged: a result a sweep keeps and never runs again
  bool problem;       // diverged or failed: shown as something that went wrong
};

// Every status, in enum order.
std::span<const RunStatusInfo> runStatusTable();
const RunStatusInfo& info(RunStatus s);
const char* toString(RunStatus s);
// Any word of the table (the index's column, sweep events); nullopt for anything else.
// Surrounding blanks are ignored.
std::optional<RunStatus> parseStatusWord(std::string_view word);
// Only the words a run writes (its `status` file's first line, summary.json's "status"):
// "pending" in a run directory is as unknown as any other word.
std::optional<RunStatus> parseRunStatus(std::string_view word);
// The run wrote its last record (everything a run writes but running).
bool isTerminal(RunStatus s);

}  // namespace lwb::run
