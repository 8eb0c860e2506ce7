#include "run/robustness_job.h"

#include "common/cancel.h"
#include "io/input_error.h"
#include "run/robustness.h"
#include "run/saved_model.h"
#include "run/trainer.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/core/grad_mode.h>
#include <ATen/ops/softmax.h>

#include <algorithm>

namespace lwb::run {
namespace {

// The methods sigma1 was bounded with, each named once by its registry text: "exact SVD
// (float64)" when every matrix was decomposed (in float64: sigmaMaxUpper), "... / Gram
// iteration upper bound" when some were too large for that.
std::string sigmaMethodText(const std::vector<bounds::SigmaMethod>& used) {
  std::string text;
  for (const auto m : {bounds::SigmaMethod::ExactSvd, bounds::SigmaMethod::GramIteration})
    if (std::find(used.begin(), used.end(), m) != used.end()) text += (text.empty() ? "" : " / ") + std::string(bounds::toString(m));
  return text.empty() ? bounds::toString(bounds::SigmaMethod::ExactSvd) : text;
}

// Fig. 3 left: the first example, attacked at each eps of the grid with the evaluation's
// step rule; for each eps the iterate where the true class's probability is lowest.
void attackFirstExample(models::Model& model, const HeldOutExamples& ex, const RobustnessOptions& opt,
                        const std::atomic<bool>* cancel, CheckpointRobustness& out) {
  at::NoGradGuard noGrad;
  const auto x = ex.inputs.narrow(0, 0, 1), y = ex.targets.narrow(0, 0, 1);
  out.label = y.item<int64_t>();
  auto gen = at::make_generator<at::CPUGeneratorImpl>(opt.seed + 1);
  for (const double eps : opt.eps) {
    throwIfCancelled(cancel);
    AttackedExample shot;
    shot.eps = eps;
    double lowest = 2;
    pgdL2(model, x, y, eps, opt.attackSteps, opt.stepFactor * eps / opt.attackSteps, gen, [&](const at::Tensor& xa) {
      const auto p = at::softmax(model.forward(xa), 1)[0];
      const double pc = p[out.label].item<double>();
      if (pc >= lowest) return;
      lowest = pc;
      shot.pCorrect = pc;
      shot.predicted = p.argmax().item<int64_t>();
      const auto pixels = xa[0].to(at::kFloat).clamp(0, 1).contiguous();
      shot.pixels.assign(pixels.data_ptr<float>(), pixels.data_ptr<float>() + pixels.numel());
    });
    out.attacked.push_back(std::move(shot));
  }
}

}  // namespace

CheckpointRobustness robustnessOfCheckpoint(const CheckpointRobustnessRequest& request,
                                            const std::function<void(int64_t, int64_t)>& progress,
                                            const std::atomic<bool>* cancel) {
  throwIfCancelled(cancel);
  validateEps(request.options.eps);  // before the checkpoint and the data are read
  const auto path = resolveCheckpointPath(request.target);
  auto saved = loadSavedModel(readCheckpoint(path), path.string());
  auto cfg = saved.config;
  if (!data::row(cfg.task).imageClassifier) {
    std::string images;
    for (const auto& t : data::taskRows())
      if (t.imageClassifier) images += (images.empty() ? "" : " or ") + std::string(t.info.id);
    throw InputError(path.string() + ": task '" + std::string(data::toString(cfg.task)) +
                     "' is not an image classifier (robustness needs " + images + ")");
  }
  const auto bound = boundOf(*saved.model);
  if (!bound.trace) throw InputError(path.string() + ": this model has no Lipschitz bound");
  if (!request.dataPath.empty()) cfg.dataPath = request.dataPath;
  const auto dataset = makeDataset(cfg);
  const int64_t trainerVal = std::min(cfg.evalBatches * cfg.batchSize, dataset->size(data::Split::Val));
  const auto ex = robustnessExamples(*dataset, request.examples, trainerVal);

  CheckpointRobustness out;
  out.file = path.string();
  out.task = std::string(data::toString(cfg.task));
  out.step = saved.step;
  out.first = ex.first;
  out.count = ex.count;
  out.splitSize = ex.splitSize;
  out.heldOut = ex.heldOut;
  out.sigmaMethod = sigmaMethodText(bound.sigmaMethods);
  out.result = evaluateRobustness(*saved.model, ex.inputs, ex.targets, bound.trace->bound, request.options,
                                  [&](int64_t done, int64_t total) {
                                    if (progress) progress(done, total);
                                    return !(cancel && cancel->load(std::memory_order_relaxed));
                                  });
  if (request.attackExample) attackFirstExample(*saved.model, ex, request.options, cancel, out);
  return out;
}

}  // namespace lwb::run
