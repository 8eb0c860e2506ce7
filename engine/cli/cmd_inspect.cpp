// lipschitz-cli inspect FILE|DIR [--full]: spectra of every 2-D tensor in a .safetensors, .npz,
// .npy or PyTorch .pt file, or a Hugging Face model folder (ARCHITECTURE.md "Headless CLI contract").
// inspect RUN_DIR --history: every checkpoint's per-layer metrics over steps; inspect A --delta B:
// per-layer Δσ₁, Δα and ‖W_B − W_A‖/‖W_A‖ (issue 29 §2, inspect/checkpoint_history.h).
#include "cli/cli_support.h"
#include "cli/commands.h"
#include "inspect/checkpoint_history.h"
#include "inspect/orientation.h"
#include "inspect/tensor_report.h"
#include "io/input_error.h"
#include "io/tensor_file.h"

#include <CLI/CLI.hpp>

#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <iostream>
#include <memory>

namespace lwb::cli {
namespace {

struct InspectArgs {
  std::string file;
  bool full = false;
  bool history = false;
  std::string delta;  // the second file of --delta
};

// NaN (undefined) as null.
nlohmann::json number(double v) { return std::isnan(v) || std::isinf(v) ? nlohmann::json(nullptr) : nlohmann::json(v); }

// A progress line on stderr (stdout stays one JSON object), only on a terminal.
std::function<void(size_t, size_t)> progressLine(const char* what) {
  const bool tty = ::isatty(STDERR_FILENO) != 0;
  return [tty, what](size_t done, size_t total) {
    if (tty) std::fprintf(stderr, "\rinspect: %zu/%zu %s%s", done, total, what, done == total ? "\n" : "");
  };
}

int runHistory(const InspectArgs& a) {
  const auto h = inspect::checkpointHistory(a.file, progressLine("checkpoints"));
  const auto metrics = inspect::historyMetrics();
  nlohmann::json steps = nlohmann::json::array(), files = nlohmann::json::array(), skipped = nlohmann::json::array();
  for (const auto& c : h.checkpoints) {
    steps.push_back(c.step);
    files.push_back(c.path.string());
  }
  for (const auto& s : h.skipped) {
    std::fprintf(stderr, "inspect: skipped %s\n", s.error.c_str());
    skipped.push_back({{"step", s.step}, {"file", s.path.string()}, {"error", s.error}});
  }
  nlohmann::json layers = nlohmann::json::array();
  for (const auto& name : h.layerNames()) {
    nlohmann::json l{{"name", name}};
    for (const auto& c : h.checkpoints)
      for (const auto& v : c.layers)
        if (v.name == name) l["shape"] = v.shape;
    for (size_t m = 0; m < metrics.size(); ++m) {
      nlohmann::json values = nlohmann::json::array();
      for (double v : h.series(name, m)) values.push_back(number(v));
      l[std::string(metrics[m].key)] = values;
    }
    layers.push_back(l);
  }
  printJson({{"run_dir", a.file}, {"steps", steps}, {"files", files}, {"skipped", skipped}, {"layers", layers}});
  return 0;
}

int runDelta(const InspectArgs& a) {
  const auto d = inspect::checkpointDelta(a.file, a.delta, progressLine("matrices"));
  nlohmann::json layers = nlohmann::json::array();
  for (const auto& l : d.layers)
    layers.push_back({{"name", l.name}, {"shape", l.shape}, {"sigma1_a", l.sigma1A}, {"sigma1_b", l.sigma1B},
                      {"delta_sigma1", number(l.deltaSigma1())}, {"alpha_a", number(l.alphaA)}, {"alpha_b", number(l.alphaB)},
                      {"delta_alpha", number(l.deltaAlpha())}, {"relative_change", number(l.relativeChange)}});
  nlohmann::json out{{"a", a.file}, {"b", a.delta}, {"layers", layers}, {"only_in_a", d.onlyInA}, {"only_in_b", d.onlyInB},
                     {"shape_changed", d.shapeChanged}, {"no_spectrum", d.noSpectrum}};
  if (!d.prefixA.empty() || !d.prefixB.empty()) {
    out["matched_without_prefix"] = {{"a", d.prefixA}, {"b", d.prefixB}};
    std::cerr << "lipschitz-cli: no layer names in common as written; matched without the prefixes '" << d.prefixA
              << "' (A) and '" << d.prefixB << "' (B)\n";
  } else if (layers.empty() && d.shapeChanged.empty() && d.noSpectrum.empty()) {
    std::cerr << "lipschitz-cli: the two files have no matrix names in common\n";
  }
  if (!d.noSpectrum.empty())
    std::cerr << "lipschitz-cli: " << d.noSpectrum.size() << " matrix(es) in both files hold NaN/Inf (or booleans) in A or B, "
              << "so they have no spectrum to compare (no_spectrum), e.g. " << d.noSpectrum.front() << "\n";
  printJson(out);
  return 0;
}

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
  if (a.history && !a.delta.empty()) throw InputError("inspect: --history and --delta exclude each other (one run directory, or two checkpoints)");
  if (a.history && a.full) throw InputError("inspect: --full lists one file's singular values; --history keeps the summary metrics only");
  if (a.history) return runHistory(a);
  if (!a.delta.empty()) return runDelta(a);
  const auto file = io::readTensorFile(a.file);
  std::vector<inspect::NamedShape> shapes;
  for (const auto& t : file.tensors) shapes.push_back({t.name, t.shape});
  const bool inOut = inspect::storedInOut(shapes);
  const auto progress = progressLine("tensors");
  nlohmann::json tensors = nlohmann::json::array();
  for (const auto& r : inspect::reportTensors(file, a.full, progress)) tensors.push_back(toJson(r, inOut));
  nlohmann::json out{{"file", a.file}, {"format", file.format}, {"tensors", tensors}};
  out["weights_stored"] = inOut ? "in_out" : "out_in";
  if (inOut) out["weights_note"] = "GPT-2 Conv1D names and shapes (c_attn, c_fc wider than tall): 2-D weights read as stored (in, out) for rms_norm";
  if (const auto s = file.metadata.find("shards"); file.format == "huggingface" && s != file.metadata.end()) out["shards"] = std::stoi(s->second);
  if (!file.skipped.empty()) {
    out["skipped"] = file.skipped;
    std::cerr << "lipschitz-cli: " << a.file << ": " << file.skipped.size() << (file.skipped.size() == 1 ? " entry" : " entries")
              << " left out (\"skipped\" in the output), first: " << file.skipped.front() << "\n";
  }
  printJson(out);
  return 0;
}

}  // namespace

Command addInspectCommand(CLI::App& app) {
  auto args = std::make_shared<InspectArgs>();
  auto* sub = app.add_subcommand("inspect", "singular-value statistics and WeightWatcher-parity metrics (alpha, ...) of every 2-D tensor in a .safetensors, .npz, .npy or PyTorch .pt file");
  sub->add_option("file", args->file, "checkpoint or array file, or a Hugging Face model folder (index.json + shards)")->required();
  sub->add_flag("--full", args->full, "also print all singular values of every matrix");
  sub->add_flag("--history", args->history, "FILE is a run directory: every checkpoints/step_N.safetensors, per-layer metrics over steps");
  sub->add_option("--delta", args->delta, "a second checkpoint: per-layer delta_sigma1, delta_alpha and ||W_B - W_A||_F / ||W_A||_F from FILE to it")
      ->check(nonEmpty());
  return {sub, [args] { return runInspect(*args); }};
}

}  // namespace lwb::cli
