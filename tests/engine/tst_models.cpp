// Models: shapes, stable names and roles, initialisation, causality, the architecture's
// projections, and the Lipschitz bound against a measured lower bound.
#include "bounds/lipschitz_bound.h"
#include "models/init.h"
#include "models/lipschitz_gpt.h"
#include "models/mlp.h"
#include "models/modular_mlp.h"
#include "run/measurements.h"
#include "support/spectra.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/core/grad_mode.h>
#include <ATen/ops/clamp_min.h>
#include <ATen/ops/randint.h>
#include <ATen/ops/randn.h>
#include <QtTest/QtTest>

#include <cmath>

using namespace lwb;
using models::Role;

namespace {

const at::Device kCpu(at::kCPU);

models::GptShape smallGpt() {
  models::GptShape s;
  s.vocab = 11;
  s.dModel = 16;
  s.blocks = 2;
  s.heads = 2;
  s.seqLen = 12;
  s.mlpRatio = 2;
  return s;
}

// Gives the zero-initialised out-projections random orthogonal values so every block
// contributes (a trained-like network for the bound tests).
void randomiseOutProjections(models::Model& m, at::Generator& gen, double norm) {
  at::NoGradGuard g;
  for (auto& p : m.parameters())
    if (p.role == Role::AttnOut || p.role == Role::MlpOut || p.role == Role::Head)
      p.tensor.copy_(models::orthogonalRmsUnit(p.tensor.size(0), p.tensor.size(1), gen) * norm);
}

}  // namespace

