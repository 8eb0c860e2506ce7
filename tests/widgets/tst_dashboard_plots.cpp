// The specific plots: weight norms against the σmax target, spectrum snapshots + scrubber +
// density mode, Lipschitz bound + per-layer trace, activation format limits, scalar map,
// bar chart, bound-vs-loss scatter with its frontier. Data in -> QCustomPlot data out.
#include "widgets/number_format.h"
#include "widgets/activation_plot.h"
#include "widgets/bar_chart_plot.h"
#include "widgets/frontier.h"
#include "widgets/frontier_scatter_plot.h"
#include "widgets/lipschitz_bound_plot.h"
#include "widgets/loss_accuracy_plot.h"
#include "widgets/log_histogram.h"
#include "widgets/qcp.h"
#include "widgets/scalar_map_plot.h"
#include "widgets/spectrum_plot.h"
#include "widgets/weight_norm_plot.h"
#include "../support/legend_fit.h"  // this suite has no tests/ include path

#include <QComboBox>
#include <QSignalSpy>
#include <QSlider>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <limits>

using namespace lwb::widgets;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
using V = std::vector<double>;

QCPGraph* graphNamed(PlotView& plot, const QString& name) {
  for (int i = 0; i < plot.customPlot()->graphCount(); ++i)
    if (plot.customPlot()->graph(i)->name() == name) return plot.customPlot()->graph(i);
  return nullptr;
}

template <typename Plottable>
V values(Plottable* p) {
  V out;
  for (auto it = p->data()->constBegin(); it != p->data()->constEnd(); ++it) out.push_back(it->value);
  return out;
}

template <typename Plottable>
V keys(Plottable* p) {
  V out;
  for (auto it = p->data()->constBegin(); it != p->data()->constEnd(); ++it) out.push_back(it->key);
  return out;
}

QStringList legendNames(PlotView& plot) {
  QStringList names;
  QCPLegend* legend = plot.customPlot()->legend;
  for (int i = 0; i < legend->itemCount(); ++i)
    if (auto* item = qobject_cast<QCPPlottableLegendItem*>(legend->item(i))) names << item->plottable()->name();
  return names;
}

QVector<QString> tickLabels(QCPAxis* axis) {
  QVector<QString> labels;
  for (auto it = axis->ticker().dynamicCast<QCPAxisTickerText>()->ticks().cbegin();
       it != axis->ticker().dynamicCast<QCPAxisTickerText>()->ticks().cend(); ++it)
    labels << it.value();
  return labels;
}

}  // namespace

