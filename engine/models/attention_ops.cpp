#include "models/attention_ops.h"

#include "models/fused_ops.h"
#include "models/vector_math.h"

#include <ATen/Dispatch.h>
#include <ATen/Parallel.h>
#include <ATen/TensorOperators.h>
#include <ATen/ops/arange.h>
#include <ATen/ops/cat.h>
#include <ATen/ops/cos.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/empty_like.h>
#include <ATen/ops/ones.h>
#include <ATen/ops/outer.h>
#include <ATen/ops/pow.h>
#include <ATen/ops/scalar_tensor.h>
#include <ATen/ops/sigmoid.h>
#include <ATen/ops/sin.h>
#include <ATen/ops/softmax.h>
#include <ATen/ops/triu.h>
#include <ATen/ops/zeros.h>
#include <ATen/record_function.h>
#include <torch/csrc/autograd/custom_function.h>

#include <stdexcept>
#include <string>

namespace lwb::models {
namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

// ---- causal softmax ---------------------------------------------------------------------

// Rows [b, e) of [R, n] scores, row r being query i = r mod n: softmax over keys j ≤ i, zeros
// after. The exponentials are written first and scaled after: one read of the scores.
template <class T>
LWB_VECTOR_CLONES void causalSoftmaxRows(const T* s, T* a, int64_t n, int64_t b, int64_t e) {
  for (int64_t r = b; r < e; ++r) {
    const int64_t len = r % n + 1;
    const T* sr = s + r * n;
    T* ar = a + r * n;
    T m = sr[0];
    for (int64_t j = 1; j < len; ++j) m = std::max(m, sr[j]);
    T sum = 0;
    for (int64_t j = 0; j < len; ++j) sum += (ar[j] = expNonPositive(sr[j] - m));
    const T inv = T(1) / sum;
    for (int64_t j = 0; j < len; ++j) ar[j] *= inv;
    for (int64_t j = len; j < n; ++j) ar[j] = T(0);
  }
}

// dS_ij = A_ij (g_ij − Σ_k A_ik g_ik) for j ≤ i, 0 for the masked keys.
template <class T>
LWB_VECTOR_CLONES void causalSoftmaxBackRows(const T* a, const T* g, T* ds, int64_t n, int64_t b, int64_t e) {
  for (int64_t r = b; r < e; ++r) {
    const int64_t len = r % n + 1;
    const T *ar = a + r * n, *gr = g + r * n;
    T* dr = ds + r * n;
    T dot = 0;
    for (int64_t j = 0; j < len; ++j) dot += ar[j] * gr[j];
    for (int64_t j = 0; j < len; ++j) dr[j] = ar[j] * (gr[j] - dot);
    for (int64_t j = len; j < n; ++j) dr[j] = T(0);
  }
}

int64_t rowGrain(int64_t n) { return std::max<int64_t>(1, kElementwiseGrain / std::max<int64_t>(n, 1)); }

struct CausalSoftmaxFunction : torch::autograd::Function<CausalSoftmaxFunction> {
  static at::Tensor forward(AutogradContext* ctx, const at::Tensor& scores) {
    RECORD_FUNCTION("lwb::causal_softmax", std::vector<c10::IValue>{scores});
    const auto s = scores.contiguous();
    auto a = at::empty_like(s);
    const int64_t n = s.size(-1), rows = s.numel() / std::max<int64_t>(n, 1);
    AT_DISPATCH_FLOATING_TYPES(s.scalar_type(), "causal_softmax", [&] {
      const scalar_t* ps = s.data_ptr<scalar_t>();
      scalar_t* pa = a.data_ptr<scalar_t>();
      at::parallel_for(0, rows, rowGrain(n), [&](int64_t b, int64_t e) { causalSoftmaxRows(ps, pa, n, b, e); });
    });
    ctx->save_for_backward({a});
    return a;
  }
  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    RECORD_FUNCTION("lwb::causal_softmax_backward", std::vector<c10::IValue>{});
    const auto a = ctx->get_saved_variables()[0];
    const auto g = grads[0].contiguous();
    auto ds = at::empty_like(a);
    const int64_t n = a.size(-1), rows = a.numel() / std::max<int64_t>(n, 1);
    AT_DISPATCH_FLOATING_TYPES(a.scalar_type(), "causal_softmax_backward", [&] {
      const scalar_t *pa = a.data_ptr<scalar_t>(), *pg = g.data_ptr<scalar_t>();
      scalar_t* pd = ds.data_ptr<scalar_t>();
      at::parallel_for(0, rows, rowGrain(n), [&](int64_t b, int64_t e) { causalSoftmaxBackRows(pa, pg, pd, n, b, e); });
    });
    return {ds};
  }
};

