#include "models/fused_ops.h"

#include "models/vector_math.h"

#include "common/linear.h"

#include <ATen/Dispatch.h>
#include <ATen/Parallel.h>
#include <ATen/TensorOperators.h>
#include <ATen/core/grad_mode.h>
#include <ATen/ops/add.h>
#include <ATen/ops/cross_entropy_loss.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/empty_like.h>
#include <ATen/ops/cat.h>
#include <ATen/ops/constant_pad_nd.h>
#include <ATen/ops/zeros_like.h>
#include <ATen/ops/gelu.h>
#include <ATen/ops/maximum.h>
#include <ATen/ops/minimum.h>
#include <ATen/ops/scalar_tensor.h>
#include <ATen/record_function.h>
#include <torch/csrc/autograd/custom_function.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace lwb::models {
namespace {

constexpr int64_t kGrain = kElementwiseGrain;

template <class T>
LWB_VECTOR_CLONES void mixLoop(const T* x, const T* y, T* out, int64_t n, T p, T q) {
  for (int64_t i = 0; i < n; ++i) out[i] = p * x[i] + q * y[i];
}

template <class T>
LWB_VECTOR_CLONES void mixBackLoop(const T* g, T* gx, T* gy, int64_t n, T p, T q) {
  for (int64_t i = 0; i < n; ++i) {
    gx[i] = p * g[i];
    gy[i] = q * g[i];
  }
}

struct ResidualMixFunction : torch::autograd::Function<ResidualMixFunction> {
  static at::Tensor forward(torch::autograd::AutogradContext* ctx, const at::Tensor& x, const at::Tensor& y, double p, double q) {
    RECORD_FUNCTION("lwb::residual_mix", std::vector<c10::IValue>{x, y});
    ctx->saved_data["p"] = p;
    ctx->saved_data["q"] = q;
    const auto xc = x.contiguous(), yc = y.contiguous();
    auto out = at::empty_like(xc, at::MemoryFormat::Contiguous);
    AT_DISPATCH_FLOATING_TYPES(xc.scalar_type(), "residual_mix", [&] {
      const scalar_t *px = xc.data_ptr<scalar_t>(), *py = yc.data_ptr<scalar_t>();
      scalar_t* po = out.data_ptr<scalar_t>();
      at::parallel_for(0, xc.numel(), kGrain, [&](int64_t b, int64_t e) {
        mixLoop<scalar_t>(px + b, py + b, po + b, e - b, static_cast<scalar_t>(p), static_cast<scalar_t>(q));
      });
    });
    return out;
  }
  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx, torch::autograd::variable_list grads) {
    RECORD_FUNCTION("lwb::residual_mix_backward", std::vector<c10::IValue>{});
    const double p = ctx->saved_data["p"].toDouble(), q = ctx->saved_data["q"].toDouble();
    const auto g = grads[0].contiguous();
    auto gx = at::empty_like(g), gy = at::empty_like(g);
    AT_DISPATCH_FLOATING_TYPES(g.scalar_type(), "residual_mix_backward", [&] {
      const scalar_t* pg = g.data_ptr<scalar_t>();
      scalar_t *px = gx.data_ptr<scalar_t>(), *py = gy.data_ptr<scalar_t>();
      at::parallel_for(0, g.numel(), kGrain, [&](int64_t b, int64_t e) {
        mixBackLoop<scalar_t>(pg + b, px + b, py + b, e - b, static_cast<scalar_t>(p), static_cast<scalar_t>(q));
      });
    });
    return {gx, gy, at::Tensor(), at::Tensor()};
  }
};

// y = x·Φ(x) and d = Φ(x) + x·φ(x) (= dy/dx) in one pass, Φ from Abramowitz & Stegun 7.1.26
// (|error of erf| ≤ 1.5e−7, the approximation oneDNN's gelu_erf kernel uses, which ATen's CPU
// gelu calls) sharing e^{−x²/2} with φ. float32 only: float64 takes ATen's exact gelu.
LWB_VECTOR_CLONES void geluLoop(const float* x, float* y, float* d, int64_t n) {
  constexpr float kP = 0.3275911f, kA1 = 0.254829592f, kA2 = -0.284496736f, kA3 = 1.421413741f, kA4 = -1.453152027f,
                  kA5 = 1.061405429f, kInvSqrt2 = 0.70710678118654752f, kInvSqrt2Pi = 0.39894228040143268f;
  for (int64_t i = 0; i < n; ++i) {
    const float v = x[i], z = std::abs(v) * kInvSqrt2;
    const float e = expNonPositive(-z * z);  // e^{−x²/2}
    const float t = 1.0f / (1.0f + kP * z);
    const float tail = 0.5f * t * (kA1 + t * (kA2 + t * (kA3 + t * (kA4 + t * kA5)))) * e;  // ½ erfc(|x|/√2)
    const float phi = v >= 0.0f ? 1.0f - tail : tail;                                   // Φ(x)
    y[i] = v * phi;
    d[i] = phi + v * kInvSqrt2Pi * e;
  }
}

