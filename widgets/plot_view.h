// PlotView: the common base of every plot. A QWidget holding a row of controls above one
// QCustomPlot, with zoom/pan (drag + wheel), a hover read-out of the nearest point, log
// axis toggles, PNG/PDF/CSV export, a context menu offering those, and cheap replots.
//
// Replot contract: setting data never replots. The owner calls requestReplot() when it
// wants the screen updated (the app throttles to <= 30/s); requestReplot() pushes pending
// data into QCustomPlot and queues one QCustomPlot::rpQueuedReplot, so any number of calls
// in one event-loop turn costs one replot. replotted() fires after each real replot.
//
// Data contract: subclasses hand series to setGraphData(); the base keeps the full data,
// drops non-positive values on log axes (shown as gaps, never a crash), and decimates
// series of >= setDecimationThreshold() points per pixel column (decimation.h) for the
// visible x range, redoing it when the view zooms, pans or resizes.
#pragma once

#include "widgets/csv_table.h"
#include "widgets/decimation.h"
#include "widgets/series_buffer.h"

#include <QHash>
#include <QPair>
#include <QPointF>
#include <QVector>
#include <QSharedPointer>
#include <QSize>
#include <QString>
#include <QWidget>

#include <cstddef>
#include <optional>
#include <unordered_map>
#include <vector>

class QFontMetrics;
class QCustomPlot;
class QCPAbstractPlottable;
class QCPAxis;
class QCPAxisTicker;
class QCPGraph;
class QCPItemText;
class QCPScatterStyle;
class QCheckBox;
class QContextMenuEvent;
class QCPTextElement;
class QHBoxLayout;
class QMenu;
class QMouseEvent;

namespace lwb::widgets {

// What the hover read-out shows: the series (and item, for bars/scatter) nearest the cursor.
struct HoverPoint {
  QString series;  // plottable name ("run-3 · train loss", "σ₁", …)
  QString label;   // extra line: layer / point label; may be empty
  double x = 0, y = 0;
};

class PlotView : public QWidget {
  Q_OBJECT

 public:
  explicit PlotView(QWidget* parent = nullptr);
  ~PlotView() override;

  // The underlying plot, for tests and for glue that needs something special.
  QCustomPlot* customPlot() const { return plot_; }

  // Pushes pending data and queues one replot (see the contract above).
  void requestReplot();
  // Pushes pending data and replots synchronously (exports, screenshots).
  void replotNow();

  // Log scale of the value axes this plot declares (logYAxes()); the "log y" check box and
  // the context menu follow. Non-positive values vanish from the plot while on.
  void setLogY(bool on);
  bool logY() const { return logY_; }
  // Log scale of the x axis, where the plot supports it (supportsLogX()).
  void setLogX(bool on);
  bool logX() const { return logX_; }
  bool supportsLogX() const { return supportsLogX_; }

  // View range. Plots follow their data ("auto range") until the user zooms or pans, or
  // until setXRange() is called; resetView() (double-click, context menu) fits the data
  // again and resumes following.
  void setXRange(double lower, double upper);
  void resetView();
  bool autoRange() const { return autoRange_; }

  // Nearest point (pixel distance, within maxPixelDistance) among the data plottables, in
  // widget coordinates of customPlot(). Decorations (reference lines, bands) never match.
  std::optional<HoverPoint> nearestPoint(const QPointF& pixel, double maxPixelDistance = 24) const;

  // Export of the plot area (controls row excluded). width/height 0: the current size
  // (640×400 when the widget has never been laid out). Return false (and set *error) on
  // failure: unwritable path, zero size.
  bool savePng(const QString& path, int width = 0, int height = 0, QString* error = nullptr);
  bool savePdf(const QString& path, int width = 0, int height = 0, QString* error = nullptr);
  // The plotted data as CSV text with a header row of series names (csv_table.h).
  QString toCsv() const;
  bool exportCsv(const QString& path, QString* error = nullptr) const;

  void setTitle(const QString& title);
  QString title() const;

