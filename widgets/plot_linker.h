// Keeps the x ranges of several plots in sync (the dashboard links its step axes).
// When the user zooms or pans one plot (or setXRange() is called), every other linked plot
// takes the same x range and stops following its data; resetView() on any of them resets
// them all. Plots following their data (auto range) fit themselves and are not forced onto
// each other, so plots of the same steps never fight over a range.
#pragma once

#include <QObject>
#include <QPointer>
#include <QVector>

namespace lwb::widgets {

class PlotView;

class PlotLinker : public QObject {
  Q_OBJECT

 public:
  explicit PlotLinker(QObject* parent = nullptr);

  // Adding a plot twice is a no-op; a deleted plot drops out by itself.
  void add(PlotView* plot);
  void remove(PlotView* plot);
  QVector<PlotView*> plots() const;

 private:
  void propagateRange(PlotView* source, double lower, double upper);
  void propagateReset(PlotView* source);

  QVector<QPointer<PlotView>> plots_;
  bool propagating_ = false;
};

}  // namespace lwb::widgets
