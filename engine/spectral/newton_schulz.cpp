#include "spectral/newton_schulz.h"

#include "spectral/symmetric_product.h"

#include <ATen/TensorOperators.h>
#include <ATen/ops/addmm.h>
#include <ATen/ops/baddbmm.h>
#include <ATen/ops/bmm.h>
#include <ATen/ops/mm.h>
#include <c10/util/Exception.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

namespace lwb::spectral {

at::Tensor frobeniusNorm(const at::Tensor& w) {
  const auto acc = (w.scalar_type() == at::kDouble) ? w : w.to(at::kFloat);
  return acc.square().sum({-2, -1}, /*keepdim=*/true).sqrt();
}

at::Tensor addMatmul(const at::Tensor& self, const at::Tensor& a, const at::Tensor& b,
                     double beta, double alpha) {
  if (a.dim() == 2 && b.dim() == 2 && self.dim() <= 2) return at::addmm(self, a, b, beta, alpha);
  if (a.dim() == 3 && b.dim() == 3 && self.dim() <= 3) return at::baddbmm(self, a, b, beta, alpha);
  // Higher-rank stacks: broadcast matmul (no fused kernel).
  return self * beta + a.matmul(b) * alpha;
}

void addMatmulOut(at::Tensor out, const at::Tensor& self, const at::Tensor& a, const at::Tensor& b,
                  double beta, double alpha) {
  TORCH_CHECK(a.dim() == b.dim() && (a.dim() == 2 || a.dim() == 3), "addMatmulOut takes matrices or one batch dim");
  if (beta == 0.0) {
    if (a.dim() == 2) at::mm_out(out, a, b);
    else at::bmm_out(out, a, b);
    if (alpha != 1.0) out.mul_(alpha);
    return;
  }
  if (a.dim() == 2) at::addmm_out(out, self, a, b, beta, alpha);
  else at::baddbmm_out(out, self, a, b, beta, alpha);
}

at::Tensor newtonSchulzIterate(at::Tensor x, const std::vector<NsTuple>& schedule) {
  for (const auto& t : schedule) {
    // X <- a X + (b A + c A^2) X with A = X X^T (Jordan et al. 2024). A and A^2 = A A^T are
    // symmetric: on CPU float32/float64 BLAS syrk computes one triangle of each.
    const auto gram = gramOfRows(x);
    const auto poly = addGramOfRows(gram, gram, t.b, t.c);
    x = addMatmul(x, poly, x, t.a, 1.0);
  }
  return x;
}

at::Tensor msign(const at::Tensor& w, const NewtonSchulzConfig& cfg) {
  TORCH_CHECK(w.dim() >= 2, "msign needs a matrix or a stack of matrices, got rank ", w.dim());
  const bool tall = w.size(-2) > w.size(-1);
  at::Tensor x = tall ? w.mT() : w;
  // Frobenius norm >= spectral norm, so every singular value starts in [0, 1]; the tiny
  // epsilon keeps msign(0) = 0 instead of NaN. Some sets want a margin below 1 (normSafety).
  const auto norm = frobeniusNorm(x) * nsCoefficientSet(cfg.coefficients).normSafety + 1e-30;
  x = (x.to(norm.scalar_type()) / norm).to(w.scalar_type()).contiguous();
  x = newtonSchulzIterate(std::move(x), nsSchedule(cfg));
  return tall ? x.mT().contiguous() : x;
}

}  // namespace lwb::spectral
