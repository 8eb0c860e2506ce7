// A value per named item as bars (Inspector: every layer's σ₁ or RMS→RMS norm), with
// readable item labels (rotated when they would collide; long names elided in the middle,
// full name in the hover read-out) and an optional labelled reference line (σmax).
#pragma once

#include "widgets/plot_view.h"

#include <QColor>

#include <limits>

class QCPBars;
class QCPItemStraightLine;

namespace lwb::widgets {

class BarChartPlot : public PlotView {
  Q_OBJECT

 public:
  explicit BarChartPlot(QWidget* parent = nullptr);

  // names and values of equal length (extra entries ignored); replaces the bars.
  void setBars(const QStringList& names, const std::vector<double>& values);
  void setValueLabel(const QString& label);  // y-axis label, e.g. "σ₁"
  // Reference line with its label; NaN hides it.
  void setReferenceLine(double value, const QString& label = QString());
  // Emphasises one bar (e.g. the selected table row); -1 clears.
  void setHighlighted(int index);

  QStringList names() const { return names_; }
  QCPBars* bars() const { return bars_; }

 Q_SIGNALS:
  void barClicked(int index, const QString& name);

 protected:
  void syncData() override;
  void fitView() override;
  QString hoverLabel(QCPAbstractPlottable* plottable, int dataIndex) const override;
  CsvTable csvTable() const override;
  void resizeEvent(QResizeEvent* event) override;
  void logScaleChanged() override { dirty_ = true; }

 private:
  void setBarColor(const QColor& color);
  void updateTicks();

  QStringList names_;
  std::vector<double> values_;
  QCPBars* bars_ = nullptr;
  QCPBars* highlight_ = nullptr;
  int highlighted_ = -1;
  QCPItemStraightLine* refLine_ = nullptr;
  double refValue_ = std::numeric_limits<double>::quiet_NaN();
  bool dirty_ = false;
};

}  // namespace lwb::widgets