// ---- SwiGLU with Swish β -----------------------------------------------------------------

// σ(x) from e^{−|x|} (never overflows): 1/(1 + e) for x ≥ 0, e/(1 + e) below.
template <class T>
inline T sigmoidOf(T x) {
  const T e = expNonPositive(-std::abs(x));
  const T inv = T(1) / (T(1) + e);
  return x >= T(0) ? inv : e * inv;
}

// Rows [b, e) of mg [R, 2h] → z [R, h].
template <class T>
LWB_VECTOR_CLONES void swiGluRows(const T* mg, T* z, T beta, int64_t h, int64_t b, int64_t e) {
  for (int64_t r = b; r < e; ++r) {
    const T *m = mg + r * 2 * h, *g = m + h;
    T* zr = z + r * h;
    for (int64_t j = 0; j < h; ++j) zr[j] = m[j] * g[j] * sigmoidOf(beta * g[j]);
  }
}

// ∂z/∂m = g σ, ∂z/∂g = m (σ + βg σ(1 − σ)), ∂z/∂β = m g² σ(1 − σ), σ = σ(βg). Returns this
// chunk's share of ∂L/∂β.
template <class T>
LWB_VECTOR_CLONES double swiGluBackRows(const T* mg, const T* gz, T* gmg, T beta, int64_t h, int64_t b, int64_t e) {
  double gBeta = 0;
  for (int64_t r = b; r < e; ++r) {
    const T *m = mg + r * 2 * h, *g = m + h, *gr = gz + r * h;
    T *dm = gmg + r * 2 * h, *dg = dm + h;
    T acc = 0;
    for (int64_t j = 0; j < h; ++j) {
      const T s = sigmoidOf(beta * g[j]), ds = s * (T(1) - s);
      dm[j] = gr[j] * g[j] * s;
      dg[j] = gr[j] * m[j] * (s + beta * g[j] * ds);
      acc += gr[j] * m[j] * g[j] * g[j] * ds;
    }
    gBeta += static_cast<double>(acc);
  }
  return gBeta;
}

struct SwiGluFunction : torch::autograd::Function<SwiGluFunction> {
  static at::Tensor forward(AutogradContext* ctx, const at::Tensor& mg, const at::Tensor& beta) {
    RECORD_FUNCTION("lwb::swiglu", std::vector<c10::IValue>{mg});
    const auto x = mg.contiguous();
    const int64_t h = x.size(-1) / 2, rows = x.numel() / std::max<int64_t>(2 * h, 1);
    auto outShape = x.sizes().vec();
    outShape.back() = h;
    auto z = at::empty(outShape, x.options());
    const double bv = beta.item<double>();
    AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "swiglu", [&] {
      const scalar_t* px = x.data_ptr<scalar_t>();
      scalar_t* pz = z.data_ptr<scalar_t>();
      at::parallel_for(0, rows, rowGrain(2 * h), [&](int64_t b, int64_t e) {
        swiGluRows(px, pz, static_cast<scalar_t>(bv), h, b, e);
      });
    });
    ctx->save_for_backward({x, beta});
    ctx->saved_data["beta"] = bv;
    return z;
  }
  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    RECORD_FUNCTION("lwb::swiglu_backward", std::vector<c10::IValue>{});
    const auto saved = ctx->get_saved_variables();
    const auto& x = saved[0];
    const auto& beta = saved[1];
    const double bv = ctx->saved_data["beta"].toDouble();
    const auto gz = grads[0].contiguous();
    const int64_t h = x.size(-1) / 2, rows = x.numel() / std::max<int64_t>(2 * h, 1);
    auto gx = at::empty_like(x);
    double gBeta = 0;
    AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "swiglu_backward", [&] {
      const scalar_t *px = x.data_ptr<scalar_t>(), *pg = gz.data_ptr<scalar_t>();
      scalar_t* pd = gx.data_ptr<scalar_t>();
      gBeta = at::parallel_reduce(
          0, rows, rowGrain(2 * h), 0.0,
          [&](int64_t b, int64_t e, double acc) { return acc + swiGluBackRows(px, pg, pd, static_cast<scalar_t>(bv), h, b, e); },
          [](double u, double v) { return u + v; });
    });
    return {gx, at::scalar_tensor(gBeta, beta.options()).reshape(beta.sizes())};
  }
};

// ---- heads with RoPE -----------------------------------------------------------------------

