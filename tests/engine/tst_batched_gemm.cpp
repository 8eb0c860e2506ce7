// batchedGemm (attention's batched products by one BLAS call per matrix, issue 30 §2)
// against a loop of float64 matrix products written here: values, gradients of a and b (the
// custom backward), every operand layout (row-major, transposed, strided copies), the bias
// broadcast, float32 and float64, one and two threads; and the check seen failing.
#include "common/threads.h"
#include "common/batched_gemm.h"

#include <ATen/TensorOperators.h>
#include <ATen/core/grad_mode.h>
#include <ATen/ops/mm.h>
#include <ATen/ops/randn.h>
#include <ATen/ops/stack.h>
#include <ATen/ops/sum.h>

#include <QtTest/QtTest>

using namespace lwb;

namespace {

// The reference: alpha · a[i] · b[i] + bias per matrix, in float64.
at::Tensor loopReference(const at::Tensor& a, const at::Tensor& b, const at::Tensor& bias, double alpha) {
  std::vector<at::Tensor> out;
  for (int64_t i = 0; i < a.size(0); ++i) {
    auto p = at::mm(a[i].to(at::kDouble), b[i].to(at::kDouble)) * alpha;
    if (bias.defined()) p = p + bias.to(at::kDouble);
    out.push_back(p);
  }
  return at::stack(out);
}

double relError(const at::Tensor& x, const at::Tensor& ref) {
  return (x.to(at::kDouble) - ref).abs().max().item<double>() / std::max(1e-300, ref.abs().max().item<double>());
}

// Operands of one shape in a chosen layout: 0 contiguous, 1 stored transposed, 2 strided (every
// other column of a wider tensor: no unit stride in one dim, so batchedGemm copies it).
at::Tensor operand(int64_t batch, int64_t rows, int64_t cols, int layout, at::ScalarType dtype) {
  if (layout == 1) return at::randn({batch, cols, rows}, dtype).transpose(1, 2);
  if (layout == 2) return at::randn({batch, rows, 2 * cols}, dtype).slice(2, 0, 2 * cols, 2);
  return at::randn({batch, rows, cols}, dtype);
}

}  // namespace

class TstBatchedGemm : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void matchesLoopAndGradients_data() {
    QTest::addColumn<int>("dtype");
    QTest::addColumn<int>("layoutA");
    QTest::addColumn<int>("layoutB");
    QTest::addColumn<bool>("withBias");
    QTest::addColumn<int>("threads");
    const int f = static_cast<int>(at::kFloat), d = static_cast<int>(at::kDouble);
    QTest::newRow("f32 rows·rows, bias, 2 threads") << f << 0 << 0 << true << 2;
    QTest::newRow("f32 rows·transposed (q kᵀ)") << f << 0 << 1 << true << 1;
    QTest::newRow("f32 transposed·rows") << f << 1 << 0 << false << 2;
    QTest::newRow("f32 strided copies") << f << 2 << 2 << false << 1;
    QTest::newRow("f64 transposed·transposed, bias") << d << 1 << 1 << true << 2;
    QTest::newRow("f64 rows·strided") << d << 0 << 2 << false << 1;
  }
  void matchesLoopAndGradients() {
    QFETCH(int, dtype);
    QFETCH(int, layoutA);
    QFETCH(int, layoutB);
    QFETCH(bool, withBias);
    QFETCH(int, threads);
    const int previous = setIntraOpThreads(threads);
    const auto type = static_cast<at::ScalarType>(dtype);
    const double tol = type == at::kFloat ? 2e-6 : 1e-13;
    at::manual_seed(layoutA * 10 + layoutB);
    const int64_t batch = 7, m = 9, k = 5, n = 11;
    auto a = operand(batch, m, k, layoutA, type).requires_grad_(true);
    auto b = operand(batch, k, n, layoutB, type).requires_grad_(true);
    const auto bias = withBias ? at::randn({m, n}, type) : at::Tensor();
    const double alpha = 0.37;
    QVERIFY(batchedGemmUsesBlas(a, b));
    const auto out = batchedGemm(a, b, bias, alpha);
    QCOMPARE(out.sizes().vec(), (std::vector<int64_t>{batch, m, n}));
    QVERIFY2(relError(out, loopReference(a.detach(), b.detach(), bias, alpha)) < tol, "values");
    // Gradients of sum(out ⊙ g): ∂a = alpha g bᵀ, ∂b = alpha aᵀ g, per matrix, by the loop.
    const auto g = at::randn({batch, m, n}, type);
    at::sum(out * g).backward();
    const auto gd = g.to(at::kDouble);
    std::vector<at::Tensor> ga, gb;
    for (int64_t i = 0; i < batch; ++i) {
      ga.push_back(at::mm(gd[i], b.detach()[i].to(at::kDouble).t()) * alpha);
      gb.push_back(at::mm(a.detach()[i].to(at::kDouble).t(), gd[i]) * alpha);
    }
    QVERIFY2(relError(a.grad(), at::stack(ga)) < tol, "grad a");
    QVERIFY2(relError(b.grad(), at::stack(gb)) < tol, "grad b");
    setIntraOpThreads(previous);
  }

  // Without gradients, and on what the BLAS loop does not take (an empty batch, a bias of
  // another shape), the result is still the product.
  void fallbacksAndNoGrad() {
    at::NoGradGuard noGrad;
    const auto a = at::randn({3, 4, 2}), b = at::randn({3, 2, 5});
    QVERIFY(relError(batchedGemm(a, b, at::Tensor(), 2.0), loopReference(a, b, at::Tensor(), 2.0)) < 2e-6);
    const auto rowBias = at::randn({1, 5});  // broadcast by baddbmm
    QVERIFY(relError(batchedGemm(a, b, rowBias, 1.0), loopReference(a, b, rowBias.expand({4, 5}), 1.0)) < 2e-6);
    QCOMPARE(batchedGemm(at::randn({0, 4, 2}), at::randn({0, 2, 5}), at::Tensor(), 1.0).size(0), int64_t{0});
    QVERIFY(!batchedGemmUsesBlas(at::randn({3, 4, 2}, at::kHalf), at::randn({3, 2, 5}, at::kHalf)));
  }

  // The comparison can fail: a product with one matrix's operands swapped is caught.
  void comparisonFailsOnAWrongProduct() {
    const auto a = at::randn({4, 3, 3}, at::kDouble), b = at::randn({4, 3, 3}, at::kDouble);
    const auto swapped = batchedGemm(b, a, at::Tensor(), 1.0);
    QVERIFY(relError(swapped, loopReference(a, b, at::Tensor(), 1.0)) > 1e-3);
  }
};

QTEST_GUILESS_MAIN(TstBatchedGemm)
#include "tst_batched_gemm.moc"
