#include "spectral/newton_schulz.h"

#include "spectral/symmetric_product.h"

#include <ATen/TensorOperators.h>
#include <ATen/ops/addmm.h>
#include <ATen/ops/baddbmm.h>
#include <ATen/ops/bmm.h>
#include <ATen/ops/mm.h>
#include <c10/util/Exception.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

namespace lwb::spectral {
namespace {

constexpr NsTuple kJordan{3.4445, -4.7750, 2.0315};
constexpr NsTuple kPolish{15.0 / 8.0, -10.0 / 8.0, 3.0 / 8.0};
// You (2025), ARCHITECTURE.md canonical set: each tuple divided by 1024.
constexpr std::array<NsTuple, 6> kYou{{
    {3955 / 1024.0, -8306 / 1024.0, 5008 / 1024.0},
    {3735 / 1024.0, -6681 / 1024.0, 3463 / 1024.0},
    {3799 / 1024.0, -6499 / 1024.0, 3211 / 1024.0},
    {4019 / 1024.0, -6385 / 1024.0, 2906 / 1024.0},
    {2677 / 1024.0, -3029 / 1024.0, 1162 / 1024.0},
    {2172 / 1024.0, -1833 / 1024.0, 682 / 1024.0},
}};

}  // namespace

std::string_view toString(NsCoefficients c) {
  switch (c) {
    case NsCoefficients::Jordan5: return "jordan5";
    case NsCoefficients::You6: return "you6";
    case NsCoefficients::Polish: return "polish";
  }
  return "?";
}

std::optional<NsCoefficients> parseNsCoefficients(std::string_view id) {
  if (id == "jordan5") return NsCoefficients::Jordan5;
  if (id == "you6") return NsCoefficients::You6;
  if (id == "polish") return NsCoefficients::Polish;
  return std::nullopt;
}

std::vector<NsTuple> nsSchedule(const NewtonSchulzConfig& cfg) {
  if (cfg.steps < 0 || cfg.polishSteps < 0 || cfg.steps + cfg.polishSteps > 1000)
    throw std::invalid_argument("Newton-Schulz steps must be in [0, 1000]");
  std::vector<NsTuple> s;
  s.reserve(static_cast<size_t>(cfg.steps + cfg.polishSteps));
  for (int i = 0; i < cfg.steps; ++i) {
    switch (cfg.coefficients) {
      case NsCoefficients::Jordan5: s.push_back(kJordan); break;
      case NsCoefficients::You6: s.push_back(kYou[std::min<size_t>(i, kYou.size() - 1)]); break;
      case NsCoefficients::Polish: s.push_back(kPolish); break;
    }
  }
  for (int i = 0; i < cfg.polishSteps; ++i) s.push_back(kPolish);
  return s;
}

double nsMaxInflation(const NewtonSchulzConfig& cfg) {
  const auto schedule = nsSchedule(cfg);
  double worst = 0.0;
  constexpr int kPoints = 20000;
  for (int i = 0; i <= kPoints; ++i) {
    double x = std::pow(10.0, -8.0 + 8.0 * i / kPoints);  // 1e-8 .. 1
    for (const auto& t : schedule) {
      const double x2 = x * x;
      x = x * (t.a + x2 * (t.b + t.c * x2));
    }
    worst = std::max(worst, std::abs(x));
  }
  return worst;
}

at::Tensor frobeniusNorm(const at::Tensor& w) {
  const auto acc = (w.scalar_type() == at::kDouble) ? w : w.to(at::kFloat);
  return acc.square().sum({-2, -1}, /*keepdim=*/true).sqrt();
}

at::Tensor addMatmul(const at::Tensor& self, const at::Tensor& a, const at::Tensor& b,
                     double beta, double alpha) {
  if (a.dim() == 2 && b.dim() == 2 && self.dim() <= 2) return at::addmm(self, a, b, beta, alpha);
  if (a.dim() == 3 && b.dim() == 3 && self.dim() <= 3) return at::baddbmm(self, a, b, beta, alpha);
  // Higher-rank stacks: broadcast matmul (no fused kernel).
  return self * beta + a.matmul(b) * alpha;
}

void addMatmulOut(at::Tensor out, const at::Tensor& self, const at::Tensor& a, const at::Tensor& b,
                  double beta, double alpha) {
  TORCH_CHECK(a.dim() == b.dim() && (a.dim() == 2 || a.dim() == 3), "addMatmulOut takes matrices or one batch dim");
  if (beta == 0.0) {
    if (a.dim() == 2) at::mm_out(out, a, b);
    else at::bmm_out(out, a, b);
    if (alpha != 1.0) out.mul_(alpha);
    return;
  }
  if (a.dim() == 2) at::addmm_out(out, self, a, b, beta, alpha);
  else at::baddbmm_out(out, self, a, b, beta, alpha);
}

at::Tensor newtonSchulzIterate(at::Tensor x, const std::vector<NsTuple>& schedule) {
  for (const auto& t : schedule) {
    // X <- a X + (b A + c A^2) X with A = X X^T (Jordan et al. 2024). A and A^2 = A A^T are
    // symmetric: on CPU float32/float64 BLAS syrk computes one triangle of each.
    const auto gram = gramOfRows(x);
    const auto poly = addGramOfRows(gram, gram, t.b, t.c);
    x = addMatmul(x, poly, x, t.a, 1.0);
  }
  return x;
}

at::Tensor msign(const at::Tensor& w, const NewtonSchulzConfig& cfg) {
  TORCH_CHECK(w.dim() >= 2, "msign needs a matrix or a stack of matrices, got rank ", w.dim());
  const bool tall = w.size(-2) > w.size(-1);
  at::Tensor x = tall ? w.mT() : w;
  // Frobenius norm >= spectral norm, so every singular value starts in [0, 1]; the tiny
  // epsilon keeps msign(0) = 0 instead of NaN.
  const auto norm = frobeniusNorm(x) + 1e-30;
  x = (x.to(norm.scalar_type()) / norm).to(w.scalar_type()).contiguous();
  x = newtonSchulzIterate(std::move(x), nsSchedule(cfg));
  return tall ? x.mT().contiguous() : x;
}

}  // namespace lwb::spectral
