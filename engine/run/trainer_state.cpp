// Checkpoint and resume for the Trainer: the state a run needs to continue exactly.
#include "io/input_error.h"
#include "run/run_directory_sink.h"
#include "run/trainer.h"
#include "run/trainer_impl.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/core/grad_mode.h>

#include <c10/util/Exception.h>

namespace lwb::run {

namespace {

// Splits "<prefix>.<rest>" keys into one map per prefix, without the prefix.
std::map<std::string, optim::TensorMap> byPrefix(const optim::TensorMap& all) {
  std::map<std::string, optim::TensorMap> out;
  for (const auto& [key, t] : all) {
    const auto dot = key.find('.');
    if (dot == std::string::npos || dot == 0) throw InputError("checkpoint: unexpected tensor '" + key + "'");
    out[key.substr(0, dot)][key.substr(dot + 1)] = t;
  }
  return out;
}

void rejectUnused(const optim::StateIn& in, const std::string& prefix) {
  const auto left = in.unused();
  if (!left.empty())
    throw InputError("checkpoint: tensor '" + prefix + "." + left.front() + "' does not belong to this run's " + prefix +
                     " (" + std::to_string(left.size()) + " unexpected)");
}

void restoreGenerator(at::Generator& gen, optim::StateIn& in, const std::string& key) {
  const auto state = in.takeBytes(key);
  try {
    std::lock_guard<std::mutex> lock(gen.mutex());
    gen.set_state(state);
  } catch (const c10::Error&) {
    throw InputError("checkpoint: tensor 'rng." + key + "' is not a CPU generator state");
  }
}

}  // namespace

void Trainer::setCheckpointDir(std::string dir) { impl_->checkpointDir = std::move(dir); }

int64_t Trainer::startStep() const { return impl_->startStep; }

Checkpoint Trainer::checkpoint(int64_t step) const { return impl_->checkpoint(step); }

Checkpoint Trainer::Impl::checkpoint(int64_t step) const {
  Checkpoint c;
  c.step = step;
  c.config = resolvedConfigJson(cfg);
  for (const auto& p : model->parameters()) c.tensors["param." + p.name] = p.tensor.detach();
  optim::TensorMap state;
  optimizer->saveState(state);
  for (auto& [k, t] : state) c.tensors["optim." + k] = t;
  state.clear();
  constraint->saveState(state);
  for (auto& [k, t] : state) c.tensors["constraint." + k] = t;
  c.tensors["rng.data"] = dataGen.get_state();
  c.tensors["rng.default"] = at::detail::getDefaultCPUGenerator().get_state();
  return c;
}

void Trainer::resume(const Checkpoint& ckpt) {
  auto& s = *impl_;
  if (ckpt.step < 1 || ckpt.step >= s.cfg.steps)
    throw InputError("checkpoint: step " + std::to_string(ckpt.step) + " is outside this run's 1.." +
                     std::to_string(s.cfg.steps - 1) + " (nothing left to train)");
  auto parts = byPrefix(ckpt.tensors);
  for (const auto& [prefix, t] : parts)
    if (prefix != "param" && prefix != "optim" && prefix != "constraint" && prefix != "rng")
      throw InputError("checkpoint: unexpected tensor group '" + prefix + "'");

  // Validate and convert everything before changing any state: a bad file leaves the
  // trainer as it was.
  optim::StateIn params(parts["param"]);
  std::vector<std::pair<at::Tensor, at::Tensor>> weights;
  for (const auto& p : s.model->parameters()) {
    auto t = params.take(p.name, p.tensor);
    if (!t.defined()) throw InputError("checkpoint: missing tensor 'param." + p.name + "'");
    weights.emplace_back(p.tensor, std::move(t));
  }
  rejectUnused(params, "param");

  // Optimizer and constraint state load into fresh objects that replace the trainer's only
  // when everything fitted; generator states are tried on scratch generators first.
  auto optimizer = optim::makeOptimizer(s.cfg.optimizer, s.optimizer->slots());
  optim::StateIn opt(parts["optim"]);
  optimizer->loadState(opt);
  rejectUnused(opt, "optim");
  auto constraint = std::make_unique<optim::ConstraintStep>(s.cfg.constraint, s.cfg.optimizer, s.cfg.seed);
  optim::StateIn con(parts["constraint"]);
  constraint->loadState(con, *optimizer);
  rejectUnused(con, "constraint");
  optim::StateIn rng(parts["rng"]);
  auto dataGen = at::make_generator<at::CPUGeneratorImpl>();
  auto defaultGen = at::make_generator<at::CPUGeneratorImpl>();
  restoreGenerator(dataGen, rng, "data");
  restoreGenerator(defaultGen, rng, "default");
  rejectUnused(rng, "rng");

  at::NoGradGuard noGrad;
  for (auto& [dst, src] : weights) dst.copy_(src);
  s.optimizer = std::move(optimizer);
  s.constraint = std::move(constraint);
  s.dataGen = dataGen;
  auto global = at::detail::getDefaultCPUGenerator();
  {
    std::lock_guard<std::mutex> lock(global.mutex());
    global.set_state(defaultGen.get_state());
  }
  s.startStep = ckpt.step;
  s.lastCheckpointStep = ckpt.step;
}

}  // namespace lwb::run
