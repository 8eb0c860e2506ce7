#include "common/linear.h"

#include "common/blas_fns.h"

#include <ATen/ops/empty.h>
#include <ATen/ops/linear.h>
#include <ATen/record_function.h>
#include <torch/csrc/autograd/custom_function.h>

#include <climits>

namespace lwb {
namespace {

// Row-major C[m, n] = op(A)·op(B) (+ beta·C) on contiguous row-major storage: the column-major
// routine computes Cᵀ = op(B)ᵀ·op(A)ᵀ, and row-major storage read column-major is the
// transpose, so the flags stay and the operands swap.
void rowMajorGemm(char ta, char tb, int m, int n, int k, const float* a, int lda, const float* b, int ldb, float* c,
                  int ldc) {
  const float one = 1.0f, zero = 0.0f;
  blas::gemm<float>()(&tb, &ta, &n, &m, &k, &one, b, &ldb, a, &lda, &zero, c, &ldc);
}

// x2 [M, in] · wᵀ, w [out, in].
at::Tensor forwardProduct(const at::Tensor& x2, const at::Tensor& w) {
  RECORD_FUNCTION("lwb::gemm", std::vector<c10::IValue>{x2, w.t()});
  const int m = static_cast<int>(x2.size(0)), in = static_cast<int>(x2.size(1)), out = static_cast<int>(w.size(0));
  at::Tensor y = at::empty({x2.size(0), w.size(0)}, x2.options());
  rowMajorGemm('N', 'T', m, out, in, x2.data_ptr<float>(), in, w.data_ptr<float>(), in, y.data_ptr<float>(), out);
  return y;
}

struct LinearFunction : torch::autograd::Function<LinearFunction> {
  static at::Tensor forward(torch::autograd::AutogradContext* ctx, const at::Tensor& x2, const at::Tensor& w) {
    ctx->save_for_backward({x2, w});
    return forwardProduct(x2, w);
  }
  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx, torch::autograd::variable_list grads) {
    const auto saved = ctx->get_saved_variables();
    const at::Tensor& x2 = saved[0];
    const at::Tensor& w = saved[1];
    const at::Tensor g = grads[0].contiguous();
    const int m = static_cast<int>(x2.size(0)), in = static_cast<int>(x2.size(1)), out = static_cast<int>(w.size(0));
    at::Tensor gx, gw;
    if (ctx->needs_input_grad(0)) {  // ∂x = g·w: [M, out]·[out, in]
      RECORD_FUNCTION("lwb::gemm", std::vector<c10::IValue>{g, w});
      gx = at::empty({x2.size(0), x2.size(1)}, x2.options());
      rowMajorGemm('N', 'N', m, in, out, g.data_ptr<float>(), out, w.data_ptr<float>(), in, gx.data_ptr<float>(), in);
    }
    if (ctx->needs_input_grad(1)) {  // ∂w = gᵀ·x: [out, M]·[M, in]
      RECORD_FUNCTION("lwb::gemm", std::vector<c10::IValue>{g.t(), x2});
      gw = at::empty({w.size(0), w.size(1)}, w.options());
      rowMajorGemm('T', 'N', out, in, m, g.data_ptr<float>(), out, x2.data_ptr<float>(), in, gw.data_ptr<float>(), in);
    }
    return {gx, gw};
  }
};

}  // namespace

bool linearUsesRoutedGemm(const at::Tensor& x, const at::Tensor& w) {
  if (!x.defined() || !w.defined() || x.dim() < 1 || w.dim() != 2 || x.size(-1) != w.size(1)) return false;
  if (!x.device().is_cpu() || !w.device().is_cpu() || x.scalar_type() != at::kFloat || w.scalar_type() != at::kFloat)
    return false;
  if (blas::gemm<float>() == nullptr) return false;
  const int64_t rows = x.size(-1) == 0 ? 0 : x.numel() / x.size(-1);
  if (rows == 0 || w.size(0) == 0 || w.size(1) == 0) return false;
  return rows <= INT_MAX && w.size(0) <= INT_MAX && w.size(1) <= INT_MAX;
}

at::Tensor linear(const at::Tensor& x, const at::Tensor& w) {
  if (!linearUsesRoutedGemm(x, w)) return at::linear(x, w);
  const at::Tensor x2 = x.reshape({-1, x.size(-1)}).contiguous();
  const at::Tensor wc = w.contiguous();
  std::vector<int64_t> shape(x.sizes().begin(), x.sizes().end());
  shape.back() = w.size(0);
  const bool grad = at::GradMode::is_enabled() && (x.requires_grad() || w.requires_grad());
  // Only the forward runs under no_grad (evaluation, the bound's power iterations).
  return (grad ? LinearFunction::apply(x2, wc) : forwardProduct(x2, wc)).view(shape);
}

}  // namespace lwb
