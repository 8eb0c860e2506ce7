// Projected gradient ascent on ‖f(x0+δx) − f(x0+δy)‖ / ‖δx − δy‖ (SEEDS-002-004 §D).
#include "bounds/pgd_lipschitz.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/TensorOperators.h>
#include <ATen/core/grad_mode.h>
#include <ATen/ops/argmax.h>
#include <ATen/ops/full.h>
#include <ATen/ops/isfinite.h>
#include <ATen/ops/rand.h>
#include <ATen/ops/randn.h>
#include <ATen/ops/where.h>
#include <ATen/ops/zeros_like.h>
#include <c10/util/Exception.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace lwb::bounds {
namespace {

// [M] -> [M, 1, ..., 1] against a tensor of rank `rank`.
at::Tensor perRow(const at::Tensor& v, int64_t rank) {
  std::vector<int64_t> shape(static_cast<size_t>(rank), 1);
  shape[0] = v.size(0);
  return v.reshape(shape);
}

at::Tensor frobenius(const at::Tensor& z) { return z.flatten(1).pow(2).sum(1).sqrt(); }

// Example norm of z [M, ...] in the chosen norm (max over mean squares before one sqrt, as
// in empirical.cpp, so an all-zero difference gives 0 and not NaN gradients).
at::Tensor exampleNorm(const at::Tensor& z, PgdNorm norm) {
  if (norm == PgdNorm::L2 || z.dim() == 1) return z.dim() == 1 ? z.abs() : frobenius(z);
  auto meanSquare = z.pow(2).mean(-1);
  if (meanSquare.dim() > 1) meanSquare = meanSquare.flatten(1).amax(1);
  return meanSquare.sqrt();
}

// Proj_r(δ) = δ·min(1, r/‖δ‖_F), per row.
at::Tensor project(const at::Tensor& d, const at::Tensor& r) {
  const auto scale = (r / frobenius(d).clamp_min(1e-300)).clamp_max(1.0);
  return d * perRow(scale, d.dim());
}

}  // namespace

const char* toString(PgdNorm n) { return n == PgdNorm::L2 ? "l2" : "inf_rms"; }

PgdNorm pgdNormFromString(const std::string& s) {
  if (s == "l2") return PgdNorm::L2;
  if (s == "inf_rms") return PgdNorm::InfRms;
  throw std::invalid_argument("norm: expected l2 or inf_rms, got '" + s + "'");
}

PgdResult pgdLipschitz(const std::function<at::Tensor(const at::Tensor&)>& f, const at::Tensor& x0,
                       const PgdOptions& o) {
  if (!x0.defined() || x0.dim() < 2 || x0.size(0) < 1 || x0.numel() == 0 || !at::isFloatingType(x0.scalar_type()))
    throw std::invalid_argument("pgdLipschitz needs a non-empty floating point batch [B, ...]");
  if (o.iters < 1) throw std::invalid_argument("pgdLipschitz: iters must be >= 1");
  if (o.restarts < 1) throw std::invalid_argument("pgdLipschitz: restarts must be >= 1");
  if (!(o.radius >= 0) || !std::isfinite(o.radius))
    throw std::invalid_argument("pgdLipschitz: radius must be finite and >= 0");

  at::AutoGradMode enableGrad(true);
  const int64_t rank = x0.dim();
  const auto base = x0.detach().repeat_interleave(o.restarts, 0);  // [M = B·Rs, ...]
  const int64_t m = base.size(0);
  const double n = static_cast<double>(base[0].numel());
  const auto opts = base.options();
  at::Tensor r = o.radius > 0 ? at::full({m}, o.radius, opts) : frobenius(base);
  r = at::where(r > 0, r, 1.0);  // x0 = 0 with radius 0: a unit ball
  auto gen = at::make_generator<at::CPUGeneratorImpl>(o.seed);
  auto noise = [&] { return at::randn(base.sizes(), gen, at::TensorOptions().dtype(at::kDouble)).to(opts); };
  // δx uniform in the ball: uniform direction, ‖δx‖ = r U^{1/n}.
  const auto u = at::rand({m}, gen, at::TensorOptions().dtype(at::kDouble)).to(opts);
  auto dir = noise();
  at::Tensor dx = dir * perRow(r * u.pow(1.0 / n) / frobenius(dir), rank);
  auto separate = [&](const at::Tensor& from) { return project(from + noise() * perRow(1e-2 * r / std::sqrt(n), rank), r); };
  at::Tensor dy = separate(dx);
  dx = project(dx, r);

  PgdResult res;
  at::Tensor best = at::full({m}, -1.0, opts.dtype(at::kDouble));  // on the device of the ratios
  at::Tensor bestX = base + dx, bestY = base + dy;
  const auto step = perRow(2.5 * r / o.iters, rank);
  for (int it = 0; it <= o.iters; ++it) {
    throwIfCancelled(o.cancel);
    auto xl = dx.detach().requires_grad_(true);
    auto yl = dy.detach().requires_grad_(true);
    const auto fx = f(base + xl), fy = f(base + yl);
    TORCH_CHECK(fx.dim() >= 1 && fx.size(0) == m && fx.sizes() == fy.sizes(),
                "pgdLipschitz: f must map [M, ...] to [M, ...] with the same shape for every input");
    res.evaluations += 2;
    const auto num = exampleNorm(fx - fy, o.norm), den = exampleNorm(xl - yl, o.norm);
    const auto ratio = (num / den).detach().to(at::kDouble);
    const auto improved = at::isfinite(ratio) & (ratio > best);
    best = at::where(improved, ratio, best);
    const auto keep = perRow(improved, rank);
    bestX = at::where(keep, base + dx, bestX);
    bestY = at::where(keep, base + dy, bestY);
    if (it == o.iters) break;  // the last iterate is measured, not moved
    const auto logRatio = num.log() - den.log();
    at::Tensor gx = at::zeros_like(dx), gy = at::zeros_like(dy);
    if (logRatio.requires_grad()) {
      // Rows are independent, so the gradient of the sum is each row's own gradient.
      const std::vector<at::Tensor> leaves{xl, yl};
      logRatio.sum().backward({}, false, false, at::TensorList(leaves));
      auto clean = [](const at::Tensor& g) { return at::where(at::isfinite(g), g, 0.0); };
      if (xl.grad().defined()) gx = clean(xl.grad());
      if (yl.grad().defined()) gy = clean(yl.grad());
    }
    auto unit = [&](const at::Tensor& g) { return g / perRow(frobenius(g).clamp_min(1e-300), rank); };
    dx = project(dx + step * unit(gx), r);
    dy = project(dy + step * unit(gy), r);
    const auto tooClose = frobenius(dx - dy) < 1e-6 * r;
    if (tooClose.any().item<bool>()) dy = at::where(perRow(tooClose, rank), separate(dx), dy);
    if (o.progress) o.progress(it + 1, o.iters);
  }
  const auto i = best.argmax().item<int64_t>();
  res.best = std::max(0.0, best[i].item<double>());
  res.x = bestX[i].detach();
  res.y = bestY[i].detach();
  return res;
}

}  // namespace lwb::bounds
