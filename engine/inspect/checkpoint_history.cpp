#include "inspect/checkpoint_history.h"

#include "common/tr_noop.h"
#include "inspect/orientation.h"
#include "inspect/tensor_report.h"
#include "io/file_io.h"
#include "io/input_error.h"
#include "io/tensor_convert.h"
#include "io/tensor_file.h"
#include "run/run_directory_reader.h"
#include "run/run_layout.h"

#include <ATen/core/Tensor.h>

#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <set>

namespace lwb::inspect {
namespace {

std::string shapeText(const std::vector<int64_t>& shape) {
  std::string out = "[";
  for (size_t k = 0; k < shape.size(); ++k) out += (k ? ", " : "") + std::to_string(shape[k]);
  return out + "]";
}

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr std::string_view kParamPrefix = "param.";

// The weights of a file: a workbench checkpoint's "param.<name>" tensors (its optimizer and
// power-iteration state are no layers), or every tensor of any other file.
std::vector<const io::RawTensor*> weightsOf(const io::TensorFile& file, bool* workbench) {
  *workbench = false;
  for (const auto& t : file.tensors)
    if (t.name.starts_with(kParamPrefix)) *workbench = true;
  std::vector<const io::RawTensor*> out;
  for (const auto& t : file.tensors)
    if (!*workbench || t.name.starts_with(kParamPrefix)) out.push_back(&t);
  return out;
}

std::string layerName(const std::string& name, bool workbench) {
  return workbench ? name.substr(kParamPrefix.size()) : name;
}

// The longest prefix ending in '.' that every name shares; "" when there is none, and for a
// single name (its prefix would be all but the last component, a guess, not a wrapper).
std::string commonDottedPrefix(const std::vector<std::string>& names) {
  if (names.size() < 2) return {};
  std::string prefix = names.front();
  prefix.resize(prefix.rfind('.') == std::string::npos ? 0 : prefix.rfind('.') + 1);
  const auto shorten = [](std::string& p) {  // "a.b." -> "a."
    const size_t dot = p.size() >= 2 ? p.rfind('.', p.size() - 2) : std::string::npos;
    p.resize(dot == std::string::npos ? 0 : dot + 1);
  };
  for (const std::string& n : names)
    while (!prefix.empty() && !n.starts_with(prefix)) shorten(prefix);
  return prefix;
}

// ‖B − A‖_F / ‖A‖_F in float64, whatever the stored dtypes.
double relativeChange(const io::RawTensor& a, const io::RawTensor& b) {
  const at::Tensor ta = io::asTensor(a).to(at::kDouble).contiguous();
  const at::Tensor tb = io::asTensor(b).to(at::kDouble).contiguous();
  const double* pa = ta.data_ptr<double>();
  const double* pb = tb.data_ptr<double>();
  double diff = 0, base = 0;
  for (int64_t i = 0, n = ta.numel(); i < n; ++i) {
    diff += (pb[i] - pa[i]) * (pb[i] - pa[i]);
    base += pa[i] * pa[i];
  }
  return base > 0 ? std::sqrt(diff / base) : kNaN;
}

}  // namespace

std::span<const HistoryMetricInfo> historyMetrics() {
  static const std::vector<HistoryMetricInfo> rows = [] {
    std::vector<HistoryMetricInfo> r{
        {"sigma1", LWB_TR_NOOP("Registry", "σ₁"), LWB_TR_NOOP("Registry", "largest singular value (the workbench's bounds use σ₁)")},
        {"rms_norm", LWB_TR_NOOP("Registry", "RMS→RMS"), LWB_TR_NOOP("Registry", "σ₁·√(d_in/d_out): the RMS→RMS operator norm")},
        {"frobenius", LWB_TR_NOOP("Registry", "‖W‖_F"), LWB_TR_NOOP("Registry", "Frobenius norm")},
    };
    for (const auto& m : spectralMetricTable()) r.push_back({m.key, m.title, m.description});
    return r;
  }();
  return rows;
}

std::vector<std::string> CheckpointHistory::layerNames() const {
  std::vector<std::string> out;
  std::map<std::string, bool> seen;
  for (const auto& c : checkpoints)
    for (const auto& l : c.layers)
      if (seen.emplace(l.name, true).second) out.push_back(l.name);
  return out;
}

std::vector<double> CheckpointHistory::series(const std::string& layer, size_t metric) const {
  std::vector<double> out(checkpoints.size(), kNaN);
  for (size_t i = 0; i < checkpoints.size(); ++i)
    for (const auto& l : checkpoints[i].layers)
      if (l.name == layer && metric < l.values.size()) out[i] = l.values[metric];
  return out;
}

CheckpointHistory checkpointHistory(const std::filesystem::path& runDir,
                                    const std::function<void(size_t, size_t)>& progress,
                                    const CancelFlag* cancel) {
  std::error_code ec;
  if (!std::filesystem::is_directory(runDir, ec))
    throw InputError(runDir.string() + (std::filesystem::exists(runDir, ec) ? ": not a folder" : ": no such folder") +
                     " (a run directory holds checkpoints/step_N.safetensors)");
  const auto dir = runDir / run::layout::kCheckpointsDir;
  if (!std::filesystem::is_directory(dir, ec))
    throw InputError(runDir.string() + ": no checkpoints folder (not a run directory, or the run saved no checkpoints)");
  const auto files = run::listCheckpoints(dir);
  if (files.empty()) throw InputError(dir.string() + ": no step_N.safetensors checkpoints in it");

  CheckpointHistory h;
  using Model = std::map<std::string, std::vector<int64_t>>;  // matrix name -> shape
  std::vector<Model> models;  // of h.checkpoints, in step
  for (size_t i = 0; i < files.size(); ++i) {
    if (cancel && cancel->load()) {
      h.complete = false;
      break;
    }
    CheckpointMetrics c{files[i].step, files[i].path, {}};
    Model matrices;
    try {
      const auto file = io::readTensorFile(files[i].path, io::kMaxTensorFileBytes, cancel);
      bool workbench = false;
      const auto weights = weightsOf(file, &workbench);
      if (const auto step = file.metadata.find("step"); workbench && step != file.metadata.end()) {
        int64_t n = -1;
        const auto [end, err] = std::from_chars(step->second.data(), step->second.data() + step->second.size(), n);
        if (err == std::errc() && end == step->second.data() + step->second.size()) run::checkStepMatchesName(files[i].path, n);
      }
      for (const auto* t : weights) matrices[t->name] = t->shape;
      std::vector<NamedShape> shapes;
      for (const auto* t : weights) shapes.push_back({t->name, t->shape});
      const bool inOut = storedInOut(shapes);
      for (const auto* t : weights) {
        if (cancel && cancel->load()) break;
        const TensorReport r = reportTensor(*t, /*keepSingularValues=*/false);
        if (!r.stats) continue;
        LayerValues l{layerName(t->name, workbench), t->shape, {}};
        const double rms = inOut && t->shape[1] > 0
                               ? r.stats->sigma1 * std::sqrt(static_cast<double>(t->shape[0]) / static_cast<double>(t->shape[1]))
                               : r.stats->rmsNorm;
        l.values = {r.stats->sigma1, rms, r.stats->frobenius};
        for (const auto& m : spectralMetricTable()) l.values.push_back(m.value(r.metrics));
        c.layers.push_back(std::move(l));
      }
    } catch (const Cancelled&) {
    } catch (const InputError& e) {
      h.skipped.push_back({files[i].step, files[i].path, e.what()});
      if (progress) progress(i + 1, files.size());
      continue;
    }
    if (cancel && cancel->load()) {  // a checkpoint half inspected is not shown
      h.complete = false;
      break;
    }
    h.checkpoints.push_back(std::move(c));
    models.push_back(std::move(matrices));
    if (progress) progress(i + 1, files.size());
  }
  // One run's history is one model: a checkpoint whose matrix has another shape than the
  // same-named matrix of the others (another run's checkpoint copied in) was merged into the
  // series, a layer's σ₁ jumping between models. Each name's shape is the one most
  // checkpoints have (the newest's on a tie); a checkpoint that differs is skipped, said why.
  // (A matrix missing from one checkpoint is only NaN there.)
  std::map<std::string, std::vector<int64_t>> shapeOf;
  {
    std::map<std::string, std::map<std::vector<int64_t>, size_t>> votes;
    for (const Model& m : models)
      for (const auto& [name, shape] : m) ++votes[name][shape];
    for (auto k = models.size(); k-- > 0;)  // newest first: on a tie the newest's shape stays
      for (const auto& [name, shape] : models[k]) {
        const auto known = shapeOf.find(name);
        if (known == shapeOf.end() || votes[name][shape] > votes[name][known->second]) shapeOf[name] = shape;
      }
  }
  std::vector<CheckpointMetrics> kept;
  for (size_t k = 0; k < h.checkpoints.size(); ++k) {
    std::string why;
    for (const auto& [name, shape] : models[k])
      if (why.empty() && shape != shapeOf[name])
        why = "holds another model ('" + name + "' is " + shapeText(shape) + " here, " + shapeText(shapeOf[name]) +
              " in the run's other checkpoints)";
    if (why.empty()) kept.push_back(std::move(h.checkpoints[k]));
    else h.skipped.push_back({h.checkpoints[k].step, h.checkpoints[k].path, h.checkpoints[k].path.string() + ": " + why});
  }
  h.checkpoints = std::move(kept);
  std::stable_sort(h.skipped.begin(), h.skipped.end(), [](const auto& a, const auto& b) { return a.step < b.step; });
  if (h.checkpoints.empty() && h.complete) {
    std::string why = dir.string() + ": no checkpoint could be read";
    if (!h.skipped.empty()) why += " (" + h.skipped.front().error + ")";
    throw InputError(why);
  }
  return h;
}

CheckpointDelta checkpointDelta(const io::TensorFile& a, const io::TensorFile& b,
                                const std::function<void(size_t, size_t)>& progress,
                                const CancelFlag* cancel) {
  CheckpointDelta d;
  bool wbA = false, wbB = false;
  const auto wa = weightsOf(a, &wbA);
  const auto wb = weightsOf(b, &wbB);
  const auto matrixNames = [](const std::vector<const io::RawTensor*>& ts, bool wb) {
    std::vector<std::string> out;
    for (const auto* t : ts)
      if (t->shape.size() == 2) out.push_back(layerName(t->name, wb));
    return out;
  };
  const auto namesA = matrixNames(wa, wbA), namesB = matrixNames(wb, wbB);
  const std::set<std::string> setB(namesB.begin(), namesB.end());
  if (std::none_of(namesA.begin(), namesA.end(), [&](const std::string& n) { return setB.count(n) > 0; })) {
    d.prefixA = commonDottedPrefix(namesA);
    d.prefixB = commonDottedPrefix(namesB);
  }
  const auto key = [&](const io::RawTensor* t, bool wb, const std::string& prefix) {
    return layerName(t->name, wb).substr(prefix.size());
  };
  std::map<std::string, const io::RawTensor*> inB;
  for (const auto* t : wb)
    if (t->shape.size() == 2) inB.emplace(key(t, wbB, d.prefixB), t);
  std::map<std::string, bool> matched;
  size_t done = 0;
  for (const auto* t : wa) {
    if (t->shape.size() != 2) continue;
    if (cancel && cancel->load()) {
      d.complete = false;
      break;
    }
    const std::string name = key(t, wbA, d.prefixA);
    const auto it = inB.find(name);
    if (it == inB.end()) {
      d.onlyInA.push_back(name);
      continue;
    }
    matched[name] = true;
    if (it->second->shape != t->shape) {
      d.shapeChanged.push_back(name);
      continue;
    }
    const TensorReport ra = reportTensor(*t, false);
    const TensorReport rb = reportTensor(*it->second, false);
    if (!ra.stats || !rb.stats) {  // NaN/Inf or boolean: no spectrum to compare
      d.noSpectrum.push_back(name);
      continue;
    }
    LayerDelta l{name, t->shape, ra.stats->sigma1, rb.stats->sigma1, ra.metrics.alpha, rb.metrics.alpha, 0};
    l.relativeChange = relativeChange(*t, *it->second);
    d.layers.push_back(std::move(l));
    if (progress) progress(++done, wa.size());
  }
  for (const auto* t : wb)
    if (t->shape.size() == 2 && !matched.count(key(t, wbB, d.prefixB))) d.onlyInB.push_back(key(t, wbB, d.prefixB));
  return d;
}

CheckpointDelta checkpointDelta(const std::filesystem::path& a, const std::filesystem::path& b,
                                const std::function<void(size_t, size_t)>& progress,
                                const CancelFlag* cancel) {
  const auto fa = io::readTensorFile(a, io::kMaxTensorFileBytes, cancel);
  const auto fb = io::readTensorFile(b, io::kMaxTensorFileBytes, cancel);
  return checkpointDelta(fa, fb, progress, cancel);
}

}  // namespace lwb::inspect
