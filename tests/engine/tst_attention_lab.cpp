// The Attention Lab's door (lab/attention_lab.h, no LibTorch): PGD per N with bound and
// residual, the prox trace of both rules, the finite-K experiment (C.4), the plane picture,
// and the input errors naming their field.
#include "io/input_error.h"
#include "lab/lab.h"

#include <QtTest/QtTest>

#include <cmath>

using namespace lwb;
using namespace lwb::lab;

class TestAttentionLab : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void kinds() { QCOMPARE(attentionKindIds(), (std::vector<std::string>{"attlip", "l2", "standard"})); }

  void lipschitzAtTokensPerKind() {
    AttentionBlockSpec spec;
    spec.dim = 8;
    spec.heads = 2;
    PgdSettings pgd;
    pgd.iters = 8;
    pgd.restarts = 2;
    int calls = 0;
    const auto a = lipschitzAtTokens(spec, 6, pgd, nullptr, [&](int done, int total) {
      ++calls;
      QVERIFY(done <= total);
    });
    QCOMPARE(calls, pgd.iters);
    QVERIFY(a.pgdEstimate <= 1 + 1e-6 && a.pgdEstimate > 0.5);
    QCOMPARE(*a.bound, 1.0);
    QVERIFY(a.residual && *a.residual <= 1e-9 && a.converged);
    QCOMPARE(a.tokens, 6);
    spec.kind = "l2";
    const auto l = lipschitzAtTokens(spec, 6, pgd);
    QVERIFY(l.bound && *l.bound > l.pgdEstimate && !l.residual);
    // ℓ2 also carries 004's Eq. 6 as printed (its value: tst_cli_attention); the other kinds do not.
    QVERIFY(l.eq6AsPrinted && *l.eq6AsPrinted > 0 && *l.eq6AsPrinted != *l.bound);
    QVERIFY(!a.eq6AsPrinted);
    spec.kind = "standard";
    const auto s = lipschitzAtTokens(spec, 6, pgd);
    QVERIFY(!s.bound && s.pgdEstimate > 0 && !s.eq6AsPrinted);
    // The fixed step rule is 1-Lipschitz too.
    spec.kind = "attlip";
    spec.proxRule = attention::ProxRule::Fixed;
    pgd.iters = 3;
    pgd.radius = 0.5;
    const auto f = lipschitzAtTokens(spec, 4, pgd);
    QVERIFY(f.pgdEstimate <= 1 + 1e-6);
  }

  void proxTraceBothRules() {
    AttentionBlockSpec spec;
    spec.dim = 16;
    spec.heads = 2;
    const auto t = proxTrace(spec, 8, 1.0, 40);
    QCOMPARE(t.runs.size(), size_t{2});
    QCOMPARE(t.runs[0].rule, std::string("armijo"));
    QCOMPARE(t.runs[1].rule, std::string("fixed"));
    for (const auto& run : t.runs) {
      QCOMPARE(run.residual.size(), size_t{41});
      QCOMPARE(run.step.size(), size_t{40});
      QVERIFY(run.residual.back() < run.residual.front());
      QVERIFY(run.potential.back() <= run.potential.front());
    }
    QVERIFY(t.runs[1].lambda > 0 && t.runs[1].lambda < 1);
    QVERIFY(t.runs[0].residual.back() < 1e-3 * t.runs[0].residual.front());  // Armijo converges fast
  }

  void finiteKFixedStepNeverExceedsOne() {
    AttentionBlockSpec spec;
    spec.dim = 16;
    spec.heads = 4;
    const auto rows = finiteKRatios(spec, 8, 5, 4);
    QCOMPARE(rows.size(), size_t{4});
    for (size_t i = 0; i < rows.size(); ++i) {
      QCOMPARE(rows[i].K, static_cast<int>(i) + 1);
      QVERIFY(rows[i].fixedRatio <= 1 + 1e-9);
      QVERIFY(rows[i].armijoRatio > 0);
    }
  }

  // The Lab's finite-K point (C.4): Armijo with small K is not 1-Lipschitz. Stated input:
  // d 64, H 4, weights seed 0, N 16 tokens, 5 pairs x ~ N(0, 1), y = x + 1e−3·z (seeds 2, 3);
  // some K in 1..3 has a ratio above 1 while the certified fixed step stays ≤ 1 at every K.
  void armijoWithSmallKIsNotOneLipschitz() {
    AttentionBlockSpec spec;
    spec.dim = 64;
    spec.heads = 4;
    const auto rows = finiteKRatios(spec, 16, 5, 3);
    double worstArmijo = 0;
    for (const auto& r : rows) {
      worstArmijo = std::max(worstArmijo, r.armijoRatio);
      QVERIFY2(r.fixedRatio <= 1 + 1e-9, qPrintable(QString::number(r.fixedRatio)));
    }
    QVERIFY2(worstArmijo > 1.001, qPrintable(QString::number(worstArmijo)));
  }

  void planePictureRatios() {
    const auto p = planePicture(6, 2, 1, 0.3);
    QCOMPARE(p.input.size(), size_t{6});
    QCOMPARE(p.perturbed.size(), size_t{6});
    QCOMPARE(p.kinds.size(), lab::attentionKindIds().size());
    double moved = 0;
    for (size_t i = 0; i < 6; ++i) moved += std::pow(p.input[i].x - p.perturbed[i].x, 2) + std::pow(p.input[i].y - p.perturbed[i].y, 2);
    QVERIFY(std::abs(std::sqrt(moved) - 0.3) < 1e-12);
    QCOMPARE(p.kinds[0].kind, std::string("attlip"));
    QVERIFY(p.kinds[0].ratio <= 1 + 1e-9 && p.kinds[0].ratio > 0);
    for (const auto& k : p.kinds) QCOMPARE(k.image.size(), size_t{6});
  }

  void inputErrorsNameTheField() {
    AttentionBlockSpec spec;
    PgdSettings pgd;
    auto expectError = [](auto&& call, const char* field) {
      try {
        call();
        QFAIL("no InputError");
      } catch (const InputError& e) {
        QVERIFY2(std::string(e.what()).rfind(field, 0) == 0, e.what());
      }
    };
    expectError([&] { lipschitzAtTokens(spec, 0, pgd); }, "tokens");
    spec.heads = 5;
    expectError([&] { lipschitzAtTokens(spec, 4, pgd); }, "heads");
    spec.heads = 4;
    spec.kind = "linear";
    expectError([&] { lipschitzAtTokens(spec, 4, pgd); }, "kind");
    spec.kind = "attlip";
    pgd.norm = "linf";
    expectError([&] { lipschitzAtTokens(spec, 4, pgd); }, "norm");
    expectError([&] { planePicture(6, 3, 0, 0.1); }, "heads");
    expectError([&] { finiteKRatios(spec, 4, 0); }, "pairs");
    CancelFlag cancel{true};
    pgd.norm = "l2";
    QVERIFY_THROWS_EXCEPTION(Cancelled, lipschitzAtTokens(spec, 4, pgd, &cancel));
  }
};

QTEST_APPLESS_MAIN(TestAttentionLab)
#include "tst_attention_lab.moc"
