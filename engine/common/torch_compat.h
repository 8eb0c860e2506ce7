// The one place where LibTorch 1.13 (Debian) and LibTorch 2.x (PyTorch wheels, CUDA)
// differ for this project. Everything else calls these wrappers.
#pragma once
#include <ATen/core/Tensor.h>
#include <ATen/ops/linalg_svd.h>
#include <ATen/ops/linalg_svdvals.h>
#include <tuple>

namespace lwb::compat {

// LibTorch >= 2.3 spells the optional as std::optional, 1.13 as c10::optional; passing
// nothing picks the default driver in both.
inline at::Tensor svdvals(const at::Tensor& a) { return at::linalg_svdvals(a); }

inline std::tuple<at::Tensor, at::Tensor, at::Tensor> svdReduced(const at::Tensor& a) {
  return at::linalg_svd(a, /*full_matrices=*/false);
}

// SVD kernels exist for float32/float64 only (and not for bfloat16 on any backend):
// measurements and references run in float32 at least.
inline at::Tensor svdCompatible(const at::Tensor& a) {
  const auto t = a.scalar_type();
  return (t == at::kFloat || t == at::kDouble) ? a : a.to(at::kFloat);
}

}  // namespace lwb::compat
