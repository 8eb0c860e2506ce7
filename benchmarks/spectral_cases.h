// The spectral ops the benchmarks time and the FLOPs each computes (lwb-bench-spectral on the
// CPU, lwb-bench-device on any device): one list, so both tables price the same work.
#pragma once

#include "spectral/spectral.h"

#include <functional>
#include <string>
#include <vector>

namespace lwb::bench {

using namespace lwb::spectral;

struct Case {
  std::string name;
  // FLOPs the code computes for an m x n input (m <= n); syrk: whether symmetric products
  // take BLAS ?syrk for this dtype (spectral/symmetric_product.h), one triangle each.
  std::function<double(int64_t, int64_t, bool)> flops;
  std::function<at::Tensor(const at::Tensor&, PowerIterationState&)> run;
  bool heavy = false;  // skipped at 1024x4096 in --quick runs
};

inline double gemmFlops(int64_t a, int64_t b, int64_t c) { return 2.0 * a * b * c; }

// x xᵀ for an a x b x: syrk computes one triangle (a(a+1)/2 dot products of length b), a GEMM
// both.
inline double gramFlops(int64_t a, int64_t b, bool syrk) {
  return syrk ? static_cast<double>(a) * static_cast<double>(a + 1) * static_cast<double>(b) : gemmFlops(a, b, a);
}

// One Newton–Schulz step on an m x n (m <= n) input: A = X Xᵀ, b A + c A A (a Gram of the
// symmetric A), then the update (poly) X, a full GEMM.
inline double nsStepFlops(int64_t m, int64_t n, bool syrk) {
  return gramFlops(m, n, syrk) + gramFlops(m, m, syrk) + gemmFlops(m, m, n);
}

// One block product of the ABD iteration on the block rows [P Q] (m x (m+n)) and [Qᵀ R]:
// the P, Q and R blocks; `square` products (X X, A A) form P and R as Grams of a block row.
inline double abdBlockProductFlops(int64_t m, int64_t n, bool square, bool syrk) {
  const bool sym = square && syrk;
  return gramFlops(m, m + n, sym) + gemmFlops(m, m + n, n) + gramFlops(n, m + n, sym);
}

inline int nsSteps(const NewtonSchulzConfig& c) { return c.steps + c.polishSteps; }

inline std::vector<Case> cases() {
  const auto muon = NewtonSchulzConfig::muon();
  const auto acc = NewtonSchulzConfig::accurate();
  std::vector<Case> cs;
  cs.push_back({"msign_jordan5x5", [=](int64_t m, int64_t n, bool y) { return nsSteps(muon) * nsStepFlops(m, n, y); },
                [=](const at::Tensor& w, PowerIterationState&) { return msign(w, muon); }});
  for (const auto impl : {ClipImpl::Nested, ClipImpl::AbdDense, ClipImpl::AbdBlock}) {
    Case c;
    c.name = "hardcap_" + std::string(toString(impl));
    c.heavy = impl != ClipImpl::Nested;
    c.flops = [=](int64_t m, int64_t n, bool y) {
      const int t = nsSteps(acc);
      const int64_t big = m + n;
      switch (impl) {
        // msign(W), msign(O - W), then (O - W) msign(.)ᵀ and that times O.
        case ClipImpl::Nested: return 2 * t * nsStepFlops(m, n, y) + 2 * gemmFlops(m, n, m);
        // Newton–Schulz on the (m+n)² matrix H, then Q + P W.
        case ClipImpl::AbdDense: return t * nsStepFlops(big, big, y) + gemmFlops(m, m, n);
        default:
          return t * (2 * abdBlockProductFlops(m, n, true, y) + abdBlockProductFlops(m, n, false, y)) +
                 gemmFlops(m, m, n);
      }
    };
    c.run = [=](const at::Tensor& w, PowerIterationState&) {
      ClipOptions o;
      o.impl = impl;
      return spectralHardCap(w, 1.0, o);
    };
    cs.push_back(c);
  }
  // Two polynomials x ± alpha X Xᵀ X: a Gram and a GEMM each.
  cs.push_back({"soft_cap", [](int64_t m, int64_t n, bool y) { return 2 * (gramFlops(m, n, y) + gemmFlops(m, m, n)); },
                [](const at::Tensor& w, PowerIterationState&) { return spectralSoftCap(w, 0.05); }});
  cs.push_back({"spectral_normalize_20it", [](int64_t m, int64_t n, bool) { return 20 * 2 * gemmFlops(m, n, 1); },
                [](const at::Tensor& w, PowerIterationState& s) { return spectralNormalize(w, 1.0, s, 20); }});
  cs.push_back({"power_iteration_1it_warm", [](int64_t m, int64_t n, bool) { return 2 * gemmFlops(m, n, 1); },
                [](const at::Tensor& w, PowerIterationState& s) { return powerIteration(w, s, 1).sigma; }});
  return cs;
}

}  // namespace lwb::bench
