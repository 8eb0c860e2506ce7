// The in-context least-squares task and the norm-free ICL transformer (seed 002 §4;
// SEEDS-002-004 §B and the test list of §H.2): token layout, input noise, Y = XW, the
// condition-number rejection, x positions, the generator's statistics, reference predictors
// through the real loss and indexing code, causality, RoPE shift invariance and a RoPE reference
// whose scores depend on the relative offset, init loss levels.
#include "data/icl_least_squares.h"
#include "data/icl_levels.h"
#include "models/icl_transformer.h"
#include "support/spectra.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/TensorOperators.h>
#include <ATen/core/grad_mode.h>
#include <ATen/ops/equal.h>
#include <ATen/ops/gather.h>
#include <ATen/ops/linalg_pinv.h>
#include <ATen/ops/linalg_svdvals.h>
#include <ATen/ops/randn.h>
#include <ATen/ops/zeros.h>
#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

using namespace lwb;

namespace {

data::IclConfig config(int64_t pairs, double noise = 0.01) {
  data::IclConfig c;
  c.pairs = pairs;
  c.noise = noise;
  return c;
}

data::Batch draw(const data::IclConfig& c, int64_t b, uint64_t seed, bool noise = true) {
  auto gen = at::make_generator<at::CPUGeneratorImpl>(seed);
  return data::sampleIcl(c, b, gen, noise);
}

// The x-slots (or y-slots) of the x-tokens (y-tokens) of every pair, [B, T, D].
at::Tensor slots(const data::Batch& batch, int64_t d, bool ofX) {
  const auto pos = ofX ? batch.positions : batch.positions + 1 - 2 * (batch.positions % 2);
  const auto tok = at::gather(batch.inputs, 1, pos.unsqueeze(-1).expand({pos.size(0), pos.size(1), batch.inputs.size(-1)}));
  return tok.narrow(-1, ofX ? 2 : 2 + d, d);
}

models::IclShape smallShape() {
  models::IclShape s;
  s.dModel = 32;
  s.layers = 2;
  s.heads = 4;
  return s;
}

}  // namespace

