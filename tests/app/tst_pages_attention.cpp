// Attention Lab (offscreen, issue 15): the page builds, a small Table-1 run delivers its points
// per N with exactly the engine's numbers (lab::lipschitzAtTokens called directly), AttLip's
// estimate stays ≤ 1 + 1e−6, Cancel stops a long run, bad fields are refused with a message
// naming the field, every lecture preset applies, and the CSV exports hold the plotted numbers.
#include "app/app_options.h"
#include "app/pages/page_registry.h"
#include "app/pages/attention/attention_common.h"
#include "app/pages/attention/attention_page.h"
#include "app/pages/attention/finite_k_view.h"
#include "app/pages/attention/length_view.h"
#include "app/pages/attention/plane_view.h"
#include "app/pages/attention/prox_view.h"
#include "widgets/token_plane_plot.h"
#include "widgets/curve_plot.h"

#include <algorithm>
#include "app/pages/common/latest_wins.h"
#include "lab/lab.h"
#include "support/scratch_home.h"

#include <QDoubleSpinBox>
#include <QFile>
#include <QLineEdit>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <cmath>

using namespace lwb;
using namespace lwb::app::pages;

namespace {

constexpr int kTimeoutMs = 120000;

// d 8, H 2, N 6 and 8, a few PGD iterations: seconds on two cores.
LengthRequest smallTable1() {
  LengthRequest r;
  r.block.dim = 8;
  r.block.heads = 2;
  r.block.seed = 3;
  r.tokens = {6, 8};
  r.kinds = lab::attentionKindIds();
  r.pgd.iters = 4;
  r.pgd.restarts = 2;
  r.pgd.seed = 3;
  return r;
}

QStringList csvLines(const QString& path) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  return QString::fromUtf8(f.readAll()).trimmed().split(QLatin1Char('\n'));
}

}  // namespace

class TestPagesAttention : public QObject {
  Q_OBJECT

  lwb::test::ScratchHome home_;  // settings and runs, never the user's

 private Q_SLOTS:
  void pageBuilds() {
    AttentionPage page;
    page.resize(1500, 950);
    page.show();
    // Identity is the page table's row (page_registry.cpp).
    QVERIFY(pageRow(QStringLiteral("attention")));
    QCOMPARE(pageRow(QStringLiteral("attention"))->ctrlDigit, 7);
    QCOMPARE(page.tabs()->count(), 4);
    QVERIFY(page.lengthView() && page.proxView() && page.finiteKView() && page.planeView());
    QCOMPARE(page.planeView()->panels().size(), lab::attentionKindIds().size());
  }

  void fieldParsing() {
    QString error;
    QCOMPARE(*parseTokenList(QStringLiteral("16, 32,64"), 4096, &error), (std::vector<int>{16, 32, 64}));
    QVERIFY(!parseTokenList(QStringLiteral("16, x"), 4096, &error));
    QVERIFY2(error.startsWith(QStringLiteral("N: 'x'")), qPrintable(error));
    QVERIFY(!parseTokenList(QStringLiteral("0"), 4096, &error));
    QVERIFY(!parseTokenList(QStringLiteral("5000"), 4096, &error));
    QVERIFY(!parseTokenList(QStringLiteral("32, 16"), 4096, &error));
    QVERIFY2(error.contains(QStringLiteral("increase")), qPrintable(error));
    QVERIFY(!parseTokenList(QStringLiteral(" , "), 4096, &error));
    QVERIFY(headsError(32, 4).isEmpty());
    QVERIFY(headsError(32, 3).startsWith(QStringLiteral("H: 3")));
    QCOMPARE(paperTable1().size(), size_t{8});
    QCOMPARE(paperTable1At(2048)->l2Eq6AsPrinted, 1055.5);
    QVERIFY(!paperTable1At(100));
  }

