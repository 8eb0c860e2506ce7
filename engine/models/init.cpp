#include "models/init.h"

#include <ATen/TensorOperators.h>
#include <ATen/core/grad_mode.h>
#include <ATen/ops/clamp_max.h>
#include <ATen/ops/clamp_min.h>
#include <ATen/ops/linalg_qr.h>
#include <ATen/ops/randn.h>
#include <ATen/ops/sign.h>

#include <algorithm>
#include <cmath>

namespace lwb::models {

at::Tensor orthogonalRmsUnit(int64_t dOut, int64_t dIn, at::Generator& gen) {
  const int64_t big = std::max(dOut, dIn), small = std::min(dOut, dIn);
  const auto g = at::randn({big, small}, gen, at::TensorOptions().dtype(at::kFloat));
  auto [q, r] = at::linalg_qr(g, "reduced");
  auto signs = at::sign(r.diagonal());
  q = q * (signs + (signs == 0).to(at::kFloat)).unsqueeze(0);  // Haar measure
  const auto w = dOut >= dIn ? q : q.mT();
  return (w * std::sqrt(static_cast<double>(dOut) / static_cast<double>(dIn))).contiguous();
}

at::Tensor rmsUnitRows(int64_t count, int64_t dim, at::Generator& gen) {
  auto rows = at::randn({count, dim}, gen, at::TensorOptions().dtype(at::kFloat));
  normalizeRowRms(rows);
  return rows;
}

void capRowRms(at::Tensor& rows, double maxRms) {
  at::NoGradGuard noGrad;
  const auto rms = rows.square().mean({-1}, /*keepdim=*/true).sqrt();
  rows.mul_(at::clamp_max(maxRms / at::clamp_min(rms, 1e-30), 1.0));
}

void normalizeRowRms(at::Tensor& rows) {
  at::NoGradGuard noGrad;
  const auto rms = rows.square().mean({-1}, /*keepdim=*/true).sqrt();
  rows.div_(at::clamp_min(rms, 1e-30));
}

at::Tensor asParameter(const at::Tensor& t, const at::Device& device) {
  auto p = t.to(device).detach().clone();
  p.set_requires_grad(true);
  return p;
}

}  // namespace lwb::models
