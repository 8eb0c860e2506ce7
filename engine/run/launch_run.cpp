#include "run/launch_run.h"

#include "run/checkpoint.h"
#include "run/run_directory.h"
#include "run/run_directory_sink.h"
#include "run/run_layout.h"
#include "run/trainer.h"

#include <c10/util/Exception.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <optional>

namespace lwb::run {

std::string failureReason(const std::exception& e) {
  const auto* torchError = dynamic_cast<const c10::Error*>(&e);
  std::string text = torchError ? torchError->what_without_backtrace() : e.what();
  if (const auto cut = text.find("Exception raised from"); cut != std::string::npos) text.erase(cut);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
  return text;
}

namespace {

// The rows a resumed run's metrics.jsonl lacks before its checkpoint: every logEvery-th step up
// to `step` was logged, so a file ending earlier was cut (a full disk, an interrupted copy). The
// continued run appends after the checkpoint and its plots would show the hole without a word.
std::string metricsGap(const RunConfig& config, int64_t step, int64_t lastKept) {
  const int64_t lastLogged = config.logEvery > 0 ? step / config.logEvery * config.logEvery : step;
  if (lastLogged < 1 || lastKept >= lastLogged) return {};
  const std::string from = std::to_string(std::max<int64_t>(lastKept, 0) + 1);
  return std::string(layout::kMetricsFile) + (lastKept < 0 ? " has no rows" : " ends at step " + std::to_string(lastKept)) +
         " but the run resumes after step " + std::to_string(step) + " (the file was cut): steps " + from + "–" +
         std::to_string(step) + " have no logged metrics, so the plots show a gap there";
}

}  // namespace

RunSummary launchRun(const RunConfig& config, const LaunchOptions& o, TrainerControl& control) {
  (void)parseRunConfig(toJson(config));  // a config built in code gets the file's checks too
  Trainer trainer(config);               // validates data and model before anything is written
  if (o.built) o.built(trainer);
  if (o.resumeFrom) trainer.resume(*o.resumeFrom);
  if (o.ready) o.ready(trainer.referenceNotes(), trainer.startWarnings());

  std::optional<RunDirectory> dir;  // InputError when the folder is taken or cannot be created
  if (o.resumeFrom) {
    dir.emplace(o.runDir, RunDirectory::ContinueAfter{o.resumeFrom->step});
    auto warnings = dir->warnings();
    if (auto gap = metricsGap(config, o.resumeFrom->step, dir->lastMetricsStep()); !gap.empty()) warnings.push_back(std::move(gap));
    if (!warnings.empty() && o.ready) o.ready({}, warnings);
  } else {
    dir.emplace(o.runDir);
  }
  try {
    if (!o.resumeFrom) {
      auto record = resolvedConfigJson(config);
      record["world_size"] = o.worldSize;  // a record, not a setting (kConfigRecordKeys)
      dir->writeConfig(record);
    }
    dir->setStatus(RunStatus::Running);
    trainer.setCheckpointDir((std::filesystem::path(o.runDir) / layout::kCheckpointsDir).string());
    RunDirectorySink record(*dir);
    trainer.addSink(&record);
    for (MetricsSink* s : o.sinks) trainer.addSink(s);
    if (o.recording) o.recording();
    return trainer.run(control);
  } catch (const std::exception& e) {
    try {
      dir->setStatus(RunStatus::Failed, failureReason(e));
    } catch (const std::exception&) {
      // The disk refused the status file too; the caller still reports the reason.
    }
    throw;
  }
}

}  // namespace lwb::run
