#include "app/pages/robustness/robustness_job.h"

#include "run/robustness_job.h"

#include <cmath>

namespace lwb::app::pages {
namespace {

// Pixels in [0, 1]: 784 grey (MNIST) or 3072 in R, G, B planes (CIFAR-10 file order).
QImage toImage(const std::vector<float>& v) {
  auto byte = [](float x) { return static_cast<int>(std::lround(x * 255.0f)); };
  const int n = static_cast<int>(v.size());
  if (n == 3072) {
    QImage img(32, 32, QImage::Format_RGB32);
    for (int i = 0; i < 1024; ++i) img.setPixel(i % 32, i / 32, qRgb(byte(v[i]), byte(v[1024 + i]), byte(v[2048 + i])));
    return img;
  }
  const int side = static_cast<int>(std::lround(std::sqrt(static_cast<double>(n))));
  QImage img(side, side, QImage::Format_Grayscale8);
  for (int i = 0; i < side * side && i < n; ++i) img.setPixel(i % side, i / side, qRgb(byte(v[i]), byte(v[i]), byte(v[i])));
  return img;
}

}  // namespace

RobustnessOutcome computeRobustness(const QString& target, const RobustnessRequest& req,
                                    const std::function<void(int64_t, int64_t)>& progress,
                                    const CancelFlag* cancel) {
  run::CheckpointRobustnessRequest job;
  job.target = target.toStdString();
  job.examples = req.examples;
  job.options.eps = req.eps;
  job.options.attackSteps = req.attackSteps;
  job.options.seed = req.seed;
  job.attackExample = true;
  const run::CheckpointRobustness r = run::robustnessOfCheckpoint(job, progress, cancel);  // Cancelled when `cancel` is set

  RobustnessOutcome out;
  out.target = target;
  out.file = QString::fromStdString(r.file);
  out.task = QString::fromStdString(r.task);
  out.step = r.step;
  out.examples = r.result.examples;
  out.heldOut = r.heldOut;
  out.cleanAcc = r.result.cleanAcc;
  out.bound = r.result.bound;
  out.l2Bound = r.result.l2Bound;
  out.sigmaMethod = QString::fromStdString(r.sigmaMethod);
  for (const auto& p : r.result.points) out.rows.push_back({p.eps, p.pgdAcc, p.certifiedAcc, p.meanPCorrect});
  out.label = static_cast<int>(r.label);
  for (const auto& a : r.attacked) out.images.push_back({a.eps, toImage(a.pixels), static_cast<int>(a.predicted), a.pCorrect});
  return out;
}

}  // namespace lwb::app::pages
