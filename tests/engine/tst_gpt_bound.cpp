// The transformer bound against the network it bounds (issue 13):
//  - issue 13's counter-example: two heads attending to different tokens exceed App. D's
//    activation bound (eq. 21), not the multi-head one;
//  - the GPT forward pass against an independent per-head loop in float64, for every
//    residual and score variant (convex, sum, content + position bias, position only);
//  - random small multi-head GPTs: a gradient-ascent estimate stays below the sound bound,
//    and on a model built to be tight it reaches a stated fraction of it;
//  - the trainer's bound wiring (roles -> norms, modular x1.1289) against hand computation.
#include "bounds/lipschitz_bound.h"
#include "models/init.h"
#include "models/lipschitz_gpt.h"
#include "models/mlp.h"
#include "models/modular_mlp.h"
#include "run/measurements.h"
#include "support/spectra.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/core/grad_mode.h>
#include <ATen/ops/cat.h>
#include <ATen/ops/clamp_min.h>
#include <ATen/ops/eye.h>
#include <ATen/ops/gelu.h>
#include <ATen/ops/randint.h>
#include <ATen/ops/randn.h>
#include <ATen/ops/softmax.h>
#include <ATen/ops/tensor.h>
#include <ATen/ops/zeros.h>
#include <QtTest/QtTest>

#include <cmath>
#include <map>
#include <memory>

using namespace lwb;
using models::Role;

