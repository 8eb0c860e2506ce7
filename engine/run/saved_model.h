// A model rebuilt from a workbench checkpoint, without its dataset (lipschitz-cli bound, the
// Checkpoint Inspector): the config comes from the checkpoint's __metadata__, the task's
// shape from the task kind (and, for text, from the embedding's row count).
#pragma once

#include "bounds/lipschitz_bound.h"
#include "models/model.h"
#include "run/checkpoint.h"
#include "run/metrics.h"
#include "run/run_config.h"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lwb::run {

struct SavedModel {
  RunConfig config;
  int64_t step = 0;
  std::unique_ptr<models::Model> model;
};

// InputError naming `what` when the config or the weights do not fit together.
SavedModel loadSavedModel(const Checkpoint& ckpt, const std::string& what);

// Before anything is built: the weights the config in __metadata__ describes against the
// param.* tensors the file holds (a 1.6 MB file whose metadata claims 256 layers of 65536 is
// refused, not built), then the memory estimate (run/memory_estimate.h). InputError naming
// `what`. loadSavedModel calls it; `train --resume` calls it before building its Trainer.
void checkCheckpointFits(const RunConfig& cfg, const Checkpoint& ckpt, const std::string& what);

// RUN_DIR -> its newest checkpoint; a file -> itself. InputError when neither.
std::filesystem::path resolveCheckpointPath(const std::filesystem::path& runDirOrFile);

// The bound as a certificate: norms from certifiedNorms (sigma1 never underestimated).
struct SavedBound {
  std::vector<MatrixNorm> norms;
  std::vector<bounds::SigmaMethod> sigmaMethods;  // one per norm
  std::optional<bounds::BoundTrace> trace;  // absent for the standard GPT baseline
};
SavedBound boundOf(models::Model& model);

}  // namespace lwb::run