template <class T>
LWB_VECTOR_CLONES void mulLoop(const T* a, const T* b, T* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = a[i] * b[i];
}

struct GeluFunction : torch::autograd::Function<GeluFunction> {
  static at::Tensor forward(torch::autograd::AutogradContext* ctx, const at::Tensor& x) {
    RECORD_FUNCTION("lwb::gelu", std::vector<c10::IValue>{x});
    const auto xc = x.contiguous();
    auto y = at::empty_like(xc), d = at::empty_like(xc);
    const float* px = xc.data_ptr<float>();
    float *py = y.data_ptr<float>(), *pd = d.data_ptr<float>();
    at::parallel_for(0, xc.numel(), kGrain, [&](int64_t b, int64_t e) { geluLoop(px + b, py + b, pd + b, e - b); });
    ctx->save_for_backward({d});
    return y;
  }
  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx, torch::autograd::variable_list grads) {
    RECORD_FUNCTION("lwb::gelu_backward", std::vector<c10::IValue>{});
    const auto d = ctx->get_saved_variables()[0];
    const auto g = grads[0].contiguous();
    auto out = at::empty_like(d);
    const float *pg = g.data_ptr<float>(), *pd = d.data_ptr<float>();
    float* po = out.data_ptr<float>();
    at::parallel_for(0, d.numel(), kGrain, [&](int64_t b, int64_t e) { mulLoop(pg + b, pd + b, po + b, e - b); });
    return {out};
  }
};

// Rows [b, e) of h [N, 2 half]: (max, min) of the pairs (h_i, h_{i + half}).
template <class T>
LWB_VECTOR_CLONES void maxMinRows(const T* h, T* out, int64_t half, int64_t b, int64_t e) {
  for (int64_t r = b; r < e; ++r) {
    const T* a = h + r * 2 * half;
    T* o = out + r * 2 * half;
    for (int64_t i = 0; i < half; ++i) {
      const T x = a[i], y = a[i + half];
      o[i] = x >= y ? x : y;
      o[i + half] = x >= y ? y : x;
    }
  }
}

// Backward: each output's gradient goes back to the unit it came from (ties to the first).
template <class T>
LWB_VECTOR_CLONES void maxMinBackRows(const T* h, const T* g, T* gh, int64_t half, int64_t b, int64_t e) {
  for (int64_t r = b; r < e; ++r) {
    const T* a = h + r * 2 * half;
    const T* gr = g + r * 2 * half;
    T* o = gh + r * 2 * half;
    for (int64_t i = 0; i < half; ++i) {
      const bool first = a[i] >= a[i + half];
      o[i] = first ? gr[i] : gr[i + half];
      o[i + half] = first ? gr[i + half] : gr[i];
    }
  }
}

struct MaxMinFunction : torch::autograd::Function<MaxMinFunction> {
  static at::Tensor forward(torch::autograd::AutogradContext* ctx, const at::Tensor& h) {
    RECORD_FUNCTION("lwb::maxmin", std::vector<c10::IValue>{h});
    const auto hc = h.contiguous();
    auto out = at::empty_like(hc);
    const int64_t half = hc.size(-1) / 2, rows = hc.numel() / std::max<int64_t>(2 * half, 1);
    AT_DISPATCH_FLOATING_TYPES(hc.scalar_type(), "maxmin", [&] {
      const scalar_t* ph = hc.data_ptr<scalar_t>();
      scalar_t* po = out.data_ptr<scalar_t>();
      at::parallel_for(0, rows, std::max<int64_t>(1, kGrain / std::max<int64_t>(2 * half, 1)),
                       [&](int64_t b, int64_t e) { maxMinRows<scalar_t>(ph, po, half, b, e); });
    });
    ctx->save_for_backward({hc});
    return out;
  }
  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx, torch::autograd::variable_list grads) {
    RECORD_FUNCTION("lwb::maxmin_backward", std::vector<c10::IValue>{});
    const auto h = ctx->get_saved_variables()[0];
    const auto g = grads[0].contiguous();
    auto gh = at::empty_like(h);
    const int64_t half = h.size(-1) / 2, rows = h.numel() / std::max<int64_t>(2 * half, 1);
    AT_DISPATCH_FLOATING_TYPES(h.scalar_type(), "maxmin_backward", [&] {
      const scalar_t *ph = h.data_ptr<scalar_t>(), *pg = g.data_ptr<scalar_t>();
      scalar_t* po = gh.data_ptr<scalar_t>();
      at::parallel_for(0, rows, std::max<int64_t>(1, kGrain / std::max<int64_t>(2 * half, 1)),
                       [&](int64_t b, int64_t e) { maxMinBackRows<scalar_t>(ph, pg, po, half, b, e); });
    });
    return {gh};
  }
};

