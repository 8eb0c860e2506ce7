// lipschitz-cli inspect FILE|DIR [--full]: spectra of every 2-D tensor in a .safetensors, .npz,
// .npy or PyTorch .pt file, or a Hugging Face model folder (ARCHITECTURE.md "Headless CLI contract").
#include "cli/cli_support.h"
#include "cli/commands.h"
#include "inspect/orientation.h"
#include "inspect/tensor_report.h"
#include "io/tensor_file.h"

#include <CLI/CLI.hpp>

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <memory>

namespace lwb::cli {
namespace {

struct InspectArgs {
  std::string file;
  bool full = false;
};

nlohmann::json toJson(const inspect::TensorReport& r, bool inOut) {
  nlohmann::json j{{"name", r.name}, {"shape", r.shape}, {"dtype", r.dtype}};
  if (!r.note.empty()) j["note"] = r.note;
  if (!r.stats) return j;
  j["sigma1"] = r.stats->sigma1;
  // σ₁·√(d_in/d_out): for a file stored (in, out) the first side is d_in.
  j["rms_norm"] = inOut && r.shape[1] > 0 ? r.stats->sigma1 * std::sqrt(static_cast<double>(r.shape[0]) / static_cast<double>(r.shape[1]))
                                          : r.stats->rmsNorm;
  j["stable_rank"] = r.stats->stableRank;
  j["frobenius"] = r.stats->frobenius;
  // WeightWatcher's key names; undefined values (NaN) as null.
  for (const auto& m : inspect::spectralMetricTable()) {
    const double v = m.value(r.metrics);
    if (std::isnan(v)) j[m.key] = nullptr;
    else if (m.integer) j[m.key] = static_cast<int64_t>(v);
    else j[m.key] = v;
  }
  if (!r.stats->singularValues.empty()) j["singular_values"] = r.stats->singularValues;
  return j;
}

int runInspect(const InspectArgs& a) {
  const auto file = io::readTensorFile(a.file);
  std::vector<std::string> names;
  for (const auto& t : file.tensors) names.push_back(t.name);
  const bool inOut = inspect::storedInOut(names);
  // A progress line on stderr (stdout stays one JSON object), only on a terminal.
  const bool tty = ::isatty(STDERR_FILENO) != 0;
  const auto progress = [&](size_t done, size_t total) {
    if (tty) std::fprintf(stderr, "\rinspect: %zu/%zu tensors%s", done, total, done == total ? "\n" : "");
  };
  nlohmann::json tensors = nlohmann::json::array();
  for (const auto& r : inspect::reportTensors(file, a.full, progress)) tensors.push_back(toJson(r, inOut));
  nlohmann::json out{{"file", a.file}, {"format", file.format}, {"tensors", tensors}};
  out["weights_stored"] = inOut ? "in_out" : "out_in";
  if (inOut) out["weights_note"] = "GPT-2 Conv1D names (c_attn, c_fc): 2-D weights read as stored (in, out) for rms_norm";
  if (const auto s = file.metadata.find("shards"); file.format == "huggingface" && s != file.metadata.end()) out["shards"] = std::stoi(s->second);
  printJson(out);
  return 0;
}

}  // namespace

Command addInspectCommand(CLI::App& app) {
  auto args = std::make_shared<InspectArgs>();
  auto* sub = app.add_subcommand("inspect", "singular-value statistics and WeightWatcher-parity metrics (alpha, ...) of every 2-D tensor in a .safetensors, .npz, .npy or PyTorch .pt file");
  sub->add_option("file", args->file, "checkpoint or array file, or a Hugging Face model folder (index.json + shards)")->required();
  sub->add_flag("--full", args->full, "also print all singular values of every matrix");
  return {sub, [args] { return runInspect(*args); }};
}

}  // namespace lwb::cli
