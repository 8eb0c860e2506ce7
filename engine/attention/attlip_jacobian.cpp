// Derivatives of the converged AttLip prox: J = (I + η∇²f(y*))⁻¹ (SEEDS-002-004 §C.2–C.3),
// applied by conjugate gradients on Hessian-vector products; ‖J‖₂ by power iteration; and
// the prox as an autograd function whose backward is J (implicit differentiation), so a
// PGD ascent through a 500-step solve costs one CG solve instead of 500 stored steps.
#include "attention/attlip.h"

#include "attention/attention_common.h"

#include <ATen/TensorOperators.h>
#include <ATen/core/grad_mode.h>
#include <ATen/ops/randn.h>
#include <ATen/ops/where.h>
#include <ATen/ops/zeros_like.h>
#include <torch/csrc/autograd/autograd.h>
#include <torch/csrc/autograd/custom_function.h>

#include <cmath>
#include <stdexcept>

namespace lwb::attention {
namespace {

at::Tensor exampleDot(const at::Tensor& a, const at::Tensor& b) { return (a * b).sum({-1, -2}); }
at::Tensor perExample(const at::Tensor& v) { return v.reshape({-1, 1, 1}); }

// Hessian-vector products ∇²f(y)·v for a fixed y [B, N, d] by double backward through the
// closed-form gradient: one graph, reused for every product.
class Hessian {
 public:
  Hessian(const at::Tensor& y, const at::Tensor& w)
      : y_(y.detach().requires_grad_(true)), g_(attlipGradient(y_, w.detach())) {}
  at::Tensor operator()(const at::Tensor& v) {
    const std::vector<at::Tensor> inputs{y_};
    g_.backward(v, /*retain_graph=*/true, /*create_graph=*/false, at::TensorList(inputs));
    auto hv = y_.grad().clone();
    y_.mutable_grad() = at::Tensor();
    return hv;
  }

 private:
  at::Tensor y_, g_;
};

// (I + ηH) z = v per example, H ⪰ 0 so the system is SPD with eigenvalues ≥ 1.
at::Tensor solveShifted(Hessian& hess, double eta, const at::Tensor& v, double tol, int maxIters) {
  auto z = at::zeros_like(v);
  auto r = v.clone();
  auto p = r.clone();
  auto rs = exampleDot(r, r);
  const auto target = (rs.sqrt() * tol).pow(2);
  for (int it = 0; it < maxIters; ++it) {
    if ((rs <= target).all().item<bool>()) break;
    const auto ap = p + eta * hess(p);
    const auto alpha = at::where(rs > target, rs / exampleDot(p, ap).clamp_min(1e-300), 0.0);
    z = z + perExample(alpha) * p;
    r = r - perExample(alpha) * ap;
    const auto rsNew = exampleDot(r, r);
    p = r + perExample(rsNew / rs.clamp_min(1e-300)) * p;
    rs = rsNew;
  }
  return z;
}

struct ImplicitProx : public torch::autograd::Function<ImplicitProx> {
  static at::Tensor forward(torch::autograd::AutogradContext* ctx, const at::Tensor& x, const at::Tensor& w,
                            double eta, const at::Tensor& y) {
    ctx->save_for_backward({y, w});
    ctx->saved_data["eta"] = eta;
    return y.clone();
  }
  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::variable_list grads) {
    const auto saved = ctx->get_saved_variables();
    const double eta = ctx->saved_data["eta"].toDouble();
    const auto& y = saved[0];
    const auto& w = saved[1];
    const auto gx = proxJacobianProduct(y, w, eta, grads[0]);
    // y* solves y − x + η∇f_W(y) = 0, so dy = J(dx − η ∂_W∇f_W(y) dW) and the W-gradient
    // is −η ∂_W ⟨J·ḡ, ∇f_W(y)⟩ at y fixed: one more pass through the closed-form ∇f.
    at::Tensor gw;
    if (ctx->needs_input_grad(1)) {
      at::AutoGradMode enable(true);
      const auto wd = w.detach().requires_grad_(true);
      const auto inner = (attlipGradient(y.detach(), wd) * gx.detach()).sum();
      gw = -eta * torch::autograd::grad({inner}, {wd})[0];
    }
    return {gx, gw, at::Tensor(), at::Tensor()};
  }
};

}  // namespace

at::Tensor proxJacobianProduct(const at::Tensor& y, const at::Tensor& w, double eta, const at::Tensor& v,
                               double tol, int maxIters) {
  if (y.sizes() != v.sizes()) throw std::invalid_argument("AttLip: J·v needs v of y's shape");
  if (!(eta > 0)) throw std::invalid_argument("AttLip: η must be > 0");
  at::AutoGradMode enable(true);  // HVPs need autograd even inside a backward pass
  Hessian hess(asBatch(y), w);
  at::Tensor z;
  {
    at::NoGradGuard ng;
    z = solveShifted(hess, eta, asBatch(v.detach()).to(y.scalar_type()), tol, maxIters);
  }
  return y.dim() == 2 ? z.squeeze(0) : z;
}

double proxJacobianNorm(const at::Tensor& y, const at::Tensor& w, double eta, int powerIters, uint64_t seed) {
  if (y.dim() != 2) throw std::invalid_argument("AttLip: ‖J‖₂ needs one example [N, d]");
  if (powerIters < 1) throw std::invalid_argument("AttLip: power iteration needs >= 1 iteration");
  auto gen = seededGenerator(seed);
  auto v = at::randn(y.sizes(), gen, y.options());
  v = v / v.norm();
  double rayleigh = 0;
  for (int it = 0; it < powerIters; ++it) {
    const auto jv = proxJacobianProduct(y, w, eta, v);
    rayleigh = (v * jv).sum().item<double>();  // ‖v‖ = 1, J symmetric
    v = jv / jv.norm();
  }
  return rayleigh;
}

at::Tensor attlipProxImplicit(const at::Tensor& x, const at::Tensor& w, const ProxOptions& options,
                              ProxResult* info) {
  ProxResult r;
  {
    at::NoGradGuard ng;
    r = attlipProx(x.detach(), w.detach(), options);
  }
  const auto y = r.output;
  if (info) *info = std::move(r);
  return ImplicitProx::apply(x, w, options.eta, y);
}

}  // namespace lwb::attention
