// PlotView behaviour through concrete plots: data in -> graph data out, log axes (and
// non-positive values on them), decimation of long series, bounded capacity, exports
// (PNG/PDF pixel size, exact CSV text), replot counting, linked x axes, hover read-out.
#include "widgets/curve_plot.h"
#include "widgets/loss_accuracy_plot.h"
#include "widgets/metric_plot.h"
#include "widgets/plot_linker.h"
#include "widgets/qcp.h"
#include "widgets/save_dialog.h"
#include "widgets/smoothing.h"
#include "widgets/spectrum_plot.h"

#include <QApplication>
#include <QFileDialog>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QTimer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace lwb::widgets;
using Metric = LossAccuracyPlot::Metric;

namespace {

QCPGraph* graphNamed(PlotView& plot, const QString& name) {
  for (int i = 0; i < plot.customPlot()->graphCount(); ++i)
    if (plot.customPlot()->graph(i)->name() == name) return plot.customPlot()->graph(i);
  return nullptr;
}

std::vector<double> values(QCPGraph* g) {
  std::vector<double> out;
  for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) out.push_back(it->value);
  return out;
}

std::vector<double> keys(QCPGraph* g) {
  std::vector<double> out;
  for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it) out.push_back(it->key);
  return out;
}

void showAndSettle(QWidget& w) {
  w.resize(800, 500);
  w.show();
  QVERIFY(QTest::qWaitForWindowExposed(&w));
  QCoreApplication::processEvents();
}

// Reaches PlotView's protected reference ticks and padding.
class ReferenceProbe : public PlotView {
 public:
  using PlotView::padAxes;
  using PlotView::setReferenceTicks;
};

}  // namespace

