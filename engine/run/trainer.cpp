#include "run/trainer.h"

#include "common/threads.h"
#include "data/data_location.h"
#include "data/dataset.h"
#include "data/icl_least_squares.h"
#include "data/masked_chars.h"
#include "io/input_error.h"
#include "io/json_fields.h"
#include "models/factory.h"
#include "models/fused_ops.h"
#include "dist/communicator.h"
#include "dist/grad_sync.h"
#include "optim/constraint_step.h"
#include "optim/optimizer.h"
#include "optim/schedule.h"
#include "run/attention_measure.h"
#include "run/checkpoint.h"
#include "run/measurements.h"
#include "run/memory_estimate.h"
#include "common/run_messages.h"
#include "run/trainer_impl.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/ops/full.h>
#include <ATen/ops/scalar_tensor.h>
#include <ATen/ops/stack.h>
#include <ATen/Context.h>
#include <ATen/Parallel.h>
#include <ATen/record_function.h>
#include <ATen/TensorOperators.h>
#include <ATen/core/grad_mode.h>
#include <ATen/ops/argmax.h>
#include <ATen/ops/cross_entropy_loss.h>

#include <chrono>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <thread>

namespace lwb::run {
namespace {

double secondsSince(TrainerClock::time_point t) {
  return std::chrono::duration<double>(TrainerClock::now() - t).count();
}

// True when `done` completed steps are a multiple of `every`, and on the run's last step.
bool dueAt(int64_t done, int64_t every, int64_t total) { return done % every == 0 || done == total; }

// Blocks while paused, so a paused run holds its place between two steps; true on stop.
bool stopRequested(const TrainerControl& control) {
  while (control.pause.load() && !control.stop.load()) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  return control.stop.load();
}

// A metrics row has room for one alpha: the first constrained matrix's (-1 for methods
// other than the soft cap).
double softCapAlphaInUse(const optim::ConstraintStep& constraint, const optim::Optimizer& optimizer, double lr) {
  if (constraint.params().method != spectral::ConstraintMethod::SpectralSoftCap) return -1;
  for (const auto& slot : optimizer.slots())
    if (optim::ConstraintStep::isConstrained(slot.param)) return constraint.alphaFor(optimizer, slot, lr);
  return -1;
}

// At the run's peak lr (schedules only lower it), the highest soft-cap peak over the
// constrained matrices: above sigma_max the bound is not held at sigma_max (softCapPeak).
std::string softCapTurnoverNote(const optim::ConstraintStep& constraint, const optim::Optimizer& optimizer, double lr) {
  if (constraint.params().method != spectral::ConstraintMethod::SpectralSoftCap) return {};
  const double sigmaMax = constraint.params().sigmaMax;
  double peak = sigmaMax;
  for (const auto& slot : optimizer.slots())
    if (optim::ConstraintStep::isConstrained(slot.param)) peak = std::max(peak, constraint.softCapPeakFor(optimizer, slot, lr));
  if (peak <= sigmaMax * (1.0 + 1e-9)) return {};
  return softCapTurnoverMessage(lr, sigmaMax, peak);
}

void copyActivationMaxima(const models::ActivationStats& a, RunSummary& summary) {
  summary.maxActEntry = summary.maxActRms = 0;
  for (double v : a.maxAbsEntry) summary.maxActEntry = std::max(summary.maxActEntry, v);
  for (double v : a.maxTokenRms) summary.maxActRms = std::max(summary.maxActRms, v);
}

}  // namespace

LossAcc lossAndAccuracy(const at::Tensor& logits, const data::Batch& batch, const at::Device& device, bool needAcc) {
  // Regression tasks (icl_least_squares) mark where the loss reads the outputs; no accuracy.
  if (batch.positions.defined()) return {data::iclLoss(logits, batch), kNotMeasured};
  const auto targets = batch.targets.to(device);
  const auto flat = logits.reshape({-1, logits.size(-1)});
  const auto t = targets.reshape({-1});
  // Masked tasks (chars_masked) mark the positions the loss skips with kIgnoreTarget, which is
  // cross_entropy's ignore_index: loss and accuracy are means over the selected positions.
  // One fused pass each way on the CPU (models/fused_ops.h), at::cross_entropy_loss elsewhere.
  LossAcc r{models::crossEntropy(flat, t, data::kIgnoreTarget), 0.0};
  if (needAcc) {
    const auto read = t != data::kIgnoreTarget;
    r.acc = ((at::argmax(flat.detach(), -1) == t) & read).sum().item<double>() / std::max<double>(1.0, read.sum().item<double>());
  }
  return r;
}

std::unique_ptr<data::Dataset> makeDataset(const RunConfig& cfg) {
  const data::TaskRow& task = data::row(cfg.task);
  const bool reads = task.data != data::TaskData::Generated;
  if (reads && cfg.dataPath.empty())
    throw InputError("data_path: task '" + std::string(task.info.id) + "' needs " +
                     (task.data == data::TaskData::TextFile ? "a text file" : "a data folder"));
  data::DatasetRequest r;
  // "@data/..." names a bundled dataset (data/data_location.h); other paths are the user's.
  r.path = reads ? data::resolveDataPath(cfg.dataPath) : cfg.dataPath;
  r.seqLen = cfg.model.seqLen;
  r.maskRate = cfg.maskRate;
  r.mnistTrainCount = cfg.mnistTrainCount;
  r.modulus = cfg.modulus;
  r.trainFraction = cfg.trainFraction;
  r.seed = cfg.seed;
  r.icl.pairs = cfg.icl.pairs;
  r.icl.dim = cfg.icl.dim;
  r.icl.xFirst = cfg.icl.order == IclOrder::XFirst;
  r.icl.noise = cfg.icl.noise;
  r.icl.maxCond = cfg.icl.maxCond;
  r.icl.biasFeature = cfg.icl.biasFeature;
  return task.open(r);
}

Trainer::Trainer(const RunConfig& cfg) : impl_(std::make_unique<Impl>()) {
  auto& s = *impl_;
  s.cfg = cfg;
  // threads = 0 keeps what the host set (lipschitz-cli --threads, $LWB_THREADS, or the
  // policy's default, tuned per run in beginRun). A config's count applies to this run only.
  if (cfg.threads > 0) applyIntraOpThreads(cfg.threads);
  if (cfg.device == RunDevice::Cuda) {
    if (!at::hasCUDA()) throw InputError("device: cuda requested but this LibTorch has no CUDA device");
    s.device = at::Device(at::kCUDA);
  }
  at::manual_seed(cfg.seed);
  s.dataset = makeDataset(cfg);
  auto modelGen = at::make_generator<at::CPUGeneratorImpl>(cfg.seed);
  models::TaskShape shape{s.dataset->inputDim(), s.dataset->numClasses()};
  // Before the model and optimizer state are allocated: refuse what cannot fit (needed vs
  // available) instead of being OOM-killed mid-run (run/memory_estimate.h).
  requireMemory(estimateTraining(cfg, shape.inputDim, shape.numClasses), "model and batch");
  s.model = models::makeModel(cfg.model, shape, modelContext(cfg), modelGen, s.device);
  s.optimizer = optim::makeOptimizer(cfg.optimizer, optim::makeSlots(s.model->parameters(), cfg.optimizer, cfg.model));
  s.constraint = std::make_unique<optim::ConstraintStep>(cfg.constraint, cfg.optimizer, cfg.seed);
  s.schedule = {cfg.optimizer.schedule, cfg.steps, cfg.optimizer.warmupSteps,
                static_cast<int64_t>(std::floor(cfg.optimizer.decayFraction * static_cast<double>(cfg.steps)))};
  s.dataGen = at::make_generator<at::CPUGeneratorImpl>(cfg.seed + 0x9e3779b97f4a7c15ULL);
  s.charEval = prepareCharEvaluation(*s.dataset, cfg.batchSize);
  s.softCapNote = softCapTurnoverNote(*s.constraint, *s.optimizer, cfg.optimizer.lr);
}

Trainer::~Trainer() = default;

void Trainer::addSink(MetricsSink* sink) { impl_->sinks.push_back(sink); }

models::Model& Trainer::model() { return *impl_->model; }

std::vector<std::string> Trainer::referenceNotes() const {
  const auto& e = impl_->charEval;
  if (!e) return {};
  std::vector<std::string> lines{describeReferenceLevels(*e)};
  lines.insert(lines.end(), e->notes.begin(), e->notes.end());
  return lines;
}

std::vector<std::string> Trainer::startWarnings() const {
  if (impl_->softCapNote.empty()) return {};
  return {impl_->softCapNote};
}

void Trainer::skipCharEvaluation() { impl_->charEval.reset(); }

void Trainer::setCommunicator(dist::Communicator* comm) {
  impl_->comm = comm && comm->size() > 1 ? comm : nullptr;
  impl_->optimizer->setCommunicator(impl_->comm);
  impl_->constraint->setCommunicator(impl_->comm);
}

bool Trainer::Impl::leader() const { return !comm || comm->rank() == 0; }

std::string Trainer::Impl::rankDrift() const {
  if (!comm) return {};
  double local = 0;
  for (const auto& p : model->parameters()) local += p.tensor.detach().to(at::kDouble).sum().item<double>();
  const auto all = comm->allgather(at::scalar_tensor(local, at::kDouble).reshape({1}));
  // Every rank applies the same float operations to the same values; anything beyond rounding
  // noise in a sum of ~1e6 terms means a rank computed something else.
  for (int r = 1; r < comm->size(); ++r) {
    const double other = all[static_cast<size_t>(r)].item<double>(), first = all[0].item<double>();
    if (std::abs(other - first) > 1e-6 * std::max(1.0, std::abs(first)))
      return formatMessage(kMsgRanksDrifted, {fields::numberText(first), fields::numberText(other), std::to_string(r)});
  }
  return {};
}

bool Trainer::Impl::agree(bool mine) const {
  if (!comm) return mine;
  std::vector<at::Tensor> flag{at::full({1}, mine ? 1 : 0, at::TensorOptions().dtype(at::kInt))};
  comm->broadcast(flag, 0);
  return flag[0].item<int>() != 0;
}

RunSummary Trainer::run(TrainerControl& control) {
  auto& s = *impl_;
  s.beginRun();
  for (int64_t step = s.startStep; step < s.cfg.steps; ++step) {
    // Rank 0 decides for every rank, so all stop after the same step (a signal reaches the
    // ranks at different times).
    if (s.agree(stopRequested(control))) return s.endRun(RunStatus::Stopped, formatMessage(kMsgStoppedAtStep, {std::to_string(step)}));
    // Only on a change: at::set_num_threads also resizes LibTorch's pthreadpool.
    if (s.tuner && s.tuner->threads() != at::get_num_threads()) applyIntraOpThreads(s.tuner->threads());
    const auto stepStart = TrainerClock::now();
    auto t = s.trainStep(step);
    // Log steps also measure spectra: not a plain step's time.
    if (s.tuner && !t.logNow && !t.spectraNow) s.tuner->observe(secondsSince(stepStart));
    // Manifold optimizers check the manifold every step; the row of the failing step is sent
    // first so plots show it.
    // The weights are the same on every rank, so the optimizer's verdict is too.
    if (const auto off = s.optimizer->divergence(); !off.empty()) {
      if (s.leader()) s.logRow(t);
      return s.endRun(RunStatus::Diverged, formatMessage(kMsgAtStep, {off, std::to_string(t.step)}));
    }
    if (t.logNow && !s.agree(s.leader() ? s.logRow(t) : true))
      return s.endRun(RunStatus::Diverged, formatMessage(kMsgNonFiniteLoss, {std::to_string(t.step)}));
    if (t.logNow) {
      if (const auto drift = s.rankDrift(); !drift.empty())
        return s.endRun(RunStatus::Diverged, formatMessage(kMsgAtStep, {drift, std::to_string(t.step)}));
    }
    // After the step's metrics row, so a resumed run's metrics.jsonl (truncated to the
    // checkpoint's step) holds every row up to it.
    if (t.checkpointNow) s.saveCheckpoint(t.step);
  }
  return s.endRun(RunStatus::Finished, {});
}

void Trainer::Impl::beginRun() {
  if (comm) {
    if (cfg.batchSize < comm->size())
      throw InputError("batch_size " + std::to_string(cfg.batchSize) + " cannot be split over " +
                       std::to_string(comm->size()) + " processes (each needs at least one example)");
    auto params = model->parameters();
    dist::broadcastParameters(params, *comm);
  }
  progress = RunProgress{};
  progress.start = progress.windowStart = TrainerClock::now();
  progress.windowCommStart = comm ? comm->secondsInCollectives() : 0;
  progress.summary.steps = startStep;
  // On the thread that trains: OpenMP's thread count is per calling thread.
  tuner.reset();
  if (cfg.threads > 0) {
    applyIntraOpThreads(cfg.threads);
  } else if (!intraOpThreadsPinned() && device.is_cpu()) {
    tuner.emplace(intraOpThreadsCeiling());
    if (!tuner->enabled()) tuner.reset();
  }
  if (!tuner && cfg.threads <= 0) applyIntraOpThreads(intraOpThreadsCeiling());
  if (charEval)
    for (auto* sink : sinks) sink->onReferenceLevels(charEval->levels.full);
}

TrainStep Trainer::Impl::trainStep(int64_t step) {
  // Named scopes for LibTorch's profiler (lipschitz-cli bench --roofline, run/step_profile.h); a
  // flag test each when no profiler is on.
  RECORD_USER_SCOPE("lwb::train_step");
  const auto stepStart = TrainerClock::now();
  TrainStep t;
  t.step = step + 1;
  t.lr = cfg.optimizer.lr * schedule.factor(step);
  t.logNow = dueAt(t.step, cfg.logEvery, cfg.steps);
  t.spectraNow = t.logNow && cfg.spectraEvery > 0 && dueAt(t.step, cfg.spectraEvery, cfg.steps);
  t.checkpointNow = cfg.checkpointEvery > 0 && t.step % cfg.checkpointEvery == 0;

  auto batch = [&] {
    RECORD_USER_SCOPE("lwb::data");
    return dataset->sample(data::Split::Train, cfg.batchSize, dataGen);
  }();
  // Every rank draws the same global batch (same generator) and keeps its rows.
  double share = 1.0;
  if (comm) {
    const auto rows = dist::shareOf(cfg.batchSize, comm->rank(), comm->size());
    share = static_cast<double>(rows.count) / static_cast<double>(cfg.batchSize);
    for (auto* part : {&batch.inputs, &batch.targets, &batch.positions})
      if (part->defined() && part->dim() > 0 && part->size(0) == cfg.batchSize) *part = part->narrow(0, rows.first, rows.count);
  }
  model->setTrainingProgress(step, cfg.steps);
  const auto logits = model->forward(batch.inputs.to(device));
  if (t.logNow) t.prox = proxReport(*model);
  // Accuracy needs an argmax and a read-back (a sync on CUDA): only log steps report it.
  const auto la = lossAndAccuracy(logits, batch, device, t.logNow);
  for (auto& p : model->parameters()) p.tensor.mutable_grad() = at::Tensor();
  la.loss.backward();
  LossAcc global = la;
  if (comm) {
    auto params = model->parameters();
    dist::averageGradients(params, *comm, share);
    // The logged loss and accuracy are the global batch's, not this rank's share of it.
    std::vector<at::Tensor> stats{at::stack({la.loss.detach().to(at::kCPU, at::kDouble).reshape({}),
                                             at::scalar_tensor(la.acc, at::kDouble)}) * share};
    comm->allreduceSum(stats);
    global.loss = stats[0][0].to(la.loss.scalar_type());
    global.acc = stats[0][1].item<double>();
  }
  {
    RECORD_USER_SCOPE("lwb::optimizer");
    optimizer->step(t.lr);
  }
  if (t.spectraNow && constraint->params().method != spectral::ConstraintMethod::None)
    for (auto& sp : measureSpectra(model->parameters())) t.beforeConstraint[sp.name] = std::move(sp.singularValues);
  const auto constraintStart = TrainerClock::now();
  {
    RECORD_USER_SCOPE("lwb::constraint");
    constraint->apply(*optimizer, t.lr);
  }
  const double constraintSeconds = secondsSince(constraintStart);
  model->afterStep();
  t.loss = global.loss.detach();
  t.acc = global.acc;
  // The last 50 losses stay on the device until the run ends (no sync per step).
  progress.recentLosses.push_back(t.loss);
  if (progress.recentLosses.size() > RunProgress::kRecentLosses) progress.recentLosses.pop_front();

  progress.summary.steps = t.step;
  progress.stepSeconds += secondsSince(stepStart);
  progress.constraintSeconds += constraintSeconds;
  progress.windowConstraintSeconds += constraintSeconds;
  ++progress.windowSteps;
  return t;
}

bool Trainer::Impl::logRow(const TrainStep& t) {
  auto m = metricsRow(t);
  if (!std::isfinite(m.trainLoss)) {
    // The diverged row still reaches the sinks; measuring non-finite weights would not help.
    publish(m);
    return false;
  }
  const auto spectra = measureRow(m, t);
  publish(m);
  if (t.spectraNow) publishSpectra(t, spectra);
  closeLogWindow();
  return true;
}

StepMetrics Trainer::Impl::metricsRow(const TrainStep& t) const {
  StepMetrics m;
  m.step = t.step;
  m.lr = t.lr;
  m.trainLoss = t.loss.item<double>();
  m.trainAcc = t.acc;
  const double windowSeconds = secondsSince(progress.windowStart);
  const auto windowSteps = static_cast<double>(progress.windowSteps);
  m.stepsPerSecond = windowSteps / std::max(1e-9, windowSeconds);
  m.etaSeconds = static_cast<double>(cfg.steps - t.step) / std::max(1e-9, m.stepsPerSecond);
  m.constraintSecondsPerStep = progress.windowConstraintSeconds / windowSteps;
  if (comm) m.commSecondsPerStep = (comm->secondsInCollectives() - progress.windowCommStart) / windowSteps;
  m.stepSecondsPerStep = windowSeconds / windowSteps;
  m.stiefel = optimizer->stiefelStats();
  if (t.prox) {
    m.attlipResidual = t.prox->residual;
    m.attlipSteps = t.prox->steps;
    m.attlipMovement = t.prox->movement;
    m.attlipStepMean = t.prox->stepMean;
    m.attlipStepMin = t.prox->stepMin;
    m.attlipResidualRatio = t.prox->residualRatio;
  }
  return m;
}

std::vector<MatrixSpectrum> Trainer::Impl::measureRow(StepMetrics& m, const TrainStep& t) {
  auto spectra = measureSpectra(model->parameters());
  m.norms = normsFrom(spectra);
  if (const auto trace = lipschitzBound(*model, m.norms)) {
    m.lipschitzBound = trace->bound;
    m.boundTrace = *trace;
  }
  m.alpha = softCapAlphaInUse(*constraint, *optimizer, t.lr);
  if (dueAt(t.step, cfg.evalEvery, cfg.steps)) {
    evaluate(m);
    progress.lastEval = m;
  }
  return spectra;
}

void Trainer::Impl::evaluate(StepMetrics& m) {
  at::NoGradGuard noGrad;
  // Evaluation behaviour (AttLip: K = prox_steps_eval or the tolerance) for this call only.
  struct EvaluationMode {
    models::Model& model;
    explicit EvaluationMode(models::Model& m) : model(m) { model.setEvaluation(true); }
    ~EvaluationMode() { model.setEvaluation(false); }
  } evaluationMode(*model);
  std::optional<models::ProxReport> prox;  // worst over the batches
  const int64_t valSize = dataset->size(data::Split::Val);
  // eval_batches consecutive batches from the split's start, never more than the split holds.
  const int64_t batches =
      std::min<int64_t>(cfg.evalBatches, std::max<int64_t>(1, (valSize + cfg.batchSize - 1) / cfg.batchSize));
  double lossSum = 0, accSum = 0, count = 0;
  for (int64_t b = 0; b < batches; ++b) {
    const int64_t begin = (b * cfg.batchSize) % std::max<int64_t>(1, valSize);
    const int64_t n = std::min(cfg.batchSize, valSize - begin);
    if (n <= 0) break;
    auto batch = dataset->slice(data::Split::Val, begin, n);
    const auto inputs = batch.inputs.to(device);
    at::Tensor logits;
    if (b == 0) {
      models::ActivationStats stats;
      logits = model->forwardWithStats(inputs, stats);
      m.activations = stats;
    } else {
      logits = model->forward(inputs);
    }
    if (const auto p = proxReport(*model)) {
      if (!prox) {
        prox = p;
      } else {
        prox->residual = std::max(prox->residual, p->residual);
        prox->steps = std::max(prox->steps, p->steps);
        prox->converged = prox->converged && p->converged;
        prox->movement = std::max(prox->movement, p->movement);
        prox->residualRatio = std::max(prox->residualRatio, p->residualRatio);
      }
    }
    const auto la = lossAndAccuracy(logits, batch, device, true);
    lossSum += la.loss.item<double>() * static_cast<double>(n);
    accSum += la.acc * static_cast<double>(n);
    count += static_cast<double>(n);
  }
  m.valLoss = lossSum / count;
  m.valAcc = accSum / count;
  if (charEval) evaluateCharWindows(*charEval, *model, device, cfg.evalBatches, m.step == cfg.steps, m);
  if (prox) {
    m.valAttlipResidual = prox->residual;
    m.valAttlipSteps = prox->steps;
    m.valAttlipMovement = prox->movement;
    m.valAttlipResidualRatio = prox->residualRatio;
    progress.attlipEvalConverged = prox->converged;
  }
}

void Trainer::Impl::publish(const StepMetrics& m) {
  for (auto* sink : sinks) sink->onStep(m);
}

void Trainer::Impl::publishSpectra(const TrainStep& t, const std::vector<MatrixSpectrum>& spectra) {
  SpectraSnapshot snapshot;
  for (const auto& sp : spectra) snapshot[sp.name] = sp.singularValues;
  for (auto* sink : sinks) sink->onSpectra(t.step, snapshot, t.beforeConstraint);
}

void Trainer::Impl::closeLogWindow() {
  progress.windowStart = TrainerClock::now();
  progress.windowSteps = 0;
  progress.windowConstraintSeconds = 0;
  progress.windowCommStart = comm ? comm->secondsInCollectives() : 0;
}

void Trainer::Impl::saveCheckpoint(int64_t step) {
  if (checkpointDir.empty() || step <= lastCheckpointStep || !leader()) return;
  writeCheckpoint(std::filesystem::path(checkpointDir) / checkpointFileName(step), checkpoint(step));
  pruneCheckpoints(checkpointDir, cfg.keepCheckpoints, step);
  lastCheckpointStep = step;
}

RunSummary Trainer::Impl::endRun(RunStatus status, const std::string& message) {
  auto& summary = progress.summary;
  // A diverged model (non-finite weights) is not worth resuming; every other end is.
  if (status != RunStatus::Diverged) saveCheckpoint(summary.steps);
  summary.status = status;
  summary.message = message;
  summary.seconds = secondsSince(progress.start);
  summary.stepsPerSecond = summary.steps / std::max(1e-9, summary.seconds);
  summary.constraintFraction = progress.stepSeconds > 0 ? progress.constraintSeconds / progress.stepSeconds : 0.0;
  if (!progress.recentLosses.empty()) {
    double sum = 0;
    for (const auto& l : progress.recentLosses) sum += l.item<double>();
    summary.trainLossLast50 = sum / static_cast<double>(progress.recentLosses.size());
  }
  if (const auto& last = progress.lastEval) {
    summary.valLoss = last->valLoss.value_or(kNotMeasured);
    summary.valAcc = last->valAcc.value_or(kNotMeasured);
    summary.lipschitzBound = last->lipschitzBound.value_or(kNotMeasured);
    if (last->activations) copyActivationMaxima(*last->activations, summary);
    if (last->valAttlipResidual) {
      summary.attlipEvalResidual = *last->valAttlipResidual;
      summary.attlipEvalSteps = last->valAttlipSteps;
      summary.attlipEvalConverged = progress.attlipEvalConverged;
      summary.attentionCertificate = attentionCertificate(*model, progress.attlipEvalConverged);
      // Never silently 1-Lipschitz: the bound is the converged prox's (SEEDS-002-004 §C.4).
      if (summary.attentionCertificate == "none" && summary.message.empty())
        summary.message = "AttLip prox did not reach model.prox_tol at evaluation: residual " +
                          std::to_string(summary.attlipEvalResidual) + " after " + std::to_string(*summary.attlipEvalSteps) +
                          " steps; the attention bound 1 holds for the converged prox only";
    }
  }
  if (charEval) summarizeCharEvaluation(*charEval, progress.lastEval ? &*progress.lastEval : nullptr, summary);
  if (!softCapNote.empty()) summary.message += (summary.message.empty() ? "" : "; ") + softCapNote;
  if (status == RunStatus::Finished && leader()) measureAttentionBlock(*model, *dataset, cfg.seed, summary);
  for (auto* sink : sinks) sink->onFinished(summary);
  return summary;
}

}  // namespace lwb::run
