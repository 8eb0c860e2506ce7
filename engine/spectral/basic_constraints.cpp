#include "spectral/basic_constraints.h"

#include "spectral/symmetric_product.h"

#include "common/blas_fns.h"

#include <ATen/TensorOperators.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/empty_like.h>
#include <ATen/record_function.h>
#include <ATen/ops/clamp_min.h>

#include <stdexcept>
#include <vector>

namespace lwb::spectral {
namespace {

// sigma u v^T as a stack, in W's dtype.
at::Tensor rankOne(const at::Tensor& scale, const TopSingular& top, const at::Tensor& like) {
  const auto outer = top.u.unsqueeze(-1) * top.v.unsqueeze(-2);
  return (outer * scale.unsqueeze(-1).unsqueeze(-1)).to(like.scalar_type());
}

void requireNonNegative(double value, const char* what) {
  if (!(value >= 0.0)) throw std::invalid_argument(std::string(what) + " must be >= 0");
}

void requirePositive(double value, const char* what) {
  if (!(value > 0.0)) throw std::invalid_argument(std::string(what) + " must be > 0");
}

}  // namespace

at::Tensor weightDecay(const at::Tensor& w, double lambda, double lr) {
  requireNonNegative(lambda, "lambda");
  requireNonNegative(lr, "lr");
  return w * (1.0 - lambda * lr);
}

at::Tensor spectralWeightDecay(const at::Tensor& w, double lambda, PowerIterationState& state,
                               int powerIterations) {
  requireNonNegative(lambda, "lambda");
  const auto top = powerIteration(w, state, powerIterations);
  return w - rankOne(top.sigma * lambda, top, w);
}

at::Tensor spectralNormalize(const at::Tensor& w, double sigmaMaxSpectral,
                             PowerIterationState& state, int powerIterations) {
  requirePositive(sigmaMaxSpectral, "sigma_max");
  const auto top = powerIteration(w, state, powerIterations);
  const auto scale = sigmaMaxSpectral / at::clamp_min(top.sigma, sigmaMaxSpectral);
  return w * scale.unsqueeze(-1).unsqueeze(-1).to(w.scalar_type());
}

at::Tensor spectralHammer(const at::Tensor& w, double sigmaMaxSpectral, PowerIterationState& state,
                          int powerIterations) {
  requireNonNegative(sigmaMaxSpectral, "sigma_max");
  const auto top = powerIteration(w, state, powerIterations);
  return w + rankOne(sigmaMaxSpectral - top.sigma, top, w);
}

at::Tensor stiefel(const at::Tensor& w, double sigmaSpectral, const NewtonSchulzConfig& ns) {
  requireNonNegative(sigmaSpectral, "sigma");
  return msign(w, ns) * sigmaSpectral;
}

at::Tensor spectralSoftCap(const at::Tensor& w, double alpha) {
  requireNonNegative(alpha, "alpha");
  const bool tall = w.size(-2) > w.size(-1);
  at::Tensor x = tall ? w.mT() : w;
  for (const double sign : {-1.0, 1.0}) {  // p1 then p2
    const auto gram = gramOfRows(x);  // symmetric: BLAS syrk computes one triangle (float32/64)
    x = addMatmul(x, gram, x, 1.0, sign * alpha);
  }
  return tall ? x.mT().contiguous() : x;
}

}  // namespace lwb::spectral

