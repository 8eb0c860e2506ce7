#include "widgets/token_plane_plot.h"

#include "widgets/qcp.h"


#include <algorithm>

namespace lwb::widgets {

TokenPlanePlot::TokenPlanePlot(QWidget* parent) : PlotView(parent) {
  setLogYToggleVisible(false);  // coordinates, never log-scaled
  placeLegend(LegendPlace::Below, 2);
  customPlot()->xAxis->setLabel(QStringLiteral("x₁"));
  customPlot()->yAxis->setLabel(QStringLiteral("x₂"));
  // The aspect depends on the axis rect's pixel size, known only once QCustomPlot has laid
  // itself out: square the ranges then, before it draws.
  connect(customPlot(), &QCustomPlot::afterLayout, this, [this] {
    if (autoRange() && !range_.isNull()) fitSquare();
  });
}

void TokenPlanePlot::setPicture(const QVector<Layer>& layers, const QVector<Links>& links) {
  for (auto* a : arrows_) customPlot()->removeItem(a);
  arrows_.clear();
  while (customPlot()->graphCount() > 0) {
    forgetGraph(customPlot()->graph(0));
    customPlot()->removeGraph(0);
  }
  layers_ = layers;
  // Arrows first, so the markers are drawn over them.
  for (const Links& l : links) {
    const size_t n = std::min(l.from.size(), l.to.size());
    for (size_t i = 0; i < n; ++i) {
      auto* a = new QCPItemLine(customPlot());
      a->start->setCoords(l.from[i]);
      a->end->setCoords(l.to[i]);
      a->setPen(QPen(l.color, 1.0));
      a->setHead(QCPLineEnding(QCPLineEnding::esSpikeArrow, 7, 9));
      arrows_ << a;
    }
  }
  for (const Layer& layer : layers) {
    QCPGraph* g = customPlot()->addGraph();
    g->setName(layer.name);
    g->setLineStyle(QCPGraph::lsNone);
    const auto shape = layer.square ? QCPScatterStyle::ssSquare : QCPScatterStyle::ssCircle;
    g->setScatterStyle(QCPScatterStyle(shape, QPen(layer.color, 1.6), layer.hollow ? QBrush(Qt::white) : QBrush(layer.color), 8));
    g->setPen(QPen(layer.color));
    std::vector<double> xs, ys;
    for (const QPointF& p : layer.points) {
      xs.push_back(p.x());
      ys.push_back(p.y());
    }
    setGraphData(g, std::move(xs), std::move(ys));
  }
}

void TokenPlanePlot::setSharedRange(const QRectF& range) {
  range_ = range;
  resetView();
}

QStringList TokenPlanePlot::layerNames() const {
  QStringList out;
  for (const Layer& l : layers_) out << l.name;
  return out;
}

std::vector<QPointF> TokenPlanePlot::layerPoints(const QString& name) const {
  for (const Layer& l : layers_)
    if (l.name == name) return l.points;
  return {};
}

void TokenPlanePlot::fitView() {
  if (range_.isNull()) return PlotView::fitView();
  fitSquare();
}

void TokenPlanePlot::fitSquare() {
  // The same data square in every panel, centred; the longer pixel side gets the wider
  // range so one unit is as long on both axes.
  const double side = std::max({range_.width(), range_.height(), 1e-6}) * 1.08;
  const QPointF c = range_.center();
  const QRect rect = customPlot()->axisRect()->rect();
  const double w = rect.width() > 0 ? rect.width() : 1, h = rect.height() > 0 ? rect.height() : 1;
  const double xSpan = side * std::max(1.0, w / h), ySpan = side * std::max(1.0, h / w);
  customPlot()->xAxis->setRange(c.x() - xSpan / 2, c.x() + xSpan / 2);
  customPlot()->yAxis->setRange(c.y() - ySpan / 2, c.y() + ySpan / 2);
}

CsvTable TokenPlanePlot::csvTable() const {
  CsvTable t;
  t.header = {QStringLiteral("series"), QStringLiteral("token"), QStringLiteral("x1"), QStringLiteral("x2")};
  for (const Layer& l : layers_)
    for (size_t i = 0; i < l.points.size(); ++i)
      t.rows << QStringList{l.name, QString::number(i), csvNumber(l.points[i].x()), csvNumber(l.points[i].y())};
  return t;
}

}  // namespace lwb::widgets