struct RopeTable {
  at::Tensor cos, sin;  // [N, d_head/2], float32 angles as the model always computed them
};

RopeTable ropeTable(int64_t n, int64_t dh, int64_t offset, const at::Device& device) {
  const int64_t half = dh / 2;
  const auto f32 = at::TensorOptions().dtype(at::kFloat).device(device);
  const auto inv = at::pow(10000.0, at::arange(half, f32) * (-2.0 / static_cast<double>(dh)));
  const auto pos = at::arange(offset, offset + n, at::TensorOptions().dtype(at::kDouble).device(device)).to(f32);
  const auto angles = at::outer(pos, inv);
  return {at::cos(angles), at::sin(angles)};
}

struct Dims {
  int64_t b, n, heads, dh;
};

// Rows (sample, position) [lo, hi): q and k of every head rotated, v copied, into head-major
// outputs [B·heads, N, dh]. In the backward direction (inverse = true) the same walk reads the
// three head-major gradients and writes the inverse rotation into the [B, N, 3d] gradient.
template <class T>
void ropeRows(T* qkv, T* q, T* k, T* v, const T* c, const T* s, const Dims& dm, bool inverse, int64_t lo, int64_t hi) {
  const int64_t d = dm.heads * dm.dh, half = dm.dh / 2;
  for (int64_t row = lo; row < hi; ++row) {
    const int64_t bi = row / dm.n, pos = row % dm.n;
    T* src = qkv + row * 3 * d;
    const T *cr = c + pos * half, *sr = s + pos * half;
    for (int64_t hd = 0; hd < dm.heads; ++hd) {
      const int64_t dst = ((bi * dm.heads + hd) * dm.n + pos) * dm.dh;
      T* parts[2] = {q + dst, k + dst};
      for (int part = 0; part < 2; ++part) {
        T* x = src + part * d + hd * dm.dh;
        T* y = parts[part];
        if (!inverse) {
          for (int64_t i = 0; i < half; ++i) {
            y[i] = x[i] * cr[i] - x[i + half] * sr[i];
            y[i + half] = x[i] * sr[i] + x[i + half] * cr[i];
          }
        } else {  // the rotation's transpose, from y (the gradient) into x
          for (int64_t i = 0; i < half; ++i) {
            x[i] = y[i] * cr[i] + y[i + half] * sr[i];
            x[i + half] = -y[i] * sr[i] + y[i + half] * cr[i];
          }
        }
      }
      T* xv = src + 2 * d + hd * dm.dh;
      if (!inverse) std::copy(xv, xv + dm.dh, v + dst);
      else std::copy(v + dst, v + dst + dm.dh, xv);
    }
  }
}

struct RopeHeadsFunction : torch::autograd::Function<RopeHeadsFunction> {
  static variable_list forward(AutogradContext* ctx, const at::Tensor& qkv, int64_t heads, int64_t offset) {
    RECORD_FUNCTION("lwb::rope_heads", std::vector<c10::IValue>{qkv});
    const auto x = qkv.contiguous();
    const Dims dm{x.size(0), x.size(1), heads, x.size(2) / 3 / heads};
    const auto table = ropeTable(dm.n, dm.dh, offset, x.device());
    const auto c = table.cos.to(x.scalar_type()).contiguous(), s = table.sin.to(x.scalar_type()).contiguous();
    const auto opts = x.options();
    auto q = at::empty({dm.b * heads, dm.n, dm.dh}, opts), k = at::empty_like(q), v = at::empty_like(q);
    AT_DISPATCH_FLOATING_TYPES(x.scalar_type(), "rope_heads", [&] {
      at::parallel_for(0, dm.b * dm.n, rowGrain(3 * heads * dm.dh), [&](int64_t lo, int64_t hi) {
        ropeRows(x.data_ptr<scalar_t>(), q.data_ptr<scalar_t>(), k.data_ptr<scalar_t>(), v.data_ptr<scalar_t>(),
                 c.data_ptr<scalar_t>(), s.data_ptr<scalar_t>(), dm, false, lo, hi);
      });
    });
    ctx->save_for_backward({c, s});
    ctx->saved_data["b"] = dm.b;
    ctx->saved_data["n"] = dm.n;
    ctx->saved_data["heads"] = heads;
    return {q, k, v};
  }
  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    RECORD_FUNCTION("lwb::rope_heads_backward", std::vector<c10::IValue>{});
    const auto saved = ctx->get_saved_variables();
    const auto &c = saved[0], &s = saved[1];
    const int64_t heads = ctx->saved_data["heads"].toInt();
    const int64_t dh = 2 * c.size(1);
    const Dims dm{ctx->saved_data["b"].toInt(), ctx->saved_data["n"].toInt(), heads, dh};
    // An output that did not reach the loss has an undefined gradient: zeros in its place.
    auto gradOf = [&](size_t i) {
      return grads[i].defined() ? grads[i].contiguous() : at::zeros({dm.b * heads, dm.n, dh}, c.options());
    };
    auto gq = gradOf(0), gk = gradOf(1), gv = gradOf(2);
    auto gx = at::empty({dm.b, dm.n, 3 * heads * dh}, c.options());
    AT_DISPATCH_FLOATING_TYPES(c.scalar_type(), "rope_heads_backward", [&] {
      at::parallel_for(0, dm.b * dm.n, rowGrain(3 * heads * dh), [&](int64_t lo, int64_t hi) {
        ropeRows(gx.data_ptr<scalar_t>(), gq.data_ptr<scalar_t>(), gk.data_ptr<scalar_t>(), gv.data_ptr<scalar_t>(),
                 c.data_ptr<scalar_t>(), s.data_ptr<scalar_t>(), dm, true, lo, hi);
      });
    });
    return {gx, at::Tensor(), at::Tensor()};
  }
};

}  // namespace

