// MultiRunPlot: a PlotView that shows several runs at once, one colour per run (given by
// the caller), with live series kept in bounded buffers (series_buffer.h).
//
// Series are keyed by (run id, series key); a subclass creates the graph(s) for a key in
// createSeriesGraphs() and draws a buffer in pushSeries(). Appends only mark a series
// dirty; requestReplot() pushes dirty series once.
#pragma once

#include "widgets/plot_view.h"
#include "widgets/series_buffer.h"

#include <QColor>
#include <QMap>
#include <QString>
#include <QStringList>

#include <map>
#include <memory>
#include <utility>

namespace lwb::widgets {

struct RunStyle {
  QString id;     // the caller's run id (e.g. the run directory name)
  QString label;  // shown in legends and hover
  QColor color;
};

class MultiRunPlot : public PlotView {
  Q_OBJECT

 public:
  explicit MultiRunPlot(QWidget* parent = nullptr);
  ~MultiRunPlot() override;

  // Adds a run or updates its label/colour. Data for an unknown run id adds the run with
  // runColor(n) and its id as the label.
  void setRun(const QString& runId, const QString& label, const QColor& color);
  void removeRun(const QString& runId);
  void clearRuns();
  QStringList runIds() const;  // in the order added
  RunStyle runStyle(const QString& runId) const;
  bool hasRun(const QString& runId) const;

  // Points kept per series (default 200000); the oldest are dropped beyond it.
  void setCapacity(std::size_t points);
  std::size_t capacity() const { return capacity_; }

  // Number of points kept in one series (0 if none): for tests and status displays.
  std::size_t seriesSize(const QString& runId, const QString& key) const;

 protected:
  struct LiveSeries {
    SeriesBuffer buffer;
    QList<QCPGraph*> graphs;  // made by createSeriesGraphs(); removed with the run
    bool dirty = true;
    QList<QCPGraph*> dotted;  // graphs syncData gave a dot for their single point
    explicit LiveSeries(std::size_t capacity) : buffer(capacity) {}
  };
  using SeriesId = std::pair<QString, QString>;  // (run id, series key)

  void appendPoint(const QString& runId, const QString& key, double x, double y);
  // Replaces a series' content (e.g. loading a finished run).
  void setSeries(const QString& runId, const QString& key, const std::vector<double>& xs,
                 const std::vector<double>& ys);
  LiveSeries* series(const QString& runId, const QString& key);
  const std::map<SeriesId, std::unique_ptr<LiveSeries>>& allSeries() const { return series_; }
  // Marks every series dirty (e.g. the smoothing weight changed).
  void invalidateSeries();

  // Creates the graphs for a new series (style them with the run's colour).
  virtual QList<QCPGraph*> createSeriesGraphs(const QString& runId, const QString& key) = 0;
  // Draws a series into its graphs. Default: the buffer into graphs.front().
  virtual void pushSeries(const QString& runId, const QString& key, LiveSeries& series);
  // A run's label or colour changed: restyle its graphs.
  virtual void restyleRun(const RunStyle& style);
  // Called after a run's series were removed (drop any per-run items).
  virtual void runRemoved(const QString& runId) {}

  void syncData() override;
  void fitView() override;
  CsvTable csvTable() const override;

 private:
  void ensureRun(const QString& runId);
  QList<RunStyle> runs_;
  std::map<SeriesId, std::unique_ptr<LiveSeries>> series_;
  std::size_t capacity_ = 200000;

};

}  // namespace lwb::widgets