  // Points arrive per N (N = 6 complete before N = 8 starts), equal to the engine's.
  void table1PointsEqualTheEngine() {
    LengthView view;
    view.resize(1400, 800);
    view.show();
    const LengthRequest r = smallTable1();
    view.setRequest(r);
    QSignalSpy added(&view, &LengthView::pointAdded);
    QSignalSpy finished(&view, &LengthView::finished);
    QVERIFY(view.plot()->emptyText().startsWith(QStringLiteral("No points yet")));
    view.run();
    // Not "press Run" beside a greyed-out Run button (a newcomer's trial).
    QCOMPARE(view.plot()->emptyText(), QStringLiteral("Computing the first point…"));
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
    const auto& points = view.points();
    // Every block kind of the registry, per N (a new kind raises the count, not this test).
    const size_t kinds = r.kinds.size();
    const int expected = static_cast<int>(r.tokens.size() * kinds);
    QCOMPARE(added.count(), expected);
    QCOMPARE(static_cast<int>(points.size()), expected);
    QCOMPARE(view.table()->rowCount(), expected);
    for (size_t i = 0; i < points.size(); ++i) {
      const LengthPoint& p = points[i];
      QCOMPARE(p.point.tokens, r.tokens[i / kinds]);  // per N, in order
      QCOMPARE(p.kind, r.kinds[i % kinds]);
      lab::AttentionBlockSpec spec = r.block;
      spec.kind = p.kind;
      const lab::TokensPoint direct = lab::lipschitzAtTokens(spec, p.point.tokens, r.pgd);
      QVERIFY2(std::abs(direct.pgdEstimate - p.point.pgdEstimate) <= 1e-12 * std::abs(direct.pgdEstimate),
               qPrintable(QStringLiteral("%1 N=%2: %3 vs %4").arg(QString::fromStdString(p.kind)).arg(p.point.tokens)
                              .arg(p.point.pgdEstimate, 0, 'g', 17).arg(direct.pgdEstimate, 0, 'g', 17)));
      QCOMPARE(p.point.bound.has_value(), direct.bound.has_value());
      if (direct.bound) QCOMPARE(*p.point.bound, *direct.bound);
      QCOMPARE(p.point.eq6AsPrinted.has_value(), p.kind == "l2");  // 004's formula: ℓ2 only
      QVERIFY(p.point.pgdEstimate > 0);
      if (p.kind == "attlip") {
        QVERIFY2(p.point.pgdEstimate <= 1 + 1e-6, qPrintable(QString::number(p.point.pgdEstimate, 'g', 17)));
        QVERIFY(p.point.bound && *p.point.bound == 1.0);
        QVERIFY(p.point.converged);
      }
      if (p.kind == "standard") QVERIFY(!p.point.bound);
    }
    // The plot holds the same numbers: the estimate per kind against N.
    const auto [n, est] = view.plot()->curveData(QStringLiteral("AttLip · PGD estimate"));
    QCOMPARE(n, (std::vector<double>{6, 8}));
    const size_t attlip = static_cast<size_t>(std::find(r.kinds.begin(), r.kinds.end(), attLipId()) - r.kinds.begin());
    const size_t l2 = static_cast<size_t>(std::find(r.kinds.begin(), r.kinds.end(), l2Id()) - r.kinds.begin());
    QCOMPARE(est, (std::vector<double>{points[attlip].point.pgdEstimate, points[attlip + kinds].point.pgdEstimate}));
    const auto l2Bound = view.plot()->curveData(QStringLiteral("ℓ2 · bound, Kim ‖W_Q‖² (∝ √N·log N)")).second;
    QCOMPARE(l2Bound, (std::vector<double>{*points[l2].point.bound, *points[l2 + kinds].point.bound}));
    QVERIFY(l2Bound[1] > l2Bound[0]);  // grows with N
    // 004's formula is its own curve, named as not a bound.
    const auto printed = view.plot()->curveData(QStringLiteral("ℓ2 · Eq. 6 as printed (not a bound)")).second;
    QCOMPARE(printed, (std::vector<double>{*points[1].point.eq6AsPrinted, *points[4].point.eq6AsPrinted}));

    // CSV export: one row per (N, kind) with the plotted numbers at full precision.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("table1.csv"));
    QString error;
    QVERIFY2(view.exportCsv(path, &error), qPrintable(error));
    const QStringList lines = csvLines(path);
    QCOMPARE(lines.size(), 7);
    QCOMPARE(lines[0], QStringLiteral("tokens,kind,pgd_estimate,bound,eq6_as_printed,residual,converged,seconds"));
    for (size_t i = 0; i < points.size(); ++i) {
      const QStringList cells = lines[static_cast<int>(i) + 1].split(QLatin1Char(','));
      QCOMPARE(cells[0].toInt(), points[i].point.tokens);
      QCOMPARE(cells[1].toStdString(), points[i].kind);
      QCOMPARE(cells[2].toDouble(), points[i].point.pgdEstimate);
      QCOMPARE(cells[4].isEmpty(), !points[i].point.eq6AsPrinted.has_value());
    }
    QVERIFY(view.savePlot(dir.filePath(QStringLiteral("table1.png")), &error));
    QVERIFY(QFile::exists(dir.filePath(QStringLiteral("table1-lipschitz.png"))));
  }