namespace lwb::spectral {
namespace {

// BLAS sees a row-major matrix column-major, as its transpose. For a wide row-major W [m, n]
// it sees Wᵀ (n×m, ld n): W Wᵀ is syrk 'T', Q·W is gemm of (Wᵀ, Q). For a tall W the wide
// orientation is Wᵀ, which BLAS sees directly: Wᵀ W is syrk 'N', Q·Wᵀ is gemm of (Q, Wᵀ).
// Every product is recorded like an ATen op, so bench --roofline counts its FLOPs.
template <class T>
struct WideView {
  at::Tensor w;  // the matrix as stored, [m, n]
  bool tall;
  int m, n, side;
  at::Tensor wide() const { return tall ? w.mT() : w; }  // [side, large], for the record only
};

// gram = X Xᵀ of the wide orientation of x (stored like v.w), mirrored to a full matrix.
template <class T>
void wideGram(const WideView<T>& v, const T* x, at::Tensor& gram) {
  RECORD_FUNCTION("lwb::syrk", std::vector<c10::IValue>{v.wide()});
  const char up = 'U', no = 'N', tr = 'T';
  const T one = 1, zero = 0;
  if (v.tall) blas::syrk<T>()(&up, &no, &v.n, &v.m, &one, x, &v.n, &zero, gram.data_ptr<T>(), &v.n);
  else blas::syrk<T>()(&up, &tr, &v.m, &v.n, &one, x, &v.n, &zero, gram.data_ptr<T>(), &v.m);
  blas::mirrorLowerToUpper(gram.data_ptr<T>(), v.side, v.side);
}

// out = Q·X in the wide orientation (Q symmetric [side, side]), into an out ≠ x.
template <class T>
void wideApply(const WideView<T>& v, const at::Tensor& q, const T* x, T* out) {
  RECORD_FUNCTION("lwb::gemm", std::vector<c10::IValue>{q, v.wide()});
  const char no = 'N';
  const T one = 1, zero = 0;
  if (v.tall) blas::gemm<T>()(&no, &no, &v.n, &v.m, &v.n, &one, q.data_ptr<T>(), &v.n, x, &v.n, &zero, out, &v.n);
  else blas::gemm<T>()(&no, &no, &v.n, &v.m, &v.m, &one, x, &v.n, q.data_ptr<T>(), &v.m, &zero, out, &v.n);
}

// a² (a symmetric) by syrk, mirrored.
template <class T>
void squareSym(const at::Tensor& a, at::Tensor& out) {
  RECORD_FUNCTION("lwb::syrk", std::vector<c10::IValue>{a});
  const char up = 'U', tr = 'T';
  const int k = static_cast<int>(a.size(0));
  const T one = 1, zero = 0;
  blas::syrk<T>()(&up, &tr, &k, &k, &one, a.data_ptr<T>(), &k, &zero, out.data_ptr<T>(), &k);
  blas::mirrorLowerToUpper(out.data_ptr<T>(), k, k);
}

template <class T>
void softCapInPlace(const at::Tensor& w, double alpha) {
  WideView<T> v{w, w.size(0) > w.size(1), static_cast<int>(w.size(0)), static_cast<int>(w.size(1)), 0};
  v.side = std::min(v.m, v.n);
  const int large = std::max(v.m, v.n);
  const auto sq = [&] { return at::empty({v.side, v.side}, w.options()); };
  at::Tensor g = sq(), q = sq(), mid = at::empty_like(w);
  T* pw = w.data_ptr<T>();
  T* pm = mid.data_ptr<T>();
  const T a = static_cast<T>(alpha);
  const int64_t s2 = static_cast<int64_t>(v.side) * v.side;
  if (3 * static_cast<int64_t>(large) > 4 * static_cast<int64_t>(v.side)) {
    // p1 = (I − αG) W and p1 p1ᵀ = (I − αG) G (I − αG), a polynomial in G, so p2(p1(W)) =
    // (I − 3α²G² + 3α³G³ − α⁴G⁴) W: one product with W's long side instead of four, the rest on
    // [side, side] (3 m²n + 4 m³ FLOPs against 6 m²n: fewer once n > 4m/3, e.g. 28 % at MNIST's
    // 256×784).
    at::Tensor g2 = sq(), g3 = sq(), g4 = sq();
    wideGram(v, pw, g);
    squareSym<T>(g, g2);
    squareSym<T>(g2, g4);
    {
      RECORD_FUNCTION("lwb::gemm", std::vector<c10::IValue>{g, g2});
      const char no = 'N';
      const T one = 1, zero = 0;
      blas::gemm<T>()(&no, &no, &v.side, &v.side, &v.side, &one, g.data_ptr<T>(), &v.side, g2.data_ptr<T>(), &v.side, &zero,
                      g3.data_ptr<T>(), &v.side);
    }
    const T c2 = -3 * a * a, c3 = 3 * a * a * a, c4 = -a * a * a * a;
    const T *p2 = g2.data_ptr<T>(), *p3 = g3.data_ptr<T>(), *p4 = g4.data_ptr<T>();
    T* pq = q.data_ptr<T>();
    for (int64_t k = 0; k < s2; ++k) pq[k] = c2 * p2[k] + c3 * p3[k] + c4 * p4[k];
    for (int j = 0; j < v.side; ++j) pq[static_cast<int64_t>(j) * v.side + j] += 1;
    wideApply(v, q, pw, pm);
    std::copy(pm, pm + w.numel(), pw);
  } else {
    // p1 then p2, each x + c·X Xᵀ X = (I + c·G) x: one GEMM into an unread output.
    for (const T c : {-a, a}) {
      const T* src = c < 0 ? pw : pm;
      T* dst = c < 0 ? pm : pw;
      wideGram(v, src, g);
      T* pq = q.data_ptr<T>();
      const T* pg = g.data_ptr<T>();
      for (int64_t k = 0; k < s2; ++k) pq[k] = c * pg[k];
      for (int j = 0; j < v.side; ++j) pq[static_cast<int64_t>(j) * v.side + j] += 1;
      wideApply(v, q, src, dst);
    }
  }
  w.unsafeGetTensorImpl()->bump_version();  // written through its pointer: autograd must see it
}

}  // namespace

bool spectralSoftCapInPlace(const at::Tensor& w, double alpha) {
  requireNonNegative(alpha, "alpha");
  if (!usesBlasSyrk(w) || !w.is_contiguous() || !w.is_cpu()) return false;
  const bool f32 = w.scalar_type() == at::kFloat;
  if (f32 ? !blas::gemm<float>() : !blas::gemm<double>()) return false;
  if (alpha == 0.0) return true;  // p2(p1(x)) = x
  if (f32) softCapInPlace<float>(w, alpha);
  else softCapInPlace<double>(w, alpha);
  return true;
}

}  // namespace lwb::spectral
