// The constraint's scalar map σ ↦ f(σ) (dashboard plot 6, Clip Lab): one or more curves
// (to compare methods), the identity y = x, the σmax (and σmin) line, and the layer's
// singular values as markers on a curve, at (σ_i, f(σ_i)).
#pragma once

#include "widgets/plot_view.h"

#include <QColor>

#include <limits>
#include <map>

class QCPItemStraightLine;

namespace lwb::widgets {

class ScalarMapPlot : public PlotView {
  Q_OBJECT

 public:
  explicit ScalarMapPlot(QWidget* parent = nullptr);

  // Adds or replaces a curve; xs ascending. Invalid colour: the next palette colour.
  void setCurve(const QString& name, const std::vector<double>& xs, const std::vector<double>& ys,
                const QColor& color = QColor());
  void removeCurve(const QString& name);
  void clearCurves();
  QStringList curveNames() const;

  // Singular values and the map's value at each (equal lengths; extra entries ignored),
  // drawn as markers in the colour of `curveName` (empty: the first curve). One marker set
  // per curve name; setting it again replaces it.
  void setMarkers(const std::vector<double>& sigmas, const std::vector<double>& fOfSigmas,
                  const QString& curveName = QString());
  void clearMarkers();

  // σ in RMS→RMS units (norm = rms; see SpectrumPlot::setRmsUnits): the σ axis and the
  // layer's markers say so.
  void setRmsUnits(bool rms);
  void setSigmaMax(double sigmaMax);  // NaN hides
  void setSigmaMin(double sigmaMin);  // NaN hides

 protected:
  void syncData() override;
  void fitView() override;
  CsvTable csvTable() const override;

 private:
  struct Curve {
    QCPGraph* graph = nullptr;
    QCPGraph* markers = nullptr;
  };
  QColor curveColor(const QString& name) const;
  void updateLines();

  std::map<QString, Curve> curves_;
  QStringList order_;
  bool rmsUnits_ = false;
  QCPGraph* identity_ = nullptr;
  QCPItemStraightLine* sigmaMaxLine_ = nullptr;
  QCPItemStraightLine* sigmaMinLine_ = nullptr;
  double sigmaMax_ = std::numeric_limits<double>::quiet_NaN();
  double sigmaMin_ = std::numeric_limits<double>::quiet_NaN();
  bool linesDirty_ = true;
};

}  // namespace lwb::widgets
