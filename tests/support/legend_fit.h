// Rendered-geometry check shared by the widget and page suites (issue 32 §3: legends cut
// at a plot's right edge): every legend entry of a laid-out plot lies inside the plot and is
// as wide as its icon and its text in the legend's font need.
#pragma once

#include "widgets/qcp.h"

#include <algorithm>

#include <QFontMetrics>
#include <QString>

namespace lwb::test {

// Empty when every legend entry of the laid-out plot lies inside it and is as wide as its
// icon and text need; else what is cut (issue 32 §3).
inline QString legendCut(QCustomPlot* p) {
  p->replot(QCustomPlot::rpImmediateRefresh);
  const QRect plotArea = p->viewport();
  QCPLegend* legend = p->legend;
  for (int i = 0; i < legend->itemCount(); ++i) {
    auto* item = qobject_cast<QCPPlottableLegendItem*>(legend->item(i));
    if (!item) continue;
    const QRect r = item->outerRect();
    int widest = 0;  // a name of several lines needs its widest line
    for (const QString& line : item->plottable()->name().split(QLatin1Char('\n')))
      widest = std::max(widest, QFontMetrics(legend->font()).horizontalAdvance(line));
    const int need = widest + legend->iconSize().width();
    if (!plotArea.contains(r) || need > r.width())
      return QStringLiteral("'%1' needs %2 px, has %3 px at x %4..%5 of %6")
          .arg(item->plottable()->name())
          .arg(need)
          .arg(r.width())
          .arg(r.left())
          .arg(r.right())
          .arg(plotArea.width());
  }
  return QString();
}

}  // namespace lwb::test
