// lipschitz-cli inspect FILE [--full]: spectra of every 2-D tensor in a .safetensors, .npz,
// .npy or PyTorch .pt file (ARCHITECTURE.md "Headless CLI contract").
#include "cli/cli_support.h"
#include "cli/commands.h"
#include "inspect/tensor_report.h"
#include "io/tensor_file.h"

#include <CLI/CLI.hpp>

#include <memory>

namespace lwb::cli {
namespace {

struct InspectArgs {
  std::string file;
  bool full = false;
};

nlohmann::json toJson(const inspect::TensorReport& r) {
  nlohmann::json j{{"name", r.name}, {"shape", r.shape}, {"dtype", r.dtype}};
  if (!r.note.empty()) j["note"] = r.note;
  if (!r.stats) return j;
  j["sigma1"] = r.stats->sigma1;
  j["rms_norm"] = r.stats->rmsNorm;
  j["stable_rank"] = r.stats->stableRank;
  j["frobenius"] = r.stats->frobenius;
  if (!r.stats->singularValues.empty()) j["singular_values"] = r.stats->singularValues;
  return j;
}

int runInspect(const InspectArgs& a) {
  const auto file = io::readTensorFile(a.file);
  nlohmann::json tensors = nlohmann::json::array();
  for (const auto& r : inspect::reportTensors(file, a.full)) tensors.push_back(toJson(r));
  printJson({{"file", a.file}, {"format", file.format}, {"tensors", tensors}});
  return 0;
}

}  // namespace

Command addInspectCommand(CLI::App& app) {
  auto args = std::make_shared<InspectArgs>();
  auto* sub = app.add_subcommand("inspect", "singular-value statistics of every 2-D tensor in a .safetensors, .npz, .npy or PyTorch .pt file");
  sub->add_option("file", args->file, "checkpoint or array file")->required();
  sub->add_flag("--full", args->full, "also print all singular values of every matrix");
  return {sub, [args] { return runInspect(*args); }};
}

}  // namespace lwb::cli
