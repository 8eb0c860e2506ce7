#include "models/position_attention.h"

#include <ATen/Dispatch.h>
#include <ATen/TensorOperators.h>
#include <ATen/ops/arange.h>
#include <ATen/ops/clamp_min.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/full.h>
#include <ATen/ops/index_select.h>
#include <ATen/ops/softmax.h>
#include <ATen/ops/triu.h>
#include <ATen/ops/zeros.h>
#include <ATen/record_function.h>
#include <torch/csrc/autograd/custom_function.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace lwb::models {
namespace {

// Row i of head h reads pos[h, i], pos[h, i − 1], …, pos[h, 0] for keys j = 0 … i.
template <class T>
void forwardLoop(const T* pos, int64_t heads, int64_t T_, int64_t t, T* a) {
  for (int64_t h = 0; h < heads; ++h) {
    const T* p = pos + h * T_;
    for (int64_t i = 0; i < t; ++i) {
      T* row = a + (h * t + i) * t;
      T m = p[0];
      for (int64_t k = 1; k <= i; ++k) m = std::max(m, p[k]);
      double sum = 0;
      for (int64_t j = 0; j <= i; ++j) sum += (row[j] = std::exp(p[i - j] - m));
      const T inv = static_cast<T>(1.0 / sum);
      for (int64_t j = 0; j <= i; ++j) row[j] *= inv;
      std::fill(row + i + 1, row + t, T(0));
    }
  }
}

// dS_ij = A_ij (g_ij − Σ_k A_ik g_ik) (softmax), then every entry's gradient goes to its offset.
template <class T>
void backwardLoop(const T* a, const T* g, int64_t heads, int64_t T_, int64_t t, T* dpos) {
  for (int64_t h = 0; h < heads; ++h) {
    T* d = dpos + h * T_;
    for (int64_t i = 0; i < t; ++i) {
      const T* ar = a + (h * t + i) * t;
      const T* gr = g + (h * t + i) * t;
      double dot = 0;
      for (int64_t j = 0; j <= i; ++j) dot += static_cast<double>(ar[j]) * gr[j];
      for (int64_t j = 0; j <= i; ++j) d[i - j] += static_cast<T>(ar[j] * (gr[j] - dot));
    }
  }
}

struct PositionAttentionFunction : torch::autograd::Function<PositionAttentionFunction> {
  static at::Tensor forward(torch::autograd::AutogradContext* ctx, const at::Tensor& pos, int64_t t) {
    RECORD_FUNCTION("lwb::position_attention", std::vector<c10::IValue>{pos});
    const auto p = pos.contiguous();
    auto a = at::empty({p.size(0), t, t}, p.options());
    AT_DISPATCH_FLOATING_TYPES(p.scalar_type(), "position_attention", [&] {
      forwardLoop(p.data_ptr<scalar_t>(), p.size(0), p.size(1), t, a.data_ptr<scalar_t>());
    });
    ctx->save_for_backward({a});
    ctx->saved_data["T"] = p.size(1);
    return a;
  }
  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx, torch::autograd::variable_list grads) {
    RECORD_FUNCTION("lwb::position_attention_backward", std::vector<c10::IValue>{});
    const auto a = ctx->get_saved_variables()[0];
    const auto g = grads[0].contiguous();
    const int64_t T_ = ctx->saved_data["T"].toInt(), heads = a.size(0), t = a.size(1);
    auto dpos = at::zeros({heads, T_}, a.options());
    AT_DISPATCH_FLOATING_TYPES(a.scalar_type(), "position_attention_backward", [&] {
      backwardLoop(a.data_ptr<scalar_t>(), g.data_ptr<scalar_t>(), heads, T_, t, dpos.data_ptr<scalar_t>());
    });
    return {dpos, at::Tensor()};
  }
};

}  // namespace

at::Tensor positionAttentionUnfused(const at::Tensor& pos, int64_t t) {
  const int64_t T_ = pos.size(1);
  const auto idx = at::arange(T_, pos.options().dtype(at::kLong));
  const auto rel = at::clamp_min(idx.unsqueeze(1) - idx.unsqueeze(0), 0).reshape({-1});
  const auto causal = at::triu(at::full({T_, T_}, -INFINITY, pos.options()), 1);
  const auto bias = pos.index_select(1, rel).view({pos.size(0), T_, T_}) + causal;
  return at::softmax(bias.narrow(1, 0, t).narrow(2, 0, t), -1);
}

at::Tensor positionAttention(const at::Tensor& pos, int64_t t) {
  if (pos.dim() != 2 || t < 1 || t > pos.size(1))
    throw std::invalid_argument("positionAttention: pos must be [heads, T] with 1 <= t <= T");
  if (!pos.device().is_cpu() || !(pos.scalar_type() == at::kFloat || pos.scalar_type() == at::kDouble))
    return positionAttentionUnfused(pos, t);
  return PositionAttentionFunction::apply(pos, t);
}

}  // namespace lwb::models