class TestDashboardPlots : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  // A run evaluated once so far (a Manifold Muon run's Activation RMS at its only evaluation,
  // step 80): one point per series. It was invisible — a line through one point draws
  // nothing, and QCustomPlot ignored the zero-width x range, leaving 0 … 5. Now the point is
  // a dot inside the axes; a second point makes it a line again.
  void singlePointIsADotInView() {
    WeightNormPlot plot;
    plot.setLogY(true);
    plot.appendStep(QStringLiteral("r"), 80, {QStringLiteral("embed"), QStringLiteral("mlp")}, {1.45, 0.2});
    plot.requestReplot();
    QCPGraph* embed = graphNamed(plot, QStringLiteral("embed"));
    QVERIFY(embed);
    QVERIFY(!embed->scatterStyle().isNone());
    const QCPRange x = plot.customPlot()->xAxis->range(), y = plot.customPlot()->yAxis->range();
    QVERIFY2(x.contains(80) && x.size() < 40, qPrintable(QStringLiteral("%1 … %2").arg(x.lower).arg(x.upper)));
    QVERIFY(y.contains(1.45) && y.contains(0.2));
    plot.appendStep(QStringLiteral("r"), 100, {QStringLiteral("embed"), QStringLiteral("mlp")}, {1.5, 0.25});
    plot.requestReplot();
    QVERIFY(embed->scatterStyle().isNone());
    QVERIFY(plot.customPlot()->xAxis->range().contains(80) && plot.customPlot()->xAxis->range().contains(100));
  }

  void weightNormsPerLayerAndTarget() {
    WeightNormPlot plot;
    const QStringList layers = {QStringLiteral("l0"), QStringLiteral("l1"), QStringLiteral("head")};
    plot.appendStep(QStringLiteral("r"), 10, layers, {0.5, 0.7, 0.9});
    plot.appendStep(QStringLiteral("r"), 20, layers, {0.6, 0.8, 1.0});
    plot.setTarget(1.0, 0.25);
    plot.requestReplot();
    QCOMPARE(plot.layers(), layers);
    QCPGraph* l1 = graphNamed(plot, QStringLiteral("l1"));
    QVERIFY(l1);
    QCOMPARE(keys(l1), (V{10, 20}));
    QCOMPARE(values(l1), (V{0.7, 0.8}));
    // One run: the legend names the layers and the target.
    QCOMPARE(legendNames(plot), (QStringList{QStringLiteral("l0"), QStringLiteral("l1"), QStringLiteral("head"),
                                             QStringLiteral("σmax target")}));
    // The target stays in view even though no norm reaches above 1.0.
    QVERIFY(plot.customPlot()->yAxis->range().upper > 1.0);
    QVERIFY(plot.customPlot()->yAxis->range().lower < 0.25);
    QCOMPARE(tickLabels(plot.customPlot()->yAxis2), (QVector<QString>{QStringLiteral("σmin"), QStringLiteral("σmax")}));
    // A second run: lines take run colours, hover names the layer.
    plot.setRun(QStringLiteral("s"), QStringLiteral("run S"), Qt::magenta);
    plot.appendPoint(QStringLiteral("s"), QStringLiteral("l0"), 10, 0.4);
    plot.requestReplot();
    QCPGraph* s0 = graphNamed(plot, QStringLiteral("run S · l0"));
    QVERIFY(s0);
    QCOMPARE(s0->pen().color(), QColor(Qt::magenta));
    // Lines no longer named one by one: the legend says how to read them (issue 32).
    QVERIFY(legendNames(plot).contains(QStringLiteral("colour: run · hover a line for its layer")));
    WeightNormPlot many;
    for (int l = 0; l < 20; ++l) many.appendPoint(QStringLiteral("mm"), QStringLiteral("w%1").arg(l), 1, 1.0);
    many.requestReplot();
    QCOMPARE(legendNames(many), QStringList{QStringLiteral("20 layers: hover a line for its name")});
    WeightNormPlot ten;  // a 10-layer model: the 9th and 10th layers repeat hues, dashed
    for (int l = 0; l < 10; ++l) ten.appendPoint(QStringLiteral("t"), QStringLiteral("w%1").arg(l), 1, 1.0);
    QCOMPARE(graphNamed(ten, QStringLiteral("w0"))->pen().style(), Qt::SolidLine);
    QCOMPARE(graphNamed(ten, QStringLiteral("w8"))->pen().style(), Qt::DashLine);
    plot.setTarget(kNaN);
    QCOMPARE(legendNames(plot).contains(QStringLiteral("σmax target")), false);
  }

  // A projector's 1280×720 left the weight-norm plot 27 px beside its legend: a narrow plot
  // puts the legend below, a wide one back on the right.
  void sideLegendMovesBelowWhenNarrow() {
    WeightNormPlot plot;
    const QStringList layers = {QStringLiteral("embed (not held to σmax)"), QStringLiteral("blocks.0.attn.q"),
                                QStringLiteral("blocks.0.mlp.in"), QStringLiteral("head")};
    plot.appendStep(QStringLiteral("r"), 10, layers, {1.2, 1.0, 0.9, 0.8});
    plot.appendStep(QStringLiteral("r"), 20, layers, {1.3, 1.1, 0.9, 0.8});
    const auto below = [&] { return plot.customPlot()->legend->property("lwbLegendWrap").toInt() > 0; };
    plot.resize(1200, 400);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    plot.replotNow();
    QCoreApplication::processEvents();
    QVERIFY(!below());
    plot.resize(300, 400);
    QTRY_VERIFY(below());
    QTRY_VERIFY2(plot.customPlot()->axisRect()->width() > 150, qPrintable(QString::number(plot.customPlot()->axisRect()->width())));
    plot.resize(1400, 400);
    QTRY_VERIFY(!below());
  }

  // An embedding at its own cap (~15) beside σmax-held matrices (~1) flattened them into one
  // line on a linear axis: norms more than a decade apart switch to log once; a scale chosen
  // by the user (before or after) is kept.
  void weightNormsSpanningADecadeSwitchToLogOnce() {
    const QStringList layers = {QStringLiteral("embed"), QStringLiteral("l0")};
    WeightNormPlot plot;
    plot.appendStep(QStringLiteral("r"), 10, layers, {1.2, 1.0});
    plot.requestReplot();
    QCoreApplication::processEvents();
    QVERIFY(!plot.logY());  // within a decade: linear
    plot.appendStep(QStringLiteral("r"), 20, layers, {15.8, 1.0});
    plot.requestReplot();
    QTRY_VERIFY(plot.logY());
    QVERIFY(plot.customPlot()->yAxis->scaleType() == QCPAxis::stLogarithmic);
    plot.setLogY(false);  // the user's choice from here on
    plot.appendStep(QStringLiteral("r"), 30, layers, {16.0, 0.9});
    plot.requestReplot();
    QCoreApplication::processEvents();
    QVERIFY(!plot.logY());
    WeightNormPlot chosen;
    chosen.setLogY(true);
    chosen.setLogY(false);
    chosen.appendStep(QStringLiteral("r"), 10, layers, {15.8, 1.0});
    chosen.requestReplot();
    QCoreApplication::processEvents();
    QVERIFY(!chosen.logY());
  }

  void spectrumSnapshotsAndScrubber() {
    SpectrumPlot plot;
    QSignalSpy layerSpy(&plot, &SpectrumPlot::layerSelected);
    plot.setRun(QStringLiteral("a"), QStringLiteral("run A"), Qt::blue);
    plot.addSnapshot(QStringLiteral("a"), QStringLiteral("w1"), 10, {1, 3, 2}, {1, 5, 2});
    plot.addSnapshot(QStringLiteral("a"), QStringLiteral("w1"), 20, {0.5, 2, 1}, {0.5, 4, 1});
    plot.addSnapshot(QStringLiteral("a"), QStringLiteral("w2"), 10, {7, 6});
    plot.setSigmaMax(2.5);
    plot.requestReplot();
    QCOMPARE(plot.layers(), (QStringList{QStringLiteral("w1"), QStringLiteral("w2")}));
    QCOMPARE(plot.currentLayer(), QStringLiteral("w1"));
    QCOMPARE(layerSpy.count(), 1);
    QCOMPARE(plot.steps(), (std::vector<qint64>{10, 20}));
    QCOMPARE(plot.currentStep(), qint64(20));  // follows the newest snapshot
    QCPGraph* after = graphNamed(plot, QStringLiteral("after constraint"));
    QCPGraph* before = graphNamed(plot, QStringLiteral("before constraint"));
    QVERIFY(after && before);
    // Ranked: sorted descending against rank 1, 2, 3.
    QCOMPARE(keys(after), (V{1, 2, 3}));
    QCOMPARE(values(after), (V{2, 1, 0.5}));
    QCOMPARE(values(before), (V{4, 1, 0.5}));
    QCOMPARE(plot.customPlot()->yAxis->scaleType(), QCPAxis::stLogarithmic);
    QCOMPARE(tickLabels(plot.customPlot()->yAxis2), (QVector<QString>{QStringLiteral("σmax")}));
    QVERIFY(plot.customPlot()->yAxis->range().contains(2.5));
    // Scrubber: moving it shows the older snapshot and says so.
    auto* slider = plot.findChild<QSlider*>();
    QVERIFY(slider && slider->isVisibleTo(&plot));
    QCOMPARE(slider->maximum(), 1);
    QSignalSpy stepSpy(&plot, &SpectrumPlot::stepSelected);
    slider->setValue(0);
    QCOMPARE(stepSpy.count(), 1);
    QCOMPARE(stepSpy.at(0).at(0).toLongLong(), qint64(10));
    QCOMPARE(values(after), (V{3, 2, 1}));
    // Not following any more: a new snapshot does not move the view.
    plot.addSnapshot(QStringLiteral("a"), QStringLiteral("w1"), 30, {9});
    plot.requestReplot();
    QCOMPARE(plot.currentStep(), qint64(10));
    plot.setCurrentStep(27);  // nearest recorded step
    QCOMPARE(plot.currentStep(), qint64(30));
    // Layer combo box.
    auto* combo = plot.findChildren<QComboBox*>().front();
    combo->setCurrentText(QStringLiteral("w2"));
    QCOMPARE(plot.currentLayer(), QStringLiteral("w2"));
    QCOMPARE(layerSpy.count(), 2);
    QCOMPARE(values(after), (V{7, 6}));
    QVERIFY(!slider->isVisibleTo(&plot));  // one snapshot: nothing to scrub
    plot.setCurrentLayer(QStringLiteral("nope"));  // ignored
    QCOMPARE(plot.currentLayer(), QStringLiteral("w2"));
  }

  void spectrumZeroValuesOnLogAxis() {
    SpectrumPlot plot;
    plot.addSnapshot(QStringLiteral("a"), QStringLiteral("w"), 0, {2, 0, 1, -0.0});  // rank-deficient
    plot.requestReplot();
    QCPGraph* after = graphNamed(plot, QStringLiteral("after constraint"));
    const V v = values(after);
    QCOMPARE(v.size(), std::size_t(4));
    QCOMPARE(v[0], 2.0);
    QCOMPARE(v[1], 1.0);
    QVERIFY(std::isnan(v[2]) && std::isnan(v[3]));  // not drawable on log y: gaps
    QVERIFY(plot.customPlot()->yAxis->range().lower > 0);
  }

  void spectrumDensityMode() {
    SpectrumPlot plot;
    const V sv = {0.1, 0.2, 0.4, 0.8, 1.6, 3.2, 6.4, 12.8};
    plot.addSnapshot(QStringLiteral("a"), QStringLiteral("w"), 0, sv);
    plot.setDensityBins(4);
    plot.setMode(SpectrumPlot::Mode::Density);
    plot.requestReplot();
    QVERIFY(plot.logX() && plot.logY());
    QCOMPARE(plot.customPlot()->xAxis->scaleType(), QCPAxis::stLogarithmic);
    QCPGraph* after = graphNamed(plot, QStringLiteral("after constraint"));
    const LogHistogram h = logHistogram(sv, 4);
    QCOMPARE(keys(after), h.centres);  // every bin holds 2 values: none dropped
    QCOMPARE(values(after), h.density);
    plot.setMode(SpectrumPlot::Mode::Ranked);
    plot.requestReplot();
    QVERIFY(!plot.logX());
    QCOMPARE(after->dataCount(), 8);
  }

  void boundOverStepsAndTrace() {
    LipschitzBoundPlot plot;
    plot.setRun(QStringLiteral("a"), QStringLiteral("run A"), Qt::darkCyan);
    for (int s = 1; s <= 4; ++s) plot.appendBound(QStringLiteral("a"), s * 10, std::pow(2.0, s));
    plot.setTrace(QStringLiteral("a"), 40,
                  {{QStringLiteral("embed"), 1, 1}, {QStringLiteral("block0"), 2, 2}, {QStringLiteral("head"), 4, 8}});
    plot.requestReplot();
    QCPGraph* bound = graphNamed(plot, QStringLiteral("run A"));
    QVERIFY(bound);
    QCOMPARE(values(bound), (V{2, 4, 8, 16}));
    QCOMPARE(plot.customPlot()->yAxis->scaleType(), QCPAxis::stLogarithmic);
    QCPBars* bars = nullptr;
    for (int i = 0; i < plot.customPlot()->plottableCount(); ++i)
      if (auto* b = qobject_cast<QCPBars*>(plot.customPlot()->plottable(i))) bars = b;
    QVERIFY(bars);
    QCOMPARE(keys(bars), (V{1, 2, 3}));
    QCOMPARE(values(bars), (V{1, 2, 4}));
    QCOMPARE(bars->keyAxis()->axisRect(), plot.traceAxisRect());
    QCOMPARE(tickLabels(plot.traceAxisRect()->axis(QCPAxis::atBottom)),
             (QVector<QString>{QStringLiteral("embed"), QStringLiteral("block0"), QStringLiteral("head")}));
    QCPGraph* running = graphNamed(plot, QStringLiteral("run A · bound after layer"));
    QVERIFY(running);
    QCOMPARE(values(running), (V{1, 2, 8}));
    QCOMPARE(running->valueAxis()->scaleType(), QCPAxis::stLogarithmic);
    QCOMPARE(plot.toCsv(), QStringLiteral("step,run A lipschitz_bound\n10,2\n20,4\n30,8\n40,16\n"));
  }

  // A transformer's App. D value (issue 13) is drawn beside the sound bound, dotted, labelled.
  void singleHeadBoundBesideTheSoundOne() {
    LipschitzBoundPlot plot;
    plot.setRun(QStringLiteral("a"), QStringLiteral("run A"), Qt::darkCyan);
    plot.appendBound(QStringLiteral("a"), 10, 40.0, 5.0);
    plot.appendBound(QStringLiteral("a"), 20, 80.0, 6.0);
    plot.appendBound(QStringLiteral("a"), 30, 90.0);  // none: nothing appended to it
    plot.requestReplot();
    QCOMPARE(values(graphNamed(plot, QStringLiteral("run A"))), (V{40, 80, 90}));
    QCPGraph* appD = graphNamed(plot, QStringLiteral("run A · App. D, single-head argument"));
    QVERIFY(appD);
    QCOMPARE(values(appD), (V{5, 6}));
    QCOMPARE(appD->pen().style(), Qt::DotLine);
    QCOMPARE(appD->pen().color(), QColor(Qt::darkCyan));
  }

  // The bound panel in a dock of the default dashboard (about 545 × 270) has two short axis
  // rects: "Lipschitz bound" was cut to "Lipschitz bour" and the trace's left and right tick
  // labels ran into each other. Every value axis's label fits its rect (the short form where
  // the long one cannot), ticks are a label's height apart, and a tall panel keeps the long
  // labels.
  void boundPanelAxesReadableInADock() {
    LipschitzBoundPlot plot;
    plot.setRun(QStringLiteral("a"), QStringLiteral("run A"), Qt::darkCyan);
    for (int s = 1; s <= 20; ++s) plot.appendBound(QStringLiteral("a"), s * 10, 20.0 + s);
    plot.setTrace(QStringLiteral("a"), 200,
                  {{QStringLiteral("layers.0"), 4.8, 4.8}, {QStringLiteral("head"), 4.9, 23.5}});
    const QList<QCPAxisRect*> rects{plot.customPlot()->axisRect(), plot.traceAxisRect()};
    for (const QSize size : {QSize(545, 270), QSize(900, 800)}) {
      plot.resize(size);
      plot.show();
      QVERIFY(QTest::qWaitForWindowExposed(&plot));
      plot.replotNow();
      QCoreApplication::processEvents();  // the queued replot with the chosen labels and ticks
      for (QCPAxisRect* rect : rects)
        for (QCPAxis* axis : rect->axes(QCPAxis::atLeft | QCPAxis::atRight)) {
          if (!axis->visible() || axis->label().isEmpty()) continue;
          const int need = QFontMetrics(axis->labelFont()).horizontalAdvance(axis->label());
          QVERIFY2(need <= rect->height(), qPrintable(QStringLiteral("%1×%2: '%3' needs %4 px of %5")
                                                          .arg(size.width()).arg(size.height()).arg(axis->label())
                                                          .arg(need).arg(rect->height())));
          const QVector<double> ticks = axis->tickVector();
          const int lineHeight = QFontMetrics(axis->tickLabelFont()).height();
          for (int i = 1; i < ticks.size(); ++i) {
            const double gap = std::abs(axis->coordToPixel(ticks[i]) - axis->coordToPixel(ticks[i - 1]));
            QVERIFY2(gap >= lineHeight, qPrintable(QStringLiteral("%1×%2: '%3' ticks %4 and %5 are %6 px apart (rect %7 px, range %8 … %9)")
                                                       .arg(size.width()).arg(size.height()).arg(axis->label())
                                                       .arg(ticks[i - 1]).arg(ticks[i]).arg(gap).arg(rect->height())
                                                       .arg(axis->range().lower).arg(axis->range().upper) + QStringLiteral(" count %1").arg(axis->ticker()->tickCount())));
          }
        }
    }
    QCOMPARE(plot.customPlot()->yAxis->label(), LipschitzBoundPlot::tr("Lipschitz bound"));
  }

  // What displayNumber writes reads back as its number, ·10ⁿ included (Compare sorts its
  // colour groups by it: "1·10⁻⁵" was no number, and a 1e-5 … 1e-4 sweep lost its ramp).
  void displayNumbersReadBack() {
    for (double v : {0.3, 1e-5, 3e-5, 1e-4, 2.5e10, -7.25, 0.0}) {
      const QString text = displayNumber(v, 'g', 10);
      const auto back = readDisplayNumber(text);
      QVERIFY2(back && std::abs(*back - v) <= 1e-12 * std::abs(v), qPrintable(text));
    }
    QCOMPARE(displayNumber(1e-5, 'g', 10), QStringLiteral("1·10⁻⁵"));
    QVERIFY(!readDisplayNumber(QStringLiteral("spectral soft cap")));
    QVERIFY(!readDisplayNumber(QStringLiteral("1·10x")));
  }

  // The status bar's "RAM 243.6 MiB" kept its point in German windows (a newcomer's trial).
  void bytesInTheLocalesNumbers() {
    const qint64 bytes = static_cast<qint64>(243.6 * 1024 * 1024);
    QCOMPARE(bytesText(bytes), QStringLiteral("243.6 MiB"));
    QLocale german(QLocale::German, QLocale::Germany);
    QLocale::setDefault(german);
    const QString de = bytesText(bytes);
    QLocale::setDefault(QLocale::c());
    QCOMPARE(de, QStringLiteral("243,6 MiB"));
    QCOMPARE(bytesText(3LL * 1024 * 1024 * 1024), QStringLiteral("3.0 GiB"));
    QCOMPARE(bytesText(-1), QStringLiteral("unknown"));
  }

  void activationLimitsFollowTheData() {
    ActivationPlot plot;
    const QStringList blocks = {QStringLiteral("b0"), QStringLiteral("b1")};
    plot.setRun(QStringLiteral("a"), QStringLiteral("A"), Qt::red);
    plot.setActivations(QStringLiteral("a"), blocks, {5, 50}, {1, 12});
    plot.requestReplot();
    QCOMPARE(plot.visibleLimits(), (QStringList{QStringLiteral("fp4 E2M1"), QStringLiteral("fp8 E4M3")}));
    // Exponents as ·10ⁿ (widgets::displayNumber, issue 32 §4).
    QCOMPARE(plot.offScaleLimits(), (QStringList{QStringLiteral("fp8 E5M2 (5.73·10⁴)"), QStringLiteral("bf16 (3.39·10³⁸)")}));
    QVERIFY(legendNames(plot).contains(QStringLiteral("off scale: fp8 E5M2 (5.73·10⁴),\nbf16 (3.39·10³⁸)")));
    QVERIFY(plot.customPlot()->yAxis->range().contains(448));
    QVERIFY(plot.customPlot()->yAxis->range().contains(1));
    QCPGraph* entry = graphNamed(plot, QStringLiteral("A · max |entry|"));
    QCOMPARE(keys(entry), (V{1, 2}));
    QCOMPARE(values(entry), (V{5, 50}));
    QCOMPARE(tickLabels(plot.customPlot()->xAxis), (QVector<QString>{QStringLiteral("b0"), QStringLiteral("b1")}));
    // Beyond fp8 E5M2: every limit up to bf16 is drawn, nothing off scale.
    plot.setActivations(QStringLiteral("a"), blocks, {5, 1e5}, {1, 12});
    plot.requestReplot();
    QCOMPARE(plot.visibleLimits().size(), 4);
    QVERIFY(plot.offScaleLimits().isEmpty());
    QVERIFY(plot.customPlot()->yAxis->range().contains(3.3895313892515355e38));
    QCOMPARE(ActivationPlot::formatLimits()[3].maxFinite, (2 - std::pow(2.0, -7)) * std::pow(2.0, 127));
    QCOMPARE(plot.toCsv(), QStringLiteral("block,A max_entry,A max_rms\nb0,5,1\nb1,100000,12\n"));
    // Short vectors are padded with NaN (not drawn), never read out of bounds.
    plot.setActivations(QStringLiteral("a"), blocks, {5}, {});
    plot.requestReplot();
    QCOMPARE(plot.toCsv(), QStringLiteral("block,A max_entry,A max_rms\nb0,5,\nb1,,\n"));
  }

  // Issue 32 §3: the Activations legend, two entries per row under a dock-sized plot, ran
  // out at the right edge ("shakespeare_normalize · max |ent"): the long off-scale note and
  // a run's entry side by side are wider than the dock. Entries per row now follow the
  // width; every entry is measured inside the plot at a dock's size and at a wide one.
  void activationLegendFitsTheDock() {
    ActivationPlot plot;
    const QString run = QStringLiteral("shakespeare_normalize_lr0.02");
    plot.setRun(QStringLiteral("a"), run, Qt::red);
    plot.setActivations(QStringLiteral("a"), {QStringLiteral("embed"), QStringLiteral("block0.attn")}, {5, 50}, {1, 12});
    for (const QSize size : {QSize(545, 300), QSize(1100, 300)}) {
      plot.resize(size);
      plot.show();
      QVERIFY(QTest::qWaitForWindowExposed(&plot));
      plot.requestReplot();
      QCoreApplication::processEvents();
      const QString cut = lwb::test::legendCut(plot.customPlot());
      QVERIFY2(cut.isEmpty(), qPrintable(QStringLiteral("%1×%2: %3").arg(size.width()).arg(size.height()).arg(cut)));
    }
    // Wide: the entries share rows again (two per row, as asked), not one per row.
    QCOMPARE(plot.customPlot()->legend->wrap(), 2);
  }

  void scalarMapCurvesAndMarkers() {
    ScalarMapPlot plot;
    plot.setCurve(QStringLiteral("hard cap"), {0, 1, 2}, {0, 1, 1});
    plot.setCurve(QStringLiteral("soft cap"), {0, 1, 2}, {0, 0.9, 1.2});
    plot.setMarkers({1.5, 0.5}, {1, 0.5}, QStringLiteral("hard cap"));
    plot.setSigmaMax(1);
    plot.requestReplot();
    QCOMPARE(plot.curveNames(), (QStringList{QStringLiteral("hard cap"), QStringLiteral("soft cap")}));
    QCPGraph* markers = graphNamed(plot, QStringLiteral("σᵢ of the matrix"));
    QVERIFY(markers);
    QCOMPARE(keys(markers), (V{0.5, 1.5}));
    QCOMPARE(values(markers), (V{0.5, 1}));
    QCOMPARE(markers->lineStyle(), QCPGraph::lsNone);
    QCOMPARE(markers->scatterStyle().pen().color(), graphNamed(plot, QStringLiteral("hard cap"))->pen().color());
    QCPGraph* identity = graphNamed(plot, QStringLiteral("y = x"));
    QCOMPARE(keys(identity), (V{0, 2}));
    QCOMPARE(values(identity), (V{0, 2}));
    QCOMPARE(tickLabels(plot.customPlot()->xAxis2), (QVector<QString>{QStringLiteral("σmax")}));
    QCOMPARE(plot.toCsv(), QStringLiteral("series,sigma,f_sigma\nhard cap,0,0\nhard cap,1,1\nhard cap,2,1\n"
                                          "hard cap markers,0.5,0.5\nhard cap markers,1.5,1\n"
                                          "soft cap,0,0\nsoft cap,1,0.9\nsoft cap,2,1.2\n"));
    plot.removeCurve(QStringLiteral("hard cap"));
    QCOMPARE(graphNamed(plot, QStringLiteral("hard cap")), nullptr);
    plot.clearCurves();
    QVERIFY(plot.curveNames().isEmpty());
  }

  void barChartLabelsAndReference() {
    BarChartPlot plot;
    plot.resize(500, 350);
    const QStringList names = {QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")};
    plot.setBars(names, {1.5, 0, 3});
    plot.setValueLabel(QStringLiteral("σ₁"));
    plot.setReferenceLine(2, QStringLiteral("σmax = 2"));
    plot.replotNow();
    QCOMPARE(keys(plot.bars()), (V{1, 2, 3}));
    QCOMPARE(values(plot.bars()), (V{1.5, 0, 3}));
    QCOMPARE(plot.customPlot()->xAxis->tickLabelRotation(), 0.0);  // short names fit
    QCOMPARE(tickLabels(plot.customPlot()->xAxis), names.toVector());
    QCOMPARE(tickLabels(plot.customPlot()->yAxis2), (QVector<QString>{QStringLiteral("σmax = 2")}));
    QCOMPARE(plot.toCsv(), QStringLiteral("name,σ₁\na,1.5\nb,0\nc,3\n"));
    plot.setLogY(true);
    plot.replotNow();
    QVERIFY(std::isnan(values(plot.bars())[1]));  // 0 has no place on a log axis
    QVERIFY(plot.customPlot()->yAxis->range().lower > 0);
    // Forty long names: rotated, elided keeping the tail, thinned to stay readable.
    QStringList many;
    for (int i = 0; i < 40; ++i) many << QStringLiteral("transformer.blocks.%1.attn.qkv_proj.weight").arg(i);
    plot.setBars(many, V(40, 1.0));
    plot.replotNow();
    QVERIFY(plot.customPlot()->xAxis->tickLabelRotation() > 0);
    const QVector<QString> labels = tickLabels(plot.customPlot()->xAxis);
    QVERIFY(labels.size() <= 40 && labels.size() >= 5);
    QVERIFY2(labels.front().startsWith(QStringLiteral("…")) && labels.front().endsWith(QStringLiteral("weight")),
             qPrintable(labels.front()));
    // Issue 32: the names take at most about a third of the height, the bars keep the rest,
    // and the value axis' labels never overlap (measured on the rendered axis).
    plot.resize(600, 300);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    QStringList fifty;
    for (int i = 0; i < 50; ++i) fifty << QStringLiteral("model.transformer.h.%1.attn.c_attn.weight").arg(i);
    plot.setBars(fifty, V(50, 2.0));
    plot.replotNow();
    plot.replotNow();  // ticks are chosen from the laid-out axis rect
    QVERIFY2(plot.customPlot()->axisRect()->height() >= plot.customPlot()->height() / 2,
             qPrintable(QStringLiteral("axis rect %1 of %2 px").arg(plot.customPlot()->axisRect()->height()).arg(plot.customPlot()->height())));
    QVector<double> yTicks = plot.customPlot()->yAxis->tickVector();
    const int lineHeight = QFontMetrics(plot.customPlot()->yAxis->tickLabelFont()).height();
    for (int i = 1; i < yTicks.size(); ++i)
      QVERIFY(std::abs(plot.customPlot()->yAxis->coordToPixel(yTicks[i]) - plot.customPlot()->yAxis->coordToPixel(yTicks[i - 1])) > lineHeight);
    plot.setBars(many, V(40, 1.0));
    // The hover read-out carries the full name.
    plot.setLogY(false);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    plot.replotNow();
    const QPointF bar = plot.bars()->dataPixelPosition(2);
    const auto hit = plot.nearestPoint(bar + QPointF(0, 5));
    QVERIFY(hit.has_value());
    QCOMPARE(hit->label, many[2]);
  }

  void scatterFrontier() {
    FrontierScatterPlot plot;
    std::vector<ScatterPoint> pts = {{QStringLiteral("soft_cap"), QStringLiteral("r1"), 1, 0.5},
                                     {QStringLiteral("soft_cap"), QStringLiteral("r2"), 1.5, 0.4},
                                     {QStringLiteral("wd"), QStringLiteral("r3"), 3, 0.6},
                                     {QStringLiteral("wd"), QStringLiteral("r4"), 10, 0.3},
                                     {QStringLiteral("wd"), QStringLiteral("r5"), 12, 0.35},
                                     {QStringLiteral("wd"), QStringLiteral("bad"), 0, 0.1}};
    plot.setPoints(pts);
    plot.setBinsPerDecade(1);
    plot.requestReplot();
    QVERIFY(plot.logX());
    QCOMPARE(plot.frontierIndices(), (std::vector<std::size_t>{1, 3}));
    QCPGraph* frontier = graphNamed(plot, QStringLiteral("frontier (best per bin)"));
    QCOMPARE(keys(frontier), (V{1.5, 10}));
    QCOMPARE(values(frontier), (V{0.4, 0.3}));
    QCPGraph* wd = graphNamed(plot, QStringLiteral("wd"));
    QCOMPARE(keys(wd), (V{3, 10, 12}));  // x = 0 has no place on log x
    QCPGraph* soft = graphNamed(plot, QStringLiteral("soft_cap"));
    QVERIFY(soft->scatterStyle().brush().color() != wd->scatterStyle().brush().color());
    plot.setGroupColor(QStringLiteral("wd"), Qt::black);
    plot.requestReplot();
    QCOMPARE(wd->scatterStyle().brush().color(), QColor(Qt::black));
    QCOMPARE(plot.toCsv(), QStringLiteral("group,label,Lipschitz bound,validation loss,frontier\n"
                                          "soft_cap,r1,1,0.5,0\nsoft_cap,r2,1.5,0.4,1\nwd,r3,3,0.6,0\n"
                                          "wd,r4,10,0.3,1\nwd,r5,12,0.35,0\nwd,bad,0,0.1,0\n"));
    QSignalSpy clicked(&plot, &FrontierScatterPlot::pointClicked);
    plot.resize(600, 400);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    plot.replotNow();
    const QPointF p = wd->coordsToPixels(12, 0.35);
    const auto hit = plot.nearestPoint(p);
    QVERIFY(hit.has_value());
    QCOMPARE(hit->label, QStringLiteral("r5"));
    QTest::mouseClick(plot.customPlot(), Qt::LeftButton, Qt::NoModifier, p.toPoint());
    QTRY_COMPARE(clicked.count(), 1);
    QCOMPARE(clicked.at(0).at(0).toInt(), 4);
  }

  // Issue 32 (Manifold Muon dashboard): the Stiefel band's axis shows the ±10⁻³ band, not
  // 1 … 1.05; a regression run (no accuracy) gets no accuracy axis; a reference level's
  // label at the top of the loss plot keeps room above its line.
  void stiefelBandAndRegressionAxes() {
    WeightNormPlot band;
    band.setTarget(1.0 + 1e-3, 1.0 - 1e-3);
    for (int step = 1; step <= 20; ++step) {
      band.appendPoint(QStringLiteral("r"), QStringLiteral("w σmax"), step, 1.0 + 3e-7);
      band.appendPoint(QStringLiteral("r"), QStringLiteral("w σmin"), step, 1.0 - 2e-7);
    }
    band.replotNow();
    const QCPRange y = band.customPlot()->yAxis->range();
    QVERIFY2(y.lower < 1.0 - 1e-3 && y.upper > 1.0 + 1e-3, qPrintable(QStringLiteral("%1 … %2").arg(y.lower).arg(y.upper)));
    QVERIFY2(y.size() < 4e-3, qPrintable(QStringLiteral("%1 … %2").arg(y.lower).arg(y.upper)));  // the band fills the plot

    LossAccuracyPlot loss;
    for (int step = 1; step <= 20; ++step) {
      loss.appendPoint(QStringLiteral("icl"), LossAccuracyPlot::Metric::TrainLoss, step, 4.0 - 0.1 * step);
      loss.appendPoint(QStringLiteral("icl"), LossAccuracyPlot::Metric::TrainAcc, step, NAN);
    }
    loss.setReferenceLevels({{5.0, QStringLiteral("predict 0")}});
    loss.replotNow();
    QVERIFY(!loss.customPlot()->yAxis2->visible());
    QVERIFY(loss.customPlot()->yAxis->range().upper >= 5.0 + 0.09 * loss.customPlot()->yAxis->range().size());
    loss.appendPoint(QStringLiteral("mnist"), LossAccuracyPlot::Metric::TrainAcc, 1, 0.5);
    loss.replotNow();
    QVERIFY(loss.customPlot()->yAxis2->visible());
  }

  // Issue 32: each trace row says how the bound before it and its factor give the bound after
  // it, with α read back for residual blocks (L ← (1 − α)L + αL·L_block).
  void traceRowsExplainTheirArithmetic() {
    const double alpha = 0.25, l0 = 2.0 * 3.0;
    const double l1 = (1 - alpha) * l0 + alpha * l0 * 5.0;  // 12
    const std::vector<TraceFactor> rows = {{QStringLiteral("layers.0"), 2.0, 2.0},
                                           {QStringLiteral("layers.1"), 3.0, l0},
                                           {QStringLiteral("block0.attn"), 5.0, l1},
                                           {QStringLiteral("broken"), NAN, NAN}};
    QVERIFY2(traceRowExplanation(rows, 0).contains(QStringLiteral("1 × 2 = 2")), qPrintable(traceRowExplanation(rows, 0)));
    QVERIFY2(traceRowExplanation(rows, 1).contains(QStringLiteral("2 × 3 = 6")), qPrintable(traceRowExplanation(rows, 1)));
    const QString residual = traceRowExplanation(rows, 2);
    QVERIFY2(residual.contains(QStringLiteral("α = 0.25")) && residual.contains(QStringLiteral("= 12")), qPrintable(residual));
    QVERIFY(traceRowExplanation(rows, 3).isEmpty());
    QVERIFY(traceRowExplanation(rows, 9).isEmpty());
  }

  // Issue 32: a frontier line joins only runs of one task (MNIST's bound 23 is no trade-off
  // against chars' 1e7): one line per task, none from one task's point to another's.
  void scatterFrontierPerTask() {
    FrontierScatterPlot plot;
    const auto pt = [](const char* label, double x, double y, const char* task) {
      ScatterPoint p{QStringLiteral("muon"), QString::fromLatin1(label), x, y, 0, QString::fromLatin1(task)};
      return p;
    };
    plot.setPoints({pt("m1", 23, 0.1, "mnist"), pt("c1", 1e7, 1.9, "chars"), pt("m2", 400, 0.08, "mnist"),
                    pt("c2", 3e4, 2.2, "chars")});
    plot.setBinsPerDecade(1);
    plot.requestReplot();
    QCOMPARE(plot.tasks(), (QStringList{QStringLiteral("mnist"), QStringLiteral("chars")}));
    QCOMPARE(plot.frontierIndices(), (std::vector<std::size_t>{0, 2, 3, 1}));
    // Every visible frontier line holds points of one task only.
    int lines = 0;
    for (int i = 0; i < plot.customPlot()->graphCount(); ++i) {
      QCPGraph* g = plot.customPlot()->graph(i);
      if (!g->visible() || g->lineStyle() == QCPGraph::lsNone || g->dataCount() == 0) continue;
      ++lines;
      const bool mnist = g->data()->at(0)->key < 1000;
      for (int k = 0; k < g->dataCount(); ++k) QCOMPARE(g->data()->at(k)->key < 1000, mnist);
    }
    QCOMPARE(lines, 2);
    plot.setFrontierPerGroup(true);
    plot.requestReplot();
    QCOMPARE(plot.frontierIndices(QStringLiteral("muon")), (std::vector<std::size_t>{0, 2, 3, 1}));
  }

  void emptyAndHostileInputNeverCrash() {
    // Every plot: no data, then non-finite values and mismatched lengths; replot, export.
    QTemporaryDir dir;
    WeightNormPlot norms;
    SpectrumPlot spectrum;
    LipschitzBoundPlot bound;
    ActivationPlot activations;
    ScalarMapPlot scalarMap;
    BarChartPlot bars;
    FrontierScatterPlot scatter;
    const QList<PlotView*> plots = {&norms, &spectrum, &bound, &activations, &scalarMap, &bars, &scatter};
    for (PlotView* p : plots) {
      p->replotNow();
      QVERIFY(p->savePng(dir.filePath(QStringLiteral("empty.png")), 200, 150));
      QVERIFY(!p->toCsv().isEmpty());  // at least the header
    }
    const double inf = std::numeric_limits<double>::infinity();
    norms.appendStep(QStringLiteral("r"), 1, {QStringLiteral("a"), QStringLiteral("b")}, {inf});  // shorter values
    norms.appendPoint(QStringLiteral("r"), QStringLiteral("b"), 2, kNaN);
    spectrum.addSnapshot(QStringLiteral("r"), QStringLiteral("w"), 0, {kNaN, inf, -1, 0});
    spectrum.setMode(SpectrumPlot::Mode::Density);  // nothing positive and finite: empty histogram
    bound.setTrace(QStringLiteral("r"), 0, {{QStringLiteral("x"), kNaN, -inf}});
    bound.appendBound(QStringLiteral("r"), 1, inf);
    activations.setActivations(QStringLiteral("r"), {QStringLiteral("b0")}, {inf}, {kNaN});
    scalarMap.setCurve(QStringLiteral("c"), {0, 1}, {0});
    scalarMap.setMarkers({1, 2, 3}, {1}, QStringLiteral("not a curve yet"));
    bars.setBars({QStringLiteral("a"), QStringLiteral("b")}, {kNaN});
    scatter.setPoints({{QStringLiteral("g"), QString(), -1, kNaN}, {QStringLiteral("g"), QString(), inf, 1}});
    for (PlotView* p : plots) {
      p->setLogY(true);
      p->replotNow();
      QVERIFY(p->savePng(dir.filePath(QStringLiteral("hostile.png")), 200, 150));
      p->setXRange(kNaN, 1);  // refused
      p->setXRange(5, 1);     // refused
      QVERIFY(p->autoRange());
    }
    QCOMPARE(norms.seriesSize(QStringLiteral("r"), QStringLiteral("a")), std::size_t(1));
    QCOMPARE(norms.seriesSize(QStringLiteral("r"), QStringLiteral("b")), std::size_t(1));
    QVERIFY(std::isnan(values(graphNamed(norms, QStringLiteral("a")))[0]));  // inf drawn as a gap
    QCOMPARE(scalarMap.curveNames().size(), 2);
  }
};

QTEST_MAIN(TestDashboardPlots)
#include "tst_dashboard_plots.moc"