  // While no data plottable holds a point: `text` in the middle of the plot and no tick
  // numbers on the x and y axes (an empty log axis otherwise shows 10⁻³ … 10⁰, which reads
  // as data). Empty text: off (the default).
  void setEmptyText(const QString& text);
  bool showsEmptyText() const;
  QString emptyText() const { return emptyText_; }
  // The empty text as drawn: wrapped at spaces to the axis rect's width.
  QString emptyTextShown() const;

  // Series with at least this many points are decimated before drawing (default 100000).
  void setDecimationThreshold(std::size_t points);

  // The context menu (Reset view, Log y, Log x, Save PNG…, Save PDF…, Export CSV…).
  QMenu* createContextMenu(QWidget* parent = nullptr);

 Q_SIGNALS:
  void replotted();
  // The x range changed, by the user, setXRange() or auto range (PlotLinker listens).
  void xRangeChanged(double lower, double upper);
  // Auto range switched off (user zoom/pan, setXRange) or back on (resetView).
  void autoRangeChanged(bool on);
  void logYChanged(bool on);
  void logXChanged(bool on);
  // The hover read-out moved to a point (nullopt-free: emitted only when one is found).
  void pointHovered(const lwb::widgets::HoverPoint& point);

 protected:
  // Called by requestReplot()/replotNow() before drawing: push pending data here.
  virtual void syncData() {}
  // Fit the view to the data (auto range). Default: rescale all axes over the positive
  // domain on log axes, with a little padding.
  virtual void fitView();
  // Data for toCsv(). Default: wideTable(x axis label or "x", every data graph's full data).
  virtual CsvTable csvTable() const;
  // Hover detail for a data point (default: empty).
  virtual QString hoverLabel(QCPAbstractPlottable* plottable, int dataIndex) const;
  // Value axes that "log y" switches (default: customPlot()->yAxis).
  virtual QList<QCPAxis*> logYAxes() const;
  // Called after the log state changed, before the replot (e.g. to refit ranges).
  virtual void logScaleChanged() {}

  // Sets a graph's data (xs ascending for line graphs). Keeps the full data for CSV,
  // log filtering and re-decimation. Unequal lengths use the shorter.
  void setGraphData(QCPGraph* graph, std::vector<double> xs, std::vector<double> ys);
  // The same, copying into the storage kept from the previous call: for live series
  // re-pushed at every replot, where fresh 10^6-point allocations (page faults) cost more
  // than the copy.
  void assignGraphData(QCPGraph* graph, const std::vector<double>& xs, const std::vector<double>& ys);
  // Straight from a live buffer into the kept storage: one copy per push.
  void assignGraphData(QCPGraph* graph, const SeriesBuffer& buffer);
  // Full (undecimated, unfiltered) data of a graph set through setGraphData.
  const XYData* graphSource(const QCPGraph* graph) const;
  void forgetGraph(QCPGraph* graph);  // before removing a graph from the plot
  // Sets a graph's scatter style, drawn from a pre-rendered pixmap on screen: an
  // antialiased outlined circle costs ~5 µs to rasterise, a pixmap blit a fraction of that,
  // which matters for the Clip Lab's 2×256 markers redrawn on every update. PDF export
  // swaps the vector style back in; HiDPI screens (device pixel ratio ≠ 1) keep it.
  void setFastScatter(QCPGraph* graph, const QCPScatterStyle& style);

  // Excludes a plottable from hover, legend and CSV (reference lines, bands, raw series).
  static void markDecoration(QCPAbstractPlottable* plottable);
  static bool isDecoration(const QCPAbstractPlottable* plottable);

  // An empty graph that only shows `name` with this pen/scatter in the legend: explains a
  // line style, a run colour or an item (reference lines are items, not plottables).
  QCPGraph* addLegendProxy(const QString& name, const QPen& pen, const QCPScatterStyle* scatter = nullptr);
  // Labels for reference values (σmax, number-format limits) as ticks on the axis opposite
  // `parallel` (yAxis -> yAxis2, xAxis -> xAxis2), which follows its range and scale, so
  // the labels sit outside the data area and never cover data. Empty list hides the axis.
  void setReferenceTicks(QCPAxis* parallel, const QVector<QPair<double, QString>>& ticks);

