#include "lab/lab_matrix_impl.h"

#include "common/torch_compat.h"
#include "spectral/matrix_stats.h"

#include <ATen/TensorOperators.h>
#include <ATen/ops/linalg_svd.h>

#include <utility>

namespace lwb::lab {

LabMatrix::LabMatrix(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
LabMatrix::~LabMatrix() = default;

const std::string& LabMatrix::name() const { return impl_->name; }
int64_t LabMatrix::rows() const { return impl_->w.size(0); }
int64_t LabMatrix::cols() const { return impl_->w.size(1); }
const std::vector<double>& LabMatrix::singularValues() const { return impl_->exact.sigmas; }
bool LabMatrix::hasSingularVectors() const { return impl_->vectors; }

Decomposition decompose(const at::Tensor& w64, bool vectors) {
  Decomposition d;
  if (!vectors) {
    d.sigmas = spectral::singularValuesViaGram(w64);
    return d;
  }
  std::tie(d.u, d.s, d.vh) = compat::svdReduced(w64);
  d.s = d.s.contiguous();
  const double* p = d.s.data_ptr<double>();
  d.sigmas.assign(p, p + d.s.numel());
  return d;
}

const Decomposition& LabMatrix::Impl::decompositionFor(at::ScalarType dtype) const {
  if (dtype == at::kDouble || dtype == at::kFloat) return exact;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = rounded.find(dtype);
  if (it == rounded.end()) it = rounded.emplace(dtype, decompose(w.to(dtype).to(at::kDouble), vectors)).first;
  return it->second;
}

LabMatrix::Impl::Sign LabMatrix::Impl::signFor(const at::Tensor& x, const spectral::NewtonSchulzConfig& ns) const {
  const SignKey key{x.scalar_type(), ns.coefficients, ns.steps, ns.polishSteps};
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (signKey == key) {
      Sign s = sign;
      s.reused = true;
      return s;
    }
  }
  // Computed outside the lock: other workers reading this matrix are not held up.
  const auto t0 = std::chrono::steady_clock::now();
  Sign s{spectral::msign(x, ns), 0.0, false};
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::lock_guard<std::mutex> lock(mutex);
  signKey = key;
  sign = s;
  return s;
}

LabMatrixPtr makeLabMatrix(std::string name, at::Tensor w64, bool vectors) {
  auto impl = std::make_unique<LabMatrix::Impl>();
  impl->name = std::move(name);
  impl->w = w64.to(at::kDouble).contiguous();
  impl->vectors = vectors;
  impl->exact = decompose(impl->w, vectors);
  return std::make_shared<const LabMatrix>(std::move(impl));
}

LabMatrixPtr withTopSingularValue(const LabMatrix& m, double sigma1, const std::string& name) {
  const LabMatrix::Impl& src = m.impl();
  const double top = src.exact.sigmas.empty() ? 0.0 : src.exact.sigmas.front();
  const double c = top > 0 ? sigma1 / top : 1.0;
  auto impl = std::make_unique<LabMatrix::Impl>();
  impl->name = name;
  impl->w = src.w * c;
  impl->vectors = src.vectors;
  impl->exact = src.exact;
  if (impl->exact.s.defined()) impl->exact.s = src.exact.s * c;
  for (double& v : impl->exact.sigmas) v *= c;
  return std::make_shared<const LabMatrix>(std::move(impl));
}

}  // namespace lwb::lab
