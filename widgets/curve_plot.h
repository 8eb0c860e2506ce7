// A small general plot for the pages: named curves (line and/or markers, solid or dashed),
// optional log x, and labelled horizontal reference lines (predicted equilibria, σmax) that
// the view always keeps in range. A thin adapter over PlotView, which brings zoom,
// hover, log-y, PNG/PDF/CSV export.
#pragma once

#include "widgets/plot_view.h"

#include <QColor>
#include <QMap>

#include <vector>

class QCPItemStraightLine;

namespace lwb::widgets {

class CurvePlot : public PlotView {
  Q_OBJECT

 public:
  struct Style {
    QColor color;
    Qt::PenStyle pen = Qt::SolidLine;  // Qt::NoPen: markers only
    double width = 1.6;
    bool markers = false;
  };
  struct Reference {
    double value = 0;
    QString label;
    QColor color;
  };

  explicit CurvePlot(QWidget* parent = nullptr);

  void setAxisLabels(const QString& x, const QString& y);
  void setLogXAvailable(bool on);
  // Legend entries per row below the plot (default 4).
  void setLegendColumns(int columns) { placeLegend(LegendPlace::Below, columns); }
  // Adds or replaces a curve; points are drawn in x order.
  void setCurve(const QString& name, std::vector<double> xs, std::vector<double> ys, const Style& style);
  void removeCurve(const QString& name);
  void clearCurves();
  QStringList curveNames() const { return order_; }
  // Full data of a curve (empty vectors if unknown): for tests.
  std::pair<std::vector<double>, std::vector<double>> curveData(const QString& name) const;

  void setReferenceLines(const QVector<Reference>& lines);

 protected:
  void fitView() override;

 private:
  QMap<QString, QCPGraph*> curves_;
  QStringList order_;
  QVector<Reference> refs_;
  QList<QCPItemStraightLine*> refItems_;
};

}  // namespace lwb::widgets
