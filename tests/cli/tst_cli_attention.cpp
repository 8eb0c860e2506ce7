// `lipschitz-cli attention` (ARCHITECTURE.md CLI contract; SEEDS-002-004 §C–D): JSON per N,
// AttLip's PGD ≤ 1 + 1e−6 with a converged prox, ℓ2's bound (Kim's, ‖W_Q‖²) beside 004's
// Eq. 6 as printed, null for standard attention, and exit 2 with the flag named for bad flags.
#include "support/cli_run.h"

#include "attention/lambert_w.h"
#include "attention/l2_attention.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest/QtTest>

namespace {

lwb::test::CliResult runCli(const QStringList& args) {
  return lwb::test::runCli(QStringList{QStringLiteral("--threads"), QStringLiteral("1"), QStringLiteral("attention")} + args);
}

QList<QJsonObject> jsonLines(const QByteArray& out) {
  QList<QJsonObject> lines;
  for (const auto& line : out.split('\n'))
    if (!line.trimmed().isEmpty()) lines.push_back(QJsonDocument::fromJson(line).object());
  return lines;
}

}  // namespace

class TestCliAttention : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void attlipIsOneLipschitz() {
    const auto r = runCli({"--kind", "attlip", "--tokens", "4,6", "--dim", "8", "--heads", "2", "--pgd-iters", "6",
                           "--restarts", "2", "--json"});
    QVERIFY2(r.code == 0, r.err.constData());
    const auto lines = jsonLines(r.out);
    QCOMPARE(lines.size(), 2);
    QCOMPARE(lines[0].value("tokens").toInt(), 4);
    QCOMPARE(lines[1].value("tokens").toInt(), 6);
    for (const auto& j : lines) {
      for (const char* key : {"tokens", "pgd_estimate", "bound", "residual", "converged"})
        QVERIFY2(j.contains(QLatin1String(key)), key);
      const double pgd = j.value("pgd_estimate").toDouble();
      QVERIFY2(pgd <= 1 + 1e-6 && pgd > 0.5, qPrintable(QString::number(pgd, 'g', 12)));
      QCOMPARE(j.value("bound").toDouble(), 1.0);
      QVERIFY(j.value("converged").toBool());
      QVERIFY(j.value("residual").toDouble() <= 1e-9);
    }
  }

  void l2BoundAndEq6AsPrintedAndStandardHasNone() {
    const auto r = runCli({"--kind", "l2", "--tokens", "8,16", "--dim", "16", "--heads", "2", "--seed", "3",
                           "--pgd-iters", "10", "--restarts", "2", "--json"});
    QVERIFY2(r.code == 0, r.err.constData());
    const auto lines = jsonLines(r.out);
    QCOMPARE(lines.size(), 2);
    // The same weights for every N (seed 3): "bound" is the engine's bound, "eq6_as_printed"
    // 004's formula, computed here from the spectral norms (‖W_Q^h‖ once) by hand.
    const auto w = lwb::attention::l2AttentionInit(16, 2, 3);
    double printedHeads = 0;
    for (int h = 0; h < 2; ++h)
      printedHeads += std::pow(at::linalg_svdvals(w.query[h]).max().item<double>() *
                                   at::linalg_svdvals(w.value[h]).max().item<double>(), 2);
    const double wo = at::linalg_svdvals(w.out).max().item<double>();
    for (const auto& j : lines) {
      const int n = j.value("tokens").toInt();
      const double bound = *lwb::attention::l2AttentionBound(w, n);
      QVERIFY(std::abs(j.value("bound").toDouble() - bound) <= 1e-12 * bound);
      const double printed = lwb::attention::l2BoundTokenFactor(n, 8) * std::sqrt(printedHeads) * wo;
      QVERIFY2(std::abs(j.value("eq6_as_printed").toDouble() - printed) <= 1e-12 * printed,
               qPrintable(QString::number(j.value("eq6_as_printed").toDouble())));
      QVERIFY(j.value("pgd_estimate").toDouble() <= bound);
      QVERIFY(!j.contains("residual"));
    }
    const double ratio = lines[1].value("bound").toDouble() / lines[0].value("bound").toDouble();
    QVERIFY(std::abs(ratio - lwb::attention::l2BoundTokenFactor(16, 8) / lwb::attention::l2BoundTokenFactor(8, 8)) < 1e-12);

    const auto s = runCli({"--kind", "standard", "--tokens", "8", "--dim", "8", "--heads", "2", "--pgd-iters", "5", "--json"});
    QVERIFY2(s.code == 0, s.err.constData());
    const auto sj = jsonLines(s.out);
    QCOMPARE(sj.size(), 1);
    QVERIFY(sj[0].value("bound").isNull());
    QVERIFY(!sj[0].contains("eq6_as_printed"));  // 004's formula belongs to ℓ2 only
    QVERIFY(sj[0].value("pgd_estimate").toDouble() > 0);
    // Without --json: a table with a header.
    const auto t = runCli({"--kind", "l2", "--tokens", "4", "--dim", "8", "--heads", "2", "--pgd-iters", "3"});
    QVERIFY2(t.code == 0, t.err.constData());
    QVERIFY(t.out.contains("pgd_estimate") && t.out.contains("bound"));
    QVERIFY2(t.out.contains("eq6_as_printed: 004 Eq. 6 as printed, NOT a bound"), t.out.constData());
  }

  // Issue 32: a prox that stops short of its tolerance is never silently a certificate. The
  // fixed safe step at N = 4 (one PGD iteration) ends far from it: one warning line naming N
  // and the rule, "converged": false in the JSON, exit 0. Armijo's converged run says nothing.
  void unconvergedProxWarns() {
    const auto r = runCli({"--kind", "attlip", "--tokens", "4", "--dim", "8", "--heads", "2", "--prox-rule", "fixed",
                           "--pgd-iters", "1", "--restarts", "1", "--json"});
    QVERIFY2(r.code == 0, r.err.constData());
    const auto lines = jsonLines(r.out);
    QCOMPARE(lines.size(), 1);
    QCOMPARE(lines[0].value("converged").toBool(), false);
    QVERIFY(lines[0].value("residual").toDouble() > 1e-6);
    QVERIFY2(r.err.contains("warning: N=4: the prox did not reach its tolerance") && r.err.contains("fixed-step"),
             r.err.constData());
    QCOMPARE(r.err.trimmed().count('\n'), 0);
    const auto ok = runCli({"--kind", "attlip", "--tokens", "4", "--dim", "8", "--heads", "2", "--pgd-iters", "1",
                            "--restarts", "1", "--json"});
    QVERIFY2(ok.code == 0, ok.err.constData());
    QCOMPARE(jsonLines(ok.out).value(0).value("converged").toBool(), true);
    QVERIFY2(ok.err.isEmpty(), ok.err.constData());
  }

  // The relaxed block's bound is max(1, α − 1): 1 at α = 2 (estimate ≤ 1), 2.5 at α = 3.5,
  // where PGD finds pairs moving apart (the certificate ends at 2).
  void relaxedAttLipBound() {
    for (const auto& [alpha, bound] : {std::pair{"2", 1.0}, std::pair{"3.5", 2.5}}) {
      const auto r = runCli({"--kind", "attlip", "--tokens", "6", "--dim", "8", "--heads", "2", "--pgd-iters", "8",
                             "--restarts", "2", "--relaxation", alpha, "--json"});
      QVERIFY2(r.code == 0, r.err.constData());
      const auto lines = jsonLines(r.out);
      QCOMPARE(lines.size(), 1);
      QCOMPARE(lines[0].value("relaxation").toDouble(), QString::fromLatin1(alpha).toDouble());
      QCOMPARE(lines[0].value("bound").toDouble(), bound);
      const double pgd = lines[0].value("pgd_estimate").toDouble();
      QVERIFY2(pgd <= bound + 1e-6, qPrintable(QString::number(pgd, 'g', 12)));
      if (bound > 1) QVERIFY2(pgd > 1.001, qPrintable(QString::number(pgd, 'g', 12)));
    }
  }

  void badFlagsExitTwoNamingTheFlag() {
    const QList<QPair<QStringList, QByteArray>> cases = {
        {{"--kind", "l2", "--tokens", "0", "--dim", "8", "--heads", "2"}, "--tokens"},
        {{"--kind", "l2", "--tokens", "8,abc", "--dim", "8", "--heads", "2"}, "--tokens"},
        {{"--kind", "l2", "--tokens", "8", "--dim", "16", "--heads", "3"}, "--heads"},
        {{"--kind", "foo", "--tokens", "8", "--dim", "8", "--heads", "2"}, "--kind"},
        {{"--kind", "l2", "--dim", "8", "--heads", "2"}, "--tokens"},
        {{"--kind", "l2", "--tokens", "8", "--dim", "8", "--heads", "2", "--device", "tpu"}, "--device"},
        {{"--kind", "attlip", "--tokens", "8", "--dim", "8", "--heads", "2", "--relaxation", "0"}, "--relaxation"},
        {{"--kind", "attlip", "--tokens", "8", "--dim", "8", "--heads", "2", "--relaxation", "4.5"}, "--relaxation"},
    };
    for (const auto& [args, flag] : cases) {
      const auto r = runCli(args);
      QVERIFY2(r.code == 2, qPrintable(args.join(' ')));
      QVERIFY2(r.err.contains(flag), r.err.constData());
      QCOMPARE(r.err.trimmed().count('\n'), 0);
      QVERIFY(r.out.isEmpty());
    }
  }

  // The suites build against Debian's CPU LibTorch only (packaging/gpu_build.sh builds no tests),
  // so --device cuda must be refused in one line before any table is printed.
  void cudaOnACpuBuildIsOneClearLine() {
    const auto r = runCli({"--kind", "l2", "--tokens", "8", "--dim", "8", "--heads", "2", "--device", "cuda"});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("device: cuda requested, but this build has no CUDA"), r.err.constData());
    QCOMPARE(r.err.trimmed().count('\n'), 0);
    QVERIFY2(r.out.isEmpty(), r.out.constData());
  }
};

QTEST_APPLESS_MAIN(TestCliAttention)
#include "tst_cli_attention.moc"