namespace {

const at::Device kCpu(at::kCPU);
constexpr double kGelu = 1.1289;
const auto kF64 = at::TensorOptions().dtype(at::kDouble);

models::GptShape shape(int64_t heads, int64_t blocks, int64_t dModel = 16) {
  models::GptShape s;
  s.vocab = 9;
  s.dModel = dModel;
  s.blocks = blocks;
  s.heads = heads;
  s.seqLen = 8;
  s.mlpRatio = 2;
  s.finalLogitScale = 1.5;
  return s;
}

// Every matrix (zero-initialised out-projections included) set to a Gaussian with the
// given RMS->RMS norm scale, so all parts of the forward pass contribute.
void randomiseAll(models::Model& m, at::Generator& gen, double scale) {
  at::NoGradGuard g;
  for (auto& p : m.parameters()) {
    if (!p.isMatrix() || p.role == Role::Embedding) continue;
    const int64_t r = p.tensor.size(0), c = p.tensor.size(1);
    p.tensor.copy_(at::randn({r, c}, gen) * (scale / std::sqrt(static_cast<double>(std::max(r, c)))));
  }
  // Position biases (lipschitz_gpt's Role::Other [heads, seqLen]) spread over a few units,
  // so the attention they give is far from uniform; a logit bias ([vocab]) likewise.
  for (auto& p : m.parameters())
    if (p.role == Role::Other) p.tensor.copy_(at::randn(p.tensor.sizes(), gen) * 2.0);
}

// The four forms of lipschitz_gpt the bound must cover (data rows of the tests below).
// position_conv_bias: position scores behind model.input_conv (k = 3), with model.logit_bias
// (a constant: the forward must add it, the bound must not charge it). maxmin: content scores
// with model.mlp_activation = maxmin (no 1/1.1289; the bound's growth pass without it either).
void addVariantRows(bool withConv = true) {
  QTest::addColumn<QString>("variant");
  for (const char* v : {"convex", "sum", "content_position", "position", "position_conv_bias", "maxmin"})
    if (withConv || QString(v) != "position_conv_bias") QTest::newRow(v) << QString(v);
}

void applyVariant(models::GptShape& s, const QString& v) {
  s.sumResidual = v == "sum";
  s.positionBias = v == "content_position" || v.startsWith("position");
  s.contentScores = !v.startsWith("position");
  s.inputConv = v == "position_conv_bias" ? 3 : 0;
  s.logitBias = v == "position_conv_bias";
  s.maxMin = v == "maxmin";
}

std::map<std::pair<int, Role>, at::Tensor> weights(models::Model& m) {
  std::map<std::pair<int, Role>, at::Tensor> out;
  for (auto& p : m.parameters()) out[{p.block, p.role}] = p.tensor.detach().to(at::kDouble);
  return out;
}

// Independent float64 reference of lipschitz_gpt from the embeddings x0 [T, d] of one
// sequence: explicit loops over heads, query and key positions (000 §4.1, App. F):
//   rotary on q and k per head (pairs (i, i + d_head/2), angle t / 10000^(i / (d_head/2))),
//   scores q.k / d_head, causal softmax, output (1/3) W_O concat(heads),
//   MLP W_out GeLU(W_in x) / 1.1289 (with shape.maxMin: W_out MaxMin(W_in x)), residual (1 - 1/N) x + (1/N) block(x), N = 2 blocks,
//   logits = finalLogitScale W_head x (+ the logit bias with shape.logitBias). With shape.sumResidual: x + block(x) and no 1/3.
//   With shape.positionBias the score of key u at query t gains pos[h][t - u]; without
//   content scores it is that bias alone, there are no W_Q, W_K and no 1/3.
//   With shape.inputConv = k the blocks read z_t = sum_{o < k, o <= t} W[:, o d : (o + 1) d] x_{t-o}.
at::Tensor referenceForward(models::LipschitzGpt& gpt, const at::Tensor& x0) {
  const auto& s = gpt.shape();
  auto w = weights(gpt);
  const int64_t T = x0.size(0), d = s.dModel, H = s.heads, dh = d / H, half = dh / 2;
  at::Tensor x = x0.to(at::kDouble).clone();
  if (s.inputConv > 0) {
    const auto conv = w[{-1, Role::InputConv}];
    auto z = at::zeros({T, d}, kF64);
    for (int64_t t = 0; t < T; ++t)
      for (int64_t o = 0; o < s.inputConv && o <= t; ++o) z[t] += conv.narrow(1, o * d, d).matmul(x[t - o]);
    x = z;
  }
  const double alpha = 1.0 / (2.0 * static_cast<double>(s.blocks));
  auto rotate = [&](at::Tensor v, int64_t t) {  // v [dh]
    auto out = v.clone();
    for (int64_t i = 0; i < half; ++i) {
      const double angle = static_cast<double>(t) * std::pow(10000.0, -static_cast<double>(i) / static_cast<double>(half));
      const double a = v[i].item<double>(), b = v[i + half].item<double>();
      out[i] = a * std::cos(angle) - b * std::sin(angle);
      out[i + half] = a * std::sin(angle) + b * std::cos(angle);
    }
    return out;
  };
  for (int blk = 0; blk < s.blocks; ++blk) {
    const bool content = s.contentScores;
    const auto q = content ? x.matmul(w[{blk, Role::Query}].t()) : at::Tensor();
    const auto k = content ? x.matmul(w[{blk, Role::Key}].t()) : at::Tensor();
    const auto pos = s.positionBias ? w[{blk, Role::Other}] : at::Tensor();  // [H, seqLen]
    const auto v = x.matmul(w[{blk, Role::Value}].t());
    auto concat = at::zeros({T, d}, kF64);
    for (int64_t h = 0; h < H; ++h) {
      for (int64_t t = 0; t < T; ++t) {
        const auto qt = content ? rotate(q[t].narrow(0, h * dh, dh), t) : at::Tensor();
        std::vector<double> scores;
        for (int64_t u = 0; u <= t; ++u) {
          double e = content ? qt.dot(rotate(k[u].narrow(0, h * dh, dh), u)).item<double>() / static_cast<double>(dh) : 0.0;
          if (s.positionBias) e += pos[h][t - u].item<double>();
          scores.push_back(e);
        }
        const double top = *std::max_element(scores.begin(), scores.end());
        double z = 0;
        for (double& e : scores) z += (e = std::exp(e - top));
        auto out = at::zeros({dh}, kF64);
        for (int64_t u = 0; u <= t; ++u) out += (scores[size_t(u)] / z) * v[u].narrow(0, h * dh, dh);
        concat[t].narrow(0, h * dh, dh).copy_(out);
      }
    }
    const auto out = concat.matmul(w[{blk, Role::AttnOut}].t());
    x = s.sumResidual ? x + out : (1 - alpha) * x + alpha * (content ? out / 3.0 : out);
    const auto pre = x.matmul(w[{blk, Role::MlpIn}].t());
    auto hidden = s.maxMin ? pre.clone() : at::gelu(pre) / kGelu;
    if (s.maxMin)  // pairs (i, i + m/2) sorted: max first
      for (int64_t t = 0; t < T; ++t)
        for (int64_t i = 0, m = pre.size(1); i < m / 2; ++i) {
          const double a = pre[t][i].item<double>(), b = pre[t][i + m / 2].item<double>();
          hidden[t][i] = std::max(a, b);
          hidden[t][i + m / 2] = std::min(a, b);
        }
    const auto mlp = hidden.matmul(w[{blk, Role::MlpOut}].t());
    x = s.sumResidual ? x + mlp : (1 - alpha) * x + alpha * mlp;
  }
  const auto logits = x.matmul(w[{static_cast<int>(s.blocks), Role::Head}].t()) * s.finalLogitScale;
  return s.logitBias ? logits + w[{static_cast<int>(s.blocks), Role::Other}] : logits;
}

// RMS->RMS norm by float64 SVD (the reference for the wiring test).
double rmsNorm(const at::Tensor& w) { return bounds::rmsToRmsNorm(w.detach().to(at::kDouble)); }

// The estimate on token RMS <= 1 inputs: f composed with the per-token projection onto that
// ball (1-Lipschitz), the domain the bound is stated for.
double estimateOnUnitBall(models::LipschitzGpt& gpt, at::Generator& gen, int64_t batch, int64_t tokens, uint64_t seed,
                          int steps = 120, int restarts = 3) {
  auto f = [&](const at::Tensor& x) {
    const auto rms = x.square().mean({-1}, true).sqrt();
    return gpt.forwardFromEmbeddings(x / at::clamp_min(rms, 1.0));
  };
  auto x0 = at::randn({batch, tokens, gpt.shape().dModel}, gen);
  x0 = x0 / x0.square().mean({-1}, true).sqrt();
  bounds::EmpiricalOptions opt;
  opt.steps = steps;
  opt.restarts = restarts;
  opt.seed = seed;
  return bounds::empiricalLipschitz(f, x0, opt);
}

// One token through one block built so the MLP's slope is the whole bound: position scores
// with W_O = 0 (the attention layer halves x), W_in = 2 [I; 0], W_out = [I 0], the head reads
// coordinate 0 (logit scale 1.5); GeLU / 1.1289 or, with maxMin, MaxMin in between.
std::unique_ptr<models::LipschitzGpt> slopeModel(at::Generator& gen, bool maxMin) {
  auto s = shape(1, 1);
  applyVariant(s, "position");
  s.maxMin = maxMin;
  auto gpt = std::make_unique<models::LipschitzGpt>(s, gen, kCpu);
  const int64_t d = s.dModel, dm = s.mlpRatio * d;
  const auto f32 = at::TensorOptions().dtype(at::kFloat);
  at::NoGradGuard g;
  for (auto& p : gpt->parameters()) {
    if (p.role == Role::AttnOut || p.role == Role::Other) p.tensor.zero_();
    if (p.role == Role::MlpIn) p.tensor.copy_(at::cat({at::eye(d, f32) * 2.0, at::zeros({dm - d, d}, f32)}, 0));
    if (p.role == Role::MlpOut) p.tensor.copy_(at::cat({at::eye(d, f32), at::zeros({d, dm - d}, f32)}, 1));
    if (p.role == Role::Head) {
      p.tensor.zero_();
      p.tensor[0][0] = 1.0;
    }
  }
  return gpt;
}

// The derivative along e_0 at x0 = along e_0 by central differences: the RMS of the logit change
// over the RMS of the input change (2h e_0: 2h / sqrt d).
double slopeAlongE0(models::LipschitzGpt& gpt, double along) {
  const int64_t d = gpt.shape().dModel;
  const auto f32 = at::TensorOptions().dtype(at::kFloat);
  at::NoGradGuard g;
  const double h = 1e-3;
  auto x = at::zeros({1, 1, d}, f32);
  x[0][0][0] = along;
  auto dx = at::zeros({1, 1, d}, f32);
  dx[0][0][0] = h;
  const auto diff = (gpt.forwardFromEmbeddings(x + dx) - gpt.forwardFromEmbeddings(x - dx)).to(at::kDouble);
  return diff.square().mean().sqrt().item<double>() / (2 * h / std::sqrt(static_cast<double>(d)));
}

}  // namespace