// Rows [b, e) of h, in place: each pair becomes (max, min), and mask[r, i] = 1 where the pair
// kept its order (ties to the first), for the backward. No mask when nothing will go back.
template <class T>
LWB_VECTOR_CLONES void maxMinInPlaceRows(T* h, uint8_t* mask, int64_t half, int64_t b, int64_t e) {
  for (int64_t r = b; r < e; ++r) {
    T* a = h + r * 2 * half;
    uint8_t* m = mask ? mask + r * half : nullptr;
    for (int64_t i = 0; i < half; ++i) {
      const T x = a[i], y = a[i + half];
      const bool first = x >= y;
      a[i] = first ? x : y;
      a[i + half] = first ? y : x;
      if (m) m[i] = static_cast<uint8_t>(first);
    }
  }
}

// Backward in place: where the pair was swapped, swap its two gradients back.
template <class T>
LWB_VECTOR_CLONES void maxMinBackInPlaceRows(const uint8_t* mask, T* g, int64_t half, int64_t b, int64_t e) {
  for (int64_t r = b; r < e; ++r) {
    const uint8_t* m = mask + r * half;
    T* gr = g + r * 2 * half;
    for (int64_t i = 0; i < half; ++i) {
      const T x = gr[i], y = gr[i + half];
      const bool first = m[i] != 0;
      gr[i] = first ? x : y;
      gr[i + half] = first ? y : x;
    }
  }
}

void maxMinInPlace(at::Tensor& h, uint8_t* mask) {
  RECORD_FUNCTION("lwb::maxmin", std::vector<c10::IValue>{h});
  const int64_t half = h.size(1) / 2, rows = h.size(0);
  float* ph = h.data_ptr<float>();
  at::parallel_for(0, rows, std::max<int64_t>(1, kGrain / std::max<int64_t>(2 * half, 1)),
                   [&](int64_t b, int64_t e) { maxMinInPlaceRows<float>(ph, mask, half, b, e); });
}

// The MaxMin MLP, W_out · MaxMin(W_in · x), as one function that owns every buffer: MaxMin runs
// in place on the hidden product it just made, and its backward in place on the gradient it
// just made (a byte per pair says which pairs swapped). Apart, MaxMin wrote a new [N, m]
// tensor forward and backward and read the saved pre-activations back: 2.1 + 2.4 of
// chars_small_cpu's profiled 40 ms/step, memory-bound passes.
struct MaxMinMlpFunction : torch::autograd::Function<MaxMinMlpFunction> {
  static at::Tensor forward(torch::autograd::AutogradContext* ctx, const at::Tensor& x2, const at::Tensor& wIn,
                            const at::Tensor& wOut) {
    at::Tensor h = routedProduct(x2, wIn.t());
    auto mask = at::empty({h.size(0), h.size(1) / 2}, h.options().dtype(at::kByte));
    maxMinInPlace(h, mask.data_ptr<uint8_t>());
    ctx->save_for_backward({x2, wIn, wOut, h, mask});
    return routedProduct(h, wOut.t());
  }
  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx, torch::autograd::variable_list grads) {
    const auto saved = ctx->get_saved_variables();
    const at::Tensor &x2 = saved[0], &wIn = saved[1], &wOut = saved[2], &h = saved[3], &mask = saved[4];
    const at::Tensor& g = grads[0];
    at::Tensor gx, gwIn, gwOut;
    if (ctx->needs_input_grad(2)) gwOut = routedProduct(g.t(), h);  // ∂W_out = gᵀ·MaxMin(h)
    if (ctx->needs_input_grad(0) || ctx->needs_input_grad(1)) {
      at::Tensor gh = routedProduct(g, wOut);  // ours alone: safe to overwrite
      {
        RECORD_FUNCTION("lwb::maxmin_backward", std::vector<c10::IValue>{});
        const int64_t half = gh.size(1) / 2;
        const uint8_t* pm = mask.data_ptr<uint8_t>();
        float* pg = gh.data_ptr<float>();
        at::parallel_for(0, gh.size(0), std::max<int64_t>(1, kGrain / std::max<int64_t>(2 * half, 1)),
                         [&](int64_t b, int64_t e) { maxMinBackInPlaceRows<float>(pm, pg, half, b, e); });
      }
      if (ctx->needs_input_grad(0)) gx = routedProduct(gh, wIn);         // ∂x = ∂h·W_in
      if (ctx->needs_input_grad(1)) gwIn = routedProduct(gh.t(), x2);    // ∂W_in = ∂hᵀ·x
    }
    return {gx, gwIn, gwOut};
  }
};

