#include "spectral/spectral_clip.h"

#include "common/torch_compat.h"
#include "spectral/symmetric_product.h"

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

// msign(w), or the caller's copy of it (ClipOptions::sign).
at::Tensor signOf(const at::Tensor& w, const ClipOptions& opt) {
  if (!opt.sign.defined()) return msign(w, opt.ns);
  TORCH_CHECK(opt.sign.sizes() == w.sizes(), "ClipOptions::sign has shape ", opt.sign.sizes(), ", W has ", w.sizes());
  return opt.sign.to(w.scalar_type());
}

at::Tensor nestedClip(const at::Tensor& w, std::optional<double> lo, std::optional<double> hi,
                      const ClipOptions& opt) {
  const NewtonSchulzConfig& ns = opt.ns;
  const bool flipped = w.size(-2) > w.size(-1);
  const at::Tensor sign = signOf(w, opt);
  return onWide(w, [&](const at::Tensor& x) {
    // onWide hands over W^T for tall W, whose msign is msign(W)^T.
    const auto o = flipped ? sign.mT().contiguous() : sign;
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
  if (w.dim() > 3) {  // the out= GEMM kernels take one batch dimension
    const auto flat = abdUnitClipBlock(w.reshape({-1, w.size(-2), w.size(-1)}), ns);
    return flat.reshape(w.sizes());
  }
  const int64_t m = w.size(-2), n = w.size(-1);
  const auto scale = abdNormaliser(w);
  // X = [[P, Q], [Q^T, R]] is kept as its two block rows, top = [P Q] and bottom = [Q^T R].
  // Every iterate is a symmetric polynomial in H, so block column j is block row j
  // transposed and each output block is one GEMM of a block row with a block row^T,
  // written straight into the output rows: only the (2,1) block Q^T is copied, never
  // computed (the saving over abd_dense), and bfloat16 products accumulate in fp32 inside
  // one kernel.
  struct Rows {
    at::Tensor top, bottom;
  };
  auto blockP = [m](const Rows& x) { return x.top.narrow(-1, 0, m); };
  auto blockQ = [m, n](const Rows& x) { return x.top.narrow(-1, m, n); };
  auto blockR = [m, n](const Rows& x) { return x.bottom.narrow(-1, m, n); };
  Rows x;
  {
    const auto s = scale.to(w.scalar_type());  // [..., 1, 1]: the identities broadcast per matrix
    x.top = at::cat({eyeLike(m, w) / s, (w.to(scale.scalar_type()) / scale).to(w.scalar_type())}, -1);
    x.bottom = at::cat({blockQ(x).mT(), eyeLike(n, w) / s}, -1);
  }
  // Y = alpha X1 X2 (+ beta acc).
  auto product = [&](const Rows& x1, const Rows& x2, const Rows* acc, double beta, double alpha) {
    Rows y{at::empty_like(x1.top), at::empty_like(x1.bottom)};
    const double b0 = acc ? beta : 0.0;
    // A square (X X, A A): P = top topᵀ and R = bottom bottomᵀ are Grams of a block row, one
    // triangle each through BLAS syrk (float32/64, unbatched), written into the block.
    const bool gram = &x1 == &x2 && usesBlasSyrk(x1.top) && usesBlasSyrk(x1.bottom);
    // out = alpha a bᵀ (+ beta accBlock); a is b in a square.
    auto diagonalBlock = [&](at::Tensor out, const at::Tensor& accBlock, const at::Tensor& a, const at::Tensor& b) {
      if (gram) {
        if (acc) out.copy_(accBlock);
        if (addGramOfRowsInto(out, a, b0, alpha)) return;
      }
      addMatmulOut(out, acc ? accBlock : out, a, b.mT(), b0, alpha);
    };
    diagonalBlock(blockP(y), acc ? blockP(*acc) : at::Tensor(), x1.top, x2.top);
    addMatmulOut(blockQ(y), acc ? blockQ(*acc) : y.top, x1.top, x2.bottom.mT(), b0, alpha);
    diagonalBlock(blockR(y), acc ? blockR(*acc) : at::Tensor(), x1.bottom, x2.bottom);
    y.bottom.narrow(-1, 0, m).copy_(blockQ(y).mT());
    return y;
  };
  for (const auto& t : nsSchedule(ns)) {
    const Rows a = product(x, x, nullptr, 0.0, 1.0);     // A = X^2
    const Rows poly = product(a, a, &a, t.b, t.c);       // b A + c A^2
    x = product(poly, x, &x, t.a, 1.0);                  // a X + poly X
    // Rounding lets P and R drift from symmetric, and the rows-only products would then
    // use P^T where P belongs; jordan5's slope 3.4 near 0 amplifies that drift (measured:
    // divergence after ~10 float32 steps). Re-symmetrising once per step costs O(m^2+n^2).
    for (auto block : {blockP(x), blockR(x)}) block.copy_((block + block.mT()) * 0.5);
  }
  return addMatmul(blockQ(x), blockP(x), w, 1.0, 1.0);
}

at::Tensor svdClip(const at::Tensor& w, double sigmaMinSpectral, double sigmaMaxSpectral) {
  checkMatrix(w);
  checkThresholds(sigmaMinSpectral, sigmaMaxSpectral);
  // The exact reference must be exact on every device: cuSOLVER's float32 SVD reconstructed a
  // clipped 256 x 512 matrix 7e-5 above σmax on an H200 (CPU LAPACK: 1e-6), so on a GPU the
  // factorisation runs in float64 (docs/RESULTS.md "GPU").
  const auto a = w.is_cuda() ? w.to(at::kDouble) : compat::svdCompatible(w);
  const auto [u, s, vh] = compat::svdReduced(a);
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
      return nestedClip(w, std::nullopt, sigmaMaxSpectral, opt);
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
    case ClipImpl::Nested: return nestedClip(w, sigmaMinSpectral, sigmaMaxSpectral, opt);
    case ClipImpl::AbdDense:
    case ClipImpl::AbdBlock:
      // The ABD trick needs an odd scalar function; for sigma >= 0
      // clip_[a,b](s) = min(s, b) + a sign(s) - min(s, a), each term odd.
      return spectralHardCap(w, sigmaMaxSpectral, opt) + signOf(w, opt) * sigmaMinSpectral -
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
    case ClipImpl::Nested: return nestedClip(w, sigmaMinSpectral, std::nullopt, opt);
    case ClipImpl::AbdDense:
    case ClipImpl::AbdBlock:
      // max(s, a) = s + a sign(s) - min(s, a) for s >= 0.
      return w + signOf(w, opt) * sigmaMinSpectral - spectralHardCap(w, sigmaMinSpectral, opt);
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
