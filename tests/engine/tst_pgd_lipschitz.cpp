// The PGD Lipschitz estimator (SEEDS-002-004 §D, §H.5) on maps with known constants, and
// empiricalLipschitz's Pgd mode.
#include "bounds/lipschitz_bound.h"
#include "bounds/pgd_lipschitz.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/ops/randn.h>
#include <ATen/ops/relu.h>
#include <ATen/ops/tanh.h>
#include <QtTest/QtTest>
#include "support/random_tensors.h"

#include <cmath>
#include <stdexcept>

using namespace lwb;
using test::gaussian;
using bounds::PgdNorm;
using bounds::PgdOptions;
using bounds::pgdLipschitz;

namespace {

const auto kF64 = at::TensorOptions().dtype(at::kDouble);


double sigmaMax(const at::Tensor& m) { return at::linalg_svdvals(m).max().item<double>(); }

}  // namespace

class TestPgdLipschitz : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void linearMapReachesSigmaMax() {
    const auto m = gaussian({20, 30}, 1);
    const double s = sigmaMax(m);
    const auto x0 = gaussian({1, 30}, 2);
    PgdOptions o;
    const auto r = pgdLipschitz([&](const at::Tensor& x) { return x.matmul(m.t()); }, x0, o);
    QVERIFY2(r.best >= 0.99 * s && r.best <= s * (1 + 1e-9), qPrintable(QString("%1 vs %2").arg(r.best).arg(s)));
    // The argmax pair has x0's example shape and reproduces the ratio.
    QCOMPARE(r.x.sizes(), (at::IntArrayRef{30}));
    const double again = (r.x - r.y).matmul(m.t()).norm().item<double>() / (r.x - r.y).norm().item<double>();
    QVERIFY(std::abs(again - r.best) < 1e-9 * s);
  }

  void tanhIsOneLipschitz() {
    const auto x0 = gaussian({1, 16}, 3, 1e-2);  // near 0, where tanh' = 1
    PgdOptions o;
    o.radius = 0.05;
    const auto r = pgdLipschitz([](const at::Tensor& x) { return x.tanh(); }, x0, o);
    QVERIFY2(r.best <= 1 + 1e-9 && r.best >= 0.99, qPrintable(QString::number(r.best, 'g', 12)));
  }

  void reluMlpBelowProductOfNorms() {
    const auto w1 = gaussian({24, 12}, 4, 0.4), w2 = gaussian({6, 24}, 5, 0.4);
    const double product = sigmaMax(w1) * sigmaMax(w2);
    auto f = [&](const at::Tensor& x) { return at::relu(x.matmul(w1.t())).matmul(w2.t()); };
    PgdOptions o;
    o.iters = 40;
    const auto x0 = gaussian({3, 12}, 6);
    const auto r = pgdLipschitz(f, x0, o);
    QVERIFY(r.best > 0 && r.best <= product);
    // The argmax pair stays in the ball around its own example: ‖δ‖ ≤ r(1 + 1e−12).
    bool inBall = false;
    for (int b = 0; b < 3; ++b) {
      const double radius = x0[b].norm().item<double>();
      inBall = inBall || ((r.x - x0[b]).norm().item<double>() <= radius * (1 + 1e-12) &&
                          (r.y - x0[b]).norm().item<double>() <= radius * (1 + 1e-12));
    }
    QVERIFY(inBall);
    // Pgd mode of empiricalLipschitz gives the same search.
    bounds::EmpiricalOptions e;
    e.mode = bounds::EmpiricalMode::Pgd;
    e.steps = 40;
    e.restarts = 3;
    e.norm = PgdNorm::L2;
    QCOMPARE(bounds::empiricalLipschitz(f, x0, e), r.best);
  }

  void infRmsNormAndProgressAndCancel() {
    // A per-token linear map: the inf-RMS ratio of x W is bounded by σ_max(W).
    const auto m = gaussian({8, 8}, 7);
    PgdOptions o;
    o.norm = PgdNorm::InfRms;
    int calls = 0;
    o.progress = [&](int done, int total) {
      ++calls;
      QVERIFY(done >= 1 && done <= total);
    };
    const auto r = pgdLipschitz([&](const at::Tensor& x) { return x.matmul(m); }, gaussian({2, 5, 8}, 8), o);
    QVERIFY(r.best <= sigmaMax(m) * (1 + 1e-9) && r.best > 0.5 * sigmaMax(m));
    QCOMPARE(calls, o.iters);
    CancelFlag cancel{true};
    o.cancel = &cancel;
    QVERIFY_THROWS_EXCEPTION(Cancelled, pgdLipschitz([](const at::Tensor& x) { return x; }, gaussian({1, 4}, 1), o));
  }

  void badOptionsThrow() {
    auto id = [](const at::Tensor& x) { return x; };
    const auto x0 = gaussian({1, 4}, 1);
    PgdOptions o;
    o.iters = 0;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, pgdLipschitz(id, x0, o));
    o = {};
    o.restarts = 0;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, pgdLipschitz(id, x0, o));
    o = {};
    o.radius = -1;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, pgdLipschitz(id, x0, o));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, pgdLipschitz(id, x0.to(at::kLong), {}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, bounds::pgdNormFromString("linf"));
    QCOMPARE(std::string(bounds::toString(bounds::pgdNormFromString("inf_rms"))), std::string("inf_rms"));
  }
};

QTEST_APPLESS_MAIN(TestPgdLipschitz)
#include "tst_pgd_lipschitz.moc"
