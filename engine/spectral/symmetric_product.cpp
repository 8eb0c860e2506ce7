#include "spectral/symmetric_product.h"

#include "spectral/newton_schulz.h"
#include "common/blas_fns.h"

#include <ATen/TensorOperators.h>
#include <ATen/core/grad_mode.h>
#include <ATen/record_function.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/matmul.h>

#include <algorithm>
#include <climits>
#include <optional>

namespace lwb::spectral {
namespace {

// BLAS sees memory column-major. For x [m, k]: row-major storage (stride(1) == 1) is the
// column-major k×m matrix xᵀ, so x xᵀ = (xᵀ)ᵀ(xᵀ) is trans 'T'; column-major storage
// (stride(0) == 1, e.g. w.t() of a contiguous w) is x itself, trans 'N'.
struct Layout {
  char trans;
  int lda;
};

std::optional<Layout> blasLayout(const at::Tensor& x) {
  const int64_t m = x.size(0), k = x.size(1);
  if (x.stride(1) == 1 && x.stride(0) >= std::max<int64_t>(k, 1) && x.stride(0) <= INT_MAX) return Layout{'T', static_cast<int>(x.stride(0))};
  if (x.stride(0) == 1 && x.stride(1) >= std::max<int64_t>(m, 1) && x.stride(1) <= INT_MAX) return Layout{'N', static_cast<int>(x.stride(1))};
  return std::nullopt;
}

// c: [m, m] with unit column stride (a contiguous matrix or a row block's square part).
template <class T>
void runSyrk(const at::Tensor& x, at::Tensor& c, double beta, double alpha) {
  at::Tensor a = x;
  auto layout = blasLayout(a);
  if (!layout) {
    a = x.contiguous();
    layout = blasLayout(a);
  }
  const int n = static_cast<int>(x.size(0)), k = static_cast<int>(x.size(1));
  const int ldc = static_cast<int>(c.stride(0));
  const T al = static_cast<T>(alpha), be = static_cast<T>(beta);
  const char uplo = 'U';
  blas::syrk<T>()(&uplo, &layout->trans, &n, &k, &al, a.data_ptr<T>(), &layout->lda, &be, c.data_ptr<T>(), &ldc);
  blas::mirrorLowerToUpper(c.data_ptr<T>(), n, ldc);
}

void syrkInto(const at::Tensor& x, at::Tensor& c, double beta, double alpha) {
  // A GEMM-class op that LibTorch's profiler would not see otherwise (bench --roofline).
  RECORD_FUNCTION("lwb::syrk", std::vector<c10::IValue>{x});
  if (x.scalar_type() == at::kFloat) runSyrk<float>(x, c, beta, alpha);
  else runSyrk<double>(x, c, beta, alpha);
}

at::Tensor syrkProduct(const at::Tensor& x, const at::Tensor* s, double beta, double alpha) {
  const int64_t m = x.size(0);
  at::Tensor c = s ? s->to(x.scalar_type()).contiguous().clone() : at::empty({m, m}, x.options());
  if (!s) beta = 0.0;  // syrk does not read C when beta is 0
  syrkInto(x, c, beta, alpha);
  return c;
}

}  // namespace

bool usesBlasSyrk(const at::Tensor& x) {
  // Under a NoGradGuard (constraint steps on parameters) nothing records the product, so a
  // parameter may take the BLAS route too.
  if (x.dim() != 2 || !x.device().is_cpu() || (x.requires_grad() && at::GradMode::is_enabled())) return false;
  if (x.size(0) == 0 || x.size(1) == 0 || x.size(0) > INT_MAX || x.size(1) > INT_MAX) return false;
  if (x.scalar_type() == at::kFloat) return blas::syrk<float>() != nullptr;
  if (x.scalar_type() == at::kDouble) return blas::syrk<double>() != nullptr;
  return false;
}

at::Tensor gramOfRows(const at::Tensor& x) {
  if (!usesBlasSyrk(x)) return x.matmul(x.mT());
  return syrkProduct(x, nullptr, 0.0, 1.0);
}

at::Tensor addGramOfRows(const at::Tensor& s, const at::Tensor& x, double beta, double alpha) {
  if (!usesBlasSyrk(x) || s.dim() != 2 || s.size(0) != x.size(0) || s.size(1) != x.size(0))
    return addMatmul(s, x, x.mT(), beta, alpha);  // fused addmm / baddbmm
  return syrkProduct(x, &s, beta, alpha);
}

bool addGramOfRowsInto(at::Tensor& c, const at::Tensor& x, double beta, double alpha) {
  const int64_t m = x.dim() == 2 ? x.size(0) : -1;
  if (!usesBlasSyrk(x) || c.dim() != 2 || c.size(0) != m || c.size(1) != m || c.scalar_type() != x.scalar_type() ||
      c.stride(1) != 1 || c.stride(0) < std::max<int64_t>(m, 1) || c.stride(0) > INT_MAX || !c.device().is_cpu())
    return false;
  syrkInto(x, c, beta, alpha);
  return true;
}

}  // namespace lwb::spectral
