#include "run/saved_model.h"

#include "data/icl_least_squares.h"
#include "io/input_error.h"
#include "models/factory.h"
#include "models/model_kinds.h"
#include "optim/state_io.h"
#include "run/measurements.h"
#include "run/memory_estimate.h"
#include "run/run_directory_reader.h"
#include "run/run_layout.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/core/grad_mode.h>

#include <cerrno>
#include <unistd.h>

namespace lwb::run {

namespace fs = std::filesystem;

namespace {

// The task's shape without its dataset: the text tasks' vocabulary is the embedding's rows,
// the ICL task's token size follows from its settings (its batches are generated); nullopt for
// a task whose shape only its dataset knows (none today).
std::optional<models::TaskShape> knownShape(const RunConfig& cfg, const Checkpoint& ckpt, const std::string& what) {
  const data::TaskRow& task = data::row(cfg.task);
  if (task.input == data::TaskInput::Features) return models::TaskShape{task.features, task.classes};
  if (task.input == data::TaskInput::OperandPair) return models::TaskShape{2, cfg.modulus};
  if (task.input == data::TaskInput::NextToken || task.input == data::TaskInput::MaskedToken) {
    // The vocabulary is the text file's (chars_masked: and [MASK]); the embedding has one row
    // per token.
    const auto it = ckpt.tensors.find("param.embed");
    if (it == ckpt.tensors.end() || it->second.dim() != 2 || it->second.size(0) < 1)
      throw InputError(what + ": a " + std::string(task.info.id) + " checkpoint needs a 2-D 'param.embed' tensor");
    return models::TaskShape{cfg.model.seqLen, it->second.size(0)};
  }
  if (task.input == data::TaskInput::IclSequence) {
    data::IclConfig icl;  // as the trainer's dataset request (run/trainer.cpp)
    icl.pairs = cfg.icl.pairs;
    icl.dim = cfg.icl.dim;
    icl.biasFeature = cfg.icl.biasFeature;
    return models::TaskShape{data::iclTokenDim(icl), icl.dim};
  }
  return std::nullopt;
}

models::TaskShape shapeFor(const RunConfig& cfg, const Checkpoint& ckpt, const std::string& what) {
  if (const auto s = knownShape(cfg, ckpt, what)) return *s;
  throw InputError(what + ": the " + std::string(data::toString(cfg.task)) + " task's sizes are not in the checkpoint");
}

// The estimate may miss small tensors (gains, scalars) a model gains later, never a matrix:
// a factor of 2 and 64 Ki weights of slack refuse only configs that cannot match the file.
bool describesFarMore(double estimated, double stored) { return estimated > 2 * stored + 65536; }

}  // namespace

void checkCheckpointFits(const RunConfig& cfg, const Checkpoint& ckpt, const std::string& what) {
  double stored = 0;
  for (const auto& [key, t] : ckpt.tensors)
    if (key.rfind("param.", 0) == 0) stored += static_cast<double>(t.numel());
  const auto known = knownShape(cfg, ckpt, what);
  if (!known) return;  // the Trainer checks these against its dataset's shape
  const models::TaskShape shape = *known;
  const double described = estimateParameters(cfg, shape.inputDim, shape.numClasses);
  if (describesFarMore(described, stored))
    throw InputError(what + ": the config in __metadata__ describes a " + std::string(models::toString(cfg.model.kind)) + " of about " +
                     bytesText(described * 4) + " of weights, but the file holds " + bytesText(stored * 4) +
                     " of param.* tensors: the metadata does not belong to these weights");
  requireMemory(estimateInference(cfg, shape.inputDim, shape.numClasses), what);
}

SavedModel loadSavedModel(const Checkpoint& ckpt, const std::string& what) {
  SavedModel s;
  s.config = checkpointConfig(ckpt, what);
  s.step = ckpt.step;
  checkCheckpointFits(s.config, ckpt, what);  // before the model is allocated
  auto gen = at::make_generator<at::CPUGeneratorImpl>(s.config.seed);
  s.model = models::makeModel(s.config.model, shapeFor(s.config, ckpt, what), modelContext(s.config), gen,
                              at::Device(at::kCPU));
  optim::TensorMap params;
  for (const auto& [key, t] : ckpt.tensors)
    if (key.rfind("param.", 0) == 0) params[key.substr(6)] = t;
  optim::StateIn in(params);
  at::NoGradGuard noGrad;
  try {
    for (auto& p : s.model->parameters()) {
      auto t = in.take(p.name, p.tensor);
      if (!t.defined()) throw InputError("checkpoint: missing tensor 'param." + p.name + "'");
      p.tensor.copy_(t);
    }
  } catch (const InputError& e) {
    throw InputError(what + ": " + e.what());
  }
  if (const auto left = in.unused(); !left.empty())
    throw InputError(what + ": tensor 'param." + left.front() + "' does not belong to a " + std::string(models::toString(s.config.model.kind)) + " of this config");
  return s;
}

fs::path resolveCheckpointPath(const fs::path& p) {
  // An unreadable folder lists as empty and an unreadable file fails to open: say permission
  // denied rather than "no checkpoints" or "no such file" (issue 32).
  const auto denied = [](const fs::path& q, int mode) { return ::access(q.c_str(), mode) != 0 && errno == EACCES; };
  std::error_code ec;
  if (fs::is_directory(p, ec)) {
    if (denied(p, R_OK | X_OK)) throw InputError(p.string() + ": permission denied (the folder cannot be read)");
    if (const fs::path c = p / layout::kCheckpointsDir; fs::is_directory(c, ec) && denied(c, R_OK | X_OK))
      throw InputError(c.string() + ": permission denied (the folder cannot be read)");
    if (auto newest = RunDirectoryReader(p).newestCheckpoint()) {
      if (denied(*newest, R_OK)) throw InputError(newest->string() + ": permission denied");
      return *newest;
    }
    throw InputError(p.string() + ": no checkpoints/step_N.safetensors in this run directory");
  }
  const bool exists = fs::exists(p, ec);
  if (ec == std::errc::permission_denied || (!exists && denied(p.parent_path().empty() ? fs::path(".") : p.parent_path(), X_OK)))
    throw InputError(p.string() + ": permission denied");
  if (!exists) throw InputError(p.string() + ": no such file or directory");
  if (denied(p, R_OK)) throw InputError(p.string() + ": permission denied");
  return p;
}

SavedBound boundOf(models::Model& model) {
  at::NoGradGuard noGrad;
  SavedBound b;
  b.norms = certifiedNorms(model.parameters(), &b.sigmaMethods);
  b.trace = lipschitzBound(model, b.norms);
  return b;
}

}  // namespace lwb::run
