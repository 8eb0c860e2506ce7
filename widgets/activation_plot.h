// Activation max |entry| and max per-token RMS per block (dashboard plot 5), log-y, with
// the largest finite value of low-precision formats drawn as labelled horizontal lines:
// fp4 E2M1 (6), fp8 E4M3 (448), fp8 E5M2 (57344), bf16 (≈3.39e38). The y range covers the
// data and every format limit up to the first one above the data; limits above that are
// listed as "off scale" in a note, so bf16 never squashes the data into one pixel row.
#pragma once

#include "widgets/multi_run_plot.h"

#include <map>

class QCPItemStraightLine;

namespace lwb::widgets {

struct NumberFormatLimit {
  QString name;      // "fp8 E4M3"
  double maxFinite;  // largest finite magnitude
};

class ActivationPlot : public MultiRunPlot {
  Q_OBJECT

 public:
  explicit ActivationPlot(QWidget* parent = nullptr);

  // fp4 E2M1, fp8 E4M3, fp8 E5M2, bf16, ascending.
  static const std::vector<NumberFormatLimit>& formatLimits();

  // One run's statistics at its latest evaluation: blocks in model order; vectors of
  // blocks.size() (shorter ones are padded with NaN, which is not drawn).
  void setActivations(const QString& runId, const QStringList& blocks, const std::vector<double>& maxEntry,
                      const std::vector<double>& maxRms);

  QStringList blocks() const { return blocks_; }
  // Format limits currently drawn / listed as off scale (after the last replot).
  QStringList visibleLimits() const { return visibleLimits_; }
  QStringList offScaleLimits() const { return offScaleLimits_; }

 protected:
  QList<QCPGraph*> createSeriesGraphs(const QString& runId, const QString& key) override;
  void syncData() override;
  void restyleRun(const RunStyle& style) override;
  void runRemoved(const QString& runId) override;
  void fitView() override;
  QString hoverLabel(QCPAbstractPlottable* plottable, int dataIndex) const override;
  CsvTable csvTable() const override;

 private:
  struct Stats {
    QStringList blocks;
    std::vector<double> maxEntry, maxRms;
  };
  void rebuild();
  void updateLimitLines(double dataUpper);

  std::map<QString, Stats> stats_;
  QStringList blocks_;
  QStringList visibleLimits_, offScaleLimits_;
  bool dirty_ = false;
  QList<QCPItemStraightLine*> limitLines_;
  QCPGraph* offScaleNote_ = nullptr;  // empty graph: its legend entry lists off-scale limits
  double yUpper_ = 1000;
  struct RunGraphs {
    QCPGraph* entry = nullptr;
    QCPGraph* rms = nullptr;
  };
  std::map<QString, RunGraphs> graphs_;
  RunGraphs& graphsFor(const QString& runId);
};

}  // namespace lwb::widgets
