#include "spectral/newton_schulz.h"

#include "spectral/symmetric_product.h"

#include "common/blas_fns.h"

#include <ATen/Parallel.h>
#include <ATen/TensorOperators.h>
#include <ATen/core/grad_mode.h>
#include <ATen/record_function.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/addmm.h>
#include <ATen/ops/baddbmm.h>
#include <ATen/ops/bmm.h>
#include <ATen/ops/mm.h>
#include <c10/util/Exception.h>

#include <algorithm>
#include <array>
#include <climits>
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

namespace {

// One step X ← a X + (b A + c A²) X, A = X Xᵀ, for each wide row-major matrix of a contiguous
// [B, m, n] stack, straight on BLAS: syrk for A and A² = A Aᵀ, one GEMM for the update, into
// buffers made once per call. The ATen route below allocates four tensors per step and, for a
// stack, runs baddbmm, whose CPU loop selects every matrix through ATen (Muon's batched
// msigns: 368 selects and 80 addmm_ per chars_small_cpu step, bench --roofline). Both routes
// make the same BLAS calls per matrix for a 2-D x: the same numbers.
// `scale` multiplies X on the way in (msign's 1/‖X‖_F, folded into the first step: no pass):
// A = scale² X Xᵀ and Y = scale (aI + bA + cA²) X.
template <class T>
void blasStep(const T* x, T* y, T* gram, T* poly, int64_t batch, int m, int n, const NsTuple& t, double scale) {
  at::parallel_for(0, batch, 1, [&](int64_t first, int64_t last) {
    const char up = 'U', tr = 'T', no = 'N';
    const T zero = 0, s = static_cast<T>(scale), s2 = static_cast<T>(scale * scale), a = static_cast<T>(t.a),
            b = static_cast<T>(t.b), c = static_cast<T>(t.c);
    for (int64_t i = first; i < last; ++i) {
      const T* xi = x + i * m * n;
      T* yi = y + i * m * n;
      T* g = gram + i * m * m;
      T* p = poly + i * m * m;
      // Row-major X [m, n] is the column-major n×m Xᵀ: X Xᵀ is syrk with trans 'T'.
      blas::syrk<T>()(&up, &tr, &m, &n, &s2, xi, &n, &zero, g, &m);
      blas::mirrorLowerToUpper(g, m, m);
      std::copy(g, g + m * m, p);
      blas::syrk<T>()(&up, &tr, &m, &m, &c, g, &m, &b, p, &m);
      blas::mirrorLowerToUpper(p, m, m);
      // a on P's diagonal: Y = (aI + P) X is one GEMM into an unread Y (no copy of X into it).
      for (int j = 0; j < m; ++j) p[j * m + j] += a;
      // Row-major Y = P' X is column-major Yᵀ = Xᵀ P' (P' symmetric).
      blas::gemm<T>()(&no, &no, &n, &m, &m, &s, xi, &n, p, &m, &zero, yi, &n);
    }
  });
}

bool blasIterate(at::Tensor& x, const std::vector<NsTuple>& schedule, double scale) {
  if (schedule.empty() || (x.dim() != 2 && x.dim() != 3) || !x.device().is_cpu() || !x.is_contiguous()) return false;
  if (x.requires_grad() && at::GradMode::is_enabled()) return false;
  const bool f32 = x.scalar_type() == at::kFloat;
  if (!(f32 || x.scalar_type() == at::kDouble)) return false;
  if (f32 ? !(blas::gemm<float>() && blas::syrk<float>()) : !(blas::gemm<double>() && blas::syrk<double>())) return false;
  const int64_t m = x.size(-2), n = x.size(-1), batch = x.dim() == 3 ? x.size(0) : 1;
  if (m == 0 || n == 0 || batch == 0 || m > n || n > INT_MAX / std::max<int64_t>(m, 1)) return false;
  const auto stackOf = [&](int64_t rows, int64_t cols) { return at::empty(x.dim() == 3 ? at::IntArrayRef{batch, rows, cols} : at::IntArrayRef{rows, cols}, x.options()); };
  at::Tensor bufs[2] = {stackOf(m, n), stackOf(m, n)};
  at::Tensor gram = stackOf(m, m), poly = stackOf(m, m);
  const at::Tensor* src = &x;
  for (size_t k = 0; k < schedule.size(); ++k) {
    // Per step, so bench --roofline counts its FLOPs (run/step_profile.cpp).
    RECORD_FUNCTION("lwb::ns_step", std::vector<c10::IValue>{*src});
    at::Tensor& dst = bufs[k % 2];
    const double s = k == 0 ? scale : 1.0;
    if (f32)
      blasStep(src->data_ptr<float>(), dst.data_ptr<float>(), gram.data_ptr<float>(), poly.data_ptr<float>(), batch,
               static_cast<int>(m), static_cast<int>(n), schedule[k], s);
    else
      blasStep(src->data_ptr<double>(), dst.data_ptr<double>(), gram.data_ptr<double>(), poly.data_ptr<double>(), batch,
               static_cast<int>(m), static_cast<int>(n), schedule[k], s);
    src = &dst;
  }
  x = *src;
  return true;
}

}  // namespace

