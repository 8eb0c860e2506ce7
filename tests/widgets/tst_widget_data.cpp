// Pure data functions behind the plots: decimation, EMA, frontier, log histogram, bounded
// buffer, CSV text. Every expected value below is computed by hand (see the comments).
#include "widgets/csv_table.h"
#include "widgets/decimation.h"
#include "widgets/frontier.h"
#include "widgets/log_histogram.h"
#include "widgets/palette.h"
#include "widgets/series_buffer.h"
#include "widgets/smoothing.h"

#include <QtTest>

#include <cmath>
#include <limits>
#include <random>

using namespace lwb::widgets;

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
using V = std::vector<double>;
}  // namespace

class TestWidgetData : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void decimationKeepsColumnExtremes() {
    // x = 0..11, three columns of width 4 over [0, 12]:
    // col 0 (x 0-3) y 5,1,9,3 -> min (1,1), max (2,9); col 1 (x 4-7) y 2,8,4,6 -> (4,2),(5,8);
    // col 2 (x 8-11) y 7,0,3,3 -> max (8,7), min (9,0); emitted in x order.
    V xs = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
    V ys = {5, 1, 9, 3, 2, 8, 4, 6, 7, 0, 3, 3};
    const XYData d = decimateMinMax(xs, ys, 0, 12, 3);
    QCOMPARE(d.xs, (V{1, 2, 4, 5, 8, 9}));
    QCOMPARE(d.ys, (V{1, 9, 2, 8, 7, 0}));
  }

  void decimationKeepsNeighboursOutsideView() {
    // View [2, 9.5], two columns split at 5.75: neighbour (1,1); col 0 x 2-5 y 9,3,2,8 ->
    // (2,9),(4,2); col 1 x 6-9 y 4,6,7,0 -> (8,7),(9,0); neighbour (10,3). 6 = 2*2+2 points.
    V xs = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
    V ys = {5, 1, 9, 3, 2, 8, 4, 6, 7, 0, 3, 3};
    const XYData d = decimateMinMax(xs, ys, 2, 9.5, 2);
    QCOMPARE(d.xs, (V{1, 2, 4, 8, 9, 10}));
    QCOMPARE(d.ys, (V{1, 9, 2, 7, 0, 3}));
  }

  void decimationLogColumns() {
    // log10 x in [0, 2], two columns split at x = 10: col 0 x 1,2,5 y 3,1,4 -> (2,1),(5,4);
    // col 1 x 10,20,50,100 y 1,5,9,2 -> (10,1),(50,9).
    V xs = {1, 2, 5, 10, 20, 50, 100};
    V ys = {3, 1, 4, 1, 5, 9, 2};
    const XYData d = decimateMinMax(xs, ys, 1, 100, 2, true);
    QCOMPARE(d.xs, (V{2, 5, 10, 50}));
    QCOMPARE(d.ys, (V{1, 4, 1, 9}));
  }

  void decimationSkipsNonFinite() {
    // One column over [0, 10]; NaN/inf are never extremes: min (3,-1), max (6,4).
    V xs = {0, 1, 2, 3, 4, 5, 6, 7};
    V ys = {kNaN, 2, std::numeric_limits<double>::infinity(), -1, kNaN, 0, 4, 1};
    const XYData d = decimateMinMax(xs, ys, 0, 10, 1);
    QCOMPARE(d.xs, (V{3, 6}));
    QCOMPARE(d.ys, (V{-1, 4}));
  }

  void decimationLeavesSmallOrUnsortedInputAlone() {
    V xs = {0, 1, 2, 3, 4, 5};
    V ys = {1, 2, 3, 4, 5, 6};
    QCOMPARE(decimateMinMax(xs, ys, 0, 5, 2).xs, xs);  // 6 <= 2*2+2
    V unsorted = {0, 2, 1, 3, 4, 5, 6, 7};
    V ys8 = {1, 2, 3, 4, 5, 6, 7, 8};
    QCOMPARE(decimateMinMax(unsorted, ys8, 0, 7, 1).xs, unsorted);
    QCOMPARE(decimateMinMax(xs, ys, 5, 0, 1).xs, xs);  // empty interval
    QCOMPARE(decimateMinMax(xs, ys, 0, 5, 0).xs, xs);  // no columns
  }

  void decimationOfMillionPointsAgainstBruteForce() {
    // Every column's min and max must survive; the result is bounded by 2 * columns + 2.
    const std::size_t n = 1000000, columns = 800;
    V xs(n), ys(n);
    std::mt19937_64 rng(7);
    std::normal_distribution<double> noise;
    for (std::size_t i = 0; i < n; ++i) {
      xs[i] = static_cast<double>(i);
      ys[i] = std::sin(i * 1e-4) + 0.1 * noise(rng);
    }
    const double lo = 1000, hi = 900000;
    const XYData d = decimateMinMax(xs, ys, lo, hi, columns);
    QVERIFY(d.xs.size() <= 2 * columns + 2);
    QVERIFY(d.xs.size() >= columns);  // every column has points
    std::vector<double> colMin(columns, 1e300), colMax(columns, -1e300);
    for (std::size_t i = 1000; i <= 900000; ++i) {
      const auto c = std::min(columns - 1, static_cast<std::size_t>((xs[i] - lo) * columns / (hi - lo)));
      colMin[c] = std::min(colMin[c], ys[i]);
      colMax[c] = std::max(colMax[c], ys[i]);
    }
    std::vector<double> gotMin(columns, 1e300), gotMax(columns, -1e300);
    for (std::size_t i = 0; i < d.xs.size(); ++i) {
      if (d.xs[i] < lo || d.xs[i] > hi) continue;
      const auto c = std::min(columns - 1, static_cast<std::size_t>((d.xs[i] - lo) * columns / (hi - lo)));
      gotMin[c] = std::min(gotMin[c], d.ys[i]);
      gotMax[c] = std::max(gotMax[c], d.ys[i]);
    }
    QCOMPARE(gotMin, colMin);
    QCOMPARE(gotMax, colMax);
    QCOMPARE(d.xs.front(), lo - 1);  // neighbours outside the view
    QCOMPARE(d.xs.back(), hi + 1);
  }

  void emaMatchesHandComputation() {
    // w = 0.5: last = 0.5, 1.25, 2.125; debias 1 - 0.5^k = 0.5, 0.75, 0.875.
    const V s = emaSmooth({1, 2, 3}, 0.5);
    QCOMPARE(s.size(), std::size_t(3));
    QVERIFY(std::abs(s[0] - 1.0) < 1e-15);
    QVERIFY(std::abs(s[1] - 1.25 / 0.75) < 1e-15);
    QVERIFY(std::abs(s[2] - 2.125 / 0.875) < 1e-15);
    // w = 0.9 on 10, 0: last = 1, 0.9; debias 0.1, 0.19 -> 10, 0.9/0.19 = 4.7368...
    const V t = emaSmooth({10, 0}, 0.9);
    QVERIFY(std::abs(t[0] - 10.0) < 1e-12);
    QVERIFY(std::abs(t[1] - 0.9 / 0.19) < 1e-12);
  }

  void emaPassesNonFiniteThrough() {
    // NaN is shown as NaN and does not count: 3 is the 2nd value, (0.25 + 1.5) / 0.75.
    const V s = emaSmooth({1, kNaN, 3}, 0.5);
    QCOMPARE(s[0], 1.0);
    QVERIFY(std::isnan(s[1]));
    QVERIFY(std::abs(s[2] - 1.75 / 0.75) < 1e-15);
  }

  void emaEdgeWeights() {
    QCOMPARE(emaSmooth({1, 5, 2}, 0), (V{1, 5, 2}));
    QCOMPARE(emaSmooth({1, 5, 2}, kNaN), (V{1, 5, 2}));
    // Weight >= 1 clamps to 0.999; a constant stays constant (bias correction), to 1e-12.
    for (double v : emaSmooth({4, 4, 4, 4}, 1.5)) QVERIFY(std::abs(v - 4) < 1e-12);
  }

  void frontierBestPerBin() {
    // 1 bin per decade: bin 0 = {1, 1.5, 3} -> y 0.5, 0.4, 0.6 -> index 1;
    // bin 1 = {10, 12} -> 0.3, 0.35 -> index 3. x <= 0 and NaN y are skipped.
    const V xs = {1, 1.5, 3, 10, 12, 0, -1, 100};
    const V ys = {0.5, 0.4, 0.6, 0.3, 0.35, 0.1, 0.1, kNaN};
    QCOMPARE(bestPerLogBin(xs, ys, 1), (std::vector<std::size_t>{1, 3}));
    // 4 bins per decade: floor(4 log10 x) = 0, 0, 1, 4, 4 -> {0,1}->1, {2}->2, {3,4}->3.
    QCOMPARE(bestPerLogBin(xs, ys, 4), (std::vector<std::size_t>{1, 2, 3}));
    // Higher is better: {0.5,0.4,0.6} -> 2, {0.3,0.35} -> 4.
    QCOMPARE(bestPerLogBin(xs, ys, 1, false), (std::vector<std::size_t>{2, 4}));
    // Ties keep the first index; bins < 1 act as 1.
    QCOMPARE(bestPerLogBin({2, 3}, {0.4, 0.4}, 0), (std::vector<std::size_t>{0}));
    QVERIFY(bestPerLogBin({}, {}, 4).empty());
  }

  void logHistogramCountsAndDensity() {
    // Kept 1, 10, 100 (0, -5, NaN dropped); edges 1, 10, 100; counts 1, 2 (100 is in the
    // last bin); density = count / (3 * width) = 1/27, 2/270.
    const LogHistogram h = logHistogram({1, 10, 100, 0, -5, kNaN}, 2);
    QCOMPARE(h.edges, (V{1, 10, 100}));
    QCOMPARE(h.counts, (V{1, 2}));
    QVERIFY(std::abs(h.centres[0] - std::sqrt(10.0)) < 1e-12);
    QVERIFY(std::abs(h.centres[1] - std::sqrt(1000.0)) < 1e-12);
    QVERIFY(std::abs(h.density[0] - 1.0 / 27) < 1e-15);
    QVERIFY(std::abs(h.density[1] - 2.0 / 270) < 1e-15);
    // All equal: one bin [v/1.1, 1.1 v].
    const LogHistogram one = logHistogram({2, 2}, 5);
    QCOMPARE(one.counts, (V{2}));
    QVERIFY(std::abs(one.density[0] - 2.0 / (2 * (2.2 - 2 / 1.1))) < 1e-12);
    QVERIFY(logHistogram({0, -1}, 4).edges.empty());
  }

  void seriesBufferDropsOldestAndKeepsRanges() {
    SeriesBuffer b(3);
    b.append(1, 5);
    b.append(2, 1);
    b.append(3, 7);
    b.append(4, 3);  // drops (1, 5)
    QCOMPARE(b.size(), std::size_t(3));
    QCOMPARE(b.x(0), 2.0);
    QCOMPARE(b.yRange().lower, 1.0);
    QCOMPARE(b.yRange().upper, 7.0);
    b.append(5, 2);  // drops (2, 1), the minimum: range must shrink to [2, 7]
    QCOMPARE(b.yRange().lower, 2.0);
    QCOMPARE(b.yRange().upper, 7.0);
    QCOMPARE(b.xRange().lower, 3.0);
    QCOMPARE(b.xRange().upper, 5.0);
    b.append(6, -1);  // drops (3, 7), the maximum
    QCOMPARE(b.yRange().upper, 3.0);
    QCOMPARE(b.yRange().lower, -1.0);
    QCOMPARE(b.positiveYRange().lower, 2.0);
    QCOMPARE(b.positiveYRange().upper, 3.0);
    b.append(7, kNaN);  // kept, but not part of any range
    QCOMPARE(b.yRange().lower, -1.0);
    QCOMPARE(b.yRange().upper, 2.0);
    V xs, ys;
    b.copyTo(xs, ys);
    QCOMPARE(xs, (V{5, 6, 7}));
    b.setCapacity(2);
    b.copyTo(xs, ys);
    QCOMPARE(xs, (V{6, 7}));
    QCOMPARE(b.yRange().lower, -1.0);
    b.clear();
    QVERIFY(!b.yRange().valid);
    SeriesBuffer zero(0);  // capacity 0 acts as 1
    zero.append(1, 1);
    zero.append(2, 2);
    QCOMPARE(zero.size(), std::size_t(1));
  }

  void csvNumbersRoundTrip() {
    QCOMPARE(csvNumber(0.1), QStringLiteral("0.1"));
    QCOMPARE(csvNumber(448), QStringLiteral("448"));
    QCOMPARE(csvNumber(100000), QStringLiteral("100000"));
    QCOMPARE(csvNumber(-0.0125), QStringLiteral("-0.0125"));
    QCOMPARE(csvNumber(0), QStringLiteral("0"));
    QCOMPARE(csvNumber(1e20), QStringLiteral("1e+20"));
    QCOMPARE(csvNumber(1e-5), QStringLiteral("1e-05"));
    QCOMPARE(csvNumber(3.3895313892515355e38), QStringLiteral("3.3895313892515355e+38"));
    QCOMPARE(csvNumber(kNaN), QString());
  }

  void csvWideTableText() {
    const std::vector<CsvSeries> series = {{QStringLiteral("a"), {1, 2}, {0.5, 0.25}},
                                           {QStringLiteral("b,c"), {2, 3}, {1, kNaN}},
                                           {QStringLiteral("say \"hi\""), {}, {}}};
    QCOMPARE(toCsvText(wideTable(QStringLiteral("step"), series)),
             QStringLiteral("step,a,\"b,c\",\"say \"\"hi\"\"\"\n1,0.5,,\n2,0.25,1,\n3,,,\n"));
  }

  void paletteIsDistinct() {
    // Distinct colours for the first 16 runs (two passes through the 8 colours).
    QSet<QRgb> seen;
    for (int i = 0; i < 16; ++i) seen.insert(runColor(i).rgb());
    QCOMPARE(seen.size(), 16);
    QCOMPARE(runColor(-3), runColor(0));
    // The second pass through the hues is dashed as well as darker.
    for (int i = 0; i < 8; ++i) QCOMPARE(runPenStyle(i), Qt::SolidLine);
    for (int i = 8; i < 16; ++i) QCOMPARE(runPenStyle(i), Qt::DashLine);
    QCOMPARE(runPenStyle(-1), Qt::SolidLine);
    QCOMPARE(withAlpha(Qt::red, 300).alpha(), 255);
  }
};

QTEST_GUILESS_MAIN(TestWidgetData)
#include "tst_widget_data.moc"