  // AttLip's α field (each view has one, the same tooltip): the typed value reaches the engine,
  // the Length view's bound curve follows max(1, α − 1), the finite-K view says which maps
  // it measured, and the prox view's movement is the block's (α times the iterate's).
  void relaxationFieldReachesTheEngine() {
    LengthView view;
    view.resize(1400, 800);
    view.show();
    LengthRequest r = smallTable1();
    r.kinds = {attLipId()};
    r.tokens = {6};
    view.setRequest(r);
    auto* alpha = view.findChild<QDoubleSpinBox*>(QStringLiteral("lengthRelaxation"));
    QVERIFY(alpha);
    QCOMPARE(alpha->value(), 1.0);
    alpha->setValue(3.5);
    LengthRequest read;
    QString error;
    QVERIFY2(view.request(&read, &error), qPrintable(error));
    QCOMPARE(read.block.relaxation, 3.5);
    QSignalSpy finished(&view, &LengthView::finished);
    view.run();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kTimeoutMs);
    QCOMPARE(view.points().size(), size_t{1});
    QCOMPARE(*view.points()[0].point.bound, 2.5);
    QCOMPARE(view.plot()->curveData(QStringLiteral("AttLip · bound")).second, (std::vector<double>{2.5}));
    QVERIFY2(view.points()[0].point.pgdEstimate > 1.001, qPrintable(QString::number(view.points()[0].point.pgdEstimate)));

    FiniteKView k;
    FiniteKRequest kr;
    kr.block = r.block;  // d 8, H 2
    kr.block.relaxation = 2;
    kr.tokens = 6;
    kr.pairs = 3;
    kr.kMax = 2;
    k.setRequest(kr);
    QCOMPARE(k.findChild<QDoubleSpinBox*>(QStringLiteral("finiteKRelaxation"))->value(), 2.0);
    k.recompute();
    QTRY_VERIFY_WITH_TIMEOUT(k.hasResult() && !k.runner()->busy(), kTimeoutMs);
    QVERIFY2(k.infoText().contains(QLatin1String("relaxed maps")), qPrintable(k.infoText()));