at::Tensor newtonSchulzIterate(at::Tensor x, const std::vector<NsTuple>& schedule) {
  if (blasIterate(x, schedule, 1.0)) return x;
  for (const auto& t : schedule) {
    // X <- a X + (b A + c A^2) X with A = X X^T (Jordan et al. 2024). A and A^2 = A A^T are
    // symmetric: on CPU float32/float64 BLAS syrk computes one triangle of each.
    const auto gram = gramOfRows(x);
    const auto poly = addGramOfRows(gram, gram, t.b, t.c);
    x = addMatmul(x, poly, x, t.a, 1.0);
  }
  return x;
}

namespace {

at::Tensor msignFrom(const at::Tensor& w, const NewtonSchulzConfig& cfg, double knownFrobenius) {
  TORCH_CHECK(w.dim() >= 2, "msign needs a matrix or a stack of matrices, got rank ", w.dim());
  const bool tall = w.size(-2) > w.size(-1);
  at::Tensor x = tall ? w.mT() : w;
  // Frobenius norm >= spectral norm, so every singular value starts in [0, 1]; the tiny
  // epsilon keeps msign(0) = 0 instead of NaN. Some sets want a margin below 1 (normSafety).
  const double safety = nsCoefficientSet(cfg.coefficients).normSafety;
  if (knownFrobenius >= 0) {
    const double scale = 1.0 / (knownFrobenius * safety + 1e-30);
    x = x.contiguous();
    const auto schedule = nsSchedule(cfg);
    // The fold squares the scale (A = scale² X Xᵀ): only while that stays far inside float32's
    // range. A zero or tiny u (a zero-initialised next layer stops every gradient at the first
    // step) takes the explicit product, where 0 · 1e30 is 0, not inf · 0.
    if (scale > 1e15 || !blasIterate(x, schedule, scale)) x = newtonSchulzIterate(x * scale, schedule);
    return tall ? x.mT().contiguous() : x;
  } else {
    const auto norm = frobeniusNorm(x) * safety + 1e-30;
    x = (x.to(norm.scalar_type()) / norm).to(w.scalar_type()).contiguous();
  }
  x = newtonSchulzIterate(std::move(x), nsSchedule(cfg));
  return tall ? x.mT().contiguous() : x;
}

}  // namespace

at::Tensor msign(const at::Tensor& w, const NewtonSchulzConfig& cfg) { return msignFrom(w, cfg, -1.0); }

at::Tensor msign(const at::Tensor& w, const NewtonSchulzConfig& cfg, double frobenius) {
  TORCH_CHECK(w.dim() == 2 && frobenius >= 0, "msign with a known norm takes one matrix and its Frobenius norm");
  return msignFrom(w, cfg, frobenius);
}

}  // namespace lwb::spectral
