// Attention Lab, "Tokens in the plane": one panel of the small multiples. Tokens of width
// d = 2 are points; the panel draws the input X, a perturbed copy Y, their images f(X) and
// f(Y) under one attention kind, and a thin arrow from each token to its image. The axes
// keep a 1:1 aspect and the range the page gives all panels, so distances compare across
// kinds at a glance (AttLip's images sit closer together than the inputs).
#pragma once

#include "widgets/plot_view.h"

#include <QColor>
#include <QPointF>
#include <QRectF>
#include <QString>
#include <QVector>

#include <vector>

class QCPItemLine;

namespace lwb::widgets {

class TokenPlanePlot : public PlotView {
  Q_OBJECT

 public:
  // A set of points drawn with one marker (hollow: the perturbed copy and its image).
  struct Layer {
    QString name;
    std::vector<QPointF> points;
    QColor color;
    bool hollow = false;
    bool square = false;  // images are squares, inputs circles
  };
  // Token i of `from` joined to token i of `to` by an arrow.
  struct Links {
    std::vector<QPointF> from, to;
    QColor color;
  };

  explicit TokenPlanePlot(QWidget* parent = nullptr);

  void setPicture(const QVector<Layer>& layers, const QVector<Links>& links);
  // The data range every panel shows (the union over all panels), kept square.
  void setSharedRange(const QRectF& range);
  QStringList layerNames() const;
  // Points of a layer (empty if unknown): for tests.
  std::vector<QPointF> layerPoints(const QString& name) const;

 protected:
  void fitView() override;
  CsvTable csvTable() const override;

 private:
  // Shows range_ with one data unit as long on both axes, for the axis rect's current size.
  void fitSquare();

  QVector<Layer> layers_;
  QList<QCPItemLine*> arrows_;
  QRectF range_;
};

}  // namespace lwb::widgets