// Rows [b, e) of the taps: row r = (batch, t) takes x's rows r, r − 1, …, r − k + 1 of its own
// sequence (t − o ≥ 0), zeros before the start.
template <class T>
void tapRows(const T* x, T* out, int64_t t, int64_t d, int64_t k, int64_t b, int64_t e) {
  for (int64_t r = b; r < e; ++r) {
    const int64_t pos = r % t;
    T* dst = out + r * k * d;
    for (int64_t o = 0; o < k; ++o, dst += d) {
      if (pos >= o) std::memcpy(dst, x + (r - o) * d, static_cast<size_t>(d) * sizeof(T));
      else std::memset(dst, 0, static_cast<size_t>(d) * sizeof(T));
    }
  }
}

// ∂x row r = Σ_o (block o of ∂taps row r + o), over the o with r + o in the same sequence.
template <class T>
LWB_VECTOR_CLONES void tapBackRows(const T* g, T* gx, int64_t t, int64_t d, int64_t k, int64_t b, int64_t e) {
  for (int64_t r = b; r < e; ++r) {
    const int64_t pos = r % t;
    T* dst = gx + r * d;
    const T* src = g + r * k * d;
    for (int64_t c = 0; c < d; ++c) dst[c] = src[c];
    for (int64_t o = 1; o < k && pos + o < t; ++o) {
      const T* blk = g + (r + o) * k * d + o * d;
      for (int64_t c = 0; c < d; ++c) dst[c] += blk[c];
    }
  }
}

struct CausalTapsFunction : torch::autograd::Function<CausalTapsFunction> {
  static at::Tensor forward(torch::autograd::AutogradContext* ctx, const at::Tensor& x, int64_t k) {
    RECORD_FUNCTION("lwb::causal_taps", std::vector<c10::IValue>{x});
    const auto xc = x.contiguous();
    const int64_t t = xc.size(-2), d = xc.size(-1), rows = xc.numel() / std::max<int64_t>(d, 1);
    std::vector<int64_t> shape(xc.sizes().begin(), xc.sizes().end());
    shape.back() = k * d;
    auto out = at::empty(shape, xc.options());
    AT_DISPATCH_FLOATING_TYPES(xc.scalar_type(), "causal_taps", [&] {
      const scalar_t* px = xc.data_ptr<scalar_t>();
      scalar_t* po = out.data_ptr<scalar_t>();
      at::parallel_for(0, rows, std::max<int64_t>(1, kGrain / std::max<int64_t>(k * d, 1)),
                       [&](int64_t b, int64_t e) { tapRows<scalar_t>(px, po, t, d, k, b, e); });
    });
    ctx->saved_data["t"] = t;
    ctx->saved_data["k"] = k;
    ctx->saved_data["shape"] = xc.sizes().vec();
    return out;
  }
  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx, torch::autograd::variable_list grads) {
    RECORD_FUNCTION("lwb::causal_taps_backward", std::vector<c10::IValue>{});
    const int64_t t = ctx->saved_data["t"].toInt(), k = ctx->saved_data["k"].toInt();
    const auto g = grads[0].contiguous();
    auto gx = at::empty(ctx->saved_data["shape"].toIntVector(), g.options());
    const int64_t d = gx.size(-1), rows = gx.numel() / std::max<int64_t>(d, 1);
    AT_DISPATCH_FLOATING_TYPES(g.scalar_type(), "causal_taps_backward", [&] {
      const scalar_t* pg = g.data_ptr<scalar_t>();
      scalar_t* px = gx.data_ptr<scalar_t>();
      at::parallel_for(0, rows, std::max<int64_t>(1, kGrain / std::max<int64_t>(k * d, 1)),
                       [&](int64_t b, int64_t e) { tapBackRows<scalar_t>(pg, px, t, d, k, b, e); });
    });
    return {gx, at::Tensor()};
  }
};

