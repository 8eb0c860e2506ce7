#include "spectral/power_iteration.h"

#include <ATen/ops/empty.h>

#include <ATen/TensorOperators.h>
#include <ATen/CPUGeneratorImpl.h>
#include <ATen/ops/randn.h>
#include <c10/util/Exception.h>

namespace lwb::spectral {
namespace {

at::ScalarType accumulateType(const at::Tensor& w) {
  return w.scalar_type() == at::kDouble ? at::kDouble : at::kFloat;
}

at::Tensor normalized(const at::Tensor& x) {
  return x / (x.norm(2, {-1}, /*keepdim=*/true) + 1e-30);
}

}  // namespace

bool PowerIterationState::matches(const at::Tensor& w) const {
  if (!u.defined() || !v.defined()) return false;
  if (u.device() != w.device() || u.dim() != w.dim() - 1) return false;
  for (int64_t d = 0; d < w.dim() - 2; ++d)
    if (u.size(d) != w.size(d) || v.size(d) != w.size(d)) return false;
  return u.size(-1) == w.size(-2) && v.size(-1) == w.size(-1) &&
         u.scalar_type() == accumulateType(w);
}

PowerIterationState PowerIterationState::emptyFor(const at::Tensor& w) {
  const auto acc = w.options().dtype(accumulateType(w));
  auto shape = w.sizes().vec();
  PowerIterationState st;
  shape.pop_back();
  st.u = at::empty(shape, acc);  // [..., m]
  shape.back() = w.size(-1);
  st.v = at::empty(shape, acc);  // [..., n]
  return st;
}

TopSingular powerIteration(const at::Tensor& w, PowerIterationState& state, int iterations) {
  TORCH_CHECK(w.dim() >= 2, "power iteration needs a matrix, got rank ", w.dim());
  TORCH_CHECK(iterations >= 1, "power iteration needs at least one iteration");
  const auto wf = w.to(accumulateType(w));
  // A state started on a zero matrix (zero-initialised output projections) holds u = 0, and
  // u = 0 maps to v = 0 forever: sigma would read 0 for the rest of the run, so a method
  // keyed on it (spectral normalize, hammer) would never act. Start again from a random v.
  const bool degenerate = state.matches(w) && !(state.u.abs().max().item<double>() > 0.0);
  if (!state.matches(w) || degenerate) {
    auto vShape = wf.sizes().vec();
    vShape.pop_back();
    vShape.back() = wf.size(-1);
    // Drawn on the CPU from the seed's own generator, then moved: the same start on any device.
    state.v = normalized(state.seed == 0 ? at::randn(vShape, wf.options())
                                         : at::randn(vShape, at::make_generator<at::CPUGeneratorImpl>(state.seed),
                                                     wf.options().device(at::kCPU))
                                               .to(wf.device()));
    state.u = normalized(wf.matmul(state.v.unsqueeze(-1)).squeeze(-1));
  }
  at::Tensor u = state.u, v = state.v, wv;
  for (int i = 0; i < iterations; ++i) {
    v = normalized(wf.mT().matmul(u.unsqueeze(-1)).squeeze(-1));
    wv = wf.matmul(v.unsqueeze(-1)).squeeze(-1);
    u = normalized(wv);
  }
  const auto sigma = wv.norm(2, {-1});
  state.u = u;
  state.v = v;
  return {sigma, u, v};
}

}  // namespace lwb::spectral