    ProxView prox;
    ProxRequest pr;
    pr.block = r.block;
    pr.block.relaxation = 1;
    pr.tokens = 6;
    pr.maxSteps = 5;
    prox.setRequest(pr);
    prox.recompute();
    QTRY_VERIFY_WITH_TIMEOUT(prox.hasResult() && !prox.runner()->busy(), kTimeoutMs);
    const double plain = prox.result().runs[0].movement.back();
    prox.findChild<QDoubleSpinBox*>(QStringLiteral("proxRelaxation"))->setValue(2.0);
    prox.recompute();
    QTRY_VERIFY_WITH_TIMEOUT(!prox.runner()->busy() && prox.result().runs[0].movement.back() != plain, kTimeoutMs);
    QCOMPARE(prox.result().runs[0].movement.back(), 2 * plain);
  }

  void cancelStopsALongRun() {
    LengthView view;
    view.show();
    // Many short PGD iterations: the engine checks the flag between iterations.
    LengthRequest r = smallTable1();
    r.tokens = {16, 32, 64};
    r.pgd.iters = 10000;
    r.pgd.restarts = 1;
    view.setRequest(r);
    QSignalSpy finished(&view, &LengthView::finished);
    view.run();
    QVERIFY(view.isBusy());
    QTest::qWait(300);
    view.cancel();
    QTRY_VERIFY_WITH_TIMEOUT(!view.isBusy(), 30000);
    QCOMPARE(finished.count(), 0);
    QVERIFY(view.points().size() < 9);
    QVERIFY2(view.messageText().contains(QStringLiteral("Cancelled")), qPrintable(view.messageText()));
  }

  void badFieldsAreRefused() {
    LengthView view;
    view.show();
    auto* tokens = view.findChild<QLineEdit*>(QStringLiteral("lengthTokens"));
    QVERIFY(tokens);
    tokens->setText(QStringLiteral("8, eight"));
    view.run();
    QVERIFY(!view.isBusy());
    QVERIFY2(view.messageText().startsWith(QStringLiteral("N: 'eight'")), qPrintable(view.messageText()));
    tokens->setText(QStringLiteral("8"));
    view.findChild<QSpinBox*>(QStringLiteral("lengthDim"))->setValue(10);
    view.findChild<QSpinBox*>(QStringLiteral("lengthHeads"))->setValue(3);
    view.run();
    QVERIFY(!view.isBusy());
    QVERIFY2(view.messageText().startsWith(QStringLiteral("H: 3")), qPrintable(view.messageText()));
    QVERIFY(view.points().empty());

    ProxView prox;
    prox.show();
    prox.findChild<QSpinBox*>(QStringLiteral("proxDim"))->setValue(10);
    prox.findChild<QSpinBox*>(QStringLiteral("proxHeads"))->setValue(4);
    QTRY_VERIFY_WITH_TIMEOUT(!prox.runner()->busy(), kTimeoutMs);
    QVERIFY2(prox.infoText().contains(QStringLiteral("H: 4")), qPrintable(prox.infoText()));
  }

  void presetsApply() {
    AttentionPage page;
    page.resize(1500, 950);
    page.show();
    QVERIFY(!page.applyPreset(QStringLiteral("no_such_demo")));
    app::AppOptions options;
    options.attentionPreset = QStringLiteral("no_such_demo");
    QString error;
    QVERIFY(!page.applyOptions(options, &error));
    QVERIFY2(error.startsWith(QStringLiteral("--attention-preset: unknown")) && error.contains(QStringLiteral("table1")), qPrintable(error));
    QVERIFY(page.presetIds().size() >= 5);
    for (const QString& id : page.presetIds()) {
      QVERIFY2(page.applyPreset(id), qPrintable(id));
      QVERIFY(!page.cueText().isEmpty());
      page.lengthView()->cancel();  // table1 starts its run
    }
    QTRY_VERIFY_WITH_TIMEOUT(!page.lengthView()->isBusy(), kTimeoutMs);
    // The relaxed-prox preset puts α = 3 and AttLip alone into the Length view's fields.
    QVERIFY(page.applyPreset(QStringLiteral("relaxed_prox")));
    page.lengthView()->cancel();
    QTRY_VERIFY_WITH_TIMEOUT(!page.lengthView()->isBusy(), kTimeoutMs);
    QCOMPARE(page.tabs()->currentWidget(), page.lengthView());
    LengthRequest relaxed;
    QVERIFY2(page.lengthView()->request(&relaxed, &error), qPrintable(error));
    QCOMPARE(relaxed.block.relaxation, 3.0);
    QCOMPARE(relaxed.kinds, std::vector<std::string>{attLipId()});
    // Armijo with small K is on its tab and computes there.
    QVERIFY(page.applyPreset(QStringLiteral("armijo_small_k")));
    QCOMPARE(page.tabs()->currentWidget(), page.finiteKView());
    FiniteKView* k = page.finiteKView();
    QTRY_VERIFY_WITH_TIMEOUT(k->hasResult() && !k->runner()->busy(), kTimeoutMs);
    QCOMPARE(static_cast<int>(k->rows().size()), 5);
    for (const auto& row : k->rows()) QVERIFY2(row.fixedRatio <= 1 + 1e-9, qPrintable(QString::number(row.fixedRatio, 'g', 17)));
    QCOMPARE(k->plot()->curveData(QStringLiteral("fixed safe step")).first, (std::vector<double>{1, 2, 3, 4, 5}));
    QTemporaryDir dir;
    QVERIFY(k->exportCsv(dir.filePath(QStringLiteral("k.csv"))));
    const QStringList lines = csvLines(dir.filePath(QStringLiteral("k.csv")));
    QCOMPARE(lines.size(), 6);
    QCOMPARE(lines[1].split(QLatin1Char(','))[1].toDouble(), k->rows()[0].armijoRatio);

    QVERIFY(page.applyPreset(QStringLiteral("prox_fig1")));
    ProxView* prox = page.proxView();
    QTRY_VERIFY_WITH_TIMEOUT(prox->hasResult() && !prox->runner()->busy(), kTimeoutMs);
    QCOMPARE(prox->result().runs.size(), size_t{2});
    const auto& armijo = prox->result().runs[0];
    QCOMPARE(static_cast<int>(armijo.residual.size()), 21);  // k = 0 … 20
    QVERIFY(armijo.residual.back() < 1e-2 * armijo.residual.front());
    for (size_t i = 1; i < armijo.potential.size(); ++i) QVERIFY(armijo.potential[i] <= armijo.potential[i - 1] + 1e-9);  // Armijo: φ decreases
    prox->setStep(3);
    QCOMPARE(prox->residualPlot()->curveData(QStringLiteral("iteration k")).second.front(), armijo.residual[3]);
    QVERIFY(prox->infoText().contains(QStringLiteral("k = 3")));
    QVERIFY(prox->exportCsv(dir.filePath(QStringLiteral("prox.csv"))));
    QCOMPARE(csvLines(dir.filePath(QStringLiteral("prox.csv"))).size(), 1 + 21 * 2);
  }

  void tokensInThePlane() {
    AttentionPage page;
    page.resize(1500, 950);
    page.show();
    QVERIFY(page.applyPreset(QStringLiteral("plane")));
    PlaneView* plane = page.planeView();
    QTRY_VERIFY_WITH_TIMEOUT(plane->hasResult() && !plane->runner()->busy(), kTimeoutMs);
    const auto& pic = plane->picture();
    QCOMPARE(static_cast<int>(pic.input.size()), 6);
    QCOMPARE(pic.kinds.size(), lab::attentionKindIds().size());
    QCOMPARE(pic.kinds[0].kind, std::string("attlip"));
    QVERIFY2(pic.kinds[0].ratio <= 1 + 1e-6, qPrintable(QString::number(pic.kinds[0].ratio)));
    widgets::TokenPlanePlot* panel = plane->panels()[0];
    QVERIFY(panel->title().contains(QString::number(pic.kinds[0].ratio, 'f', 3)));
    QCOMPARE(panel->layerPoints(QStringLiteral("f(X)")).size(), pic.kinds[0].image.size());
    QCOMPARE(panel->layerPoints(QStringLiteral("f(X)"))[2].x(), pic.kinds[0].image[2].x);
    QTemporaryDir dir;
    QString error;
    QVERIFY2(plane->savePlots(dir.filePath(QStringLiteral("plane.pdf")), &error), qPrintable(error));
    for (const char* kind : {"attlip", "l2", "standard"})
      QVERIFY(QFile::exists(dir.filePath(QStringLiteral("plane-%1.pdf").arg(QLatin1String(kind)))));
    QVERIFY(panel->toCsv().contains(QStringLiteral("f(X)")));
  }
};

QTEST_MAIN(TestPagesAttention)
#include "tst_pages_attention.moc"
