#include "run/run_directory_sink.h"

#include "run/run_config.h"

#include <torch/version.h>

namespace lwb::run {

void RunDirectorySink::onFinished(const RunSummary& s) {
  dir_.writeSummary(toJson(s));
  RunStatus status = RunStatus::Finished;
  if (s.status == "diverged") status = RunStatus::Diverged;
  else if (s.status == "stopped") status = RunStatus::Stopped;
  else if (s.status == "failed") status = RunStatus::Failed;
  dir_.setStatus(status, s.message);
}

nlohmann::json resolvedConfigJson(const RunConfig& cfg) {
  auto j = toJson(cfg);
  j["versions"] = {{"lipschitz_workbench", "0.1.0"}, {"libtorch", TORCH_VERSION}};
  return j;
}

}  // namespace lwb::run
