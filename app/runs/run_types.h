// What travels from a run (the engine worker, or a run directory being followed) to the GUI:
// the engine's own run results (run/run_results.h: plain values, no LibTorch), plus the few
// things only the app has — a session's live state, the constraint settings the dashboard
// draws, and the batch a mailbox hands over.
#pragma once

#include "data/icl_levels.h"
#include "run/run_results.h"
#include "spectral/constraint_methods.h"

#include <QString>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lwb::app {

// A session's state: the engine's run statuses (run/run_status.h) a session can end in or
// run with, plus the states only a live session has (Starting, Paused, Stopping; Following a
// run directory). The one mapping between the two is the table in run_types.cpp.
enum class RunState { Starting, Running, Paused, Stopping, Finished, Diverged, Stopped, Failed, Following };
QString toDisplayString(RunState s);
// An engine status in the user's language.
QString toDisplayString(run::RunStatus s);
// A status word as the index, a run's status file or a sweep event writes it ("finished",
// "pending"), or the app's own unknownStatusWord(), in the user's language; an unknown word
// unchanged.
QString statusWord(const QString& word);
// The word the app shows for a run whose status cannot be read (no summary, not being written).
QString unknownStatusWord();
// A status message from a run's files in the user's language where the engine marked it for
// translation: an interrupted run's, or one of common/run_messages.h's templates with its
// numbers in the user's format ("gestoppt bei Schritt 300"); any other message unchanged.
QString statusMessageText(const std::string& message);
// summary.json's attention_certificate ("converged" | "certified_step" | "none") in the
// user's language; another word unchanged.
QString attentionCertificateText(const QString& id);
bool isActive(RunState s);  // Starting, Running, Paused, Stopping, Following
// The session state of an engine status (Pending, which no session has, reads as Starting).
RunState runState(run::RunStatus s);

// The constraint settings the dashboard needs (σmax band, f(σ) curve): the registry's
// settings as training applies them (run::trainingConstraint: η, and λ from the optimizer
// where the method couples to it).
using ConstraintInfo = spectral::ConstraintSettings;

// What a mailbox hands the GUI in one swap: everything posted since the last one.
struct RunDelta {
  std::vector<run::StepMetrics> steps;
  std::vector<run::SpectraRecord> spectra;
  std::optional<int64_t> totalSteps;        // known once the config is read
  std::optional<ConstraintInfo> constraint; // ditto
  std::optional<std::vector<data::ReferenceLevel>> levels;  // ditto: the task's loss levels
  std::optional<int> worldSize;              // ditto: config.json's world_size (ranks that train it)
  std::optional<RunState> state;            // latest state change (Running, Paused, ...)
  std::optional<run::RunSummary> end;
  bool reset = false;  // a followed run's metrics were rewritten (resumed run): start over
  // What the user should know before the first step (Trainer::startWarnings: a soft cap that
  // cannot hold σmax at this lr); shown while the run trains, not only in its end message.
  std::vector<std::string> warnings;
  bool empty() const {
    return steps.empty() && spectra.empty() && !totalSteps && !constraint && !levels && !worldSize && !state && !end && !reset &&
           warnings.empty();
  }
};

}  // namespace lwb::app
