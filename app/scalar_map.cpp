#include "app/scalar_map.h"

#include "widgets/number_format.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

namespace lwb::app {

void sampleScalarMap(const spectral::ConstraintSettings& s, double sigma1, double alpha, double xMax, int n,
                     std::vector<double>& xs, std::vector<double>& ys) {
  xs.clear();
  ys.clear();
  n = std::max(n, 2);
  xMax = xMax > 0 ? xMax : 1.0;
  for (int i = 0; i < n; ++i) xs.push_back(xMax * i / (n - 1));
  for (double kink : {s.sigmaMin, s.sigmaMax, sigma1})
    if (kink > 0 && kink < xMax) xs.push_back(kink);
  std::sort(xs.begin(), xs.end());
  xs.erase(std::unique(xs.begin(), xs.end()), xs.end());
  ys.reserve(xs.size());
  for (double x : xs) ys.push_back(spectral::scalarMap(s, x, sigma1, alpha));
}

QString scalarMapName(const spectral::ConstraintSettings& s, double alpha) {
  const auto& t = spectral::traits(s.method);
  QString name = QCoreApplication::translate("ScalarMap", std::string(t.mapName).c_str());
  const auto num = [](double v) { return widgets::displayNumber(v, 'g', 3); };
  if (t.reads & spectral::kAlpha) name += QStringLiteral(" (α = %1)").arg(num(alpha));
  else if ((t.reads & spectral::kLambda) && (t.reads & spectral::kSigmaMax)) name += QStringLiteral(" (λ = %1)").arg(num(s.lambda));
  return name;
}

double resolveAlpha(const spectral::ConstraintSettings& s, double reportedAlpha) {
  if (reportedAlpha >= 0 && std::isfinite(reportedAlpha)) return reportedAlpha;
  if (!spectral::reads(s.method, spectral::kAlpha)) return 0.0;
  try {
    return spectral::resolvedAlpha(s);
  } catch (const std::exception&) {
    return 0.0;
  }
}

}  // namespace lwb::app