class TestPlotView : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void lossDataReachesGraphs() {
    LossAccuracyPlot plot;
    plot.setRun(QStringLiteral("a"), QStringLiteral("run A"), Qt::red);
    plot.setSmoothing(0);
    for (int s = 1; s <= 5; ++s) plot.appendPoint(QStringLiteral("a"), Metric::TrainLoss, s, 1.0 / s);
    plot.appendPoint(QStringLiteral("a"), Metric::ValAcc, 5, 0.75);
    QCPGraph* train = graphNamed(plot, QStringLiteral("run A · train loss"));
    QVERIFY(train);
    QCOMPARE(train->dataCount(), 0);  // appending never draws: the caller replots
    plot.requestReplot();
    QCOMPARE(keys(train), (std::vector<double>{1, 2, 3, 4, 5}));
    QCOMPARE(values(train), (std::vector<double>{1, 0.5, 1.0 / 3, 0.25, 0.2}));
    QCPGraph* acc = graphNamed(plot, QStringLiteral("run A · val acc"));
    QVERIFY(acc);
    QCOMPARE(acc->valueAxis(), plot.customPlot()->yAxis2);  // accuracy on the right axis
    QCOMPARE(values(acc), (std::vector<double>{0.75}));
    QCOMPARE(train->pen().color(), QColor(Qt::red));
    // Auto range covers the data with padding.
    QVERIFY(plot.customPlot()->xAxis->range().contains(1) && plot.customPlot()->xAxis->range().contains(5));
    QVERIFY(plot.customPlot()->yAxis->range().contains(0.2) && plot.customPlot()->yAxis->range().contains(1));
  }

  void smoothingDrawsEmaOverFaintRaw() {
    LossAccuracyPlot plot;
    const std::vector<double> ys = {4, 2, 3, 1, 2};
    plot.setSeries(QStringLiteral("a"), Metric::TrainLoss, {1, 2, 3, 4, 5}, ys);
    plot.setSmoothing(0.5);
    plot.requestReplot();
    QCPGraph* smooth = graphNamed(plot, QStringLiteral("a · train loss"));
    QCPGraph* raw = graphNamed(plot, QStringLiteral("a · train loss (raw)"));
    QVERIFY(smooth && raw);
    QCOMPARE(values(raw), ys);
    QCOMPARE(values(smooth), emaSmooth(ys, 0.5));
    QVERIFY(raw->pen().color().alpha() < 100);  // faint
    QVERIFY(raw->visible());
    // Validation series are sparse averages: drawn as they are, never smoothed.
    plot.setSeries(QStringLiteral("a"), Metric::ValLoss, {2, 4}, {3, 1});
    plot.requestReplot();
    QCOMPARE(values(graphNamed(plot, QStringLiteral("a · val loss"))), (std::vector<double>{3, 1}));
    QVERIFY(!graphNamed(plot, QStringLiteral("a · val loss (raw)"))->visible());
    // The raw series is a decoration: the read-out and CSV use the smoothed/full data.
    QVERIFY(!plot.nearestPoint(QPointF(-1000, -1000)));
    plot.setSmoothing(0);
    plot.requestReplot();
    QCOMPARE(values(smooth), ys);
    QVERIFY(!raw->visible());
    plot.setSmoothing(7);  // clamped
    QCOMPARE(plot.smoothing(), 0.999);
  }

  void logYSetsLogAxisAndDropsNonPositive() {
    MetricPlot plot;
    plot.setSeries(QStringLiteral("r"), {1, 2, 3, 4}, {1, 0, -2, 100});
    plot.requestReplot();
    QCPGraph* g = graphNamed(plot, QStringLiteral("r"));
    QCOMPARE(values(g), (std::vector<double>{1, 0, -2, 100}));
    QSignalSpy logSpy(&plot, &PlotView::logYChanged);
    plot.setLogY(true);
    QCOMPARE(logSpy.count(), 1);
    QCOMPARE(plot.customPlot()->yAxis->scaleType(), QCPAxis::stLogarithmic);
    const std::vector<double> v = values(g);
    QCOMPARE(v.size(), std::size_t(4));  // gaps, not removed keys: the line breaks there
    QCOMPARE(v[0], 1.0);
    QVERIFY(std::isnan(v[1]) && std::isnan(v[2]));
    QCOMPARE(v[3], 100.0);
    const QCPRange y = plot.customPlot()->yAxis->range();
    QVERIFY(y.lower > 0 && y.lower < 1 && y.upper > 100);
    QString error;
    QTemporaryDir dir;
    QVERIFY(plot.savePng(dir.filePath(QStringLiteral("log.png")), 300, 200, &error));  // draws without crashing
    plot.setLogY(false);
    QCOMPARE(plot.customPlot()->yAxis->scaleType(), QCPAxis::stLinear);
    QCOMPARE(values(g), (std::vector<double>{1, 0, -2, 100}));
  }

  void logTicksLabelShortRanges() {
    // A loss between 1.5 and 3 on a log axis must still get labelled ticks.
    MetricPlot plot;
    plot.setSeries(QStringLiteral("r"), {1, 2}, {1.5, 3});
    plot.setLogY(true);
    showAndSettle(plot);  // a tall axis: a short one asks for fewer ticks (boundPanelAxesReadableInADock)
    plot.replotNow();
    QVector<double> ticks;
    QVector<QString> labels;
    plot.customPlot()->yAxis->ticker()->generate(QCPRange(1.5, 3), QLocale::c(), QLatin1Char('e'), 0, ticks, nullptr,
                                                 &labels);
    QCOMPARE(ticks, (QVector<double>{1.5, 2, 2.5, 3}));
    QCOMPARE(labels, (QVector<QString>{QStringLiteral("1.5"), QStringLiteral("2"), QStringLiteral("2.5"), QStringLiteral("3")}));
    plot.customPlot()->yAxis->ticker()->generate(QCPRange(0.05, 2000), QLocale::c(), QLatin1Char('e'), 0, ticks, nullptr,
                                                 &labels);
    QCOMPARE(ticks, (QVector<double>{0.1, 1, 10, 100, 1000}));
    // Many decades, every other one labelled: counted from the top, so data near the top
    // (here 0.3) sits within a decade of a label (10⁻¹), not two below the last (10⁻²).
    plot.customPlot()->yAxis->ticker()->generate(QCPRange(1e-10, 0.5), QLocale::c(), QLatin1Char('e'), 0, ticks, nullptr,
                                                 &labels);
    QCOMPARE(ticks.size(), 5);
    QCOMPARE(ticks.back(), 0.1);
    QCOMPARE(labels.back(), QStringLiteral("10⁻¹"));
    // Issue 32: in German, powers read 10ⁿ (not "1E+00") and mantissas take the decimal comma.
    const QLocale german(QLocale::German, QLocale::Germany);
    plot.customPlot()->yAxis->ticker()->generate(QCPRange(0.05, 2000), german, QLatin1Char('e'), 0, ticks, nullptr, &labels);
    QCOMPARE(labels, (QVector<QString>{QStringLiteral("10⁻¹"), QStringLiteral("10⁰"), QStringLiteral("10¹"),
                                       QStringLiteral("10²"), QStringLiteral("10³")}));
    plot.customPlot()->yAxis->ticker()->generate(QCPRange(1.5, 3), german, QLatin1Char('e'), 0, ticks, nullptr, &labels);
    QCOMPARE(labels, (QVector<QString>{QStringLiteral("1,5"), QStringLiteral("2"), QStringLiteral("2,5"), QStringLiteral("3")}));
  }

  // Issue 32: reference labels on the right axis sat above or below their lines (the
  // Newton–Schulz tab's "1" ~20 px off). The right axis follows the left one's range; fitView
  // then padded every axis of the rect in QCPAxisRect::axes()' QHash order, so where the
  // right came after the left it was padded twice and its labels drifted, from one process
  // to the next. Here the order is forced (left, then right) and the labels are measured.
  void referenceLabelsSitAtTheirLines() {
    ReferenceProbe plot;
    QCustomPlot* p = plot.customPlot();
    p->yAxis->setRange(0, 1);
    plot.setReferenceTicks(p->yAxis, {{0.25, QStringLiteral("a")}, {1.0, QStringLiteral("b")}});
    ReferenceProbe::padAxes({p->yAxis, p->yAxis2});
    showAndSettle(plot);
    p->replot(QCustomPlot::rpImmediateRefresh);
    QVERIFY(p->yAxis2->visible());
    for (double v : {0.25, 1.0}) {
      const double line = p->yAxis->coordToPixel(v), label = p->yAxis2->coordToPixel(v);
      QVERIFY2(std::abs(line - label) <= 0.5, qPrintable(QStringLiteral("%1: line at %2 px, label at %3 px").arg(v).arg(line).arg(label)));
    }
  }

  // Issue 32 (Attention Lab): an empty log plot showed 10⁻³ … 10⁰ as if it held data. With
  // an empty text it says what to do and shows no numbers until a point arrives.
  void emptyStateShowsTextNotNumbers() {
    MetricPlot plot;
    plot.setLogY(true);
    plot.setEmptyText(QStringLiteral("No points yet"));
    plot.replotNow();
    QVERIFY(plot.showsEmptyText());
    QVERIFY(!plot.customPlot()->yAxis->tickLabels() && !plot.customPlot()->xAxis->tickLabels());
    plot.setSeries(QStringLiteral("r"), {1, 2}, {0.5, 2});
    plot.replotNow();
    QVERIFY(!plot.showsEmptyText());
    QVERIFY(plot.customPlot()->yAxis->tickLabels() && plot.customPlot()->xAxis->tickLabels());
    MetricPlot plain;  // not opted in: unchanged
    plain.replotNow();
    QVERIFY(!plain.showsEmptyText() && plain.customPlot()->yAxis->tickLabels());
  }

  // Found at 1024 px in German: the empty text ran past the axis rect and was cut, and the
  // Activations panel's format limit line ran through its words.
  void emptyTextWrapsToTheAxisRect() {
    MetricPlot plot;
    const QString text = QStringLiteral("Noch kein Lauf (F5 startet einen)");
    plot.setEmptyText(text);
    plot.resize(600, 300);
    showAndSettle(plot);
    plot.replotNow();
    QCOMPARE(plot.emptyTextShown(), text);  // room enough: one line
    plot.resize(200, 300);
    QCoreApplication::processEvents();
    plot.replotNow();
    const QString shown = plot.emptyTextShown();
    QVERIFY2(shown.contains(QLatin1Char('\n')), qPrintable(shown));
    QCOMPARE(QString(shown).replace(QLatin1Char('\n'), QLatin1Char(' ')), text);  // no word lost
    const QFontMetrics metrics(plot.customPlot()->font());
    for (const QString& line : shown.split(QLatin1Char('\n')))
      QVERIFY2(metrics.horizontalAdvance(line) <= plot.customPlot()->axisRect()->width(), qPrintable(line));
    plot.resize(600, 300);
    QCoreApplication::processEvents();
    plot.replotNow();
    QCOMPARE(plot.emptyTextShown(), text);  // and back when there is room again
  }

  void logXOnlyWhereSupported() {
    MetricPlot plot;  // step axis: no log x
    QVERIFY(!plot.supportsLogX());
    plot.setLogX(true);
    QVERIFY(!plot.logX());
    QCOMPARE(plot.customPlot()->xAxis->scaleType(), QCPAxis::stLinear);
  }

  void longSeriesAreDecimatedPerPixel() {
    MetricPlot plot;
    showAndSettle(plot);
    const std::size_t n = 150000;  // above the decimation threshold, below the default capacity
    std::vector<double> xs(n), ys(n);
    for (std::size_t i = 0; i < n; ++i) {
      xs[i] = static_cast<double>(i);
      ys[i] = std::sin(i * 1e-3);
    }
    ys[123456] = 50;  // one-point spikes, up and down, must survive decimation
    ys[134567] = -30;
    plot.setSeries(QStringLiteral("r"), xs, ys);
    plot.replotNow();
    QCPGraph* g = graphNamed(plot, QStringLiteral("r"));
    const int columns = plot.customPlot()->axisRect()->width();
    QVERIFY(columns > 100);
    QVERIFY2(g->dataCount() <= 2 * columns + 2, qPrintable(QString::number(g->dataCount())));
    QVERIFY2(g->dataCount() >= columns, qPrintable(QStringLiteral("%1 points, %2 columns").arg(g->dataCount()).arg(columns)));
    const std::vector<double> v = values(g);
    QCOMPARE(*std::max_element(v.begin(), v.end()), 50.0);
    QCOMPARE(*std::min_element(v.begin(), v.end()), -30.0);
    // Zoomed in, decimation covers the visible range only: the drawn keys stay inside it
    // except for one neighbour on each side.
    plot.setXRange(1000, 2000);
    const std::vector<double> k = keys(g);
    const auto outside = std::count_if(k.begin(), k.end(), [](double x) { return x < 1000 || x > 2000; });
    QVERIFY2(outside == 2, qPrintable(QStringLiteral("%1 outside, first %2 last %3 n %4").arg(outside).arg(k.front()).arg(k.back()).arg(k.size())));
    QVERIFY(g->dataCount() <= 1001 + 2);  // the visible points at most, plus the neighbours
    // CSV exports the full data, not the drawing.
    QCOMPARE(plot.toCsv().count(QLatin1Char('\n')), static_cast<int>(n) + 1);
  }

  void capacityDropsOldestPoints() {
    MetricPlot plot;
    plot.setCapacity(100);
    for (int s = 0; s < 150; ++s) plot.appendPoint(QStringLiteral("r"), s, s * 2.0);
    QCOMPARE(plot.seriesSize(QStringLiteral("r"), QString()), std::size_t(100));
    plot.requestReplot();
    QCPGraph* g = graphNamed(plot, QStringLiteral("r"));
    QCOMPARE(g->dataCount(), 100);
    QCOMPARE(g->data()->constBegin()->key, 50.0);
    // The cached range forgot the dropped points: auto range starts near step 50.
    QVERIFY(plot.customPlot()->xAxis->range().lower > 45);
  }

  void csvExportIsExact() {
    MetricPlot plot;
    plot.setAxisLabels(QStringLiteral("step"), QStringLiteral("val loss"));
    plot.setRun(QStringLiteral("r1"), QStringLiteral("run 1"), Qt::blue);
    plot.setRun(QStringLiteral("r2"), QStringLiteral("b,c"), Qt::red);
    plot.appendPoint(QStringLiteral("r1"), 1, 0.5);
    plot.appendPoint(QStringLiteral("r1"), 2, 0.25);
    plot.appendPoint(QStringLiteral("r2"), 2, 1);
    const QString expected = QStringLiteral("step,run 1,\"b,c\"\n1,0.5,\n2,0.25,1\n");
    QCOMPARE(plot.toCsv(), expected);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("data.csv"));
    QVERIFY(plot.exportCsv(path));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(f.readAll()), expected);
    QString error;
    QVERIFY(!plot.exportCsv(dir.filePath(QStringLiteral("missing/dir/data.csv")), &error));
    QVERIFY(error.contains(QStringLiteral("missing/dir")));
  }

  void pngAndPdfExport() {
    LossAccuracyPlot plot;
    plot.setSeries(QStringLiteral("a"), Metric::TrainLoss, {1, 2, 3}, {3, 2, 1.5});
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("plot.png"));
    QString error;
    QVERIFY2(plot.savePng(png, 640, 360, &error), qPrintable(error));
    const QImage image(png);
    QCOMPARE(image.size(), QSize(640, 360));
    // Not blank: the series colour appears somewhere.
    bool coloured = false;
    for (int y = 0; y < image.height() && !coloured; ++y)
      for (int x = 0; x < image.width() && !coloured; ++x) coloured = QColor(image.pixel(x, y)).hsvSaturation() > 100;
    QVERIFY(coloured);
    const QString pdf = dir.filePath(QStringLiteral("plot.pdf"));
    QVERIFY2(plot.savePdf(pdf, 640, 360, &error), qPrintable(error));
    QFile f(pdf);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QVERIFY(f.size() > 1000);
    QCOMPARE(f.read(5), QByteArray("%PDF-"));
    // Default size when never shown; a bad folder is refused with the path in the message.
    QVERIFY(plot.savePng(png));
    QCOMPARE(QImage(png).size(), QSize(640, 400));
    QVERIFY(!plot.savePng(dir.filePath(QStringLiteral("no/such/dir/x.png")), 10, 10, &error));
    QVERIFY(error.contains(QStringLiteral("no/such/dir")));
  }

  // Spectrum markers are blitted from a pixmap in the graph's colour on screen; a PDF export
  // draws them as vectors and leaves the on-screen pixmap in place.
  void fastScatterMarkers() {
    SpectrumPlot plot;
    plot.addSnapshot(QStringLiteral("r"), QStringLiteral("W"), 0, {3, 2, 1}, {4, 3, 2});
    plot.replotNow();
    QCPGraph* after = nullptr;
    for (int i = 0; i < plot.customPlot()->graphCount(); ++i)
      if (plot.customPlot()->graph(i)->scatterStyle().shape() == QCPScatterStyle::ssPixmap) after = plot.customPlot()->graph(i);
    QVERIFY(after);
    const QImage marker = after->scatterStyle().pixmap().toImage();
    const QColor want = after->pen().color();
    bool inColour = false;
    for (int y = 0; y < marker.height(); ++y)
      for (int x = 0; x < marker.width(); ++x) {
        const QColor c = marker.pixelColor(x, y);
        inColour = inColour || (c.alpha() > 200 && std::abs(c.red() - want.red()) + std::abs(c.green() - want.green()) + std::abs(c.blue() - want.blue()) < 30);
      }
    QVERIFY(inColour);
    QTemporaryDir dir;
    QString error;
    QVERIFY2(plot.savePdf(dir.filePath(QStringLiteral("s.pdf")), 400, 300, &error), qPrintable(error));
    QCOMPARE(after->scatterStyle().shape(), QCPScatterStyle::ssPixmap);
  }

  void replotsAreQueuedAndCounted() {
    LossAccuracyPlot plot;
    showAndSettle(plot);
    QTest::qWait(50);
    QSignalSpy spy(&plot, &PlotView::replotted);
    // 10 000 steps arrive: appending alone never replots.
    for (int s = 1; s <= 10000; ++s) plot.appendPoint(QStringLiteral("a"), Metric::TrainLoss, s, 1.0 + 1.0 / s);
    QCoreApplication::processEvents();
    QCOMPARE(spy.count(), 0);
    // Fifty requests within one event-loop turn coalesce into one replot.
    for (int i = 0; i < 50; ++i) plot.requestReplot();
    QCOMPARE(spy.count(), 0);
    QTRY_COMPARE(spy.count(), 1);
    QTest::qWait(50);
    QCOMPARE(spy.count(), 1);
    plot.replotNow();
    QCOMPARE(spy.count(), 2);
  }

  void linkedPlotsShareUserXRange() {
    LossAccuracyPlot a;
    LossAccuracyPlot b;
    for (int s = 1; s <= 100; ++s) {
      a.appendPoint(QStringLiteral("r"), Metric::TrainLoss, s, 1.0);
      b.appendPoint(QStringLiteral("r"), Metric::TrainLoss, s * 2, 1.0);
    }
    a.requestReplot();
    b.requestReplot();
    PlotLinker linker;
    linker.add(&a);
    linker.add(&b);
    linker.add(&a);  // no-op
    QCOMPARE(linker.plots().size(), 2);
    // Both follow their own data: nothing is forced across.
    QVERIFY(b.customPlot()->xAxis->range().upper > 190);
    a.setXRange(10, 20);
    QCOMPARE(b.customPlot()->xAxis->range().lower, 10.0);
    QCOMPARE(b.customPlot()->xAxis->range().upper, 20.0);
    QVERIFY(!a.autoRange() && !b.autoRange());
    // New data does not move a user-chosen range.
    b.appendPoint(QStringLiteral("r"), Metric::TrainLoss, 500, 1.0);
    b.requestReplot();
    QCOMPARE(b.customPlot()->xAxis->range().upper, 20.0);
    // Reset on one resets all; they follow their data again.
    b.resetView();
    QVERIFY(a.autoRange() && b.autoRange());
    QVERIFY(b.customPlot()->xAxis->range().upper >= 500);
    QVERIFY(a.customPlot()->xAxis->range().upper < 150);
  }

  void wheelZoomPropagatesThroughLinker() {
    MetricPlot a;
    MetricPlot b;
    showAndSettle(a);
    showAndSettle(b);
    for (int s = 0; s <= 100; ++s) {
      a.appendPoint(QStringLiteral("r"), s, s);
      b.appendPoint(QStringLiteral("r"), s, s);
    }
    a.replotNow();
    b.replotNow();
    PlotLinker linker;
    linker.add(&a);
    linker.add(&b);
    const QPoint centre = a.customPlot()->axisRect()->rect().center();
    QWheelEvent wheel(centre, a.customPlot()->mapToGlobal(centre), QPoint(), QPoint(0, 240), Qt::NoButton, Qt::NoModifier,
                      Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(a.customPlot(), &wheel);
    const QCPRange ra = a.customPlot()->xAxis->range();
    QVERIFY(ra.size() < 90);  // zoomed in
    QVERIFY(!a.autoRange());
    QCOMPARE(b.customPlot()->xAxis->range().lower, ra.lower);
    QCOMPARE(b.customPlot()->xAxis->range().upper, ra.upper);
  }

  void hoverFindsNearestPoint() {
    MetricPlot plot;
    plot.setRun(QStringLiteral("r"), QStringLiteral("run R"), Qt::darkGreen);
    showAndSettle(plot);
    plot.setSeries(QStringLiteral("r"), {1, 2, 3}, {10, 20, 15});
    plot.replotNow();
    QCPGraph* g = graphNamed(plot, QStringLiteral("run R"));
    const QPointF p2 = g->coordsToPixels(2, 20);
    const auto hit = plot.nearestPoint(p2 + QPointF(3, -2));
    QVERIFY(hit.has_value());
    QCOMPARE(hit->series, QStringLiteral("run R"));
    QCOMPARE(hit->x, 2.0);
    QCOMPARE(hit->y, 20.0);
    const QPointF p3 = g->coordsToPixels(3, 15);
    QCOMPARE(plot.nearestPoint(p3 + QPointF(-4, 4))->x, 3.0);
    // Far from every point (but inside the plot): nothing.
    const QPointF empty = g->coordsToPixels(1.5, 19);
    QVERIFY(!plot.nearestPoint(empty, 10).has_value());
    QSignalSpy spy(&plot, &PlotView::pointHovered);
    QTest::mouseMove(plot.customPlot(), p2.toPoint());
    QTRY_COMPARE(spy.count(), 1);
  }

  // An empty legend under the plot once capped the layout column at its own few pixels,
  // so a plot with no data yet was drawn as a narrow strip (seen in the first screenshots).
  void emptyPlotsUseTheirWholeWidth() {
    SpectrumPlot spectrum;
    spectrum.resize(600, 300);
    showAndSettle(spectrum);
    spectrum.replotNow();
    QVERIFY2(spectrum.customPlot()->axisRect()->width() > 400, qPrintable(QString::number(spectrum.customPlot()->axisRect()->width())));
    spectrum.addSnapshot(QStringLiteral("r"), QStringLiteral("L"), 1, {3, 2, 1, 0.5});
    spectrum.replotNow();
    QVERIFY(spectrum.customPlot()->axisRect()->width() > 400);
  }

  // A title wider than its plot was cut at both ends on a 1024-px projector ("r map f(σ) and
  // the input's singular v"): it now breaks between words, keeps every word, and goes back
  // to one line when the plot is wide again.
  void longTitlesWrapInNarrowPlots() {
    CurvePlot plot;
    const QString title = QStringLiteral("Scalar map f(σ) and the input's singular values");
    plot.setTitle(title);
    showAndSettle(plot);
    auto* element = qobject_cast<QCPTextElement*>(plot.customPlot()->plotLayout()->element(0, 0));
    QVERIFY(element);
    plot.replotNow();
    QCOMPARE(element->text(), title);
    plot.resize(200, 300);
    QCoreApplication::processEvents();
    plot.replotNow();
    const QStringList lines = element->text().split(QLatin1Char('\n'));
    QVERIFY2(lines.size() >= 2, qPrintable(element->text()));
    QCOMPARE(lines.join(QLatin1Char(' ')), title);
    const QFontMetrics metrics(element->font());
    for (const QString& line : lines)
      QVERIFY2(metrics.horizontalAdvance(line) <= plot.customPlot()->viewport().width(), qPrintable(line));
    QCOMPARE(plot.title(), title);
    plot.resize(800, 500);
    QCoreApplication::processEvents();
    plot.replotNow();
    QCOMPARE(element->text(), title);
  }

  // "shot" typed in the export dialog was saved as shot.png over an existing shot.png without
  // a question (the suffix was added after the dialog's check); files derived from a chosen
  // name (name-loss.png) were replaced silently too.
  void savingNeverReplacesAFileUnasked() {
    QTemporaryDir dir;
    const QString shot = dir.filePath(QStringLiteral("shot.png"));
    QFile f(shot);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("precious");
    f.close();
    bool asked = false;
    // The dialog takes "shot" and accepts; its question about shot.png is answered No; then
    // the dialog is cancelled.
    QTimer::singleShot(300, [&] {
      auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
      QVERIFY(dialog);
      QTimer::singleShot(300, [&] {
        auto* question = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
        asked = question != nullptr;
        if (question) question->reject();
      });
      auto* name = dialog->findChild<QLineEdit*>(QStringLiteral("fileNameEdit"));  // what the user types into
      QVERIFY(name);
      name->setText(QStringLiteral("shot"));
      QMetaObject::invokeMethod(dialog, "accept", Qt::DirectConnection);  // as the Save button does
      if (dialog->isVisible()) dialog->reject();
    });
    QCOMPARE(getSavePath(nullptr, QStringLiteral("Export plot"), dir.path(), QStringLiteral("PNG image (*.png)"), QStringLiteral("png")),
             QString());
    QVERIFY(asked);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), QByteArray("precious"));
    f.close();

    QVERIFY(confirmReplacing(nullptr, {dir.filePath(QStringLiteral("absent.png"))}));  // nothing to replace: no question
    QTimer::singleShot(200, [] {
      if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
        QVERIFY(box->text().contains(QLatin1String("shot.png")));
        box->button(QMessageBox::Cancel)->click();
      }
    });
    QVERIFY(!confirmReplacing(nullptr, {dir.filePath(QStringLiteral("absent.png")), shot}));
  }

  void contextMenuOffersExports() {
    MetricPlot plot;
    QMenu* menu = plot.createContextMenu();
    QStringList texts;
    for (QAction* a : menu->actions()) texts << a->text();
    for (const char* t : {"Reset view", "Log y", "Save as PNG…", "Save as PDF…", "Export data as CSV…"})
      QVERIFY2(texts.contains(QString::fromUtf8(t)), t);
    QVERIFY(!texts.contains(QStringLiteral("Log x")));  // step axis
    delete menu;
  }
};

QTEST_MAIN(TestPlotView)
#include "tst_plot_view.moc"