class TestModels : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void mlpShapesNamesAndInit() {
    auto gen = at::make_generator<at::CPUGeneratorImpl>(0);
    models::Mlp mlp(20, {32, 16}, 5, gen, kCpu);
    const auto params = mlp.parameters();
    QCOMPARE(params.size(), size_t{3});
    QCOMPARE(QString::fromStdString(params[0].name), QStringLiteral("layers.0"));
    QVERIFY(params[0].role == Role::Hidden && params[2].role == Role::Head);
    // Orthogonal init at unit RMS->RMS norm: all singular values sqrt(d_out / d_in).
    const auto s = test::singularValues(params[0].tensor);
    QVERIFY(std::abs(s.front() - std::sqrt(32.0 / 20.0)) < 1e-5 && std::abs(s.back() - std::sqrt(32.0 / 20.0)) < 1e-5);
    QCOMPARE(params[2].tensor.abs().max().item<float>(), 0.0f);  // zero-initialised last layer
    const auto out = mlp.forward(at::randn({7, 20}));
    QCOMPARE(out.size(0), int64_t{7});
    QCOMPARE(out.size(1), int64_t{5});
    QCOMPARE(out.abs().max().item<float>(), 0.0f);
  }

  void gptIsCausal() {
    auto gen = at::make_generator<at::CPUGeneratorImpl>(1);
    models::LipschitzGpt gpt(smallGpt(), gen, kCpu);
    randomiseOutProjections(gpt, gen, 1.0);
    auto tokens = at::randint(11, {2, 10}, gen);
    const auto a = gpt.forward(tokens);
    QCOMPARE(a.sizes().vec(), (std::vector<int64_t>{2, 10, 11}));
    auto changed = tokens.clone();
    changed[0][6] = (changed[0][6].item<int64_t>() + 1) % 11;
    const auto b = gpt.forward(changed);
    QVERIFY((a.narrow(1, 0, 6) - b.narrow(1, 0, 6)).abs().max().item<float>() < 1e-6);
    QVERIFY((a.narrow(1, 6, 4) - b.narrow(1, 6, 4)).abs().max().item<float>() > 1e-4);
  }

  // With zero out-projections every block adds nothing, so the output is
  // (1 - 1/N)^N-times-shrunk embeddings through the head: checks the residual form.
  void gptResidualAtInit() {
    auto gen = at::make_generator<at::CPUGeneratorImpl>(2);
    auto shape = smallGpt();
    shape.finalLogitScale = 3.0;
    models::LipschitzGpt gpt(shape, gen, kCpu);
    const auto tokens = at::randint(11, {1, 5}, gen);
    const auto params = gpt.parameters();
    const auto x0 = params.front().tensor.index_select(0, tokens[0]);
    const double shrink = std::pow(1.0 - 1.0 / 4.0, 4);  // N = 4 residual connections
    const auto expected = x0.matmul(params.back().tensor.mT()) * (3.0 * shrink);
    QVERIFY((gpt.forward(tokens)[0] - expected).abs().max().item<float>() < 1e-5);
    QCOMPARE(gpt.residualAlpha(), 0.25);
    QCOMPARE(gpt.attentionScale(), 1.0 / 8.0);

    // model.residual_alpha replaces 1/N: the same embeddings shrink by (1 - 0.1)^4.
    shape.residualAlpha = 0.1;
    auto gen2 = at::make_generator<at::CPUGeneratorImpl>(2);
    models::LipschitzGpt narrow(shape, gen2, kCpu);
    const auto p2 = narrow.parameters();
    const auto expected2 =
        p2.front().tensor.index_select(0, tokens[0]).matmul(p2.back().tensor.mT()) * (3.0 * std::pow(0.9, 4));
    QVERIFY((narrow.forward(tokens)[0] - expected2).abs().max().item<float>() < 1e-5);
    QCOMPARE(narrow.residualAlpha(), 0.1);
  }

  void gptNamesRolesAndProjection() {
    auto gen = at::make_generator<at::CPUGeneratorImpl>(3);
    models::LipschitzGpt gpt(smallGpt(), gen, kCpu);
    const auto params = gpt.parameters();
    QCOMPARE(params.size(), size_t{1 + 2 * 6 + 1});
    QCOMPARE(QString::fromStdString(params[1].name), QStringLiteral("blocks.0.attn.q"));
    QVERIFY(params[1].role == Role::Query && params[4].role == Role::AttnOut && params[6].role == Role::MlpOut);
    {
      at::NoGradGuard g;
      params.front().tensor.mul_(5.0);
    }
    gpt.afterStep();  // RMS-normalised embedding rows
    const auto rms = params.front().tensor.square().mean({1}).sqrt();
    QVERIFY((rms - 1.0).abs().max().item<float>() < 1e-5);
    auto baseline = smallGpt();
    baseline.standard = true;
    models::LipschitzGpt std(baseline, gen, kCpu);
    QCOMPARE(std.parameters().size(), size_t{1 + 2 * 8 + 1 + 1});  // + LayerNorm gains
    QCOMPARE(std.attentionScale(), 1.0 / std::sqrt(8.0));
  }

  void modularEmbeddingCap() {
    auto gen = at::make_generator<at::CPUGeneratorImpl>(4);
    models::ModularMlp m(7, 5, 12, gen, kCpu, 1.0);
    auto params = m.parameters();
    {
      at::NoGradGuard g;
      params[0].tensor[2].mul_(4.0);
      params[0].tensor[3].mul_(0.5);
    }
    m.afterStep();
    const auto rms = params[0].tensor.square().mean({1}).sqrt();
    QVERIFY(std::abs(rms[2].item<double>() - 1.0) < 1e-5);
    QVERIFY(std::abs(rms[3].item<double>() - 0.5) < 1e-5);  // below the cap: untouched
    QCOMPARE(m.forward(at::randint(7, {4, 2}, gen)).size(1), int64_t{7});
  }

  // The computed upper bound is never below a measured ||f(x) - f(y)|| / ||x - y||.
  void mlpBoundAboveEmpirical() {
    auto gen = at::make_generator<at::CPUGeneratorImpl>(5);
    models::Mlp mlp(12, {24, 24}, 6, gen, kCpu);
    randomiseOutProjections(mlp, gen, 1.3);
    const auto norms = run::normsFrom(run::measureSpectra(mlp.parameters()));
    const double bound = run::lipschitzBound(mlp, norms)->bound;
    const double measured = bounds::empiricalLipschitz([&](const at::Tensor& x) { return mlp.forward(x); },
                                                       at::randn({8, 12}, gen), 200);
    qInfo("mlp: bound %.4f  measured %.4f", bound, measured);
    QVERIFY(measured <= bound * (1 + 1e-6));
    QVERIFY(measured > 0.1 * bound);  // the estimate is not vacuous
  }

  void gptBoundAboveEmpirical() {
    auto gen = at::make_generator<at::CPUGeneratorImpl>(6);
    models::LipschitzGpt gpt(smallGpt(), gen, kCpu);
    randomiseOutProjections(gpt, gen, 1.5);
    const auto norms = run::normsFrom(run::measureSpectra(gpt.parameters()));
    const auto trace = run::lipschitzBound(gpt, norms);
    QVERIFY(trace.has_value());
    QCOMPARE(trace->layers.size(), size_t{5});  // 2 x (attn, mlp) + head
    // The bound assumes token RMS <= 1 at the embedding output: project onto that ball
    // (1-Lipschitz per token) so the measurement stays in the bound's domain.
    auto f = [&](const at::Tensor& x) {
      const auto rms = x.square().mean({-1}, true).sqrt();
      return gpt.forwardFromEmbeddings(x / at::clamp_min(rms, 1.0));
    };
    auto x0 = at::randn({4, 8, 16}, gen);
    x0 = x0 / x0.square().mean({-1}, true).sqrt();
    const double measured = bounds::empiricalLipschitz(f, x0, 150);
    qInfo("gpt: bound %.4f  measured %.4f", trace->bound, measured);
    QVERIFY(measured <= trace->bound * (1 + 1e-6));
    QVERIFY(measured > 0);
  }
};

QTEST_APPLESS_MAIN(TestModels)
#include "tst_models.moc"
