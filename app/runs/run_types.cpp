#include "app/runs/run_types.h"

#include <QCoreApplication>

#include <optional>

namespace lwb::app {

namespace {

// Each session state once: the engine status it stands for (whose word run/run_status.h
// spells and marks for translation), or its own word where only a live session has it.
struct RunStateRow {
  RunState state;
  std::optional<run::RunStatus> status;
  const char* ownWord;  // session-only states
  bool active;          // the session still has a run going (or being followed)
};
using S = run::RunStatus;
const RunStateRow kRows[] = {
    {RunState::Starting, std::nullopt, QT_TRANSLATE_NOOP("RunState", "starting"), true},
    {RunState::Running, S::Running, nullptr, true},
    {RunState::Paused, std::nullopt, QT_TRANSLATE_NOOP("RunState", "paused"), true},
    {RunState::Stopping, std::nullopt, QT_TRANSLATE_NOOP("RunState", "stopping"), true},
    {RunState::Finished, S::Finished, nullptr, false},
    {RunState::Diverged, S::Diverged, nullptr, false},
    {RunState::Stopped, S::Stopped, nullptr, false},
    {RunState::Failed, S::Failed, nullptr, false},
    {RunState::Following, std::nullopt, QT_TRANSLATE_NOOP("RunState", "following"), true},
};

const RunStateRow& row(RunState s) {
  for (const RunStateRow& r : kRows)
    if (r.state == s) return r;
  return kRows[static_cast<size_t>(RunState::Failed)];
}

// Words shown beside the engine's: a run whose status cannot be read, and a Slurm task's wait.
const char* const kUnknownWord = QT_TRANSLATE_NOOP("RunState", "unknown");
const char* const kQueuedWord = QT_TRANSLATE_NOOP("RunState", "queued");

}  // namespace

QString toDisplayString(RunState s) {
  const RunStateRow& r = row(s);
  return QCoreApplication::translate("RunState", r.status ? run::toString(*r.status) : r.ownWord);
}

QString toDisplayString(run::RunStatus s) { return QCoreApplication::translate("RunState", run::toString(s)); }

QString statusWord(const QString& word) {
  (void)kQueuedWord;
  return QCoreApplication::translate("RunState", word.toUtf8().constData());
}

QString statusMessageText(const std::string& message) {
  return QCoreApplication::translate("RunState", message.c_str());
}

QString unknownStatusWord() { return QString::fromLatin1(kUnknownWord); }

QString attentionCertificateText(const QString& id) {
  if (id == QLatin1String("converged")) return QCoreApplication::translate("AttentionCertificate", "converged");
  if (id == QLatin1String("certified_step")) return QCoreApplication::translate("AttentionCertificate", "certified step");
  if (id == QLatin1String("none")) return QCoreApplication::translate("AttentionCertificate", "not certified");
  return id;
}

bool isActive(RunState s) { return row(s).active; }

RunState runState(run::RunStatus s) {
  for (const RunStateRow& r : kRows)
    if (r.status == s) return r.state;
  return RunState::Starting;  // Pending: not started
}

}  // namespace lwb::app