  void setSupportsLogX(bool on);
  // Plots whose values are never log-scaled (the scalar map) hide the "Log y" box.
  void setLogYToggleVisible(bool visible);
  // Widens axis ranges by `fraction` of their span (a factor on log axes) so markers at
  // the edge stay visible; a zero span gets a sensible width.
  static void padAxes(const QList<QCPAxis*>& axes, double fraction = 0.04);
  // Sets the axis to [lower, upper] widened the same way; lower == upper (one point) is fine.
  static void fitAxis(QCPAxis* axis, double lower, double upper, double fraction = 0.04);
  // The row of controls above the plot; subclasses add their sliders/combos at the front.
  QHBoxLayout* controlsLayout() const { return controls_; }
  // The "Log x" and "Log y" boxes, for a subclass that lays its whole control row out itself
  // (the spectrum's wraps onto more lines in a narrow panel).
  QList<QWidget*> logBoxes() const;
  // Makes the legend sit outside the axis rect (on the right or below), never over data.
  // Below: `wrap` entries per row.
  enum class LegendPlace { None, Right, Below };
  void placeLegend(LegendPlace place, int wrap = 4);
  // Right while the plot is wide, below (two entries a row) once the side legend would take
  // more than 40 % of the width: on a 1280×720 screen the weight-norm legend beside its plot
  // left the plot 27 px. Back to the right when the legend would take under 25 %.
  void placeLegendRightWhenWide();

  // An axis label with a short form for when the long one does not fit along its axis
  // rect (a value axis of a short panel cut "Lipschitz bound" to "Lipschitz bour"). Chosen
  // at every layout; the short form is used only while the long one would overflow.
  void setAxisLabel(QCPAxis* axis, const QString& full, const QString& shortForm);

  void contextMenuEvent(QContextMenuEvent* event) override;

 private:
  bool fitAxisLabels();
  bool fitLegendPlace();
  void pushGraph(QCPGraph* graph, const XYData& source);
  void pushAllGraphs();
  void redecimate();
  void syncAndFit();
  void applyLogScales();
  void setAxisLog(QCPAxis* axis, bool on);
  QSize exportSize(int width, int height) const;
  bool checkWritable(const QString& path, QString* error) const;
  void onMouseMove(QMouseEvent* event);
  void setAutoRange(bool on);
  void saveWithDialog(const QString& kind);

  QCustomPlot* plot_ = nullptr;
  QHBoxLayout* controls_ = nullptr;
  QCheckBox* logYBox_ = nullptr;
  QCheckBox* logXBox_ = nullptr;
  bool logY_ = false, logX_ = false, supportsLogX_ = false;
  bool autoRange_ = true;
  bool fitting_ = false;   // our own range changes are not user interaction
  bool dragging_ = false;  // left button held on the plot: range changes are the user's
  std::size_t decimationThreshold_ = 100000;
  int decimationColumns_ = -1;  // axis rect width the last decimation used
  std::unordered_map<QCPGraph*, XYData> sources_;
  QHash<QCPGraph*, QSharedPointer<QCPScatterStyle>> vectorScatters_;  // setFastScatter's graphs
  QHash<QCPAxis*, QSharedPointer<QCPAxisTicker>> linearTickers_;  // restored when log goes off
  QHash<QCPAxis*, QPair<QString, QString>> axisLabels_;             // setAxisLabel: full, short
  QString title_;
  QCPTextElement* titleElement_ = nullptr;
  QString emptyText_;
  QCPItemText* emptyItem_ = nullptr;
  void updateEmptyState();
  void fitEmptyText();
  // `text` broken between words into lines no wider than `width` (a word wider than that
  // keeps a line of its own; '\n' starts a line); unchanged while the plot has no width yet.
  static QString wrapWords(const QString& text, const QFontMetrics& metrics, int width);
};

}  // namespace lwb::widgets