class TestIcl : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  // Issue 32: a float64 reference forward of a one-layer ICL transformer written as loops
  // here (embedding, fused qkv, RoPE rotate-half, q·k/d_head, causal softmax, out × 1/3,
  // SwiGLU with Swish-β × 1/3, residual mixing with α = 1/(2L), unembedding), against the
  // model's float32 forward. As tst_gpt_bound's forwardMatchesPerHeadLoop does for the GPT.
  void forwardMatchesFloat64Loops() {
    models::IclShape shape;
    shape.dModel = 8;
    shape.heads = 2;
    shape.layers = 1;
    shape.residualPerSublayer = true;  // α = 1/2: the mixing is exercised, not h = block
    auto gen = at::make_generator<at::CPUGeneratorImpl>(21);
    models::IclTransformer model(shape, gen, at::Device(at::kCPU));
    std::map<std::string, at::Tensor> w;
    for (const auto& p : model.parameters()) w[p.name] = p.tensor.detach();
    {
      at::NoGradGuard g;
      w["layers.0.mlp.beta"].fill_(1.7);  // a Swish β other than 1
    }
    const int64_t n = 4, d = 8, nh = 2, dh = 4, half = dh / 2, din = 13, dout = 5;
    const auto tokens = at::randn({1, n, din}, gen);
    const auto out = model.forward(tokens).detach().to(at::kDouble);
    const auto M = [&](const char* name) {
      const auto t = w.at(name).to(at::kDouble).contiguous();
      std::vector<std::vector<double>> m(static_cast<size_t>(t.size(0)), std::vector<double>(static_cast<size_t>(t.size(1))));
      for (int64_t i = 0; i < t.size(0); ++i)
        for (int64_t j = 0; j < t.size(1); ++j) m[i][j] = t[i][j].item<double>();
      return m;
    };
    const auto apply = [](const std::vector<std::vector<double>>& m, const std::vector<double>& x) {
      std::vector<double> y(m.size(), 0.0);
      for (size_t i = 0; i < m.size(); ++i)
        for (size_t j = 0; j < x.size(); ++j) y[i] += m[i][j] * x[j];
      return y;
    };
    const auto E = M("embed"), Wqkv = M("layers.0.attn.qkv"), Wo = M("layers.0.attn.out"), F1 = M("layers.0.mlp.fc1"),
               F2 = M("layers.0.mlp.fc2"), U = M("unembed");
    const double beta = 1.7, alpha = 0.5;
    std::vector<std::vector<double>> h(n);
    for (int64_t t = 0; t < n; ++t) {
      std::vector<double> x(din);
      for (int64_t j = 0; j < din; ++j) x[j] = tokens[0][t][j].item<double>();
      h[t] = apply(E, x);
    }
    // Attention: per head, RoPE at position t, scores / d_head, causal softmax.
    std::vector<std::vector<double>> q(n), k(n), v(n);
    for (int64_t t = 0; t < n; ++t) {
      const auto qkv = apply(Wqkv, h[t]);
      q[t].assign(qkv.begin(), qkv.begin() + d);
      k[t].assign(qkv.begin() + d, qkv.begin() + 2 * d);
      v[t].assign(qkv.begin() + 2 * d, qkv.end());
      for (auto* vec : {&q[t], &k[t]})
        for (int64_t hd = 0; hd < nh; ++hd)
          for (int64_t i = 0; i < half; ++i) {
            const double theta = static_cast<double>(t) * std::pow(10000.0, -2.0 * static_cast<double>(i) / dh);
            double& a = (*vec)[hd * dh + i];
            double& b = (*vec)[hd * dh + i + half];
            const double a0 = a, b0 = b;
            a = a0 * std::cos(theta) - b0 * std::sin(theta);
            b = a0 * std::sin(theta) + b0 * std::cos(theta);
          }
    }
    std::vector<std::vector<double>> h1(n);
    for (int64_t t = 0; t < n; ++t) {
      std::vector<double> mixed(d, 0.0);
      for (int64_t hd = 0; hd < nh; ++hd) {
        std::vector<double> sc(static_cast<size_t>(t + 1));
        double top = -INFINITY, sum = 0;
        for (int64_t s2 = 0; s2 <= t; ++s2) {
          double dot = 0;
          for (int64_t i = 0; i < dh; ++i) dot += q[t][hd * dh + i] * k[s2][hd * dh + i];
          sc[s2] = dot / dh;
          top = std::max(top, sc[s2]);
        }
        for (double& x : sc) sum += (x = std::exp(x - top));
        for (int64_t s2 = 0; s2 <= t; ++s2)
          for (int64_t i = 0; i < dh; ++i) mixed[hd * dh + i] += sc[s2] / sum * v[s2][hd * dh + i];
      }
      const auto att = apply(Wo, mixed);
      h1[t].resize(d);
      for (int64_t i = 0; i < d; ++i) h1[t][i] = (1 - alpha) * h[t][i] + alpha * att[i] / 3.0;
    }
    for (int64_t t = 0; t < n; ++t) {
      const auto mg = apply(F1, h1[t]);
      std::vector<double> z(2 * d);
      for (int64_t i = 0; i < 2 * d; ++i) {
        const double m = mg[i], g = mg[i + 2 * d];
        z[i] = m * g / (1.0 + std::exp(-beta * g));
      }
      const auto mlp = apply(F2, z);
      std::vector<double> h2(d);
      for (int64_t i = 0; i < d; ++i) h2[i] = (1 - alpha) * h1[t][i] + alpha * mlp[i] / 3.0;
      const auto y = apply(U, h2);
      for (int64_t o = 0; o < dout; ++o) {
        const double got = out[0][t][o].item<double>();
        QVERIFY2(std::abs(got - y[o]) <= 1e-5 * std::max(1.0, std::abs(y[o])),
                 qPrintable(QStringLiteral("t %1 o %2: %3 vs %4").arg(t).arg(o).arg(got, 0, 'g', 10).arg(y[o], 0, 'g', 10)));
      }
    }
  }

  void tokenLayout() {
    const auto c = config(16);
    const auto b = draw(c, 256, 1);
    QCOMPARE(b.inputs.sizes().vec(), (std::vector<int64_t>{256, 32, 13}));
    QCOMPARE(b.targets.sizes().vec(), (std::vector<int64_t>{256, 16, 5}));
    const auto xFlag = b.inputs.select(-1, 0), yFlag = b.inputs.select(-1, 1);
    QVERIFY(at::equal(xFlag + yFlag, at::ones_like(xFlag)));           // exactly one flag
    QVERIFY(at::equal(b.inputs.select(-1, 12), at::ones_like(xFlag)));  // bias feature
    // x-slot 0 on y-tokens, y-slot 0 on x-tokens.
    QCOMPARE((b.inputs.narrow(-1, 2, 5) * yFlag.unsqueeze(-1)).abs().max().item<float>(), 0.0f);
    QCOMPARE((b.inputs.narrow(-1, 7, 5) * xFlag.unsqueeze(-1)).abs().max().item<float>(), 0.0f);
    // positions are the x-tokens: 2t (x first) or 2t + 1 (y first), the same within a sequence.
    const auto atPos = at::gather(xFlag, 1, b.positions);
    QVERIFY(at::equal(atPos, at::ones_like(atPos)));
    const auto parity = b.positions % 2;
    QVERIFY(at::equal(parity, parity.select(1, 0).unsqueeze(1).expand_as(parity)));
    const auto t = at::arange(16, at::kLong).mul(2).unsqueeze(0);
    QVERIFY(at::equal(b.positions - parity, t.expand_as(parity)));
    // x_first puts every x at 2t.
    auto xf = c;
    xf.xFirst = true;
    QVERIFY(at::equal(draw(xf, 8, 1).positions, t.expand({8, 16})));
    // Without the bias feature the token has 12 entries.
    auto nb = c;
    nb.biasFeature = false;
    QCOMPARE(data::iclTokenDim(nb), int64_t{12});
  }

  // x-slot − x has std 0.01 ± 0.001 (the same generator draws X, W and the order before the
  // noise, so the noise-free draw gives the clean x); Y = XW exactly; targets are clean.
  void noiseAndTargets() {
    const auto c = config(32);
    const auto noisy = draw(c, 512, 7, true), clean = draw(c, 512, 7, false);
    QVERIFY(at::equal(noisy.targets, clean.targets));
    const auto eps = slots(noisy, 5, true) - slots(clean, 5, true);
    const double sd = eps.std().item<double>();
    qInfo("input noise std %.5f", sd);
    QVERIFY(std::abs(sd - 0.01) <= 0.001);
    // Y = X W: the least-squares fit of each sequence is exact.
    const auto x = slots(clean, 5, true).to(at::kDouble), y = slots(clean, 5, false).to(at::kDouble);
    QVERIFY(at::equal(y.to(at::kFloat), clean.targets));
    const auto w = at::linalg_pinv(x).matmul(y);
    QVERIFY((x.matmul(w) - y).abs().max().item<double>() < 1e-4);
    // W ~ N(0, 1/D): entries of the fitted W have variance 1/5 (± 10%).
    QVERIFY(std::abs(w.var().item<double>() - 0.2) < 0.02);
  }

  // Generator statistics: x ~ N(0, 1), order flags ~ Bernoulli(1/2).
  void generatorStatistics() {
    const auto b = draw(config(32), 2000, 3, false);
    const auto x = slots(b, 5, true);
    QVERIFY(std::abs(x.mean().item<double>()) < 0.01);
    QVERIFY(std::abs(x.var().item<double>() - 1.0) < 0.02);
    const double yFirst = (b.positions.select(1, 0) % 2).to(at::kDouble).mean().item<double>();
    QVERIFY(std::abs(yFirst - 0.5) < 0.04);
  }

  void conditionNumberRejection() {
    auto c = config(8);
    c.maxCond = 4.0;  // a Gaussian 8×5 often exceeds 4: the redraws are exercised
    const auto x = slots(draw(c, 500, 5, false), 5, true);
    const auto s = at::linalg_svdvals(x.to(at::kDouble));
    const auto cond = s.select(-1, 0) / s.select(-1, 4);
    QVERIFY2(cond.max().item<double>() <= 4.0 + 1e-9, qPrintable(QString::number(cond.max().item<double>())));
    const auto def = slots(draw(config(8), 500, 5, false), 5, true);
    const auto sd = at::linalg_svdvals(def.to(at::kDouble));
    QVERIFY((sd.select(-1, 0) / sd.select(-1, 4)).max().item<double>() <= 1e3);
  }

  // Reference predictors through iclLoss: predict 0 → 5; min-norm least squares on the
  // earlier pairs in x-first sequences and copying y_t in y-first ones, noise off → 7.5/T.
  void referencePredictors() {
    const int64_t t = 32, b = 2000;
    const auto c = config(t, 0.0);
    const auto batch = draw(c, b, 11, false);
    const auto zero = at::zeros({b, 2 * t, 5});
    const double zeroLoss = data::iclLoss(zero, batch).item<double>();
    qInfo("predict-0 loss %.3f", zeroLoss);
    QVERIFY(std::abs(zeroLoss - 5.0) <= 0.1);

    const auto x = slots(batch, 5, true).to(at::kDouble), y = slots(batch, 5, false).to(at::kDouble);
    const auto yFirst = (batch.positions.select(1, 0) % 2).to(at::kBool).view({b, 1});
    auto pred = at::zeros({b, t, 5}, at::kDouble);
    for (int64_t i = 1; i < t; ++i) {
      const auto w = at::linalg_pinv(x.narrow(1, 0, i)).matmul(y.narrow(1, 0, i));
      pred.select(1, i).copy_(x.select(1, i).unsqueeze(1).matmul(w).squeeze(1));
    }
    pred = at::where(yFirst.unsqueeze(-1), y, pred);
    auto out = at::zeros({b, 2 * t, 5});
    out.scatter_(1, batch.positions.unsqueeze(-1).expand({b, t, 5}), pred.to(at::kFloat));
    const double ls = data::iclLoss(out, batch).item<double>();
    const double floor = data::iclReferenceLevels(t, 5, false).back().value;
    qInfo("LS/copy loss %.4f, Bayes floor %.4f", ls, floor);
    QCOMPARE(floor, 7.5 / t);
    QVERIFY(std::abs(ls - 7.5 / t) <= 0.01);
  }

  void referenceLevels() {
    const auto r = data::iclReferenceLevels(64, 5, false);
    QCOMPARE(r.size(), size_t{3});
    QCOMPARE(r[0].value, 5.0);
    QCOMPARE(r[1].value, 2.5);
    QCOMPARE(r[2].value, 7.5 / 64);
    const auto xf = data::iclReferenceLevels(32, 5, true);
    QCOMPARE(xf.size(), size_t{2});
    QCOMPARE(xf.back().value, 15.0 / 32);
  }

  void badSettingsAreRefused() {
    auto c = config(4);
    QVERIFY_THROWS_EXCEPTION(InputError, data::makeIclDataset(c));  // D = 5 > T = 4
    c = config(16, -1.0);
    QVERIFY_THROWS_EXCEPTION(InputError, data::makeIclDataset(c));
  }

  // Changing tokens at positions > p leaves the outputs at ≤ p bit-identical.
  void causality() {
    auto gen = at::make_generator<at::CPUGeneratorImpl>(2);
    models::IclTransformer model(smallShape(), gen, at::kCPU);
    const auto batch = draw(config(16), 4, 9);
    at::NoGradGuard noGrad;
    const auto out = model.forward(batch.inputs);
    for (int64_t p : {0, 7, 20}) {
      auto changed = batch.inputs.clone();
      changed.narrow(1, p + 1, 32 - p - 1).copy_(at::randn({4, 32 - p - 1, 13}));
      const auto out2 = model.forward(changed);
      QVERIFY2(at::equal(out.narrow(1, 0, p + 1), out2.narrow(1, 0, p + 1)), qPrintable(QString::number(p)));
      QVERIFY(!at::equal(out.narrow(1, p + 1, 32 - p - 1), out2.narrow(1, p + 1, 32 - p - 1)));
    }
  }

  // RoPE: shifting every position by a constant leaves the attention scores unchanged.
  void ropeShiftInvariance() {
    auto gen = at::make_generator<at::CPUGeneratorImpl>(4);
    models::IclTransformer model(smallShape(), gen, at::kCPU);
    at::NoGradGuard noGrad;
    const auto h = at::randn({2, 24, 32});
    const auto s0 = model.attentionScores(h, 1, 0);
    for (int64_t shift : {1, 17, 300}) {
      const auto s1 = model.attentionScores(h, 1, shift);
      const double diff = (s1 - s0).abs().max().item<double>();
      QVERIFY2(diff <= 1e-5, qPrintable(QString("shift %1: %2").arg(shift).arg(diff)));
    }
  }

  // RoPE is there (issue 26): the scores equal a reference computed here — q, k from the
  // layer's qkv matrix, each rotated by θ_{p,i} = p·10000^(−2i/d_head) (rotate-half pairs,
  // SEEDS §B.2), q·kᵀ/d_head — and with the same query and key vectors the score changes
  // when their relative offset changes (without rotary positions it would not).
  void ropeScoresDependOnRelativeOffset() {
    auto gen = at::make_generator<at::CPUGeneratorImpl>(6);
    models::IclTransformer model(smallShape(), gen, at::kCPU);
    at::NoGradGuard noGrad;
    const int64_t n = 12, d = 32, heads = 4, dh = d / heads, half = dh / 2, offset = 5;
    auto h = at::randn({1, n, d});
    h.select(1, 0).copy_(at::randn({d}));
    for (int64_t p = 1; p < n; ++p) h.select(1, p).copy_(h.select(1, 1));  // same token at 1..n−1
    at::Tensor qkv;
    for (const auto& p : model.parameters())
      if (p.name == "layers.1.attn.qkv") qkv = p.tensor.to(at::kDouble);
    QVERIFY(qkv.defined());
    const auto proj = h.to(at::kDouble).select(0, 0).matmul(qkv.mT());  // [n, 3d]
    const auto rotated = [&](int64_t col0, int64_t pos) {
      std::vector<double> out(static_cast<size_t>(dh));
      for (int64_t i = 0; i < half; ++i) {
        const double th = static_cast<double>(pos) * std::pow(10000.0, -2.0 * static_cast<double>(i) / static_cast<double>(dh));
        const double x1 = proj[pos - offset][col0 + i].item<double>(), x2 = proj[pos - offset][col0 + i + half].item<double>();
        out[static_cast<size_t>(i)] = x1 * std::cos(th) - x2 * std::sin(th);
        out[static_cast<size_t>(i + half)] = x1 * std::sin(th) + x2 * std::cos(th);
      }
      return out;
    };
    const auto scores = model.attentionScores(h, 1, offset).to(at::kDouble);  // [1, heads, n, n]
    double worst = 0;
    for (int64_t head = 0; head < heads; ++head)
      for (int64_t a = 0; a < n; ++a)
        for (int64_t b = 0; b < n; ++b) {
          const auto q = rotated(head * dh, a + offset), k = rotated(d + head * dh, b + offset);
          double ref = 0;
          for (int64_t i = 0; i < dh; ++i) ref += q[static_cast<size_t>(i)] * k[static_cast<size_t>(i)];
          ref /= static_cast<double>(dh);
          worst = std::max(worst, std::abs(scores[0][head][a][b].item<double>() - ref));
        }
    QVERIFY2(worst <= 1e-5, qPrintable(QString("scores vs the RoPE reference: %1").arg(worst)));
    // Query at p = 2..n−1 (the same vector), key at 0: the offset p varies, so must the score.
    for (int64_t head = 0; head < heads; ++head) {
      const auto col = scores[0][head].select(1, 0).narrow(0, 2, n - 2);
      const double spread = (col.max() - col.min()).item<double>();
      QVERIFY2(spread > 1e-3, qPrintable(QString("head %1: spread %2").arg(head).arg(spread)));
    }
  }

  // Init (full size L 15, d 256, 8 heads, T 64): lips on → loss in [4, 6] and max |output| < 2
  // (SEEDS [checked] 4.92, 0.70); lips off and no norm → non-finite or > 1e6 (7.8e26).
  // Batch 8 keeps it to seconds.
  void initLossLevels() {
    const auto c = config(64);
    const auto batch = draw(c, 8, 21);
    for (bool lips : {true, false}) {
      models::IclShape s;  // full size defaults
      s.lipschitz = lips;
      auto gen = at::make_generator<at::CPUGeneratorImpl>(0);
      models::IclTransformer model(s, gen, at::kCPU);
      at::NoGradGuard noGrad;
      const auto out = model.forward(batch.inputs);
      const double loss = data::iclLoss(out, batch).item<double>();
      const double maxOut = out.abs().max().item<double>();
      qInfo("lips %d: init loss %.4g, max |output| %.3g", lips, loss, maxOut);
      if (lips) {
        QVERIFY(loss >= 4 && loss <= 6);
        QVERIFY(maxOut < 2);
      } else {
        QVERIFY(!std::isfinite(loss) || loss > 1e6);
      }
    }
    // With RMSNorm ("Type 1") even lips off stays finite and moderate.
    models::IclShape s;
    s.lipschitz = false;
    s.rmsNorm = true;
    s.layers = 4;
    auto gen = at::make_generator<at::CPUGeneratorImpl>(0);
    models::IclTransformer normed(s, gen, at::kCPU);
    at::NoGradGuard noGrad;
    QVERIFY(data::iclLoss(normed.forward(batch.inputs), batch).item<double>() < 100);
  }

  // Parameter count of the full-size model ≈ 9.84 M (SEEDS §B.2); every hidden matrix starts
  // on the Stiefel manifold (orthogonal init).
  void fullSizeParametersAndInit() {
    auto gen = at::make_generator<at::CPUGeneratorImpl>(0);
    models::IclTransformer model(models::IclShape{}, gen, at::kCPU);
    int64_t count = 0;
    for (const auto& p : model.parameters()) count += p.tensor.numel();
    qInfo("parameters: %lld", static_cast<long long>(count));
    QVERIFY(std::abs(static_cast<double>(count) - 9.84e6) < 0.01e6);
    for (const auto& p : model.parameters()) {
      if (p.name != "layers.3.mlp.fc2" && p.name != "layers.0.attn.qkv" && p.name != "unembed") continue;
      const auto s = test::singularValues(p.tensor.detach());
      QVERIFY2(std::abs(s.front() - 1) < 1e-5 && std::abs(s.back() - 1) < 1e-5, p.name.c_str());
    }
  }
};

QTEST_APPLESS_MAIN(TestIcl)
#include "tst_icl.moc"
