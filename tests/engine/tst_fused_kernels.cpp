// The fused kernels of issue 30 §2 against the unfused operations they replace, written here
// (loops and plain ATen ops with autograd, in float64): values and first-order gradients, in
// float32 and float64.
#include "models/position_attention.h"

#include <ATen/TensorOperators.h>
#include <ATen/core/grad_mode.h>
#include <ATen/ops/full_like.h>
#include <ATen/ops/log_softmax.h>
#include <ATen/ops/nll_loss.h>
#include <ATen/ops/randint.h>
#include <ATen/ops/randn.h>
#include <ATen/ops/softmax.h>
#include <ATen/ops/stack.h>
#include <ATen/ops/zeros.h>

#include <QtTest/QtTest>

#include <cmath>

using namespace lwb;

namespace {

double maxRel(const at::Tensor& x, const at::Tensor& ref) {
  return (x.to(at::kDouble) - ref.to(at::kDouble)).abs().max().item<double>() /
         std::max(1e-300, ref.to(at::kDouble).abs().max().item<double>());
}

// softmax over j ≤ i of pos[h, i − j], built entry by entry (float64).
at::Tensor positionAttentionLoop(const at::Tensor& pos, int64_t t) {
  const auto p = pos.to(at::kDouble).contiguous();
  const int64_t heads = p.size(0);
  auto out = at::zeros({heads, t, t}, p.options());
  auto acc = out.accessor<double, 3>();
  auto pa = p.accessor<double, 2>();
  for (int64_t h = 0; h < heads; ++h)
    for (int64_t i = 0; i < t; ++i) {
      double sum = 0;
      for (int64_t j = 0; j <= i; ++j) sum += std::exp(pa[h][i - j]);
      for (int64_t j = 0; j <= i; ++j) acc[h][i][j] = std::exp(pa[h][i - j]) / sum;
    }
  return out;
}

// The same function from differentiable ATen ops (a stack of per-entry picks), for gradients.
at::Tensor positionAttentionAten(const at::Tensor& pos, int64_t t) {
  std::vector<at::Tensor> rows;
  for (int64_t i = 0; i < t; ++i) {
    std::vector<at::Tensor> cols;
    for (int64_t j = 0; j < t; ++j)
      cols.push_back(j <= i ? pos.select(1, i - j) : at::full_like(pos.select(1, 0), -INFINITY));
    rows.push_back(at::stack(cols, -1));
  }
  return at::softmax(at::stack(rows, 1), -1);
}

}  // namespace

class TstFusedKernels : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void positionAttentionMatchesUnfused_data() {
    QTest::addColumn<int>("dtype");
    QTest::addColumn<int>("heads");
    QTest::addColumn<int>("T");
    QTest::addColumn<int>("t");
    const int f = static_cast<int>(at::kFloat), d = static_cast<int>(at::kDouble);
    QTest::newRow("f32 1 head, t = T") << f << 1 << 16 << 16;
    QTest::newRow("f32 3 heads, t < T") << f << 3 << 12 << 7;
    QTest::newRow("f64 2 heads, t = T") << d << 2 << 9 << 9;
    QTest::newRow("f64 1 head, t = 1") << d << 1 << 5 << 1;
  }
  void positionAttentionMatchesUnfused() {
    QFETCH(int, dtype);
    QFETCH(int, heads);
    QFETCH(int, T);
    QFETCH(int, t);
    const auto type = static_cast<at::ScalarType>(dtype);
    const double tol = type == at::kFloat ? 2e-6 : 1e-13;
    // Biases up to ±16, as the model clamps them: rows from nearly uniform to one-hot.
    const auto pos = (at::randn({heads, T}, at::kDouble) * 6.0).clamp(-16.0, 16.0).to(type).requires_grad_(true);
    const auto a = models::positionAttention(pos, t);
    QCOMPARE(a.sizes().vec(), (std::vector<int64_t>{heads, t, t}));
    QVERIFY2(maxRel(a, positionAttentionLoop(pos.detach(), t)) < tol, "values");
    // Gradient of <A, G> for a random G, against autograd through the reference's ATen ops.
    const auto g = at::randn({heads, t, t}, type);
    (a * g).sum().backward();
    const auto ref = pos.detach().to(at::kDouble).requires_grad_(true);
    (positionAttentionAten(ref, t) * g.to(at::kDouble)).sum().backward();
    QVERIFY2(maxRel(pos.grad(), ref.grad()) < (type == at::kFloat ? 1e-5 : 1e-12), "gradient");
    // The model's former path (index_select + causal bias + softmax) gives the same.
    QVERIFY(maxRel(models::positionAttentionUnfused(pos.detach(), t), a.detach()) < tol);
  }

  void positionAttentionRefusesBadShapes() {
    const auto pos = at::zeros({2, 8});
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, models::positionAttention(pos, 9));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, models::positionAttention(pos, 0));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, models::positionAttention(at::zeros({8}), 4));
  }
};

QTEST_APPLESS_MAIN(TstFusedKernels)
#include "tst_fused_kernels.moc"