class TestGptBound : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  // Issue 13: two heads, d_head = 2, W_V = I, x1 = (sqrt2, sqrt2, 0, 0), x2 = (0, 0, sqrt2,
  // sqrt2) (RMS 1 each). At token 2 head 1 attends to x1 and head 2 to x2: the output
  // (sqrt2, sqrt2, sqrt2, sqrt2) has RMS sqrt2 > ||W_V|| max ||x|| = 1 (eq. 21).
  void counterExampleExceedsAppendixD() {
    const double r2 = std::sqrt(2.0);
    const auto x = at::tensor({r2, r2, 0.0, 0.0, 0.0, 0.0, r2, r2}, kF64).reshape({2, 4});
    const auto wv = at::eye(4, kF64);
    const auto v = x.matmul(wv.t());
    // Real softmax attention with scores +-40 (rows sum to 1; one-hot up to e^-80).
    const auto a1 = at::softmax(at::tensor({40.0, -40.0}, kF64), 0);  // head 1 -> token 1
    const auto a2 = at::softmax(at::tensor({-40.0, 40.0}, kF64), 0);  // head 2 -> token 2
    const auto head1 = a1[0] * v[0].narrow(0, 0, 2) + a1[1] * v[1].narrow(0, 0, 2);
    const auto head2 = a2[0] * v[0].narrow(0, 2, 2) + a2[1] * v[1].narrow(0, 2, 2);
    const double outRms = at::cat({head1, head2}).square().mean().sqrt().item<double>();
    QVERIFY(std::abs(outRms - r2) < 1e-12);

    // The same block through the bound: residual alpha = 1 (x1 = block(x0)), no 1/3,
    // W_O = I, so the attention row's activation bound is the block's growth times a0 = 1.
    bounds::TransformerBoundInput in;
    in.blocks = {{1.0, 1.0, rmsNorm(wv), 1.0, 0.0, 0.0}};
    in.heads = 2;
    in.dHead = 2;
    in.residualAlpha = 1.0;
    in.attnOutScale = 1.0;
    const double appD = bounds::transformerBound(in, bounds::AttentionBound::AppendixD).layers[0].activationBound;
    QVERIFY(std::abs(appD - 1.0) < 1e-12);
    QVERIFY2(outRms > appD * 1.4, "the counter-example must exceed App. D's activation bound");
    // Sound, from whole-matrix norms (sqrt(heads) ||W_V||) and from measured head slices
    // ([I_2 0] has sigma1 1, RMS scale sqrt(4 / 2)): both sqrt2, tight here.
    const double sound = bounds::transformerBound(in).layers[0].activationBound;
    in.blocks[0].valueHeads = run::headSliceNorms(wv, 2);
    in.blocks[0].queryHeads = in.blocks[0].keyHeads = in.blocks[0].valueHeads;
    const double soundSlices = bounds::transformerBound(in).layers[0].activationBound;
    QVERIFY(outRms <= sound * (1 + 1e-12));
    QVERIFY(outRms <= soundSlices * (1 + 1e-12));
    QVERIFY(std::abs(soundSlices - r2) < 1e-12);
  }

  // Issue 32: headSliceNorms was only checked with a symmetric W_V. Here W (heads·d_head ×
  // d_in) is not symmetric and its row slices (what a head reads) differ from its column
  // slices; each head's norm is checked against an SVD of the row slice copied out by a loop.
  void headSliceNormsTakeRowSlices() {
    const int64_t heads = 3, dHead = 2, dIn = 5;
    auto gen = at::make_generator<at::CPUGeneratorImpl>(4242);
    at::Tensor w = at::randn({heads * dHead, dIn}, gen, kF64);
    w[0] *= 9.0;  // head 0's rows much larger than the rest: slices are far apart
    w[5] *= 0.1;
    const auto norms = run::headSliceNorms(w, heads);
    QCOMPARE(static_cast<int64_t>(norms.size()), heads);
    const auto acc = w.accessor<double, 2>();
    for (int64_t h = 0; h < heads; ++h) {
      at::Tensor rows = at::zeros({dHead, dIn}, kF64), cols = at::zeros({heads * dHead, dHead}, kF64);
      for (int64_t r = 0; r < dHead; ++r)
        for (int64_t c = 0; c < dIn; ++c) rows[r][c] = acc[h * dHead + r][c];
      for (int64_t r = 0; r < heads * dHead; ++r)
        for (int64_t c = 0; c < dHead && h * dHead + c < dIn; ++c) cols[r][c] = acc[r][h * dHead + c];
      // RMS(d_in) -> RMS(d_head): sigma1 sqrt(d_in / d_head).
      const double expected = test::singularValues(rows).front() * std::sqrt(double(dIn) / double(dHead));
      QVERIFY2(std::abs(norms[h] - expected) <= 1e-12 * expected, qPrintable(QString::number(h)));
      // The wrong reading (a column slice) would give another number.
      QVERIFY(std::abs(test::singularValues(cols).front() * std::sqrt(double(dIn) / double(dHead)) - expected) > 1e-3 * expected);
    }
    QVERIFY(norms[0] > 3 * norms[1]);
  }

  void forwardMatchesPerHeadLoop_data() { addVariantRows(); }
  void forwardMatchesPerHeadLoop() {
    QFETCH(QString, variant);
    for (const int64_t heads : {1, 2, 4}) {
      auto gen = at::make_generator<at::CPUGeneratorImpl>(100 + heads);
      auto s = shape(heads, 2);
      applyVariant(s, variant);
      models::LipschitzGpt gpt(s, gen, kCpu);
      randomiseAll(gpt, gen, 2.0);  // non-zero W_O and W_out
      at::NoGradGuard g;
      const auto tokens = at::randint(9, {1, 5}, gen);
      const auto logits = gpt.forward(tokens).to(at::kDouble)[0];
      const auto x0 = gpt.parameters().front().tensor.detach().index_select(0, tokens[0]);
      const auto ref = referenceForward(gpt, x0);
      const double err = (logits - ref).abs().max().item<double>();
      const double scale = ref.abs().max().item<double>();
      qInfo("heads %lld: max |logit - reference| = %.3g (max |logit| %.3g)", static_cast<long long>(heads), err, scale);
      QVERIFY(scale > 0.1);  // the blocks contribute, so the check is not vacuous
      QVERIFY(err <= 2e-5 * std::max(1.0, scale));
    }
  }

  // Random multi-head GPTs (2-4 heads, 1-2 blocks): the gradient-ascent estimate stays
  // below the sound bound; App. D's number is reported beside it.
  void soundBoundAboveEstimate_data() { addVariantRows(); }
  void soundBoundAboveEstimate() {
    QFETCH(QString, variant);
    int seed = variant == "sum" ? 50 : variant == "position" ? 70 : variant == "content_position" ? 90 : variant == "position_conv_bias" ? 110 : 0;
    for (const int64_t heads : {2, 4}) {
      for (const int64_t blocks : {1, 2}) {
        auto gen = at::make_generator<at::CPUGeneratorImpl>(200 + seed++);
        auto s = shape(heads, blocks);
        applyVariant(s, variant);
        models::LipschitzGpt gpt(s, gen, kCpu);
        randomiseAll(gpt, gen, 2.5);
        const auto trace = run::lipschitzBound(gpt, run::certifiedNorms(gpt.parameters()));
        QVERIFY(trace.has_value());
        // A short search: on these random models the sound bound is 10 to 1e9 times what 120
        // steps x 3 restarts find (measured), so more steps cannot bring the estimate near it;
        // the tight cases below keep the long search.
        const double measured = estimateOnUnitBall(gpt, gen, 6, 6, static_cast<uint64_t>(seed), 40, 2);
        qInfo("heads %lld blocks %lld: sound %.4g  App. D %.4g  estimate %.4g", static_cast<long long>(heads),
              static_cast<long long>(blocks), trace->bound, trace->singleHeadBound, measured);
        QVERIFY(measured <= trace->bound * (1 + 1e-6));
      }
    }
  }

  // Lower side on a model built to be tight: with W_O = W_out = 0 (the architecture's
  // initialisation) every residual scales by (1 - alpha) and the network is the linear map
  // (1 - alpha)^{2N} s W_head per token, whose RMS->RMS constant is exactly the bound.
  // The estimate must reach 99% of it. With W_O, W_out at small norm (attention and MLP
  // nearly linear), it must still reach 30% (measured: 62% with 2 heads, 38% with 4, where
  // the sqrt(heads) charge for heads attending to different tokens is not attained).
  // With the sum residual the zero-output network is s W_head itself (every x + 0), so the
  // bound must not carry the convex residual's (1 - alpha)^{2N}: a convex bound for it is
  // below the estimate (seen: this test fails when measurements.cpp drops sumResidual).
  // (Not position_conv_bias: a random orthogonal W_conv times W_head has a smaller norm than the
  // product of theirs; inputConvIsTight builds a tight one.)
  void estimateReachesTightBound_data() { addVariantRows(false); }
  void estimateReachesTightBound() {
    QFETCH(QString, variant);
    const bool sum = variant == "sum";
    for (const int64_t heads : {2, 4}) {
      auto gen = at::make_generator<at::CPUGeneratorImpl>(300 + heads);
      auto s = shape(heads, 2);
      applyVariant(s, variant);
      models::LipschitzGpt gpt(s, gen, kCpu);
      const auto trace = run::lipschitzBound(gpt, run::certifiedNorms(gpt.parameters()));
      // 40 steps x 2 restarts reach the tight bound to 1e-5 here (measured: as with 120 x 3);
      // positionScoresAreTight needs the long search (40 x 2 found 98.9 % there).
      const double measured = estimateOnUnitBall(gpt, gen, 4, 3, 1, 40, 2);
      qInfo("tight, heads %lld: bound %.6g estimate %.6g", static_cast<long long>(heads), trace->bound, measured);
      // float32 forward pass: the measured ratio of small differences carries ~1e-5 rounding.
      QVERIFY(measured <= trace->bound * (1 + 1e-4));
      QVERIFY(measured >= 0.99 * trace->bound);

      {
        at::NoGradGuard g;
        for (auto& p : gpt.parameters())
          if (p.role == Role::AttnOut || p.role == Role::MlpOut)
            p.tensor.copy_(models::orthogonalRmsUnit(p.tensor.size(0), p.tensor.size(1), gen) * 0.3);
      }
      const auto near = run::lipschitzBound(gpt, run::certifiedNorms(gpt.parameters()));
      const double measuredNear = estimateOnUnitBall(gpt, gen, 4, 3, 2, 40, 2);
      qInfo("near-tight, heads %lld: bound %.6g estimate %.6g (%.2f)", static_cast<long long>(heads), near->bound,
            measuredNear, measuredNear / near->bound);
      QVERIFY(measuredNear <= near->bound * (1 + 1e-4));
      // Convex only: with x + block(x) the attention's activation-dependent term grows with
      // the stream (a1 = 1 + growth), and the bound is far from tight here (measured 3 %).
      if (!sum) QVERIFY(measuredNear >= 0.3 * near->bound);
    }
  }

  // Position scores without the 1/3 (model_config.h): one head whose bias picks the previous
  // token, W_V = W_O orthogonal, W_out = 0. Moving every token by the same delta moves the
  // attention output by delta, so the block is (1 - a) + a = 1 on that direction and the
  // network is exactly (1 - a) s W_head there: the bound must equal what the estimate finds.
  // A bound that kept eq. (15)'s 1/3 for this block is below the estimate (seen: this test
  // fails when measurements.cpp passes 1/3).
  void positionScoresAreTight() {
    auto gen = at::make_generator<at::CPUGeneratorImpl>(350);
    auto s = shape(1, 1);
    applyVariant(s, "position");
    models::LipschitzGpt gpt(s, gen, kCpu);
    {
      at::NoGradGuard g;
      for (auto& p : gpt.parameters()) {
        if (p.role == Role::Value || p.role == Role::AttnOut || p.role == Role::Head)
          p.tensor.copy_(models::orthogonalRmsUnit(p.tensor.size(0), p.tensor.size(1), gen));
        if (p.role == Role::Other) {
          p.tensor.fill_(-20.0);
          p.tensor[0][1] = 20.0;  // offset 1: the previous token
        }
      }
    }
    QVERIFY(gpt.attentionOutScale() == 1.0);
    const auto trace = run::lipschitzBound(gpt, run::certifiedNorms(gpt.parameters()));
    QVERIFY(trace.has_value());
    const double measured = estimateOnUnitBall(gpt, gen, 4, 4, 3);
    qInfo("position scores: bound %.6g estimate %.6g", trace->bound, measured);
    QVERIFY(measured <= trace->bound * (1 + 1e-4));
    QVERIFY(measured >= 0.99 * trace->bound);
  }

  // model.input_conv charged in full: W_conv = c [I I I] (k = 3) and zero W_O, W_out, so the
  // network is (1 - a)^2 s W_head c (x_t + x_{t-1} + x_{t-2}). Moving every token by the same
  // delta moves the logits by 3 c (1 - a)^2 s W_head delta: the constant is exactly
  // ||W_conv|| RMS(3d) -> RMS(d) = c sqrt(3) sqrt(3d / d) = 3c times the rest. A bound
  // without the convolution, or with sigma1 (c sqrt 3) instead of its RMS norm, is below the
  // estimate (seen: this test fails when measurements.cpp drops in.inputConv).
  void inputConvIsTight() {
    auto gen = at::make_generator<at::CPUGeneratorImpl>(360);
    auto s = shape(1, 1);
    applyVariant(s, "position_conv_bias");
    models::LipschitzGpt gpt(s, gen, kCpu);
    const double c = 0.7;
    {
      at::NoGradGuard g;
      for (auto& p : gpt.parameters()) {
        if (p.role == Role::InputConv) {
          const auto eye = at::eye(s.dModel, at::TensorOptions().dtype(at::kFloat)) * c;
          p.tensor.copy_(at::cat({eye, eye, eye}, 1));
        }
        if (p.role == Role::Head) p.tensor.copy_(models::orthogonalRmsUnit(p.tensor.size(0), p.tensor.size(1), gen));
      }
    }
    const auto trace = run::lipschitzBound(gpt, run::certifiedNorms(gpt.parameters()));
    QVERIFY(trace.has_value());
    QCOMPARE(trace->layers.front().name, std::string("input_conv"));
    QVERIFY(std::abs(trace->layers.front().blockLipschitz - 3 * c) < 1e-5);
    const double measured = estimateOnUnitBall(gpt, gen, 4, 5, 4);
    qInfo("input convolution: bound %.6g estimate %.6g", trace->bound, measured);
    QVERIFY(measured <= trace->bound * (1 + 1e-4));
    QVERIFY(measured >= 0.99 * trace->bound);
  }

  // The MLP's constant is ||W_out|| ||W_in||, not 000 App. D Step 2's ||W_out|| ||W_in|| / 1.1289:
  // GeLU / 1.1289 has slope 1 at x = sqrt 2. slopeModel's one token at x0 = sqrt2 e_0 puts the
  // pre-activation at 2 * sqrt2 / 2 = sqrt 2, and the derivative along e_0, by central
  // differences, is the whole bound. (Seen: this test fails with the published formula, the
  // estimate 8 % above the bound.)
  void mlpSlopeIsCharged() {
    auto gen = at::make_generator<at::CPUGeneratorImpl>(380);
    auto gpt = slopeModel(gen, false);
    const auto trace = run::lipschitzBound(*gpt, run::certifiedNorms(gpt->parameters()));
    QVERIFY(trace.has_value());
    const double gain = slopeAlongE0(*gpt, std::sqrt(2.0));
    qInfo("MLP slope: derivative %.6g  sound bound %.6g  App. D as published %.6g", gain, trace->bound,
          trace->singleHeadBound);
    QVERIFY(gain <= trace->bound * (1 + 1e-3));
    QVERIFY(gain >= trace->bound * 0.999);
    QVERIFY(gain > 1.05 * trace->singleHeadBound);  // the published Step 2 is not an upper bound
    // RMS norms: W_in 2 sqrt(d / dm), W_out sqrt(dm / d): L_mlp = 2 exactly.
    QVERIFY(std::abs(trace->layers[1].blockLipschitz - 2.0) < 1e-5);
  }

  // model.mlp_activation = maxmin uses the whole constant it is charged: in slopeModel the
  // MaxMin MLP is max(2 x, 0) on the first d units, so at x0 = 0.5 e_0 its slope along e_0 is
  // 2 = L_mlp and the network's derivative is the whole bound, 1.5. (Seen: this test fails when
  // the model keeps GeLU's 1/1.1289 for MaxMin: derivative 1.386, 8 % under the bound.)
  void maxMinUsesItsWholeSlope() {
    auto gen = at::make_generator<at::CPUGeneratorImpl>(390);
    auto gpt = slopeModel(gen, true);
    const auto trace = run::lipschitzBound(*gpt, run::certifiedNorms(gpt->parameters()));
    QVERIFY(trace.has_value());
    QVERIFY(std::abs(trace->layers[1].blockLipschitz - 2.0) < 1e-5);
    QVERIFY(std::abs(trace->bound - 1.5) < 1e-5);
    const double gain = slopeAlongE0(*gpt, 0.5);
    qInfo("MaxMin slope: derivative %.6g  sound bound %.6g", gain, trace->bound);
    QVERIFY(gain <= trace->bound * (1 + 1e-3));
    QVERIFY(gain >= trace->bound * 0.999);
  }

  // The trainer's wiring: roles -> norms -> bound, against norms taken by hand (float64 SVD).
  void trainerWiringByHand() {
    auto gen = at::make_generator<at::CPUGeneratorImpl>(400);
    {
      models::Mlp mlp(12, {10, 8}, 5, gen, kCpu);
      randomiseAll(mlp, gen, 1.7);
      const auto p = mlp.parameters();
      const double hand = rmsNorm(p[0].tensor) * rmsNorm(p[1].tensor) * rmsNorm(p[2].tensor);
      const auto t = run::lipschitzBound(mlp, run::normsFrom(run::measureSpectra(p)));
      QVERIFY(std::abs(t->bound - hand) <= 1e-5 * hand);
      QCOMPARE(t->singleHeadBound, 0.0);
    }
    {
      models::ModularMlp mod(7, 6, 10, gen, kCpu);
      randomiseAll(mod, gen, 1.3);
      const auto p = mod.parameters();  // embed (not counted), hidden, head
      const double hand = rmsNorm(p[1].tensor) * rmsNorm(p[2].tensor) * kGelu;
      const auto t = run::lipschitzBound(mod, run::certifiedNorms(p));
      QVERIFY(std::abs(t->bound - hand) <= 1e-12 * hand);
      // The GeLU between the two layers, in its place: every row's running bound is the map
      // up to that row (it once came last, after the head, with the head's row short of it).
      QCOMPARE(t->layers.size(), size_t{3});
      QCOMPARE(QString::fromStdString(t->layers[1].name), QStringLiteral("gelu"));
      QCOMPARE(QString::fromStdString(t->layers[2].name), QString::fromStdString(p[2].name));
      QVERIFY(std::abs(t->layers[1].lipschitzAfter - rmsNorm(p[1].tensor) * kGelu) <= 1e-12 * hand);
      QVERIFY(std::abs(t->layers[2].lipschitzAfter - hand) <= 1e-12 * hand);
      // |GeLU(x)| ≤ |x|: the activation bound passes through it unchanged.
      QCOMPARE(t->layers[1].activationBound, t->layers[0].activationBound);
      QVERIFY(std::abs(t->layers[2].activationBound - rmsNorm(p[1].tensor) * rmsNorm(p[2].tensor)) <= 1e-12 * hand);
    }
    {
      models::LipschitzGpt gpt(shape(2, 1), gen, kCpu);
      randomiseAll(gpt, gen, 1.2);
      auto w = weights(gpt);
      // One block, alpha = 1/2, d_head = 8, s_attn = 1/8 (c = 1), 2 heads, a0 = 1.
      auto heads = [&](Role r) { return run::headSliceNorms(w[{0, r}], 2); };
      const auto qh = heads(Role::Query), kh = heads(Role::Key), vh = heads(Role::Value);
      const double wo = rmsNorm(w[{0, Role::AttnOut}]), win = rmsNorm(w[{0, Role::MlpIn}]);
      const double wout = rmsNorm(w[{0, Role::MlpOut}]), head = rmsNorm(w[{1, Role::Head}]);
      double sum = 0;
      for (int h = 0; h < 2; ++h) {
        const double l = std::max(1.0, vh[h] * std::max(qh[h], kh[h])) * (qh[h] + kh[h] + vh[h]);
        sum += l * l;
      }
      const double attn = wo / 3.0 * std::sqrt(sum / 2.0);
      const double mlp = wout * win;  // GeLU / 1.1289 is 1-Lipschitz
      const double hand = (0.5 + 0.5 * attn) * (0.5 + 0.5 * mlp) * head * 1.5;
      const auto t = run::lipschitzBound(gpt, run::certifiedNorms(gpt.parameters()));
      qInfo("one-block GPT: bound %.6g by hand %.6g", t->bound, hand);
      QVERIFY(std::abs(t->bound - hand) <= 1e-10 * hand);
      QVERIFY(std::abs(t->layers[0].blockLipschitz - attn) <= 1e-10 * attn);
    }
    {
      // Two blocks with MaxMin: the activation bound entering block 1's attention grows by
      // ||W_out|| ||W_in|| (MaxMin keeps norms), not by that over 1.1289 as for GeLU, and the
      // attention constant depends on it. (Seen: fails when measurements.cpp leaves the
      // GeLU divisor in for MaxMin.)
      auto s = shape(2, 2);
      s.maxMin = true;
      models::LipschitzGpt gpt(s, gen, kCpu);
      randomiseAll(gpt, gen, 1.6);
      auto w = weights(gpt);
      const double alpha = 0.25;
      double a = 1.0, lip = 1.0;
      for (int b = 0; b < 2; ++b) {
        auto heads = [&](Role r) { return run::headSliceNorms(w[{b, r}], 2); };
        const auto qh = heads(Role::Query), kh = heads(Role::Key), vh = heads(Role::Value);
        const double wo = rmsNorm(w[{b, Role::AttnOut}]), mlp = rmsNorm(w[{b, Role::MlpOut}]) * rmsNorm(w[{b, Role::MlpIn}]);
        double sum = 0, growth = 0;
        for (int h = 0; h < 2; ++h) {
          const double l = std::max(1.0, vh[h] * a * std::max(qh[h], kh[h]) * a) * (qh[h] + kh[h] + vh[h]);
          sum += l * l;
          growth += vh[h] * vh[h];
        }
        const double attn = wo / 3.0 * std::sqrt(sum / 2.0);
        lip = (1 - alpha) * lip + alpha * lip * attn;
        a = (1 - alpha) * a + alpha * a * wo / 3.0 * std::sqrt(growth / 2.0);
        lip = (1 - alpha) * lip + alpha * lip * mlp;
        a = (1 - alpha) * a + alpha * a * mlp;
      }
      const double hand = lip * rmsNorm(w[{2, Role::Head}]) * 1.5;
      const auto t = run::lipschitzBound(gpt, run::certifiedNorms(gpt.parameters()));
      qInfo("two-block MaxMin GPT: bound %.6g by hand %.6g", t->bound, hand);
      QVERIFY(std::abs(t->bound - hand) <= 1e-10 * hand);
    }
  }

  void sigmaUpperBounds() {
    auto gen = at::make_generator<at::CPUGeneratorImpl>(500);
    // Small: exact SVD.
    const auto small = at::randn({30, 20}, gen, kF64);
    const auto s = bounds::sigmaMaxUpper(small);
    QVERIFY(s.method == bounds::SigmaMethod::ExactSvd);
    QVERIFY(std::abs(s.value - bounds::rmsToRmsNorm(small) / std::sqrt(20.0 / 30.0)) < 1e-10);
    // Large (smaller side > kExactSvdMaxSide): the Gram bound is >= sigma1 and close to it.
    const auto big = at::randn({bounds::kExactSvdMaxSide + 16, bounds::kExactSvdMaxSide + 40}, gen, kF64);
    const auto g = bounds::sigmaMaxUpper(big, 8);
    QVERIFY(g.method == bounds::SigmaMethod::GramIteration);
    const double exact = lwb::bounds::rmsToRmsNorm(big) /
                         std::sqrt(static_cast<double>(big.size(1)) / static_cast<double>(big.size(0)));
    qInfo("Gram iteration: %.6g vs exact %.6g", g.value, exact);
    QVERIFY(g.value >= exact);
    QVERIFY(g.value <= exact * 1.05);
    QCOMPARE(bounds::sigmaMaxUpper(at::zeros({2, 3}, kF64)).value, 0.0);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, bounds::sigmaMaxUpper(at::zeros({2}, kF64)));
  }
};

QTEST_APPLESS_MAIN(TestGptBound)
#include "tst_gpt_bound.moc"