// Rows [b, e) of z [N, C]: softmax into prob, −log softmax at the target into loss (0 for an
// ignored row). Accumulation in double: C is small (65 for characters) and this is one pass.
template <class T>
void crossEntropyRows(const T* z, const int64_t* t, T* prob, double* loss, int64_t c, int64_t b, int64_t e, int64_t ignore) {
  for (int64_t r = b; r < e; ++r) {
    const T* zr = z + r * c;
    T* pr = prob + r * c;
    const T m = *std::max_element(zr, zr + c);
    double sum = 0;
    for (int64_t j = 0; j < c; ++j) sum += (pr[j] = std::exp(zr[j] - m));
    const T inv = static_cast<T>(1.0 / sum);
    for (int64_t j = 0; j < c; ++j) pr[j] *= inv;
    loss[r] = t[r] == ignore ? 0.0 : std::log(sum) + static_cast<double>(m) - static_cast<double>(zr[t[r]]);
  }
}

struct CrossEntropyFunction : torch::autograd::Function<CrossEntropyFunction> {
  static at::Tensor forward(torch::autograd::AutogradContext* ctx, const at::Tensor& z, const at::Tensor& targets, int64_t ignore) {
    RECORD_FUNCTION("lwb::cross_entropy", std::vector<c10::IValue>{z});
    const auto zc = z.contiguous();
    const auto t = targets.contiguous();
    const int64_t n = zc.size(0), c = zc.size(1);
    const int64_t* pt = t.data_ptr<int64_t>();
    int64_t count = 0;
    for (int64_t r = 0; r < n; ++r) {
      if (pt[r] == ignore) continue;
      if (pt[r] < 0 || pt[r] >= c) throw std::invalid_argument("cross entropy: target " + std::to_string(pt[r]) + " outside [0, " + std::to_string(c) + ")");
      ++count;
    }
    auto prob = at::empty_like(zc);
    std::vector<double> loss(static_cast<size_t>(n));
    AT_DISPATCH_FLOATING_TYPES(zc.scalar_type(), "cross_entropy", [&] {
      const scalar_t* pz = zc.data_ptr<scalar_t>();
      scalar_t* pp = prob.data_ptr<scalar_t>();
      at::parallel_for(0, n, std::max<int64_t>(1, kGrain / std::max<int64_t>(c, 1)), [&](int64_t b, int64_t e) {
        crossEntropyRows(pz, pt, pp, loss.data(), c, b, e, ignore);
      });
    });
    double total = 0;
    for (double l : loss) total += l;
    // As cross_entropy's mean over no selected row: 0/0.
    const double mean = count > 0 ? total / static_cast<double>(count) : std::nan("");
    ctx->save_for_backward({prob, t});
    ctx->saved_data["ignore"] = ignore;
    ctx->saved_data["count"] = count;
    return at::scalar_tensor(mean, zc.options());
  }
  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx, torch::autograd::variable_list grads) {
    RECORD_FUNCTION("lwb::cross_entropy_backward", std::vector<c10::IValue>{});
    const auto saved = ctx->get_saved_variables();
    const auto& prob = saved[0];
    const auto& t = saved[1];
    auto grad = at::empty_like(prob);
    const int64_t ignore = ctx->saved_data["ignore"].toInt(), count = ctx->saved_data["count"].toInt();
    const int64_t n = grad.size(0), c = grad.size(1);
    const double g = grads[0].item<double>() / static_cast<double>(std::max<int64_t>(count, 1));
    const int64_t* pt = t.data_ptr<int64_t>();
    AT_DISPATCH_FLOATING_TYPES(grad.scalar_type(), "cross_entropy_backward", [&] {
      const scalar_t* pp = prob.data_ptr<scalar_t>();
      scalar_t* pg = grad.data_ptr<scalar_t>();
      const auto s = static_cast<scalar_t>(g);
      at::parallel_for(0, n, std::max<int64_t>(1, kGrain / std::max<int64_t>(c, 1)), [&](int64_t b, int64_t e) {
        for (int64_t r = b; r < e; ++r) {
          scalar_t* row = pg + r * c;
          if (pt[r] == ignore) {
            std::fill(row, row + c, scalar_t(0));
            continue;
          }
          for (int64_t j = 0; j < c; ++j) row[j] = pp[r * c + j] * s;
          row[pt[r]] -= s;
        }
      });
    });
    return {grad, at::Tensor(), at::Tensor()};
  }
};

}  // namespace

