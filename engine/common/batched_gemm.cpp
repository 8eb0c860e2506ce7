#include "common/batched_gemm.h"

#include "common/blas_fns.h"

#include <ATen/Parallel.h>
#include <ATen/ops/baddbmm.h>
#include <ATen/ops/bmm.h>
#include <ATen/ops/empty.h>
#include <ATen/record_function.h>
#include <torch/csrc/autograd/custom_function.h>

#include <climits>

namespace lwb {
namespace {

// One row-major matrix [rows, cols] of a 3-D operand as BLAS (column-major) sees it: unit
// column stride → the column-major matrix is its transpose ('N' gives Xᵀ); unit row stride →
// it is X itself ('T' gives Xᵀ).
struct Operand {
  char transOfT;  // the flag that makes op(stored) = Xᵀ
  int ld;
};
bool operandOf(const at::Tensor& x, Operand& out) {
  const int64_t rows = x.size(1), cols = x.size(2), s0 = x.stride(1), s1 = x.stride(2);
  if (s1 == 1 && s0 >= std::max<int64_t>(cols, 1) && s0 <= INT_MAX) return out = {'N', static_cast<int>(s0)}, true;
  if (s0 == 1 && s1 >= std::max<int64_t>(rows, 1) && s1 <= INT_MAX) return out = {'T', static_cast<int>(s1)}, true;
  return false;
}

template <class T>
void gemmLoop(const at::Tensor& a, const at::Tensor& b, const at::Tensor& bias, double alpha, at::Tensor& out) {
  Operand oa{}, ob{};
  const at::Tensor A = operandOf(a, oa) ? a : a.contiguous();
  const at::Tensor B = operandOf(b, ob) ? b : b.contiguous();
  operandOf(A, oa), operandOf(B, ob);
  const int64_t batch = a.size(0);
  const int m = static_cast<int>(a.size(1)), k = static_cast<int>(a.size(2)), n = static_cast<int>(b.size(2));
  const T al = static_cast<T>(alpha), be = bias.defined() ? T(1) : T(0);
  const T* pa = A.data_ptr<T>();
  const T* pb = B.data_ptr<T>();
  T* pc = out.data_ptr<T>();
  const T* pbias = bias.defined() ? bias.data_ptr<T>() : nullptr;  // contiguous [m, n]
  const int64_t sa = A.stride(0), sb = B.stride(0), sc = static_cast<int64_t>(m) * n;
  // Row-major C = A·B is column-major Cᵀ = Bᵀ·Aᵀ: BLAS computes an n×m result with ld n.
  at::parallel_for(0, batch, 1, [&](int64_t first, int64_t last) {
    for (int64_t i = first; i < last; ++i) {
      T* c = pc + i * sc;
      if (pbias) std::copy(pbias, pbias + sc, c);
      const int ldc = n;
      blas::gemm<T>()(&ob.transOfT, &oa.transOfT, &n, &m, &k, &al, pb + i * sb, &ob.ld, pa + i * sa, &oa.ld, &be, c, &ldc);
    }
  });
}

at::Tensor blasProduct(const at::Tensor& a, const at::Tensor& b, const at::Tensor& bias, double alpha) {
  RECORD_FUNCTION("lwb::batched_gemm", std::vector<c10::IValue>{a, b});
  at::Tensor out = at::empty({a.size(0), a.size(1), b.size(2)}, a.options());
  const at::Tensor biasC = bias.defined() ? bias.to(a.scalar_type()).contiguous() : bias;
  if (a.scalar_type() == at::kFloat) gemmLoop<float>(a, b, biasC, alpha, out);
  else gemmLoop<double>(a, b, biasC, alpha, out);
  return out;
}

at::Tensor atenProduct(const at::Tensor& a, const at::Tensor& b, const at::Tensor& bias, double alpha) {
  if (bias.defined()) return at::baddbmm(bias, a, b, 1.0, alpha);
  const auto p = at::bmm(a, b);
  return alpha == 1.0 ? p : p * alpha;
}

struct BatchedGemmFunction : torch::autograd::Function<BatchedGemmFunction> {
  static at::Tensor forward(torch::autograd::AutogradContext* ctx, const at::Tensor& a, const at::Tensor& b, const at::Tensor& bias,
                            double alpha) {
    ctx->save_for_backward({a, b});
    ctx->saved_data["alpha"] = alpha;
    return blasProduct(a, b, bias.numel() == 0 ? at::Tensor() : bias, alpha);
  }
  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx, torch::autograd::variable_list grads) {
    const auto saved = ctx->get_saved_variables();
    const double alpha = ctx->saved_data["alpha"].toDouble();
    const at::Tensor& g = grads[0];
    at::Tensor ga, gb;
    // d(alpha·a·b): ∂a = alpha·g·bᵀ, ∂b = alpha·aᵀ·g — transposed views, no copies.
    if (ctx->needs_input_grad(0)) ga = blasProduct(g, saved[1].transpose(1, 2), at::Tensor(), alpha);
    if (ctx->needs_input_grad(1)) gb = blasProduct(saved[0].transpose(1, 2), g, at::Tensor(), alpha);
    return {ga, gb, at::Tensor(), at::Tensor()};
  }
};

}  // namespace

bool batchedGemmUsesBlas(const at::Tensor& a, const at::Tensor& b) {
  if (a.dim() != 3 || b.dim() != 3 || a.size(0) != b.size(0) || a.size(2) != b.size(1)) return false;
  if (!a.device().is_cpu() || !b.device().is_cpu() || a.scalar_type() != b.scalar_type()) return false;
  for (const auto& x : {a, b})
    if (x.size(1) > INT_MAX / 2 || x.size(2) > INT_MAX / 2 || x.size(1) == 0 || x.size(2) == 0) return false;
  if (a.scalar_type() == at::kFloat) return blas::gemm<float>() != nullptr;
  if (a.scalar_type() == at::kDouble) return blas::gemm<double>() != nullptr;
  return false;
}

at::Tensor batchedGemm(const at::Tensor& a, const at::Tensor& b, const at::Tensor& bias, double alpha) {
  if (!batchedGemmUsesBlas(a, b) || a.size(0) == 0 || (bias.defined() && (bias.dim() != 2 || bias.size(0) != a.size(1) || bias.size(1) != b.size(2))))
    return atenProduct(a, b, bias, alpha);
  // An undefined tensor cannot be a custom function's input: "no bias" travels as an empty one.
  if (at::GradMode::is_enabled() && (a.requires_grad() || b.requires_grad()))
    return BatchedGemmFunction::apply(a, b, bias.defined() ? bias : at::empty({0}, a.options()), alpha);
  return blasProduct(a, b, bias, alpha);
}

}  // namespace lwb