at::Tensor causalSoftmaxUnfused(const at::Tensor& scores) {
  const int64_t n = scores.size(-1);
  const auto mask = at::triu(at::ones({n, n}, at::TensorOptions().dtype(at::kBool).device(scores.device())), 1);
  return at::softmax(scores.masked_fill(mask, -INFINITY), -1);
}

at::Tensor causalSoftmax(const at::Tensor& scores) {
  if (scores.dim() < 2 || scores.size(-1) != scores.size(-2))
    throw std::invalid_argument("causalSoftmax: scores must be [..., n, n]");
  if (!fusedOpsApply(scores) || scores.numel() == 0) return causalSoftmaxUnfused(scores);
  return CausalSoftmaxFunction::apply(scores);
}

at::Tensor swiGluUnfused(const at::Tensor& mg, const at::Tensor& beta) {
  const int64_t h = mg.size(-1) / 2;
  const auto m = mg.narrow(-1, 0, h), g = mg.narrow(-1, h, h);
  return m * g * at::sigmoid(g * beta);
}

at::Tensor swiGlu(const at::Tensor& mg, const at::Tensor& beta) {
  if (mg.dim() < 1 || mg.size(-1) % 2 != 0 || beta.numel() != 1)
    throw std::invalid_argument("swiGlu: the last dimension must be even and beta one element");
  if (!fusedOpsApply(mg) || beta.scalar_type() != mg.scalar_type() || !beta.device().is_cpu() || mg.numel() == 0)
    return swiGluUnfused(mg, beta);
  return SwiGluFunction::apply(mg, beta);
}

std::array<at::Tensor, 3> ropeHeadsUnfused(const at::Tensor& qkv, int64_t heads, int64_t offset) {
  const int64_t b = qkv.size(0), n = qkv.size(1), d = qkv.size(2) / 3, dh = d / heads, half = dh / 2;
  const auto table = ropeTable(n, dh, offset, qkv.device());
  auto split = [&](int64_t i) { return qkv.narrow(-1, i * d, d).reshape({b, n, heads, dh}).transpose(1, 2); };
  auto rotate = [&](const at::Tensor& x) {
    const auto x1 = x.narrow(-1, 0, half), x2 = x.narrow(-1, half, half);
    return at::cat({x1 * table.cos - x2 * table.sin, x1 * table.sin + x2 * table.cos}, -1).reshape({b * heads, n, dh});
  };
  return {rotate(split(0)), rotate(split(1)), split(2).reshape({b * heads, n, dh})};
}

std::array<at::Tensor, 3> ropeHeads(const at::Tensor& qkv, int64_t heads, int64_t offset) {
  if (qkv.dim() != 3 || heads < 1 || qkv.size(2) % (3 * heads) != 0 || (qkv.size(2) / (3 * heads)) % 2 != 0)
    throw std::invalid_argument("ropeHeads: qkv must be [B, N, 3d] with d split into heads of even size");
  if (!fusedOpsApply(qkv) || qkv.numel() == 0) return ropeHeadsUnfused(qkv, heads, offset);
  const auto out = RopeHeadsFunction::apply(qkv, heads, offset);
  return {out[0], out[1], out[2]};
}

}  // namespace lwb::models
