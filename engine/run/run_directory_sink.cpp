#include "run/run_directory_sink.h"

#include "common/version.h"
#include "run/run_config.h"

#include <torch/version.h>

namespace lwb::run {

void RunDirectorySink::onFinished(const RunSummary& s) {
  dir_.writeSummary(toJson(s));
  dir_.setStatus(s.status, s.message);
}

nlohmann::json resolvedConfigJson(const RunConfig& cfg) {
  auto j = toJson(cfg);
  j["versions"] = {{"lipschitz_workbench", lwb::version()}, {"libtorch", TORCH_VERSION}};
  return j;
}

}  // namespace lwb::run
