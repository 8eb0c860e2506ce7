#include "app/scalar_map.h"

#include "spectral/softcap_alpha.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

namespace lwb::app {
namespace {

QString tr(const char* text) { return QCoreApplication::translate("ScalarMap", text); }

// Within this distance σ counts as the top singular value (normalize/hammer/spectral wd).
bool isTop(double sigma, double sigma1) { return sigma1 > 0 && std::abs(sigma - sigma1) <= 1e-9 * std::max(1.0, sigma1); }

}  // namespace

double constraintScalarMap(const ScalarMapParams& p, double sigma) {
  const QString& m = p.method;
  if (m == QLatin1String("weight_decay")) return (1 - p.lambda * p.lr) * sigma;
  if (m == QLatin1String("spectral_weight_decay")) return isTop(sigma, p.sigma1) ? (1 - p.lambda) * sigma : sigma;
  if (m == QLatin1String("spectral_normalize"))
    return sigma * p.sigmaMax / std::max(p.sigma1 > 0 ? p.sigma1 : sigma, p.sigmaMax);
  if (m == QLatin1String("spectral_hammer")) return isTop(sigma, p.sigma1) ? p.sigmaMax : sigma;
  if (m == QLatin1String("stiefel")) return sigma > 0 ? p.sigmaMax : 0.0;
  if (m == QLatin1String("spectral_soft_cap")) return spectral::softCapPolynomial(sigma, p.alpha);
  if (m == QLatin1String("spectral_hard_cap")) return std::min(sigma, p.sigmaMax);
  if (m == QLatin1String("spectral_clip") || m == QLatin1String("svd_clip"))
    return std::clamp(sigma, p.sigmaMin, p.sigmaMax);
  if (m == QLatin1String("spectral_relu")) return std::max(sigma, p.sigmaMin);
  // 001 §3.4: (1 − λ) W + λ hardcap_β(W).
  if (m == QLatin1String("spectral_clipped_weight_decay")) return (1 - p.lambda) * sigma + p.lambda * std::min(sigma, p.sigmaMax);
  return sigma;  // none
}

void sampleScalarMap(const ScalarMapParams& p, double xMax, int n, std::vector<double>& xs, std::vector<double>& ys) {
  xs.clear();
  ys.clear();
  n = std::max(n, 2);
  xMax = xMax > 0 ? xMax : 1.0;
  for (int i = 0; i < n; ++i) xs.push_back(xMax * i / (n - 1));
  for (double kink : {p.sigmaMin, p.sigmaMax, p.sigma1})
    if (kink > 0 && kink < xMax) xs.push_back(kink);
  std::sort(xs.begin(), xs.end());
  xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
  ys.reserve(xs.size());
  for (double x : xs) ys.push_back(constraintScalarMap(p, x));
}

QString scalarMapName(const ScalarMapParams& p) {
  const QString& m = p.method;
  const auto num = [](double v) { return QString::number(v, 'g', 3); };
  if (m == QLatin1String("weight_decay")) return tr("weight decay (1 − λη)σ");
  if (m == QLatin1String("spectral_weight_decay")) return tr("spectral weight decay σ₁ → (1 − λ)σ₁");
  if (m == QLatin1String("spectral_normalize")) return tr("normalize σ·σmax/max(σ₁, σmax)");
  if (m == QLatin1String("spectral_hammer")) return tr("hammer σ₁ → σmax");
  if (m == QLatin1String("stiefel")) return tr("Stiefel σ → σmax");
  if (m == QLatin1String("spectral_soft_cap")) return tr("soft cap p₂∘p₁ (α = %1)").arg(num(p.alpha));
  if (m == QLatin1String("spectral_hard_cap")) return tr("hard cap min(σ, σmax)");
  if (m == QLatin1String("spectral_clip") || m == QLatin1String("svd_clip")) return tr("clip to [σmin, σmax]");
  if (m == QLatin1String("spectral_relu")) return tr("spectral ReLU max(σ, σmin)");
  if (m == QLatin1String("spectral_clipped_weight_decay")) return tr("clipped weight decay (λ = %1)").arg(num(p.lambda));
  return tr("no constraint f(σ) = σ");
}

double resolveAlpha(const ConstraintInfo& c, double reportedAlpha) {
  if (reportedAlpha >= 0 && std::isfinite(reportedAlpha)) return reportedAlpha;
  if (c.alpha) return *c.alpha;
  if (c.lr > 0 && c.sigmaMax > 0) return spectral::softCapAlphaStar(c.sigmaMax, c.lr);
  return 0.0;
}

}  // namespace lwb::app
