// lipschitz-cli bound RUN_DIR|CHECKPOINT: the Lipschitz upper bound of a saved model and
// its per-layer trace (000 §3.2, App. D), from the newest checkpoint of a run directory or a
// given checkpoint file. sigma1 of every matrix is an upper bound (bounds::sigmaMaxUpper),
// and each norm says how it was obtained ("sigma1_method").
#include "cli/cli_support.h"
#include "cli/commands.h"
#include "io/input_error.h"
#include "models/model.h"
#include "models/model_kinds.h"
#include "run/results_json.h"
#include "run/run_layout.h"
#include "run/saved_model.h"

#include <CLI/CLI.hpp>

#include <memory>

namespace lwb::cli {
namespace {

int runBound(const std::string& target) {
  const auto path = run::resolveCheckpointPath(target);
  // Other weight files (.pt, .npz, a Hugging Face .safetensors) hold no config to build the
  // model from: say what `bound` reads rather than how the file failed to parse as one.
  const std::string reads =
      "bound reads the workbench's own checkpoints: a run directory or its checkpoints/step_N.safetensors "
      "(other weight files: lipschitz-cli inspect)";
  if (path.extension() != run::layout::kCheckpointSuffix) throw InputError(path.string() + ": not a workbench checkpoint; " + reads);
  const auto ckpt = [&] {
    try {
      return run::readCheckpoint(path);
    } catch (const InputError& e) {
      throw InputError(std::string(e.what()) + " (" + reads + ")");
    }
  }();
  auto saved = run::loadSavedModel(ckpt, path.string());
  const auto b = run::boundOf(*saved.model);
  auto norms = run::toJson(b.norms);
  for (size_t i = 0; i < b.sigmaMethods.size() && i < norms.size(); ++i)
    norms[i]["sigma1_method"] = bounds::toString(b.sigmaMethods[i]);
  nlohmann::json j{{"file", path.string()}, {"step", saved.step}, {"model", models::toString(saved.config.model.kind)},
                   {"task", data::toString(saved.config.task)}, {"norms", norms}};
  if (b.trace) {
    j["lipschitz_bound"] = b.trace->bound;
    j["bound_kind"] = b.trace->singleHeadBound > 0 ? "sound multi-head bound (docs/DESIGN.md \"A sound multi-head bound\")"
                                                    : "product of layer norms";
    // The paper's App. D number beside it: proved for one head only, not an upper bound
    // for multi-head attention.
    if (b.trace->singleHeadBound > 0) j["lipschitz_bound_app_d"] = b.trace->singleHeadBound;
    j["trace"] = run::toJson(*b.trace);
  } else {
    j["lipschitz_bound"] = nullptr;
    j["note"] = "this model has no global Lipschitz bound (standard transformer with LayerNorm)";
  }
  printJson(j);
  return 0;
}

}  // namespace

Command addBoundCommand(CLI::App& app) {
  auto target = std::make_shared<std::string>();
  auto* sub = app.add_subcommand("bound", "Lipschitz upper bound and per-layer trace of a saved model");
  sub->add_option("target", *target, "run directory (newest checkpoint) or checkpoint .safetensors file")->required();
  // Its output is always one JSON object; the flag other commands take is accepted (a script
  // written for sample or robustness passed it and was refused).
  sub->add_flag("--json")->description("print one JSON object (always so)");
  return {sub, [target] { return runBound(*target); }};
}

}  // namespace lwb::cli
