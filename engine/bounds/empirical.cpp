// Measured side of the bounds: activation statistics, exact RMS->RMS norms, and the
// empirical (lower-bound) Lipschitz constant by gradient ascent with LibTorch autograd.
#include "bounds/lipschitz_bound.h"

#include "common/torch_compat.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/TensorOperators.h>
#include <ATen/core/grad_mode.h>
#include <ATen/ops/full.h>
#include <ATen/ops/isfinite.h>
#include <ATen/ops/randn.h>
#include <ATen/ops/where.h>
#include <ATen/ops/zeros_like.h>
#include <c10/util/Exception.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <tuple>

namespace lwb::bounds {
namespace {

// Statistics and norms accumulate in float32 at least (bfloat16 sums of squares drift).
at::Tensor accumulating(const at::Tensor& x) {
  const auto t = x.scalar_type();
  return (t == at::kDouble || t == at::kFloat) ? x.detach() : x.detach().to(at::kFloat);
}

// ||z_b||_inf-RMS per example b of z [B, ..., d]: RMS over the last dim, max over the
// positions in between (000 App. D); [B, d] gives the plain RMS, [B] the absolute value.
// The max is taken over mean squares before the one sqrt: sqrt at an all-zero token
// (padding, identical tokens) would otherwise send 0 * inf = NaN back through autograd.
at::Tensor exampleNorm(const at::Tensor& z) {
  if (z.dim() == 1) return z.abs();
  auto meanSquare = z.pow(2).mean(-1);
  if (meanSquare.dim() > 1) meanSquare = meanSquare.flatten(1).amax(1);
  return meanSquare.sqrt();
}

// RMS over all entries of each example: the size of a step, not a norm of the bound.
at::Tensor exampleRms(const at::Tensor& z) {
  return z.dim() == 1 ? z.abs() : z.pow(2).flatten(1).mean(1).sqrt();
}

// [B] -> [B, 1, ..., 1] broadcastable against a tensor of rank `rank`.
at::Tensor perExample(const at::Tensor& v, int64_t rank) {
  std::vector<int64_t> shape(static_cast<size_t>(rank), 1);
  shape[0] = v.size(0);
  return v.reshape(shape);
}

struct Evaluation {
  at::Tensor ratio;  // [B], detached
  at::Tensor gx, gy; // d(ratio_b)/dx_b, d(ratio_b)/dy_b; zero where not finite
};

Evaluation evaluate(const std::function<at::Tensor(const at::Tensor&)>& f, const at::Tensor& x,
                    const at::Tensor& y) {
  // Fresh leaves each time, so every step's graph is independent and freed after backward.
  auto xl = x.detach().requires_grad_(true);
  auto yl = y.detach().requires_grad_(true);
  const auto fx = f(xl), fy = f(yl);
  TORCH_CHECK(fx.dim() >= 1 && fx.size(0) == x.size(0) && fx.sizes() == fy.sizes(),
              "empiricalLipschitz: f must map [B, ...] to [B, ...] with the same shape for every input");
  const auto ratio = exampleNorm(fx - fy) / exampleNorm(xl - yl);
  if (!ratio.requires_grad())  // f does not depend (differentiably) on its input
    return {ratio.detach(), at::zeros_like(x), at::zeros_like(y)};
  // Examples are independent, so d(sum_b ratio_b)/dx_b = d(ratio_b)/dx_b. `inputs`
  // restricts accumulation to the two leaves: f's parameters keep their .grad untouched.
  const std::vector<at::Tensor> leaves{xl, yl};
  ratio.sum().backward({}, {}, false, at::TensorList(leaves));
  auto clean = [](const at::Tensor& g) { return at::where(at::isfinite(g), g, 0.0); };
  return {ratio.detach(), clean(xl.grad()), clean(yl.grad())};
}

// z + (scale_b / RMS(g_b)) g, per example: a step of RMS scale_b along g.
at::Tensor stepAlong(const at::Tensor& z, const at::Tensor& g, const at::Tensor& scale) {
  const auto unit = scale / exampleRms(g).clamp_min(1e-30);
  return z + perExample(unit, z.dim()) * g;
}

}  // namespace

double empiricalLipschitz(const std::function<at::Tensor(const at::Tensor&)>& f,
                          const at::Tensor& x0, int steps, double stepSize,
                          double initialRadius, uint64_t seed) {
  TORCH_CHECK(x0.defined() && x0.dim() >= 1 && x0.size(0) >= 1 && x0.numel() > 0,
              "empiricalLipschitz needs a non-empty batch [B, ...]");
  TORCH_CHECK(at::isFloatingType(x0.scalar_type()), "empiricalLipschitz needs floating point inputs");
  if (steps < 0) throw std::invalid_argument("empiricalLipschitz needs steps >= 0");
  if (!(stepSize > 0) || !std::isfinite(stepSize))
    throw std::invalid_argument("empiricalLipschitz needs a finite step size > 0");
  if (!(initialRadius > 0) || !std::isfinite(initialRadius))
    throw std::invalid_argument("empiricalLipschitz needs a finite initial radius > 0");

  // Callers often evaluate under NoGradGuard; this search needs autograd regardless.
  at::AutoGradMode enableGrad(true);
  const int64_t rank = x0.dim();
  auto gen = at::make_generator<at::CPUGeneratorImpl>(seed);
  const auto noise = at::randn(x0.sizes(), gen, at::TensorOptions().dtype(at::kDouble));
  at::Tensor x = x0.detach().clone();
  at::Tensor y = x + (initialRadius * noise).to(x0.options());

  auto current = evaluate(f, x, y);
  auto ratio = at::where(at::isfinite(current.ratio), current.ratio, 0.0);
  // Relative step per example: stepSize * RMS(x - y), adapted per example below.
  auto eta = at::full({x0.size(0)}, stepSize, ratio.options());
  for (int s = 0; s < steps; ++s) {
    const auto scale = eta * exampleRms(x - y).to(eta.scalar_type());
    const auto xn = stepAlong(x, current.gx, scale.to(x.scalar_type()));
    const auto yn = stepAlong(y, current.gy, scale.to(y.scalar_type()));
    auto next = evaluate(f, xn, yn);
    // Keep a step only where it raised the ratio; elsewhere undo it and halve the step.
    // The kept ratio is thus the best seen, and the ascent cannot wander off a maximum.
    const auto better = at::isfinite(next.ratio) & (next.ratio > ratio);
    const auto keep = perExample(better, rank);
    x = at::where(keep, xn, x);
    y = at::where(keep, yn, y);
    current.gx = at::where(keep, next.gx, current.gx);
    current.gy = at::where(keep, next.gy, current.gy);
    ratio = at::where(better, next.ratio, ratio);
    eta = at::where(better, eta * 1.5, eta * 0.5);
  }
  return ratio.max().item<double>();
}

double empiricalLipschitz(const std::function<at::Tensor(const at::Tensor&)>& f,
                          const at::Tensor& x0, const EmpiricalOptions& o) {
  if (o.restarts < 1) throw std::invalid_argument("empiricalLipschitz needs restarts >= 1");
  if (o.mode == EmpiricalMode::Pgd) {
    PgdOptions p;
    p.iters = o.steps;
    p.restarts = o.restarts;
    p.radius = o.radius;
    p.norm = o.norm;
    p.seed = o.seed;
    return pgdLipschitz(f, x0, p).best;
  }
  double best = 0;
  for (int r = 0; r < o.restarts; ++r) {
    const double radius = o.initialRadius * std::pow(10.0, r % 3);
    best = std::max(best, empiricalLipschitz(f, x0, o.steps, o.stepSize, radius, o.seed + static_cast<uint64_t>(r)));
  }
  return best;
}

double maxAbsEntry(const at::Tensor& x) {
  if (!x.defined() || x.numel() == 0) return 0.0;
  return accumulating(x).abs().max().item<double>();
}

double maxTokenRms(const at::Tensor& x) {
  if (!x.defined() || x.numel() == 0) return 0.0;
  const auto xf = accumulating(x);
  if (xf.dim() == 0) return std::abs(xf.item<double>());
  return xf.pow(2).mean(-1).max().sqrt().item<double>();
}

double rmsToRmsNorm(const at::Tensor& w) {
  if (!w.defined() || w.dim() != 2)
    throw std::invalid_argument("rmsToRmsNorm needs a (d_out, d_in) matrix");
  if (w.numel() == 0) return 0.0;
  const auto sigma = lwb::compat::svdvals(lwb::compat::svdCompatible(w.detach()));
  const double dOut = static_cast<double>(w.size(0)), dIn = static_cast<double>(w.size(1));
  return sigma.max().item<double>() * std::sqrt(dIn / dOut);  // 000 §3.1
}

}  // namespace lwb::bounds
