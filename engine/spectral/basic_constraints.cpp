#include "spectral/basic_constraints.h"

#include "spectral/symmetric_product.h"

#include "common/blas_fns.h"

#include <ATen/TensorOperators.h>
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

// One polynomial x + coef·x xᵀ x on the wide orientation, BLAS column-major terms: for a wide
// row-major W [m, n] BLAS sees Wᵀ (n×m, ld n), G = W Wᵀ is syrk 'T' and G·W is gemm of (Wᵀ, G);
// for a tall one the wide matrix is Wᵀ, which BLAS sees directly: G = Wᵀ W is syrk 'N' and
// W·G is gemm of (G, Wᵀ). out = x + coef·(the cube), out ≠ x.
template <class T>
void softCapPolynomial(const T* x, T* out, T* gram, int m, int n, bool tall, T coef) {
  const char up = 'U', no = 'N', tr = 'T';
  const T one = 1, zero = 0;
  const int g = tall ? n : m;  // side of the Gram matrix
  if (tall) blas::syrk<T>()(&up, &no, &n, &m, &one, x, &n, &zero, gram, &n);
  else blas::syrk<T>()(&up, &tr, &m, &n, &one, x, &n, &zero, gram, &m);
  blas::mirrorLowerToUpper(gram, g, g);
  std::copy(x, x + static_cast<int64_t>(m) * n, out);
  if (tall) blas::gemm<T>()(&no, &no, &n, &m, &n, &coef, gram, &n, x, &n, &one, out, &n);
  else blas::gemm<T>()(&no, &no, &n, &m, &m, &coef, x, &n, gram, &m, &one, out, &n);
}

template <class T>
void softCapInPlace(const at::Tensor& w, double alpha) {
  const int m = static_cast<int>(w.size(0)), n = static_cast<int>(w.size(1)), side = std::min(m, n);
  const bool tall = m > n;
  std::vector<T> gram(static_cast<size_t>(side) * side), mid(static_cast<size_t>(m) * n);
  T* pw = w.data_ptr<T>();
  softCapPolynomial<T>(pw, mid.data(), gram.data(), m, n, tall, static_cast<T>(-alpha));  // p1
  softCapPolynomial<T>(mid.data(), pw, gram.data(), m, n, tall, static_cast<T>(alpha));   // p2
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
