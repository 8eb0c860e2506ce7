#include "attention/attention_common.h"

#include "common/batched_gemm.h"
#include "common/linear.h"
#include "common/torch_compat.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/TensorOperators.h>
#include <ATen/ops/randn.h>

#include <cmath>
#include <stdexcept>

namespace lwb::attention {

at::Tensor asBatch(const at::Tensor& x) { return x.dim() == 2 ? x.unsqueeze(0) : x; }

int64_t headDim(int64_t dim, int64_t heads) {
  if (dim < 1 || heads < 1 || dim % heads != 0)
    throw std::invalid_argument("attention: heads must divide dim (d_h = dim / heads)");
  return dim / heads;
}

at::Generator seededGenerator(uint64_t seed) { return at::make_generator<at::CPUGeneratorImpl>(seed); }

at::Tensor xavierBlocks(at::Generator& gen, int64_t heads, int64_t rows, int64_t cols) {
  const double std = std::sqrt(2.0 / static_cast<double>(rows + cols));
  return at::randn({heads, rows, cols}, gen, at::TensorOptions().dtype(at::kDouble)) * std;
}

at::Tensor gaussian(at::Generator& gen, int64_t rows, int64_t cols, double std) {
  return at::randn({rows, cols}, gen, at::TensorOptions().dtype(at::kDouble)) * std;
}

double spectralNorm(const at::Tensor& m) {
  return compat::svdvals(m.detach().to(at::kDouble)).max().item<double>();
}

at::Tensor spectralNorms(const at::Tensor& stack) {
  return compat::svdvals(stack.detach().to(at::kDouble)).select(-1, 0);
}

at::Tensor headProjections(const at::Tensor& x, const at::Tensor& w) {
  const int64_t b = x.size(0), n = x.size(1), heads = w.size(0), d = w.size(1), dh = w.size(2);
  const auto side = w.permute({1, 0, 2}).reshape({d, heads * dh});
  return lwb::mm(x.reshape({b * n, d}), side).view({b, n, heads, dh}).transpose(1, 2).reshape({b * heads, n, dh});
}

at::Tensor headsSum(const at::Tensor& m, const at::Tensor& w) {
  const int64_t b = m.size(0), heads = m.size(1), n = m.size(2), dh = m.size(3), d = w.size(2);
  return lwb::mm(m.permute({0, 2, 1, 3}).reshape({b * n, heads * dh}), w.reshape({heads * dh, d})).view({b, n, d});
}

at::Tensor headsProduct(const at::Tensor& a, const at::Tensor& b, double alpha) {
  const int64_t batch = a.size(0), heads = a.size(1);
  const auto flat = [&](const at::Tensor& t) { return t.reshape({batch * heads, t.size(2), t.size(3)}); };
  return batchedGemm(flat(a), flat(b), at::Tensor(), alpha).view({batch, heads, a.size(2), b.size(3)});
}

at::Tensor concatHeads(const at::Tensor& f, const at::Tensor& out) {
  const auto b = f.size(0), n = f.size(2);
  return f.permute({0, 2, 1, 3}).reshape({b, n, -1}).matmul(out);
}

}  // namespace lwb::attention
