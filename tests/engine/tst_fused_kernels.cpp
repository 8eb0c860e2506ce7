// The fused kernels of issue 30 §2 against the unfused operations they replace, written here
// (loops and plain ATen ops with autograd, in float64): values and first-order gradients, in
// float32 and float64.
#include "common/blas_fns.h"
#include "common/linear.h"
#include "common/threads.h"
#include "models/attention_ops.h"
#include "models/fused_ops.h"
#include "models/position_attention.h"
#include "optim/muon_kernel.h"
#include "spectral/constraint.h"
#include "spectral/newton_schulz.h"

#include <ATen/TensorOperators.h>
#include <ATen/core/grad_mode.h>
#include <ATen/ops/cat.h>
#include <ATen/ops/empty_like.h>
#include <ATen/ops/equal.h>
#include <ATen/ops/full.h>
#include <ATen/ops/gelu.h>
#include <ATen/ops/full_like.h>
#include <ATen/ops/tensor.h>
#include <ATen/ops/linear.h>
#include <ATen/ops/log_softmax.h>
#include <ATen/ops/matmul.h>
#include <ATen/ops/nll_loss.h>
#include <ATen/ops/randint.h>
#include <ATen/ops/randn.h>
#include <ATen/ops/softmax.h>
#include <ATen/ops/stack.h>
#include <ATen/ops/zeros.h>
#include <ATen/ops/zeros_like.h>
#include <ATen/ops/triu.h>

#include <torch/csrc/autograd/autograd.h>
#include <torch/csrc/autograd/function.h>

#include <QtTest/QtTest>

#include <thread>

#include <atomic>
#include <cmath>
#include <csignal>

#include <dlfcn.h>
#include <pthread.h>

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

// The OpenMP runtime LibTorch loaded, looked up as the engine's thread policy does.
int ompMaxThreads() {
  static const auto get = reinterpret_cast<int (*)()>(dlsym(RTLD_DEFAULT, "omp_get_max_threads"));
  return get ? get() : 1;
}
void ompSetThreads(int n) {
  static const auto set = reinterpret_cast<void (*)(int)>(dlsym(RTLD_DEFAULT, "omp_set_num_threads"));
  if (set) set(n);
}

}  // namespace

