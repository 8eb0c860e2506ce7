#include "app/pages/attention/token_plane_plot.h"

#include "widgets/qcp.h"

#include <QEvent>

#include <algorithm>

namespace lwb::app::pages {

TokenPlanePlot::TokenPlanePlot(QWidget* parent) : PlotView(parent) {
  setLogYToggleVisible(false);  // coordinates, never log-scaled
  placeLegend(LegendPlace::Below, 2);
  customPlot()->xAxis->setLabel(QStringLiteral("x₁"));
  customPlot()->yAxis->setLabel(QStringLiteral("x₂"));
  customPlot()->installEventFilter(this);
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
  if (range_.isEmpty()) return PlotView::fitView();
  // The same data square in every panel: centre it, widen the shorter pixel side's axis so
  // one unit is as long on both axes.
  QCPAxis* x = customPlot()->xAxis;
  QCPAxis* y = customPlot()->yAxis;
  const double side = std::max(range_.width(), range_.height()) * 1.08;
  const QPointF c = range_.center();
  x->setRange(c.x() - side / 2, c.x() + side / 2);
  y->setRange(c.y() - side / 2, c.y() + side / 2);
  const QRect rect = customPlot()->axisRect()->rect();
  if (rect.width() > 0 && rect.height() > 0) {
    if (rect.width() > rect.height()) x->setScaleRatio(y, 1.0);
    else y->setScaleRatio(x, 1.0);
  }
}

bool TokenPlanePlot::eventFilter(QObject* watched, QEvent* event) {
  // The 1:1 aspect depends on the plot's pixel size: refit when it changes.
  if (watched == customPlot() && event->type() == QEvent::Resize && autoRange() && !range_.isEmpty())
    QMetaObject::invokeMethod(this, [this] {
      fitView();
      customPlot()->replot(QCustomPlot::rpQueuedReplot);
    }, Qt::QueuedConnection);
  return PlotView::eventFilter(watched, event);
}

widgets::CsvTable TokenPlanePlot::csvTable() const {
  widgets::CsvTable t;
  t.header = {QStringLiteral("series"), QStringLiteral("token"), QStringLiteral("x1"), QStringLiteral("x2")};
  for (const Layer& l : layers_)
    for (size_t i = 0; i < l.points.size(); ++i)
      t.rows << QStringList{l.name, QString::number(i), widgets::csvNumber(l.points[i].x()), widgets::csvNumber(l.points[i].y())};
  return t;
}

}  // namespace lwb::app::pages
