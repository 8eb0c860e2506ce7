#include "run/trainer.h"

#include "common/threads.h"
#include "io/input_error.h"
#include "models/factory.h"
#include "optim/constraint_step.h"
#include "optim/optimizer.h"
#include "optim/schedule.h"
#include "run/checkpoint.h"
#include "run/measurements.h"
#include "run/trainer_impl.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/Context.h>
#include <ATen/TensorOperators.h>
#include <ATen/core/grad_mode.h>
#include <ATen/ops/argmax.h>
#include <ATen/ops/cross_entropy_loss.h>

#include <chrono>
#include <cmath>
#include <thread>

namespace lwb::run {
namespace {

using Clock = std::chrono::steady_clock;
double secondsSince(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

struct LossAcc {
  at::Tensor loss;  // scalar, differentiable
  double acc = 0;
};

LossAcc lossAndAccuracy(const at::Tensor& logits, const at::Tensor& targets, bool needAcc) {
  const auto flat = logits.reshape({-1, logits.size(-1)});
  const auto t = targets.reshape({-1});
  LossAcc r{at::cross_entropy_loss(flat, t), 0.0};
  if (needAcc) r.acc = (at::argmax(flat.detach(), -1) == t).to(at::kFloat).mean().item<double>();
  return r;
}

}  // namespace

std::unique_ptr<data::Dataset> makeDataset(const RunConfig& cfg) {
  const bool needsFile = cfg.task == "mnist" || cfg.task == "cifar10" || cfg.task == "chars";
  if (needsFile && cfg.dataPath.empty()) throw InputError("data_path: task '" + cfg.task + "' needs a data file or folder");
  if (cfg.task == "chars") return data::makeCharsDataset(cfg.dataPath, cfg.model.seqLen);
  if (cfg.task == "mnist") return data::makeMnistDataset(cfg.dataPath, cfg.mnistTrainCount);
  if (cfg.task == "cifar10") return data::makeCifar10Dataset(cfg.dataPath);
  if (cfg.task == "modular_addition")
    return data::makeModularDataset(data::ModularOp::Addition, cfg.modulus, cfg.trainFraction, cfg.seed);
  if (cfg.task == "modular_multiplication")
    return data::makeModularDataset(data::ModularOp::Multiplication, cfg.modulus, cfg.trainFraction, cfg.seed);
  throw InputError("task: unknown task '" + cfg.task + "'");
}

Trainer::Trainer(const RunConfig& cfg) : impl_(std::make_unique<Impl>()) {
  auto& s = *impl_;
  s.cfg = cfg;
  // threads = 0 keeps what the host set (lipschitz-cli --threads, $LWB_THREADS, or all cores).
  if (cfg.threads > 0) setIntraOpThreads(cfg.threads);
  if (cfg.device == "cuda") {
    if (!at::hasCUDA()) throw InputError("device: cuda requested but this LibTorch has no CUDA device");
    s.device = at::Device(at::kCUDA);
  }
  at::manual_seed(cfg.seed);
  s.dataset = makeDataset(cfg);
  auto modelGen = at::make_generator<at::CPUGeneratorImpl>(cfg.seed);
  models::TaskShape shape{s.dataset->inputDim(), s.dataset->numClasses()};
  model_ = models::makeModel(cfg, shape, modelGen, s.device);
  const int64_t residualLayers = cfg.model.kind == "lipschitz_gpt" ? 2 * cfg.model.blocks : 0;
  s.optimizer = optim::makeOptimizer(cfg.optimizer, optim::makeSlots(model_->parameters(), cfg.optimizer, residualLayers));
  s.constraint = std::make_unique<optim::ConstraintStep>(cfg);
  s.schedule = {optim::parseScheduleKind(cfg.optimizer.schedule), cfg.steps, cfg.optimizer.warmupSteps};
  s.dataGen = at::make_generator<at::CPUGeneratorImpl>(cfg.seed + 0x9e3779b97f4a7c15ULL);
}

Trainer::~Trainer() = default;

RunSummary Trainer::run(TrainerControl& control) {
  auto& s = *impl_;
  const auto& cfg = s.cfg;
  RunSummary summary;
  const auto start = Clock::now();
  auto windowStart = Clock::now();
  double constraintSeconds = 0, constraintTotal = 0, stepTotal = 0, windowLoss = 0, windowAcc = 0;
  int64_t windowSteps = 0;

  auto evaluate = [&](StepMetrics& m) {
    at::NoGradGuard noGrad;
    const int64_t valSize = s.dataset->size(data::Split::Val);
    const int64_t batches = std::min<int64_t>(cfg.evalBatches, std::max<int64_t>(1, (valSize + cfg.batchSize - 1) / cfg.batchSize));
    double lossSum = 0, accSum = 0, count = 0;
    for (int64_t b = 0; b < batches; ++b) {
      const int64_t begin = (b * cfg.batchSize) % std::max<int64_t>(1, valSize);
      const int64_t n = std::min(cfg.batchSize, valSize - begin);
      if (n <= 0) break;
      auto batch = s.dataset->slice(data::Split::Val, begin, n);
      const auto inputs = batch.inputs.to(s.device), targets = batch.targets.to(s.device);
      at::Tensor logits;
      if (b == 0) {
        models::ActivationStats stats;
        logits = model_->forwardWithStats(inputs, stats);
        m.activations = stats;
      } else {
        logits = model_->forward(inputs);
      }
      const auto la = lossAndAccuracy(logits, targets, true);
      lossSum += la.loss.item<double>() * static_cast<double>(n);
      accSum += la.acc * static_cast<double>(n);
      count += static_cast<double>(n);
    }
    m.valLoss = lossSum / count;
    m.valAcc = accSum / count;
  };

  auto saveCheckpoint = [&](int64_t step) {
    if (s.checkpointDir.empty() || step <= s.lastCheckpointStep) return;
    writeCheckpoint(std::filesystem::path(s.checkpointDir) / checkpointFileName(step), checkpoint(step));
    pruneCheckpoints(s.checkpointDir, cfg.keepCheckpoints);
    s.lastCheckpointStep = step;
  };

  auto finish = [&](RunStatus status, const std::string& message, const StepMetrics* last) {
    // A diverged model (non-finite weights) is not worth resuming; every other end is.
    if (status != RunStatus::Diverged) saveCheckpoint(summary.steps);
    summary.status = status;
    summary.message = message;
    summary.seconds = secondsSince(start);
    summary.stepsPerSecond = summary.steps / std::max(1e-9, summary.seconds);
    summary.constraintFraction = stepTotal > 0 ? constraintTotal / stepTotal : 0.0;
    if (last) {
      summary.valLoss = last->valLoss.value_or(kNotMeasured);
      summary.valAcc = last->valAcc.value_or(kNotMeasured);
      summary.lipschitzBound = last->lipschitzBound.value_or(kNotMeasured);
      if (last->activations) {
        summary.maxActEntry = summary.maxActRms = 0;
        for (double v : last->activations->maxAbsEntry) summary.maxActEntry = std::max(summary.maxActEntry, v);
        for (double v : last->activations->maxTokenRms) summary.maxActRms = std::max(summary.maxActRms, v);
      }
    }
    for (auto* sink : sinks_) sink->onFinished(summary);
    return summary;
  };

  StepMetrics last;
  bool haveEval = false;
  summary.steps = s.startStep;
  for (int64_t step = s.startStep; step < cfg.steps; ++step) {
    while (control.pause.load() && !control.stop.load()) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (control.stop.load()) return finish(RunStatus::Stopped, "stopped at step " + std::to_string(step), haveEval ? &last : nullptr);

    const auto stepStart = Clock::now();
    const double lr = cfg.optimizer.lr * s.schedule.factor(step);
    auto batch = s.dataset->sample(data::Split::Train, cfg.batchSize, s.dataGen);
    const auto logits = model_->forward(batch.inputs.to(s.device));
    const bool logNow = (step + 1) % cfg.logEvery == 0 || step + 1 == cfg.steps;
    const auto la = lossAndAccuracy(logits, batch.targets.to(s.device), logNow);
    for (auto& p : model_->parameters()) p.tensor.mutable_grad() = at::Tensor();
    la.loss.backward();
    s.optimizer->step(lr);
    const bool spectraNow = logNow && cfg.spectraEvery > 0 && ((step + 1) % cfg.spectraEvery == 0 || step + 1 == cfg.steps);
    SpectraSnapshot before;
    if (spectraNow && s.constraint->params().method != spectral::ConstraintMethod::None)
      for (auto& sp : measureSpectra(model_->parameters())) before[sp.name] = std::move(sp.singularValues);
    const auto cStart = Clock::now();
    s.constraint->apply(*s.optimizer, lr);
    constraintSeconds += secondsSince(cStart);
    model_->afterStep();
    summary.steps = step + 1;
    stepTotal += secondsSince(stepStart);
    ++windowSteps;

    // Checkpoints come after the step's metrics row, so a resumed run's metrics.jsonl
    // (truncated to the checkpoint's step) holds every row up to it.
    const bool checkpointNow = cfg.checkpointEvery > 0 && (step + 1) % cfg.checkpointEvery == 0;
    if (!logNow) {
      if (checkpointNow) saveCheckpoint(step + 1);
      continue;
    }
    const double loss = la.loss.item<double>();
    windowLoss = loss;
    windowAcc = la.acc;
    StepMetrics m;
    m.step = step + 1;
    m.lr = lr;
    m.trainLoss = windowLoss;
    m.trainAcc = windowAcc;
    const double windowSeconds = secondsSince(windowStart);
    m.stepsPerSecond = windowSteps / std::max(1e-9, windowSeconds);
    m.etaSeconds = static_cast<double>(cfg.steps - step - 1) / std::max(1e-9, m.stepsPerSecond);
    m.constraintSecondsPerStep = constraintSeconds / static_cast<double>(windowSteps);
    m.stepSecondsPerStep = windowSeconds / static_cast<double>(windowSteps);
    constraintTotal += constraintSeconds;
    if (!std::isfinite(loss)) {
      for (auto* sink : sinks_) sink->onStep(m);
      return finish(RunStatus::Diverged, "non-finite training loss at step " + std::to_string(step + 1), haveEval ? &last : nullptr);
    }
    const auto spectra = measureSpectra(model_->parameters());
    m.norms = normsFrom(spectra);
    if (const auto trace = lipschitzBound(*model_, m.norms)) {
      m.lipschitzBound = trace->bound;
      m.boundTrace = *trace;
    }
    if (s.constraint->params().method == spectral::ConstraintMethod::SpectralSoftCap)
      for (const auto& slot : s.optimizer->slots())
        if (optim::ConstraintStep::isConstrained(slot.param)) {
          m.alpha = s.constraint->alphaFor(*s.optimizer, slot, lr);
          break;
        }
    if ((step + 1) % cfg.evalEvery == 0 || step + 1 == cfg.steps) {
      evaluate(m);
      last = m;
      haveEval = true;
    }
    for (auto* sink : sinks_) sink->onStep(m);
    if (spectraNow) {
      SpectraSnapshot snap;
      for (const auto& sp : spectra) snap[sp.name] = sp.singularValues;
      for (auto* sink : sinks_) sink->onSpectra(step + 1, snap, before);
    }
    windowStart = Clock::now();
    windowSteps = 0;
    constraintSeconds = 0;
    if (checkpointNow) saveCheckpoint(step + 1);
  }
  return finish(RunStatus::Finished, {}, haveEval ? &last : nullptr);
}

}  // namespace lwb::run