class TstFusedKernels : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  // Every kernel's parallel loop on a team of two (Debian's LibTorch starts with one intra-op
  // thread): the chunked paths are the ones checked, as the CLI's 2-thread runs use them.
  void initTestCase() {
    setIntraOpThreads(2);
#ifdef _OPENMP  // not with LWB_OPENMP=OFF: there the engine's loops run serially by choice
    if (std::thread::hardware_concurrency() >= 2) QCOMPARE(parallelForTeamSize(), 2);
#endif
  }

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
    // Relative to the sum of the magnitudes that meet in each offset's gradient, Σ_{i−j=o}
    // A_ij (|G_ij| + Σ_k A_ik |G_ik|): the gradient is a difference of such terms, and against
    // its own largest entry float32 rounding exceeded 1e-5 for about 1 draw in 20 (cancellation).
    const auto ad = positionAttentionLoop(pos.detach(), t), gd = g.to(at::kDouble).abs();
    auto aa = ad.accessor<double, 3>(), ga = gd.accessor<double, 3>();
    double scale = 0;
    for (int64_t h = 0; h < heads; ++h)
      for (int64_t o = 0; o < t; ++o) {
        double sum = 0;
        for (int64_t i = o; i < t; ++i) {
          double row = 0;
          for (int64_t k = 0; k <= i; ++k) row += aa[h][i][k] * ga[h][i][k];
          sum += aa[h][i][i - o] * (ga[h][i][i - o] + row);
        }
        scale = std::max(scale, sum);
      }
    const double gradError = (pos.grad().to(at::kDouble) - ref.grad()).abs().max().item<double>();
    QVERIFY2(gradError < (type == at::kFloat ? 1e-5 : 1e-12) * scale, qPrintable(QString("gradient error %1, scale %2").arg(gradError).arg(scale)));
    // The model's former path (index_select + causal bias + softmax) gives the same.
    QVERIFY(maxRel(models::positionAttentionUnfused(pos.detach(), t), a.detach()) < tol);
  }

  void residualMixMatchesUnfused_data() {
    QTest::addColumn<int>("dtype");
    QTest::addColumn<bool>("strided");
    QTest::newRow("f32 contiguous") << static_cast<int>(at::kFloat) << false;
    QTest::newRow("f32 transposed y") << static_cast<int>(at::kFloat) << true;
    QTest::newRow("f64 contiguous (several threads' chunks)") << static_cast<int>(at::kDouble) << false;
  }
  void residualMixMatchesUnfused() {
    QFETCH(int, dtype);
    QFETCH(bool, strided);
    const auto type = static_cast<at::ScalarType>(dtype);
    const double p = 0.75, q = 0.25 / 1.1289;
    const auto x = at::randn({strided ? 16 : 300, 37, 64}, type).requires_grad_(true);
    const auto y = (strided ? at::randn({16, 64, 37}, type).transpose(1, 2) : at::randn(x.sizes(), type)).detach().requires_grad_(true);
    const auto out = models::residualMix(x, y, p, q);
    const auto g = at::randn(x.sizes(), type);
    (out * g).sum().backward();
    // Reference: the formula in float64.
    const auto xd = x.detach().to(at::kDouble), yd = y.detach().to(at::kDouble), gd = g.to(at::kDouble);
    const double tol = type == at::kFloat ? 1e-6 : 1e-15;
    QVERIFY2(maxRel(out, xd * p + yd * q) < tol, "values");
    QVERIFY2(maxRel(x.grad(), gd * p) < tol, "gradient of x");
    QVERIFY2(maxRel(y.grad(), gd * q) < tol, "gradient of y");
  }

  // GELU with its derivative in one pass (float32) against the exact erf formula in float64:
  // Φ's approximation (A&S 7.1.26) errs by ≤ 1.5e−7, so y by ≤ 0.75e−7·|x| plus rounding.
  void geluMatchesTheErfFormula() {
    auto x = at::randn({4096}, at::kDouble) * 4.0;
    x = at::cat({x, at::tensor(std::vector<double>{0.0, -0.0, 1e-30, -1e-30, 10.0, -10.0, 30.0, -30.0, -200.0, 200.0})});
    const auto xf = x.to(at::kFloat).requires_grad_(true);
    const auto y = models::gelu(xf);
    const auto g = at::randn(x.sizes(), at::kDouble);
    (y * g.to(at::kFloat)).sum().backward();
    const auto xd = xf.detach().to(at::kDouble).contiguous();  // the float32 inputs, exactly
    auto yref = at::empty_like(xd), dref = at::empty_like(xd);
    const auto xa = xd.accessor<double, 1>();
    auto ya = yref.accessor<double, 1>(), da = dref.accessor<double, 1>();
    for (int64_t i = 0; i < xd.size(0); ++i) {
      const double v = xa[i], cdf = 0.5 * std::erfc(-v / std::sqrt(2.0)), pdf = std::exp(-0.5 * v * v) / std::sqrt(2.0 * M_PI);
      ya[i] = v * cdf;
      da[i] = cdf + v * pdf;
    }
    const auto slack = xd.abs().clamp_min(1.0);
    const double yErr = ((y.detach().to(at::kDouble) - yref).abs() / slack).max().item<double>();
    const double gErr = ((xf.grad().to(at::kDouble) - dref * g).abs() / (slack * g.abs().clamp_min(1.0))).max().item<double>();
    QVERIFY2(yErr < 3e-7, std::to_string(yErr).c_str());
    QVERIFY2(gErr < 5e-7, std::to_string(gErr).c_str());
    // And against the ATen gelu it replaces in the model.
    QVERIFY(((y.detach() - at::gelu(xf.detach())).to(at::kDouble).abs() / slack).max().item<double>() < 1e-6);
    // float64 goes to at::gelu itself.
    QVERIFY(at::equal(models::gelu(xd), at::gelu(xd)));
  }

  // MaxMin over the pairs (h_i, h_{i+m/2}) against a loop over the pairs in float64: values
  // exact (a selection), the gradient routed to the unit each output came from. Ties (the
  // exact repeats below) go to the first of the pair. Odd widths are refused.
  void maxMinMatchesTheLoop_data() {
    QTest::addColumn<int>("dtype");
    QTest::newRow("f32") << static_cast<int>(at::kFloat);
    QTest::newRow("f64") << static_cast<int>(at::kDouble);
  }
  void maxMinMatchesTheLoop() {
    QFETCH(int, dtype);
    const auto type = static_cast<at::ScalarType>(dtype);
    const int64_t rows = 300, m = 34, half = m / 2;
    auto h0 = at::randn({3, rows / 3, m}, type);
    h0.select(-1, half).copy_(h0.select(-1, 0));  // a tie in every row: pair (0, half)
    const auto h = h0.requires_grad_(true);
    const auto out = models::maxMin(h);
    const auto g = at::randn(out.sizes(), type);
    (out * g).sum().backward();
    const auto hd = h.detach().to(at::kDouble).reshape({rows, m}), gd = g.to(at::kDouble).reshape({rows, m});
    auto ref = at::empty_like(hd), gref = at::empty_like(hd);
    const auto ha = hd.accessor<double, 2>(), ga = gd.accessor<double, 2>();
    auto ra = ref.accessor<double, 2>(), gra = gref.accessor<double, 2>();
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t i = 0; i < half; ++i) {
        const double a = ha[r][i], b = ha[r][i + half];
        const bool first = a >= b;
        ra[r][i] = first ? a : b;
        ra[r][i + half] = first ? b : a;
        gra[r][i] = first ? ga[r][i] : ga[r][i + half];
        gra[r][i + half] = first ? ga[r][i + half] : ga[r][i];
      }
    QVERIFY(at::equal(out.detach().to(at::kDouble).reshape({rows, m}), ref));
    QVERIFY(at::equal(h.grad().to(at::kDouble).reshape({rows, m}), gref));
    // Each token's norm is kept (a permutation of every pair).
    QVERIFY(maxRel(out.detach().square().sum(-1), hd.square().sum(-1).reshape({3, rows / 3})) < 1e-6);
    bool refused = false;
    try {
      models::maxMin(at::randn({4, 5}, type));
    } catch (const std::invalid_argument&) {
      refused = true;
    }
    QVERIFY(refused);
  }

  // The MaxMin MLP W_out·MaxMin(W_in·x), fused (MaxMin in place on its own buffers, a byte
  // mask for the backward), against the same composition in float64 through ATen's ops and
  // autograd: values and all three gradients, for a contiguous and a transposed (copied) x.
  // Evaluation (no grad) gives the same values; float64 takes the composition.
  void maxMinMlpMatchesTheComposition_data() {
    QTest::addColumn<bool>("transposed");
    QTest::newRow("contiguous x") << false;
    QTest::newRow("transposed x") << true;
  }
  void maxMinMlpMatchesTheComposition() {
    QFETCH(bool, transposed);
    const int64_t d = 24, m = 34, dOut = 20;
    const auto x0 = transposed ? at::randn({3, d, 50}).transpose(1, 2) : at::randn({3, 50, d});
    const auto x = x0.detach().requires_grad_(true);
    const auto wIn = (at::randn({m, d}) / std::sqrt(double(d))).requires_grad_(true);
    const auto wOut = (at::randn({dOut, m}) / std::sqrt(double(m))).requires_grad_(true);
    const auto y = models::maxMinMlp(x, wIn, wOut);
    QCOMPARE(y.sizes().vec(), (std::vector<int64_t>{3, 50, dOut}));
    // The fused function ran (the view's input is its node), not the composition.
    QVERIFY(y.grad_fn() && y.grad_fn()->next_edges().size() == 1);
    QVERIFY2(y.grad_fn()->next_edges()[0].function->name().find("MaxMinMlpFunction") != std::string::npos,
             y.grad_fn()->next_edges()[0].function->name().c_str());
    const auto g = at::randn(y.sizes());
    (y * g).sum().backward();

    const auto xd = x.detach().to(at::kDouble).requires_grad_(true);
    const auto wInD = wIn.detach().to(at::kDouble).requires_grad_(true);
    const auto wOutD = wOut.detach().to(at::kDouble).requires_grad_(true);
    const auto h = at::matmul(xd, wInD.t());
    const auto a = h.narrow(-1, 0, m / 2), b = h.narrow(-1, m / 2, m / 2);
    const auto yd = at::matmul(at::cat({at::maximum(a, b), at::minimum(a, b)}, -1), wOutD.t());
    (yd * g.to(at::kDouble)).sum().backward();
    QVERIFY2(maxRel(y.detach(), yd.detach()) < 1e-5, "values");
    QVERIFY2(maxRel(x.grad(), xd.grad()) < 1e-5, "gradient of x");
    QVERIFY2(maxRel(wIn.grad(), wInD.grad()) < 1e-5, "gradient of W_in");
    QVERIFY2(maxRel(wOut.grad(), wOutD.grad()) < 1e-5, "gradient of W_out");
    {
      at::NoGradGuard noGrad;
      QVERIFY(at::equal(models::maxMinMlp(x, wIn, wOut), y.detach()));
    }
    const auto y64 = models::maxMinMlp(xd.detach(), wInD.detach(), wOutD.detach());
    QVERIFY(maxRel(y64, yd.detach()) < 1e-12);
  }

  // The input convolution's taps: row t of the output is [x_t | x_{t−1} | … ], zeros before
  // the sequence's start, and ∂x_t sums the blocks of the rows that took x_t. The reference is
  // the definition written as a loop; k above T (every shift past the start) included.
  void causalTapsMatchesTheLoop_data() {
    QTest::addColumn<int>("dtype");
    QTest::addColumn<int>("k");
    QTest::newRow("f32 k4") << static_cast<int>(at::kFloat) << 4;
    QTest::newRow("f64 k4") << static_cast<int>(at::kDouble) << 4;
    QTest::newRow("f32 k9 > T") << static_cast<int>(at::kFloat) << 9;
    QTest::newRow("f64 k1") << static_cast<int>(at::kDouble) << 1;
  }
  void causalTapsMatchesTheLoop() {
    QFETCH(int, dtype);
    QFETCH(int, k);
    const auto type = static_cast<at::ScalarType>(dtype);
    const int64_t batch = 3, t = 7, d = 5;
    const auto x = at::randn({batch, t, d}, type).requires_grad_(true);
    const auto out = models::causalTaps(x, k);
    QCOMPARE(out.sizes().vec(), (std::vector<int64_t>{batch, t, k * d}));
    const auto g = at::randn(out.sizes(), type);
    (out * g).sum().backward();
    const auto xd = x.detach().to(at::kDouble), gd = g.to(at::kDouble);
    auto ref = at::zeros({batch, t, k * d}, at::kDouble), gref = at::zeros({batch, t, d}, at::kDouble);
    const auto xa = xd.accessor<double, 3>(), ga = gd.accessor<double, 3>();
    auto ra = ref.accessor<double, 3>(), gra = gref.accessor<double, 3>();
    for (int64_t b = 0; b < batch; ++b)
      for (int64_t p = 0; p < t; ++p)
        for (int64_t o = 0; o < k; ++o)
          for (int64_t c = 0; c < d; ++c)
            if (p - o >= 0) {
              ra[b][p][o * d + c] = xa[b][p - o][c];
              gra[b][p - o][c] += ga[b][p][o * d + c];
            }
    QVERIFY(at::equal(out.detach().to(at::kDouble), ref));
    QVERIFY2(maxRel(x.grad().to(at::kDouble), gref) < (type == at::kFloat ? 1e-6 : 1e-14), qPrintable(QString::number(maxRel(x.grad().to(at::kDouble), gref))));
    // A transposed (non-contiguous) input gives the same taps.
    const auto xt = x.detach().transpose(0, 1).contiguous().transpose(0, 1);
    QVERIFY(!xt.is_contiguous());
    QVERIFY(at::equal(models::causalTaps(xt, k).to(at::kDouble), ref));
  }

  void crossEntropyMatchesUnfused_data() {
    QTest::addColumn<int>("dtype");
    QTest::addColumn<bool>("ignoreSome");
    QTest::newRow("f32") << static_cast<int>(at::kFloat) << false;
    QTest::newRow("f32, ignored rows") << static_cast<int>(at::kFloat) << true;
    QTest::newRow("f64, ignored rows") << static_cast<int>(at::kDouble) << true;
  }
  void crossEntropyMatchesUnfused() {
    QFETCH(int, dtype);
    QFETCH(bool, ignoreSome);
    const auto type = static_cast<at::ScalarType>(dtype);
    const int64_t n = 2000, c = 65, ignore = -100;
    const auto z = (at::randn({n, c}, at::kDouble) * 4.0).to(type).requires_grad_(true);
    auto t = at::randint(0, c, {n}, at::TensorOptions().dtype(at::kLong));
    if (ignoreSome) t.masked_fill_(at::randint(0, 3, {n}, at::TensorOptions().dtype(at::kLong)) == 0, ignore);
    const auto loss = models::crossEntropy(z, t, ignore);
    loss.backward();
    // Reference: −log softmax at the target, by a loop, mean over the kept rows; the gradient
    // (softmax − onehot)/count row by row.
    const auto zd = z.detach().to(at::kDouble).contiguous();
    const auto za = zd.accessor<double, 2>();
    const auto ta = t.accessor<int64_t, 1>();
    auto gref = at::zeros({n, c}, at::kDouble);
    auto ga = gref.accessor<double, 2>();
    double total = 0;
    int64_t count = 0;
    for (int64_t r = 0; r < n; ++r)
      if (ta[r] != ignore) ++count;
    for (int64_t r = 0; r < n; ++r) {
      if (ta[r] == ignore) continue;
      double m = za[r][0], sum = 0;
      for (int64_t j = 1; j < c; ++j) m = std::max(m, za[r][j]);
      for (int64_t j = 0; j < c; ++j) sum += std::exp(za[r][j] - m);
      total += std::log(sum) + m - za[r][ta[r]];
      for (int64_t j = 0; j < c; ++j) ga[r][j] = std::exp(za[r][j] - m) / sum / static_cast<double>(count);
      ga[r][ta[r]] -= 1.0 / static_cast<double>(count);
    }
    const double tol = type == at::kFloat ? 2e-6 : 1e-13;
    QVERIFY2(std::abs(loss.item<double>() - total / static_cast<double>(count)) < tol * total / static_cast<double>(count), "loss");
    QVERIFY2(maxRel(z.grad(), gref) < (type == at::kFloat ? 1e-5 : 1e-12), "gradient");
  }

  void crossEntropyRefusesTargetsOutOfRange() {
    const auto z = at::randn({4, 5});
    const auto t = at::tensor(std::vector<int64_t>{0, 1, 5, 2});
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, models::crossEntropy(z, t, -100));
    // Every row ignored: 0/0, as at::cross_entropy_loss.
    QVERIFY(std::isnan(models::crossEntropy(z, at::full({4}, -100, at::TensorOptions().dtype(at::kLong)), -100).item<double>()));
  }

  // Muon's momentum pass against the formulas in float64, over a range that does not start at
  // 0 nor end on a vector boundary; with and without Nesterov (u aliasing buf).
  void muonMomentumMatchesTheFormulas() {
    for (const bool nesterov : {true, false}) {
      const int64_t n = 1037, begin = 5, end = 1030;
      const float beta = 0.95f;
      auto buf = at::randn({n}), g = at::randn({n});
      const auto buf0 = buf.to(at::kDouble), gd = g.to(at::kDouble);
      auto u = nesterov ? at::zeros({n}) : buf;
      const double ss = optim::muonMomentum(buf.data_ptr<float>(), g.data_ptr<float>(), u.data_ptr<float>(), begin, end, beta, nesterov);
      const auto b = static_cast<double>(beta);
      const auto bufRef = buf0 * b + gd * (1.0 - b);
      const auto uRef = nesterov ? gd * (1.0 - b) + bufRef * b : bufRef;
      const auto inside = [&](const at::Tensor& t) { return t.slice(0, begin, end); };
      QVERIFY2(maxRel(inside(buf), inside(bufRef)) < 1e-6, "momentum");
      QVERIFY2(maxRel(inside(u), inside(uRef)) < 1e-6, "u");
      QVERIFY2(std::abs(ss - inside(uRef).square().sum().item<double>()) < 1e-5 * ss, "sum of squares");
      QVERIFY(at::equal(buf.slice(0, 0, begin), buf0.slice(0, 0, begin).to(at::kFloat)));  // outside untouched
    }
    // msign with the norm handed over equals msign computing it.
    // A zero update (its norm 0) and a tiny one stay finite: msign(0) = 0.
    const auto zero = spectral::msign(at::zeros({16, 40}), spectral::NewtonSchulzConfig::muon(), 0.0);
    QVERIFY(zero.isfinite().all().item<bool>() && zero.abs().max().item<float>() == 0.0f);
    const auto tinyIn = at::randn({16, 40}) * 1e-25;
    const auto tiny = spectral::msign(tinyIn, spectral::NewtonSchulzConfig::muon(), tinyIn.to(at::kDouble).square().sum().sqrt().item<double>());
    QVERIFY(tiny.isfinite().all().item<bool>());
    QVERIFY(maxRel(tiny, spectral::msign(at::randn({16, 40}) * 0 + tinyIn * 1e25)) < 1e-4);
    for (const auto& shape : {std::vector<int64_t>{24, 60}, std::vector<int64_t>{60, 24}}) {
      const auto w = at::randn(shape);
      const double fro = w.to(at::kDouble).square().sum().sqrt().item<double>();
      QVERIFY(maxRel(spectral::msign(w, spectral::NewtonSchulzConfig::muon(), fro), spectral::msign(w)) < 1e-5);
    }
  }

  // The soft cap in place (BLAS, alpha·s² on W) against p2(p1(sW))/s written here in float64,
  // wide and tall, RMS and spectral thresholds; and against the out-of-place route.
  void softCapInPlaceMatchesTheFormula_data() {
    QTest::addColumn<int>("dtype");
    QTest::addColumn<int>("rows");
    QTest::addColumn<int>("cols");
    QTest::addColumn<bool>("rms");
    const int f = static_cast<int>(at::kFloat), d = static_cast<int>(at::kDouble);
    QTest::newRow("f32 wide, rms") << f << 24 << 70 << true;
    QTest::newRow("f32 tall, rms") << f << 90 << 16 << true;
    QTest::newRow("f64 tall, spectral") << d << 50 << 30 << false;
    QTest::newRow("f64 square, rms") << d << 32 << 32 << true;
  }
  void softCapInPlaceMatchesTheFormula() {
    QFETCH(int, dtype);
    QFETCH(int, rows);
    QFETCH(int, cols);
    QFETCH(bool, rms);
    const auto type = static_cast<at::ScalarType>(dtype);
    spectral::ConstraintParams p;
    p.method = spectral::ConstraintMethod::SpectralSoftCap;
    p.alpha = 0.07;
    p.norm = rms ? spectral::ThresholdNorm::Rms : spectral::ThresholdNorm::Spectral;
    const auto w0 = at::randn({rows, cols}, at::kDouble) / std::sqrt(static_cast<double>(std::max(rows, cols))) * 3.0;
    const double s = rms ? std::sqrt(static_cast<double>(cols) / rows) : 1.0;
    auto x = w0 * s;
    for (const double sign : {-1.0, 1.0}) x = x + sign * 0.07 * x.matmul(x.mT()).matmul(x);
    const auto ref = x / s;
    auto w = w0.to(type).contiguous();
    const auto outOfPlace = spectral::applyConstraint(w, p);
    QVERIFY(spectral::applyConstraintInPlace(w, p));
    const double tol = type == at::kFloat ? 2e-6 : 1e-13;
    QVERIFY2(maxRel(w, ref) < tol, "in place against the formula");
    QVERIFY2(maxRel(outOfPlace, ref) < tol, "out of place against the formula");
    // Not served: a stack, or another method; w untouched.
    auto stack = w0.to(type).unsqueeze(0).contiguous();
    QVERIFY(!spectral::applyConstraintInPlace(stack, p));
    p.method = spectral::ConstraintMethod::SpectralNormalize;
    const auto before = w.clone();
    QVERIFY(!spectral::applyConstraintInPlace(w, p));
    QVERIFY(at::equal(w, before));
  }

  // Causal softmax against a loop (float64): values, and the gradient of <A, G> against
  // dS_ij = A_ij (G_ij − Σ_k A_ik G_ik) on the kept keys, 0 on the masked ones.
  void causalSoftmaxMatchesTheLoop_data() {
    QTest::addColumn<int>("dtype");
    QTest::addColumn<int>("n");
    QTest::newRow("f32 n = 64 (the ICL presets)") << static_cast<int>(at::kFloat) << 64;
    QTest::newRow("f32 n = 1") << static_cast<int>(at::kFloat) << 1;
    QTest::newRow("f64 n = 13") << static_cast<int>(at::kDouble) << 13;
  }
  void causalSoftmaxMatchesTheLoop() {
    QFETCH(int, dtype);
    QFETCH(int, n);
    const auto type = static_cast<at::ScalarType>(dtype);
    const int64_t batch = 2, heads = 3;
    // Scores up to ±40: rows from flat to one-hot, and masked entries far above the kept ones
    // (a kernel that let a masked key into the max or the sum fails).
    auto s0 = at::randn({batch, heads, n, n}, at::kDouble) * 8.0;
    s0 = s0 + at::triu(at::full({n, n}, 40.0, at::kDouble), 1);
    const auto s = s0.to(type).requires_grad_(true);
    const auto a = models::causalSoftmax(s);
    const auto g = at::randn({batch, heads, n, n}, type);
    (a * g).sum().backward();
    const auto sd = s.detach().to(at::kDouble).contiguous().view({-1, n, n});
    const auto gd = g.to(at::kDouble).contiguous().view({-1, n, n});
    auto aref = at::zeros_like(sd), dref = at::zeros_like(sd);
    auto sa = sd.accessor<double, 3>(), ga = gd.accessor<double, 3>();
    auto aa = aref.accessor<double, 3>(), da = dref.accessor<double, 3>();
    for (int64_t r = 0; r < sd.size(0); ++r)
      for (int64_t i = 0; i < n; ++i) {
        double m = sa[r][i][0], sum = 0, dot = 0;
        for (int64_t j = 1; j <= i; ++j) m = std::max(m, sa[r][i][j]);
        for (int64_t j = 0; j <= i; ++j) sum += std::exp(sa[r][i][j] - m);
        for (int64_t j = 0; j <= i; ++j) dot += (aa[r][i][j] = std::exp(sa[r][i][j] - m) / sum) * ga[r][i][j];
        for (int64_t j = 0; j <= i; ++j) da[r][i][j] = aa[r][i][j] * (ga[r][i][j] - dot);
      }
    const double tol = type == at::kFloat ? 2e-6 : 1e-13;
    QVERIFY2(maxRel(a.view({-1, n, n}), aref) < tol, "values");
    QVERIFY2(maxRel(s.grad().view({-1, n, n}), dref) < (type == at::kFloat ? 1e-5 : 1e-12), "gradient");
    QVERIFY(maxRel(models::causalSoftmaxUnfused(s.detach()), a.detach()) < tol);
  }

  // SwiGLU with Swish β against the formula m·g·σ(βg) in float64 ATen ops with autograd
  // (gradients in mg and in β), with β negative and large inputs (σ's two branches).
  void swiGluMatchesTheFormula_data() {
    QTest::addColumn<int>("dtype");
    QTest::addColumn<double>("beta");
    QTest::newRow("f32 beta 1") << static_cast<int>(at::kFloat) << 1.0;
    QTest::newRow("f32 beta -0.7") << static_cast<int>(at::kFloat) << -0.7;
    QTest::newRow("f64 beta 2.5") << static_cast<int>(at::kDouble) << 2.5;
  }
  void swiGluMatchesTheFormula() {
    QFETCH(int, dtype);
    QFETCH(double, beta);
    const auto type = static_cast<at::ScalarType>(dtype);
    const int64_t h = 96;
    const auto mg = (at::randn({7, 50, 2 * h}, at::kDouble) * 5.0).to(type).requires_grad_(true);
    const auto b = at::full({1}, beta, type).requires_grad_(true);
    const auto z = models::swiGlu(mg, b);
    QCOMPARE(z.sizes().vec(), (std::vector<int64_t>{7, 50, h}));
    const auto g = at::randn(z.sizes(), type);
    (z * g).sum().backward();
    const auto mgd = mg.detach().to(at::kDouble).requires_grad_(true);
    const auto bd = b.detach().to(at::kDouble).requires_grad_(true);
    const auto m = mgd.narrow(-1, 0, h), gate = mgd.narrow(-1, h, h);
    const auto zref = m * gate / (1.0 + (-(gate * bd)).exp());
    (zref * g.to(at::kDouble)).sum().backward();
    const double tol = type == at::kFloat ? 2e-6 : 1e-13;
    QVERIFY2(maxRel(z, zref.detach()) < tol, "values");
    QVERIFY2(maxRel(mg.grad(), mgd.grad()) < (type == at::kFloat ? 1e-5 : 1e-12), "gradient of mg");
    // ∂/∂β is a sum of 33,600 terms that cancel: its float32 rounding scales with Σ|term|, not
    // with the sum (a bound relative to the sum failed now and then, with the split of the sum
    // between threads). Each term is g·m·gate²·σ(βgate)(1 − σ(βgate)).
    const auto sig = 1.0 / (1.0 + (-(gate.detach() * bd.detach())).exp());
    const double scale = (g.to(at::kDouble) * m.detach() * gate.detach().square() * sig * (1.0 - sig)).abs().sum().item<double>();
    const double betaError = (b.grad().to(at::kDouble) - bd.grad()).abs().item<double>();
    QVERIFY2(betaError <= (type == at::kFloat ? 1e-6 : 1e-13) * scale,
             qPrintable(QString("gradient of beta: error %1, sum of |terms| %2").arg(betaError).arg(scale)));
    QVERIFY(maxRel(models::swiGluUnfused(mg.detach(), b.detach()), z.detach()) < tol);
  }

  // Heads with RoPE against a loop with the angles in float64 (the model's angles are float32,
  // hence 2e-5), the former ATen path to float tolerance, and gradients against autograd
  // through that path; k's gradient left undefined (k unused), as when only q and v are read.
  void ropeHeadsMatchesTheLoop_data() {
    QTest::addColumn<int>("dtype");
    QTest::addColumn<int>("offset");
    QTest::newRow("f32 offset 0") << static_cast<int>(at::kFloat) << 0;
    QTest::newRow("f64 offset 37") << static_cast<int>(at::kDouble) << 37;
  }
  void ropeHeadsMatchesTheLoop() {
    QFETCH(int, dtype);
    QFETCH(int, offset);
    const auto type = static_cast<at::ScalarType>(dtype);
    const int64_t b = 3, n = 11, heads = 2, dh = 8, d = heads * dh, half = dh / 2;
    const auto qkv = at::randn({b, n, 3 * d}, type).requires_grad_(true);
    const auto out = models::ropeHeads(qkv, heads, offset);
    const auto x = qkv.detach().to(at::kDouble).contiguous();
    const auto xa = x.accessor<double, 3>();
    for (int part = 0; part < 3; ++part) {
      QCOMPARE(out[part].sizes().vec(), (std::vector<int64_t>{b * heads, n, dh}));
      auto ref = at::zeros({b * heads, n, dh}, at::kDouble);
      auto ra = ref.accessor<double, 3>();
      for (int64_t s = 0; s < b; ++s)
        for (int64_t p = 0; p < n; ++p)
          for (int64_t hd = 0; hd < heads; ++hd)
            for (int64_t i = 0; i < half; ++i) {
              const double x1 = xa[s][p][part * d + hd * dh + i], x2 = xa[s][p][part * d + hd * dh + i + half];
              const double th = static_cast<double>(p + offset) * std::pow(10000.0, -2.0 * static_cast<double>(i) / dh);
              const double c = part == 2 ? 1.0 : std::cos(th), sn = part == 2 ? 0.0 : std::sin(th);
              ra[s * heads + hd][p][i] = x1 * c - x2 * sn;
              ra[s * heads + hd][p][i + half] = x1 * sn + x2 * c;
            }
      QVERIFY2(maxRel(out[part], ref) < 2e-5, ("part " + std::to_string(part)).c_str());
    }
    const auto unfused = models::ropeHeadsUnfused(qkv.detach(), heads, offset);
    for (int part = 0; part < 3; ++part)
      QVERIFY(maxRel(out[part].detach(), unfused[part]) < (type == at::kFloat ? 1e-6 : 1e-13));
    const auto gq = at::randn(out[0].sizes(), type), gv = at::randn(out[2].sizes(), type);
    ((out[0] * gq).sum() + (out[2] * gv).sum()).backward();
    const auto xr = qkv.detach().to(at::kDouble).requires_grad_(true);
    const auto refOut = models::ropeHeadsUnfused(xr, heads, offset);
    ((refOut[0] * gq.to(at::kDouble)).sum() + (refOut[2] * gv.to(at::kDouble)).sum()).backward();
    QVERIFY2(maxRel(qkv.grad(), xr.grad()) < (type == at::kFloat ? 1e-5 : 1e-12), "gradient");
    QVERIFY(qkv.grad().narrow(-1, d, d).abs().max().item<double>() == 0.0);  // k's columns
  }

  // The routed float32 GEMM (oneDNN above kDnnlMinWork, the BLAS below) against a float64 loop,
  // for every transpose combination, leading dimensions larger than the rows, alpha and beta.
  void routedGemmMatchesTheLoop_data() {
    QTest::addColumn<int>("m");
    QTest::addColumn<int>("n");
    QTest::addColumn<int>("k");
    QTest::newRow("small (the BLAS)") << 7 << 5 << 3;
    QTest::newRow("large (oneDNN when loaded)") << 130 << 90 << 100;
  }
  void routedGemmMatchesTheLoop() {
    QFETCH(int, m);
    QFETCH(int, n);
    QFETCH(int, k);
    const auto gemm = blas::gemm<float>();
    QVERIFY(gemm != nullptr);
    if (static_cast<int64_t>(m) * n * k >= blas::kDnnlMinWork && blas::functions().dnnlSgemm)
      QCOMPARE(QString(blas::sgemmRouteFor(m, n, k)), QString("onednn"));
    else
      QCOMPARE(QString(blas::sgemmRouteFor(m, n, k)), QString("blas"));
    for (const char ta : {'N', 'T'})
      for (const char tb : {'N', 'T'}) {
        // Column-major storage: op(A) is m×k, stored k×m when transposed; ld = rows + 3.
        const int ar = ta == 'N' ? m : k, ac = ta == 'N' ? k : m, br = tb == 'N' ? k : n, bc = tb == 'N' ? n : k;
        const int lda = ar + 3, ldb = br + 3, ldc = m + 3;
        const auto a = at::randn({ac, lda}, at::kFloat), b = at::randn({bc, ldb}, at::kFloat);
        auto c = at::randn({n, ldc}, at::kFloat);
        const auto c0 = c.clone().to(at::kDouble);
        const float alpha = 2.0f, beta = 0.5f;
        gemm(&ta, &tb, &m, &n, &k, &alpha, a.data_ptr<float>(), &lda, b.data_ptr<float>(), &ldb, &beta,
             c.data_ptr<float>(), &ldc);
        const auto ad = a.to(at::kDouble), bd = b.to(at::kDouble);
        auto aa = ad.accessor<double, 2>(), ba = bd.accessor<double, 2>(), c0a = c0.accessor<double, 2>();
        auto ca = c.accessor<float, 2>();
        double worst = 0, scale = 0;
        for (int i = 0; i < m; ++i)
          for (int j = 0; j < n; ++j) {
            double sum = 0;
            for (int p = 0; p < k; ++p)
              sum += (ta == 'N' ? aa[p][i] : aa[i][p]) * (tb == 'N' ? ba[j][p] : ba[p][j]);
            const double ref = alpha * sum + beta * c0a[j][i];
            worst = std::max(worst, std::abs(ca[j][i] - ref));
            scale = std::max(scale, std::abs(ref));
          }
        QVERIFY2(worst / scale < 1e-5, qPrintable(QString("%1%2: max rel error %3").arg(ta).arg(tb).arg(worst / scale)));
        // The padding rows beyond m are C's own storage and must be left alone.
        QVERIFY(at::equal(c.narrow(1, m, 3), c0.narrow(1, m, 3).to(at::kFloat)));
      }
  }

  // oneDNN's kernel runs with every asynchronous signal blocked and on one OpenMP thread: a
  // handler running on the thread in the middle of dnnl_sgemm corrupted the heap (a `train`
  // stopped by SIGTERM aborted in malloc, 4 of 12 times). Seen from inside the call.
  void oneDnnRunsWithSignalsBlocked() {
    if (!blas::functions().dnnlSgemm) QSKIP("oneDNN's dnnl_sgemm is not loaded in this build");
    static std::atomic<int> calls{0}, blocked{0}, faultsOpen{0}, oneThread{0};
    calls = blocked = faultsOpen = oneThread = 0;
    blas::setDnnlSgemmForTesting([](char, char, int64_t, int64_t, int64_t, float, const float*, int64_t, const float*, int64_t,
                                    float, float*, int64_t) -> int {
      sigset_t now;
      pthread_sigmask(SIG_BLOCK, nullptr, &now);
      ++calls;
      if (sigismember(&now, SIGTERM) && sigismember(&now, SIGINT) && sigismember(&now, SIGCHLD) && sigismember(&now, SIGUSR1)) ++blocked;
      if (!sigismember(&now, SIGSEGV) && !sigismember(&now, SIGBUS)) ++faultsOpen;
      if (ompMaxThreads() == 1) ++oneThread;
      return 1;  // "refused": the product falls back to the BLAS
    });
    ompSetThreads(2);
    const int m = 130, n = 90, k = 100;
    const auto a = at::randn({k, m}), b = at::randn({n, k});
    auto c = at::zeros({n, m});
    const float one = 1.0f, zero = 0.0f;
    blas::gemm<float>()("N", "N", &m, &n, &k, &one, a.data_ptr<float>(), &m, b.data_ptr<float>(), &k, &zero, c.data_ptr<float>(), &m);
    blas::setDnnlSgemmForTesting(nullptr);
    QCOMPARE(calls.load(), 1);
    QCOMPARE(blocked.load(), 1);
    QCOMPARE(faultsOpen.load(), 1);
    QCOMPARE(oneThread.load(), 1);
    // Restored after the call: the thread's mask and thread count as before.
    sigset_t after;
    pthread_sigmask(SIG_BLOCK, nullptr, &after);
    QVERIFY(!sigismember(&after, SIGTERM));
    QCOMPARE(ompMaxThreads(), 2);
    // The refused call fell back to the BLAS: the product is right.
    QVERIFY(maxRel(c.t(), at::matmul(a.t().to(at::kDouble), b.t().to(at::kDouble))) < 1e-5);
  }

  // lwb::linear against x·wᵀ in float64 (values) and its gradients ∂x = g·w, ∂w = gᵀ·x, for
  // 3-D and transposed (non-contiguous) inputs on both routes; float64 takes at::linear itself.
  void linearMatchesTheFormula_data() {
    QTest::addColumn<int>("rows");
    QTest::addColumn<int>("in");
    QTest::addColumn<int>("out");
    QTest::addColumn<bool>("transposed");
    QTest::newRow("2,048 × 64 → 65 (a chars head)") << 2048 << 64 << 65 << false;
    QTest::newRow("600 × 64 → 256, input a transposed view") << 600 << 64 << 256 << true;
    QTest::newRow("6 × 5 → 3 (the BLAS)") << 6 << 5 << 3 << false;
  }
  void linearMatchesTheFormula() {
    QFETCH(int, rows);
    QFETCH(int, in);
    QFETCH(int, out);
    QFETCH(bool, transposed);
    const auto base = at::randn(transposed ? std::vector<int64_t>{in, rows} : std::vector<int64_t>{2, rows / 2, in}, at::kFloat);
    const auto x = (transposed ? base.t() : base).detach().requires_grad_(true);
    const auto w = (at::randn({out, in}, at::kFloat) / 8.0).requires_grad_(true);
    QVERIFY(mmUsesRoutedGemm(x.reshape({-1, in}), w.t()));
    const auto y = lwb::linear(x, w);
    QCOMPARE(y.sizes().back(), static_cast<int64_t>(out));
    const auto g = at::randn(y.sizes(), at::kFloat);
    // ∂w arrives in w's own layout: a transposed one would be copied by AccumulateGrad.
    QVERIFY(torch::autograd::grad({y}, {w}, {g}, /*retain_graph=*/true)[0].is_contiguous());
    (y * g).sum().backward();
    const auto xd = x.detach().to(at::kDouble).reshape({-1, in}), wd = w.detach().to(at::kDouble);
    const auto gd = g.to(at::kDouble).reshape({-1, out});
    QVERIFY2(maxRel(y.reshape({-1, out}), at::matmul(xd, wd.t())) < 1e-5, "values");
    QVERIFY2(maxRel(x.grad().reshape({-1, in}), at::matmul(gd, wd)) < 1e-5, "gradient in x");
    QVERIFY2(maxRel(w.grad(), at::matmul(gd.t(), xd)) < 1e-5, "gradient in w");
    // Without grad mode: the same forward.
    at::NoGradGuard noGrad;
    QVERIFY(maxRel(lwb::linear(x.detach(), w.detach()), y.detach()) < 1e-6);
    const auto x64 = x.detach().to(at::kDouble), w64 = w.detach().to(at::kDouble);
    QVERIFY(!mmUsesRoutedGemm(x64.reshape({-1, in}), w64.t()));
    QVERIFY(at::equal(lwb::linear(x64, w64), at::linear(x64, w64)));
  }

  // lwb::mm against float64 products for operands of every layout: a transposed view (a BLAS
  // transpose), a column slice with no unit stride (copied), and a contiguous one.
  void mmMatchesTheFormula() {
    const auto a = at::randn({90, 700}, at::kFloat).t().detach().requires_grad_(true);          // [700, 90], strides (1, 700)
    const auto bFull = at::randn({90, 80}, at::kFloat).detach().requires_grad_(true);
    const auto b = bFull.slice(1, 0, 80, 2);                                                       // [90, 40], strides (80, 2)
    QVERIFY(mmUsesRoutedGemm(a, b));
    const auto c = lwb::mm(a, b);
    const auto g = at::randn({700, 40}, at::kFloat);
    (c * g).sum().backward();
    const auto ad = a.detach().to(at::kDouble), bd = b.detach().to(at::kDouble), gd = g.to(at::kDouble);
    QVERIFY2(maxRel(c, at::matmul(ad, bd)) < 1e-5, "values");
    QVERIFY2(maxRel(a.grad(), at::matmul(gd, bd.t())) < 1e-5, "gradient in a");
    QVERIFY2(maxRel(bFull.grad().slice(1, 0, 80, 2), at::matmul(ad.t(), gd)) < 1e-5, "gradient in b");
    QVERIFY(bFull.grad().slice(1, 1, 80, 2).abs().max().item<double>() == 0.0);
    // Empty operands: ATen's empty result.
    QCOMPARE(lwb::linear(at::zeros({0, 5}), at::randn({3, 5})).sizes().vec(), (std::vector<int64_t>{0, 3}));
    QCOMPARE(lwb::mm(at::zeros({4, 0}), at::zeros({0, 2})).sizes().vec(), (std::vector<int64_t>{4, 2}));
    // Shapes ATen refuses keep ATen's message.
    QVERIFY_THROWS_EXCEPTION(c10::Error, lwb::mm(at::randn({3, 4}), at::randn({5, 2})));
  }

  void attentionOpsRefuseBadShapes() {
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, models::causalSoftmax(at::zeros({2, 3, 4})));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, models::swiGlu(at::zeros({2, 5}), at::ones({1})));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, models::swiGlu(at::zeros({2, 6}), at::ones({2})));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, models::ropeHeads(at::zeros({2, 3, 30}), 2, 0));  // d_head 5
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, models::ropeHeads(at::zeros({6, 48}), 2, 0));
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
