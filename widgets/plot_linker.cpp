#include "widgets/plot_linker.h"

#include "widgets/plot_view.h"

namespace lwb::widgets {

PlotLinker::PlotLinker(QObject* parent) : QObject(parent) {}

void PlotLinker::add(PlotView* plot) {
  if (!plot || plots().contains(plot)) return;
  plots_.append(plot);
  connect(plot, &PlotView::xRangeChanged, this,
          [this, plot](double lower, double upper) { propagateRange(plot, lower, upper); });
  connect(plot, &PlotView::autoRangeChanged, this, [this, plot](bool on) {
    if (on) propagateReset(plot);
  });
  connect(plot, &QObject::destroyed, this, [this] {
    plots_.removeIf([](const QPointer<PlotView>& p) { return p.isNull(); });
  });
}

void PlotLinker::remove(PlotView* plot) {
  if (!plot) return;
  plot->disconnect(this);
  plots_.removeIf([plot](const QPointer<PlotView>& p) { return p == plot; });
}

QVector<PlotView*> PlotLinker::plots() const {
  QVector<PlotView*> out;
  for (const auto& p : plots_)
    if (p) out.append(p.data());
  return out;
}

void PlotLinker::propagateRange(PlotView* source, double lower, double upper) {
  // A plot following its own data is not imposed on the others (see the header).
  if (propagating_ || source->autoRange()) return;
  propagating_ = true;
  for (PlotView* p : plots())
    if (p != source) p->setXRange(lower, upper);
  propagating_ = false;
}

void PlotLinker::propagateReset(PlotView* source) {
  if (propagating_) return;
  propagating_ = true;
  for (PlotView* p : plots())
    if (p != source) p->resetView();
  propagating_ = false;
}

}  // namespace lwb::widgets