bool fusedOpsApply(const at::Tensor& x) {
  return x.defined() && x.device().is_cpu() && (x.scalar_type() == at::kFloat || x.scalar_type() == at::kDouble);
}

at::Tensor residualMix(const at::Tensor& x, const at::Tensor& y, double p, double q) {
  if (!fusedOpsApply(x) || y.scalar_type() != x.scalar_type() || !y.device().is_cpu() || x.sizes() != y.sizes())
    return at::add(x * p, y, q);
  return ResidualMixFunction::apply(x, y, p, q);
}

at::Tensor gelu(const at::Tensor& x) {
  if (!x.defined() || !x.device().is_cpu() || x.scalar_type() != at::kFloat) return at::gelu(x);
  return GeluFunction::apply(x);
}

at::Tensor maxMin(const at::Tensor& h) {
  if (h.dim() == 0 || h.size(-1) % 2 != 0) throw std::invalid_argument("maxMin needs an even last dimension");
  if (!fusedOpsApply(h) || h.numel() == 0) {
    const int64_t half = h.size(-1) / 2;
    const auto a = h.narrow(-1, 0, half), b = h.narrow(-1, half, half);
    return at::cat({at::maximum(a, b), at::minimum(a, b)}, -1);
  }
  return MaxMinFunction::apply(h);
}

at::Tensor maxMinMlp(const at::Tensor& x, const at::Tensor& wIn, const at::Tensor& wOut) {
  const bool shapes = x.dim() >= 1 && wIn.dim() == 2 && wOut.dim() == 2 && x.size(-1) == wIn.size(1) &&
                      wOut.size(1) == wIn.size(0) && wIn.size(0) % 2 == 0 && x.numel() > 0;
  // Both products on the routed GEMM (CPU float32, sizes in int range), else the composition.
  if (!shapes || !mmUsesRoutedGemm(x.reshape({-1, x.size(-1)}), wIn.t()) || !mmUsesRoutedGemm(wOut, wIn))
    return lwb::linear(maxMin(lwb::linear(x, wIn)), wOut);
  const at::Tensor x2 = x.reshape({-1, x.size(-1)});
  std::vector<int64_t> shape(x.sizes().begin(), x.sizes().end());
  shape.back() = wOut.size(0);
  if (at::GradMode::is_enabled() && (x2.requires_grad() || wIn.requires_grad() || wOut.requires_grad()))
    return MaxMinMlpFunction::apply(x2, wIn, wOut).view(shape);
  at::Tensor h = routedProduct(x2, wIn.t());  // evaluation: the forward alone, no mask
  maxMinInPlace(h, nullptr);
  return routedProduct(h, wOut.t()).view(shape);
}

at::Tensor causalTaps(const at::Tensor& x, int64_t k) {
  if (k < 1) throw std::invalid_argument("causalTaps needs k >= 1");
  if (x.dim() < 2) throw std::invalid_argument("causalTaps needs a [..., T, d] tensor");
  if (k == 1) return x;
  if (!fusedOpsApply(x) || x.numel() == 0) {
    const int64_t t = x.size(-2);
    std::vector<at::Tensor> taps{x};
    for (int64_t o = 1; o < k; ++o)
      taps.push_back(o < t ? at::constant_pad_nd(x.narrow(-2, 0, t - o), {0, 0, o, 0}) : at::zeros_like(x));
    return at::cat(taps, -1);
  }
  return CausalTapsFunction::apply(x, k);
}

at::Tensor crossEntropy(const at::Tensor& z, const at::Tensor& targets, int64_t ignoreIndex) {
  if (!fusedOpsApply(z) || z.dim() != 2 || targets.dim() != 1 || targets.size(0) != z.size(0) ||
      targets.scalar_type() != at::kLong || !targets.device().is_cpu() || z.size(1) == 0)
    return at::cross_entropy_loss(z, targets, {}, at::Reduction::Mean, ignoreIndex);
  return CrossEntropyFunction::apply(z, targets, ignoreIndex);
}

}  // namespace lwb::models
