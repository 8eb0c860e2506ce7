#include "widgets/smoothing.h"

#include <algorithm>
#include <cmath>

namespace lwb::widgets {

std::vector<double> emaSmooth(const std::vector<double>& ys, double weight) {
  if (!(weight > 0)) return ys;  // also NaN
  weight = std::min(weight, 0.999);
  std::vector<double> out(ys.size());
  double last = 0;
  double weightPowK = 1;  // w^k after k finite values: the debias term is 1 - w^k
  for (std::size_t i = 0; i < ys.size(); ++i) {
    const double y = ys[i];
    if (!std::isfinite(y)) {
      out[i] = y;
      continue;
    }
    last = last * weight + (1 - weight) * y;
    weightPowK *= weight;
    out[i] = last / (1 - weightPowK);
  }
  return out;
}

}  // namespace lwb::widgets
