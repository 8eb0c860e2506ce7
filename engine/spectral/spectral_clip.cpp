#include "spectral/spectral_clip.h"

#include "common/torch_compat.h"

#include <ATen/TensorOperators.h>
#include <ATen/ops/cat.h>
#include <ATen/ops/clamp.h>
#include <ATen/ops/eye.h>
#include <ATen/ops/zeros_like.h>
#include <c10/util/Exception.h>

#include <limits>
#include <stdexcept>
#include <string>

namespace lwb::spectral {
namespace {

void checkMatrix(const at::Tensor& w) {
  TORCH_CHECK(w.dim() >= 2, "spectral clipping needs a matrix, got rank ", w.dim());
}

void checkThresholds(double lo, double hi) {
  if (!(lo >= 0.0) || !(hi >= lo))
    throw std::invalid_argument("spectral clip needs 0 <= sigma_min <= sigma_max (got " +
                                std::to_string(lo) + ", " + std::to_string(hi) + ")");
}

// Runs f on the wide orientation (m <= n) so Gram matrices are the small side.
template <class F>
at::Tensor onWide(const at::Tensor& w, F&& f) {
  if (w.size(-2) <= w.size(-1)) return f(w);
  return f(w.mT().contiguous()).mT().contiguous();
}

// ---- nested (001 §2.3): O = msign(W), A_t = t O - W, then
// clip_[a,b](W) = 1/2 [ (a+b) O + (A_a msign(A_a)^T - A_b msign(A_b)^T) O ].
at::Tensor nestedTerm(const at::Tensor& o, const at::Tensor& w, double t,
                      const NewtonSchulzConfig& ns) {
  const auto a = o * t - w;
  return a.matmul(msign(a, ns).mT());  // m x m: U |tI - S| U^T
}

at::Tensor nestedClip(const at::Tensor& w, std::optional<double> lo, std::optional<double> hi,
                      const NewtonSchulzConfig& ns) {
  return onWide(w, [&](const at::Tensor& x) {
    const auto o = msign(x, ns);
    // clip = 1/2 [lo O + |lo - S| (in UV^T form)] + 1/2 [hi O - |hi - S|] with an absent
    // bound replaced by the identity (+S) term of 001 §3.2/§3.3.
    at::Tensor sum = at::zeros_like(x);
    at::Tensor gram;
    if (lo) {
      sum = sum + o * *lo;
      gram = nestedTerm(o, x, *lo, ns);
    } else {
      sum = sum + x;
    }
    if (hi) {
      sum = sum + o * *hi;
      const auto t = nestedTerm(o, x, *hi, ns);
      gram = gram.defined() ? gram - t : -t;
    } else {
      sum = sum + x;
    }
    return (gram.defined() ? addMatmul(sum, gram, o, 1.0, 1.0) : sum) * 0.5;
  });
}

// ---- anti-block-diagonal (001 §4): clip_[-1,1](W) = Q~ + P~ W, where
// [[P~, Q~], [Q~^T, R~]] = msign([[I, W], [W^T, I]]).
at::Tensor abdNormaliser(const at::Tensor& w) {
  const auto m = static_cast<double>(w.size(-2)), n = static_cast<double>(w.size(-1));
  const auto f = frobeniusNorm(w);
  return (f.square() * 2.0 + (m + n)).sqrt();  // ||[[I, W], [W^T, I]]||_F
}

// LibTorch 1.13 has no CPU eye kernel for bfloat16: build it in float32 and convert.
at::Tensor eyeLike(int64_t n, const at::Tensor& like) {
  return at::eye(n, like.options().dtype(at::kFloat)).to(like.scalar_type());
}

}  // namespace

std::string_view toString(ClipImpl impl) {
  switch (impl) {
    case ClipImpl::Nested: return "nested";
    case ClipImpl::AbdDense: return "abd_dense";
    case ClipImpl::AbdBlock: return "abd_block";
    case ClipImpl::Svd: return "svd";
  }
  return "?";
}

std::optional<ClipImpl> parseClipImpl(std::string_view id) {
  if (id == "nested") return ClipImpl::Nested;
  if (id == "abd_dense") return ClipImpl::AbdDense;
  if (id == "abd_block") return ClipImpl::AbdBlock;
  if (id == "svd") return ClipImpl::Svd;
  return std::nullopt;
}

at::Tensor abdUnitClipDense(const at::Tensor& w, const NewtonSchulzConfig& ns) {
  checkMatrix(w);
  const int64_t m = w.size(-2), n = w.size(-1);
  const auto scale = abdNormaliser(w);
  const auto wn = (w.to(scale.scalar_type()) / scale).to(w.scalar_type());
  auto batchShape = w.sizes().vec();
  batchShape.resize(batchShape.size() - 2);
  auto expandEye = [&](int64_t k) {
    auto shape = batchShape;
    shape.push_back(k);
    shape.push_back(k);
    return (eyeLike(k, w) / scale.to(w.scalar_type())).expand(shape);
  };
  const auto top = at::cat({expandEye(m), wn}, -1);
  const auto bottom = at::cat({wn.mT(), expandEye(n)}, -1);
  const auto h = at::cat({top, bottom}, -2).contiguous();
  const auto oh = newtonSchulzIterate(h, nsSchedule(ns));
  const auto p = oh.narrow(-2, 0, m).narrow(-1, 0, m);
  const auto q = oh.narrow(-2, 0, m).narrow(-1, m, n);
  return addMatmul(q, p, w, 1.0, 1.0);
}

at::Tensor abdUnitClipBlock(const at::Tensor& w, const NewtonSchulzConfig& ns) {
  checkMatrix(w);
  const int64_t m = w.size(-2), n = w.size(-1);
  const auto scale = abdNormaliser(w);
  const auto s = scale.to(w.scalar_type());
  // X = [[P, Q], [Q^T, R]]; every iterate is a polynomial in H, so iterates commute and the
  // (2,1) block is always Q^T (001 §4.3).
  at::Tensor p = (eyeLike(m, w) / s).contiguous();
  at::Tensor q = (w.to(scale.scalar_type()) / scale).to(w.scalar_type()).contiguous();
  at::Tensor r = (eyeLike(n, w) / s).contiguous();
  struct Blocks { at::Tensor p, q, r; };
  // Y = X1 X2 on the stored blocks (plus beta * acc when given). Each block is one GEMM over
  // a concatenated block row / column, so low-precision inputs accumulate in one kernel
  // (fp32 accumulate for bfloat16) instead of being rounded between two partial products.
  auto product = [](const Blocks& x1, const Blocks& x2, const Blocks* acc, double beta,
                    double alpha) {
    const auto row1 = at::cat({x1.p, x1.q}, -1);       // [P1 Q1]     m x (m+n)
    const auto row2 = at::cat({x1.q.mT(), x1.r}, -1);  // [Q1^T R1]   n x (m+n)
    const auto col1 = at::cat({x2.p, x2.q.mT()}, -2);  // [P2; Q2^T]  (m+n) x m
    const auto col2 = at::cat({x2.q, x2.r}, -2);       // [Q2; R2]    (m+n) x n
    auto mul = [&](const at::Tensor& a, const at::Tensor& b, const at::Tensor* c) {
      return c ? addMatmul(*c, a, b, beta, alpha) : a.matmul(b) * alpha;
    };
    return Blocks{mul(row1, col1, acc ? &acc->p : nullptr), mul(row1, col2, acc ? &acc->q : nullptr),
                  mul(row2, col2, acc ? &acc->r : nullptr)};
  };
  Blocks x{p, q, r};
  for (const auto& t : nsSchedule(ns)) {
    const Blocks a = product(x, x, nullptr, 0.0, 1.0);      // A = X^2
    const Blocks poly = product(a, a, &a, t.b, t.c);        // b A + c A^2
    x = product(poly, x, &x, t.a, 1.0);                     // a X + poly X
  }
  return addMatmul(x.q, x.p, w, 1.0, 1.0);
}

at::Tensor svdClip(const at::Tensor& w, double sigmaMinSpectral, double sigmaMaxSpectral) {
  checkMatrix(w);
  checkThresholds(sigmaMinSpectral, sigmaMaxSpectral);
  const auto [u, s, vh] = compat::svdReduced(compat::svdCompatible(w));
  const auto clipped = at::clamp(s, sigmaMinSpectral, sigmaMaxSpectral);
  return (u * clipped.unsqueeze(-2)).matmul(vh).to(w.scalar_type());
}

at::Tensor spectralHardCap(const at::Tensor& w, double sigmaMaxSpectral, const ClipOptions& opt) {
  checkMatrix(w);
  checkThresholds(0.0, sigmaMaxSpectral);
  if (sigmaMaxSpectral == 0.0) return at::zeros_like(w);
  switch (opt.impl) {
    case ClipImpl::Svd:
      return svdClip(w, 0.0, sigmaMaxSpectral);
    case ClipImpl::Nested:
      return nestedClip(w, std::nullopt, sigmaMaxSpectral, opt.ns);
    case ClipImpl::AbdDense:
    case ClipImpl::AbdBlock: {
      // clip_[-b,b](W) = b clip_[-1,1](W / b) (001 §4.1).
      const auto unit = w / sigmaMaxSpectral;
      const auto c = opt.impl == ClipImpl::AbdDense ? abdUnitClipDense(unit, opt.ns)
                                                    : abdUnitClipBlock(unit, opt.ns);
      return c * sigmaMaxSpectral;
    }
  }
  throw std::invalid_argument("unknown clip implementation");
}

at::Tensor spectralClip(const at::Tensor& w, double sigmaMinSpectral, double sigmaMaxSpectral,
                        const ClipOptions& opt) {
  checkMatrix(w);
  checkThresholds(sigmaMinSpectral, sigmaMaxSpectral);
  if (sigmaMinSpectral == 0.0) return spectralHardCap(w, sigmaMaxSpectral, opt);
  switch (opt.impl) {
    case ClipImpl::Svd: return svdClip(w, sigmaMinSpectral, sigmaMaxSpectral);
    case ClipImpl::Nested: return nestedClip(w, sigmaMinSpectral, sigmaMaxSpectral, opt.ns);
    case ClipImpl::AbdDense:
    case ClipImpl::AbdBlock:
      // The ABD trick needs an odd scalar function; for sigma >= 0
      // clip_[a,b](s) = min(s, b) + a sign(s) - min(s, a), each term odd.
      return spectralHardCap(w, sigmaMaxSpectral, opt) + msign(w, opt.ns) * sigmaMinSpectral -
             spectralHardCap(w, sigmaMinSpectral, opt);
  }
  throw std::invalid_argument("unknown clip implementation");
}

at::Tensor spectralRelu(const at::Tensor& w, double sigmaMinSpectral, const ClipOptions& opt) {
  checkMatrix(w);
  checkThresholds(sigmaMinSpectral, sigmaMinSpectral);
  switch (opt.impl) {
    case ClipImpl::Svd:
      return svdClip(w, sigmaMinSpectral, std::numeric_limits<double>::infinity());
    case ClipImpl::Nested: return nestedClip(w, sigmaMinSpectral, std::nullopt, opt.ns);
    case ClipImpl::AbdDense:
    case ClipImpl::AbdBlock:
      // max(s, a) = s + a sign(s) - min(s, a) for s >= 0.
      return w + msign(w, opt.ns) * sigmaMinSpectral - spectralHardCap(w, sigmaMinSpectral, opt);
  }
  throw std::invalid_argument("unknown clip implementation");
}

at::Tensor spectralClippedWeightDecay(const at::Tensor& w, double lambda, double betaSpectral,
                                      const ClipOptions& opt) {
  if (!(lambda >= 0.0 && lambda <= 1.0))
    throw std::invalid_argument("clipped weight decay needs lambda in [0, 1]");
  return w * (1.0 - lambda) + spectralHardCap(w, betaSpectral, opt) * lambda;
}

}  // namespace lwb::spectral
