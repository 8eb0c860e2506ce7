#include "widgets/palette.h"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace lwb::widgets {
namespace {

const QVector<QColor>& okabeItoColors() {
  // Okabe & Ito (2008), "Color Universal Design"; black left out for reference lines.
  static const QVector<QColor> colors = {
      QColor(0, 114, 178),   // blue
      QColor(213, 94, 0),    // vermillion
      QColor(0, 158, 115),   // bluish green
      QColor(230, 159, 0),   // orange
      QColor(204, 121, 167), // reddish purple
      QColor(86, 180, 233),  // sky blue
      QColor(240, 228, 66),  // yellow
      QColor(153, 153, 153), // grey
  };
  return colors;
}

}  // namespace

QColor runColor(int index) {
  const auto& colors = okabeItoColors();
  if (index < 0) index = 0;
  const int n = static_cast<int>(colors.size());
  QColor c = colors[index % n];
  const int wrap = index / n;
  // Each wrap 25% darker: still the same hue family, but told apart from the first pass.
  return wrap == 0 ? c : c.darker(100 + 25 * wrap);
}

Qt::PenStyle runPenStyle(int index) {
  static constexpr Qt::PenStyle kStyles[] = {Qt::SolidLine, Qt::DashLine, Qt::DashDotLine, Qt::DotLine};
  const int wrap = std::max(0, index) / static_cast<int>(okabeItoColors().size());
  return kStyles[wrap % 4];
}

QColor rampColor(double t) {
  // matplotlib's viridis at 0, 0.2, …, 0.8 (the stops of its published table); linear between.
  static const QColor stops[] = {QColor(68, 1, 84), QColor(65, 68, 135), QColor(42, 120, 142), QColor(34, 168, 132),
                                 QColor(122, 209, 81)};
  constexpr int n = static_cast<int>(std::size(stops));
  const double x = std::clamp(std::isfinite(t) ? t : 0.0, 0.0, 1.0) * (n - 1);
  const int i = std::min(static_cast<int>(x), n - 2);
  const double f = x - i;
  const auto mix = [f](int a, int b) { return static_cast<int>(std::lround(a + (b - a) * f)); };
  return QColor(mix(stops[i].red(), stops[i + 1].red()), mix(stops[i].green(), stops[i + 1].green()),
                mix(stops[i].blue(), stops[i + 1].blue()));
}

QColor withAlpha(const QColor& color, int alpha) {
  QColor c = color;
  c.setAlpha(qBound(0, alpha, 255));
  return c;
}

QColor referenceColor() { return QColor(40, 40, 40); }

}  // namespace lwb::widgets
