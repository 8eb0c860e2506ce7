#include "app/pages/robustness/robustness_job.h"

#include "io/input_error.h"
#include "run/robustness.h"
#include "run/saved_model.h"
#include "run/trainer.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/core/grad_mode.h>
#include <ATen/ops/softmax.h>

#include <cmath>

namespace lwb::app::pages {
namespace {

// Pixels in [0, 1]: 784 grey (MNIST) or 3072 in R, G, B planes (CIFAR-10 file order).
QImage toImage(const at::Tensor& pixels) {
  const auto p = pixels.to(at::kFloat).clamp(0, 1).contiguous();
  const float* v = p.data_ptr<float>();
  auto byte = [](float x) { return static_cast<int>(std::lround(x * 255.0f)); };
  if (p.numel() == 3072) {
    QImage img(32, 32, QImage::Format_RGB32);
    for (int i = 0; i < 1024; ++i) img.setPixel(i % 32, i / 32, qRgb(byte(v[i]), byte(v[1024 + i]), byte(v[2048 + i])));
    return img;
  }
  const int side = static_cast<int>(std::lround(std::sqrt(static_cast<double>(p.numel()))));
  QImage img(side, side, QImage::Format_Grayscale8);
  for (int i = 0; i < side * side && i < p.numel(); ++i) img.setPixel(i % side, i / side, qRgb(byte(v[i]), byte(v[i]), byte(v[i])));
  return img;
}

}  // namespace

RobustnessOutcome computeRobustness(const QString& target, const RobustnessRequest& req,
                                    const std::function<void(int64_t, int64_t)>& progress,
                                    const lab::CancelFlag* cancel) {
  lab::throwIfCancelled(cancel);
  const auto path = run::resolveCheckpointPath(target.toStdString());
  auto saved = run::loadSavedModel(run::readCheckpoint(path), path.string());
  const auto& cfg = saved.config;
  if (cfg.task != "mnist" && cfg.task != "cifar10")
    throw InputError(path.string() + ": task '" + cfg.task + "' is not an image classifier (robustness needs mnist or cifar10)");
  const auto bound = run::boundOf(*saved.model);
  if (!bound.trace) throw InputError(path.string() + ": this model has no Lipschitz bound");
  const auto dataset = run::makeDataset(cfg);
  const int64_t trainerVal = std::min(cfg.evalBatches * cfg.batchSize, dataset->size(data::Split::Val));
  const auto ex = run::robustnessExamples(*dataset, req.examples, trainerVal);

  run::RobustnessOptions opt;
  opt.eps = req.eps;
  opt.attackSteps = req.attackSteps;
  opt.seed = req.seed;
  run::RobustnessResult r;
  try {
    r = run::evaluateRobustness(*saved.model, ex.inputs, ex.targets, bound.trace->bound, opt, [&](int64_t d, int64_t n) {
      if (progress) progress(d, n);
      return !(cancel && cancel->load());
    });
  } catch (const run::Cancelled&) {
    throw lab::Cancelled();
  }

  RobustnessOutcome out;
  out.target = target;
  out.file = QString::fromStdString(path.string());
  out.task = QString::fromStdString(cfg.task);
  out.step = saved.step;
  out.examples = r.examples;
  out.heldOut = ex.heldOut;
  out.cleanAcc = r.cleanAcc;
  out.bound = r.bound;
  out.l2Bound = r.l2Bound;
  out.sigmaMethod = QStringLiteral("exact SVD (float64)");
  for (const auto m : bound.sigmaMethods)
    if (m != bounds::SigmaMethod::ExactSvd) out.sigmaMethod = QStringLiteral("exact SVD / Gram iteration upper bound");
  for (const auto& p : r.points) out.rows.push_back({p.eps, p.pgdAcc, p.certifiedAcc, p.meanPCorrect});

  // Fig. 3 left: the first held-out example, attacked at each eps of the grid.
  at::NoGradGuard noGrad;
  const auto x = ex.inputs.narrow(0, 0, 1), y = ex.targets.narrow(0, 0, 1);
  out.label = static_cast<int>(y.item<int64_t>());
  auto gen = at::make_generator<at::CPUGeneratorImpl>(req.seed + 1);
  for (const double eps : req.eps) {
    lab::throwIfCancelled(cancel);
    AttackedImage shot;
    shot.eps = eps;
    double bestP = 2;
    run::pgdL2(*saved.model, x, y, eps, req.attackSteps, 2.5 * eps / req.attackSteps, gen, [&](const at::Tensor& xa) {
      const auto p = at::softmax(saved.model->forward(xa), 1)[0];
      const double pc = p[out.label].item<double>();
      if (pc < bestP) {  // keep the attack's worst point for the label
        bestP = pc;
        shot.pCorrect = pc;
        shot.predicted = static_cast<int>(p.argmax().item<int64_t>());
        shot.image = toImage(xa[0]);
      }
    });
    out.images.push_back(std::move(shot));
  }
  return out;
}

}  // namespace lwb::app::pages
