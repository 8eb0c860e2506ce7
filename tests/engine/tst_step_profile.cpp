// The step profile behind `lipschitz-cli bench --roofline` (issue 30 §1): on a hand-made
// "step" of known ops, the GEMM FLOPs equal the hand count (2mnk per matmul, n(n+1)k per syrk),
// the categories add up to the profiled step time, ops inside the trainer's phase scopes land
// in that phase, and the profiler-cost correction removes the same cost per op.
#include "common/batched_gemm.h"
#include "models/fused_ops.h"
#include "run/step_profile.h"
#include "spectral/newton_schulz.h"
#include "spectral/symmetric_product.h"

#include <ATen/TensorOperators.h>
#include <ATen/ops/mm.h>
#include <ATen/ops/randn.h>
#include <ATen/ops/softmax.h>
#include <ATen/record_function.h>

#include <QtTest/QtTest>

#include <cmath>

using namespace lwb;

namespace {

double categoryMs(const run::StepProfile& p, const std::string& name) {
  for (const auto& c : p.categories)
    if (c.name == name) return c.msPerStep;
  return 0.0;
}

}  // namespace

class TstStepProfile : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void categories() {
    QCOMPARE(run::stepCategoryOf("aten::mm", ""), std::string("gemm"));
    QCOMPARE(run::stepCategoryOf("aten::addmm", "lwb::optimizer"), std::string("gemm"));  // a GEMM in any phase
    QCOMPARE(run::stepCategoryOf("lwb::syrk", "lwb::constraint"), std::string("gemm"));
    QCOMPARE(run::stepCategoryOf("lwb::batched_gemm", ""), std::string("gemm"));
    QCOMPARE(run::stepCategoryOf("lwb::ns_step", "lwb::optimizer"), std::string("gemm"));
    QCOMPARE(run::stepCategoryOf("lwb::gemm", "lwb::constraint"), std::string("gemm"));
    QCOMPARE(run::stepCategoryOf("aten::add", "lwb::optimizer"), std::string("optimizer"));
    QCOMPARE(run::stepCategoryOf("aten::mul", "lwb::constraint"), std::string("constraint"));
    QCOMPARE(run::stepCategoryOf("aten::_log_softmax", ""), std::string("loss"));
    QCOMPARE(run::stepCategoryOf("aten::_softmax", ""), std::string("softmax"));
    QCOMPARE(run::stepCategoryOf("aten::empty", ""), std::string("allocation"));
    QCOMPARE(run::stepCategoryOf("aten::transpose", ""), std::string("layout"));
    QCOMPARE(run::stepCategoryOf("MmBackward0", ""), std::string("autograd"));
    QCOMPARE(run::stepCategoryOf("aten::gelu", ""), std::string("elementwise"));
    // The fused kernels are ops of their kind, not scopes.
    QCOMPARE(run::stepCategoryOf("lwb::gelu_backward", ""), std::string("elementwise"));
    QCOMPARE(run::stepCategoryOf("lwb::residual_mix", ""), std::string("elementwise"));
    QCOMPARE(run::stepCategoryOf("lwb::cross_entropy", ""), std::string("loss"));
    QCOMPARE(run::stepCategoryOf("lwb::position_attention_backward", ""), std::string("softmax"));
  }

  void gemmFlopsAndPhasesOfAKnownStep() {
    const int steps = 4;
    const auto a = at::randn({64, 32}), b = at::randn({32, 16}), x = at::randn({40, 30}), v = at::randn({64, 16});
    const auto q = at::randn({3, 8, 5}), r = at::randn({3, 5, 6}), w = at::randn({2, 6, 10});
    const auto p = run::profileSteps([&] {
      for (int s = 0; s < steps; ++s) {
        RECORD_USER_SCOPE("lwb::train_step");
        const auto c = at::mm(a, b);              // 2·64·32·16 FLOPs
        const auto g = spectral::gramOfRows(x);   // syrk: 40·41·30
        const auto h = batchedGemm(q, r, at::Tensor(), 1.0);  // 2·3·8·5·6
        // Two Newton–Schulz steps on a stack of two 6×10: per step and matrix syrk 6·7·10,
        // syrk 6·7·6 and the update GEMM 2·6·6·10.
        const auto n = spectral::newtonSchulzIterate(w, {{3.0, -3.0, 1.0}, {1.5, -0.5, 0.0}});
        const auto e = at::softmax(c + v, 1);     // softmax and elementwise
        const auto mixed = models::residualMix(e, e, 0.75, 0.25);  // a fused kernel: an op, not a scope
        {
          RECORD_USER_SCOPE("lwb::optimizer");
          const auto u = e * 0.5 + 1.0;           // the optimizer phase's elementwise work
        }
      }
      const auto outside = at::mm(a, b);  // not in a step: not counted
    });
    QCOMPARE(p.steps, int64_t{steps});
    // The reference: the hand count of this step's GEMM FLOPs.
    const double nsFlop = spectral::usesBlasSyrk(x) ? 2.0 * 2 * (6.0 * 7 * 10 + 6.0 * 7 * 6 + 2.0 * 6 * 6 * 10)
                                                    : 2.0 * (2.0 * 2 * 6 * 6 * 10 + 2.0 * 2 * 6 * 6 * 6 + 2.0 * 2 * 6 * 6 * 10);
    const double handGflop =
        (2.0 * 64 * 32 * 16 + (spectral::usesBlasSyrk(x) ? 40.0 * 41 * 30 : 2.0 * 40 * 40 * 30) + 2.0 * 3 * 8 * 5 * 6 + nsFlop) / 1e9;
    QVERIFY2(std::abs(p.gemmGflopPerStep - handGflop) <= 1e-12, qPrintable(QString("%1 vs %2").arg(p.gemmGflopPerStep).arg(handGflop)));
    // The one 2-D product by its shape, once per step (the one outside the steps not counted);
    // every other GEMM-class FLOP apart.
    QCOMPARE(p.gemmShapes.size(), size_t{1});
    QCOMPARE(p.gemmShapes[0].m, int64_t{64});
    QCOMPARE(p.gemmShapes[0].k, int64_t{32});
    QCOMPARE(p.gemmShapes[0].n, int64_t{16});
    QCOMPARE(p.gemmShapes[0].callsPerStep, 1.0);
    QVERIFY(std::abs(p.otherGemmGflopPerStep - (handGflop - 2.0 * 64 * 32 * 16 / 1e9)) <= 1e-12);
    double sum = 0;
    for (const auto& c : p.categories) sum += c.msPerStep;
    QVERIFY2(std::abs(sum - p.msPerStep) <= 1e-9 * std::max(1.0, p.msPerStep), qPrintable(QString("%1 vs %2").arg(sum).arg(p.msPerStep)));
    QVERIFY(categoryMs(p, "gemm") > 0);
    QVERIFY(categoryMs(p, "softmax") > 0);
    QVERIFY(categoryMs(p, "optimizer") > 0);
    QVERIFY(categoryMs(p, "elementwise") > 0);
    QCOMPARE(categoryMs(p, "constraint"), 0.0);
    const auto mix = std::find_if(p.ops.begin(), p.ops.end(), [](const auto& o) { return o.name == "lwb::residual_mix"; });
    QVERIFY(mix != p.ops.end() && mix->category == "elementwise" && mix->callsPerStep == 1.0);

    // The correction removes perOpMs from every recorded op: the categories then add up to
    // the profiled time less perOpMs × ops (none floored: perOpMs is half the cheapest op's).
    double ops = 0, perOpMs = 1e300;
    for (const auto& c : p.categories) {
      ops += c.opsPerStep;
      if (c.opsPerStep > 0) perOpMs = std::min(perOpMs, 0.5 * c.msPerStep / c.opsPerStep);
    }
    QVERIFY(ops >= 6);  // mm, syrk, add, softmax, mul, add at least
    double corrected = 0;
    for (const auto& c : run::withoutProfilerCost(p, perOpMs)) corrected += c.msPerStep;
    const double expected = p.msPerStep - perOpMs * ops;
    QVERIFY2(std::abs(corrected - expected) <= 1e-9 * p.msPerStep, qPrintable(QString("%1 vs %2").arg(corrected).arg(expected)));
    QVERIFY(run::profilerCostPerOpMs() >= 0);
  }
};

QTEST_GUILESS_MAIN(TstStepProfile)
#include "tst_step_profile.moc"
