// Optimizer invariants: Muon's update norm bound, AdamW/SGD hand-computed steps, decoupled
// decay, embedding column normalisation, schedules, per-group lr, and the constraint step.
#include "common/threads.h"
#include "models/init.h"
#include "optim/adamw.h"
#include "optim/constraint_step.h"
#include "optim/muon.h"
#include "optim/schedule.h"
#include "optim/sgd.h"
#include "optim/update_scaling.h"
#include "run/run_config.h"
#include "spectral/spectral.h"
#include "support/spectra.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/ops/full.h>
#include <ATen/ops/randn.h>
#include <ATen/ops/tensor.h>
#include <ATen/ops/zeros.h>
#include <QtTest/QtTest>

#include <cmath>

using namespace lwb;
using models::Role;

namespace {

models::Param matrixParam(const std::string& name, Role role, const at::Tensor& init, int block = 0) {
  return {name, role, models::asParameter(init, at::Device(at::kCPU)), block};
}

void setGrad(const models::Param& p, const at::Tensor& g) { p.tensor.mutable_grad() = g.clone(); }

optim::OptimizerConfig muonConfig() {
  optim::OptimizerConfig c;
  c.kind = optim::OptimizerKind::Muon;
  c.nesterov = false;
  c.momentum = 0.0;  // the update is msign(g) itself
  return c;
}

}  // namespace

class TestOptim : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  // The optimizers' own parallel loops (AdamW's update, Muon's momentum blocks) on a team of
  // two, as in the CLI's 2-thread runs (Debian's LibTorch starts with one intra-op thread).
  void initTestCase() { setIntraOpThreads(2); }

  void nsInflation() {
    const double k = spectral::nsMaxInflation(spectral::NewtonSchulzConfig::muon());
    qInfo("jordan5 x5 max inflation %.5f", k);
    QVERIFY(k > 1.0 && k < 1.3);
    QVERIFY(std::abs(spectral::nsMaxInflation({spectral::NsCoefficients::Polish, 40, 0}) - 1.0) < 1e-9);
  }

  // ||Delta W||_2 <= lr * scale * kappa, scale = sqrt(fan_out/fan_in) (paper) or
  // max(1, fan_out/fan_in)^1/2 (Jordan); and the RMS bound reported for alpha* matches.
  void muonUpdateNormBound_data() {
    QTest::addColumn<QString>("scale");
    QTest::addColumn<int>("dOut");
    QTest::addColumn<int>("dIn");
    for (const QString& s : {QStringLiteral("paper"), QStringLiteral("jordan")})
      for (const auto& [o, i] : {std::pair{32, 32}, std::pair{64, 16}, std::pair{16, 64}})
        QTest::addRow("%s/%dx%d", qPrintable(s), o, i) << s << o << i;
  }
  void muonUpdateNormBound() {
    QFETCH(QString, scale);
    QFETCH(int, dOut);
    QFETCH(int, dIn);
    auto cfg = muonConfig();
    cfg.muonScale = *choiceValue(optim::kMuonScales, scale.toStdString());
    const auto w0 = test::spectrumMatrix(dOut, dIn, 1.0, 0.1, 3).to(at::kFloat);
    auto p = matrixParam("w", Role::Hidden, w0);
    optim::Muon muon(cfg, {{p, 1.0}});
    setGrad(p, at::randn({dOut, dIn}) * 5.0);
    const double lr = 0.05;
    muon.step(lr);
    const double updateNorm = test::singularValues(p.tensor.detach() - w0).front();
    const double s = scale == QLatin1String("paper") ? std::sqrt(double(dOut) / dIn) : std::sqrt(std::max(1.0, double(dOut) / dIn));
    QCOMPARE(muon.scaleFor(dOut, dIn), s);
    QVERIFY2(updateNorm <= lr * s * muon.kappa() * (1 + 1e-5), qPrintable(QString::number(updateNorm)));
    QVERIFY(updateNorm >= lr * s * 0.6);  // jordan5 leaves singular values in ~[0.7, 1.13]
    const double rmsBound = muon.updateRmsBound({p, 1.0}, lr);
    QVERIFY(std::abs(rmsBound - lr * s * muon.kappa() * std::sqrt(double(dIn) / dOut)) < 1e-12);
  }

  // Issue 32: Muon stacks small matrices of one shape into a batched Newton–Schulz, tall
  // ones transposed. Three matrices of one group (wide, tall, wide) against each stepped on
  // its own (one slot per optimizer: no batching), and a tall one against the transposed
  // wide reading.
  void muonBatchingMatchesOneAtATime() {
    auto gen = at::make_generator<at::CPUGeneratorImpl>(77);
    const std::vector<std::pair<int64_t, int64_t>> shapes = {{16, 32}, {32, 16}, {16, 32}};
    std::vector<at::Tensor> inits, grads;
    for (const auto& [o, i] : shapes) {
      inits.push_back(at::randn({o, i}, gen) * 0.1);
      grads.push_back(at::randn({o, i}, gen));
    }
    const double lr = 0.05;
    std::vector<optim::ParamSlot> together;
    for (size_t k = 0; k < shapes.size(); ++k)
      together.push_back({matrixParam(std::string("w").append(std::to_string(k)), Role::Hidden, inits[k].clone()), 1.0});
    optim::Muon batched(muonConfig(), together);
    for (size_t k = 0; k < shapes.size(); ++k) setGrad(together[k].param, grads[k]);
    batched.step(lr);
    for (size_t k = 0; k < shapes.size(); ++k) {
      auto alone = matrixParam(std::string("w").append(std::to_string(k)), Role::Hidden, inits[k].clone());
      optim::Muon single(muonConfig(), {{alone, 1.0}});
      setGrad(alone, grads[k]);
      single.step(lr);
      const auto delta = together[k].param.tensor.detach() - inits[k];
      const double diff = (together[k].param.tensor.detach() - alone.tensor.detach()).abs().max().item<double>();
      QVERIFY2(diff < 1e-5 * delta.abs().max().item<double>(), qPrintable(QStringLiteral("w%1: %2").arg(k).arg(diff)));
      QVERIFY(delta.abs().max().item<double>() > 1e-3);  // it moved
      // The update is -step * msign(g), in the matrix's own shape (a transpose lost would not fit).
      const double step = lr * batched.scaleFor(shapes[k].first, shapes[k].second);
      const auto expected = spectral::msign(grads[k]) * -step;
      QVERIFY2((delta - expected).abs().max().item<double>() < 1e-5, qPrintable(QString::number(k)));
    }
  }

  // First AdamW step, hand-computed: m = (1-b1) g, v = (1-b2) g^2; with bias correction the
  // direction is g / |g| = sign(g), without it (1-b1)/sqrt(1-b2) sign(g).
  void adamFirstStep() {
    for (const bool correct : {true, false}) {
      optim::OptimizerConfig cfg;
      cfg.kind = optim::OptimizerKind::AdamW;
      cfg.biasCorrection = correct;
      cfg.eps = 1e-12;
      const auto w0 = at::zeros({2, 3});
      auto p = matrixParam("w", Role::Hidden, w0);
      optim::AdamW adam(cfg, {{p, 2.0}});  // lr multiplier 2
      setGrad(p, at::full({2, 3}, -0.5f));
      adam.step(0.01);
      const double expected = 0.02 * (correct ? 1.0 : 0.1 / std::sqrt(0.05));
      QVERIFY(std::abs(p.tensor[0][0].item<double>() - expected) < 1e-7);
    }
  }

  // Issue 32: the fused AdamW kernel (float32 CPU) over three steps with different
  // gradients, against a scalar float64 loop written here, with and without bias
  // correction. At step 1 the result does not depend on beta2 or the correction; by step 3
  // it does (checked below, so the comparison can tell them apart).
  void adamThreeStepsMatchScalarReference() {
    const double b1 = 0.9, b2 = 0.95, eps = 1e-8, wd = 0.1, lr = 0.01, mult = 2.0;
    const double grads[3][6] = {{0.5, -0.25, 1.5, -2.0, 0.01, 3.0},
                                {-1.0, 0.75, 0.5, 2.0, -0.02, -1.0},
                                {0.2, 0.2, -3.0, 0.1, 0.03, 0.5}};
    const double w0[6] = {0.3, -0.7, 1.1, 0.0, -2.0, 0.45};
    // The reference: `correct` bias correction, second-moment decay `beta2`.
    const auto reference = [&](bool correct, double beta2) {
      std::vector<double> w(w0, w0 + 6), m(6, 0.0), v(6, 0.0);
      for (int t = 1; t <= 3; ++t) {
        const double eta = lr * mult, c1 = correct ? 1 - std::pow(b1, t) : 1, c2 = correct ? 1 - std::pow(beta2, t) : 1;
        for (int i = 0; i < 6; ++i) {
          const double g = grads[t - 1][i];
          w[i] *= 1 - eta * wd;
          m[i] = b1 * m[i] + (1 - b1) * g;
          v[i] = beta2 * v[i] + (1 - beta2) * g * g;
          w[i] -= eta * (m[i] / c1) / (std::sqrt(v[i] / c2) + eps);
        }
      }
      return w;
    };
    for (const bool correct : {true, false}) {
      for (const auto dtype : {at::kFloat, at::kDouble}) {  // the fused kernel and the in-place ops
        optim::OptimizerConfig cfg;
        cfg.kind = optim::OptimizerKind::AdamW;
        cfg.biasCorrection = correct;
        cfg.beta1 = b1;
        cfg.beta2 = b2;
        cfg.eps = eps;
        cfg.weightDecay = wd;
        auto p = matrixParam("w", Role::Hidden, at::tensor(at::ArrayRef<double>(w0, 6)).reshape({2, 3}).to(dtype));
        optim::AdamW adam(cfg, {{p, mult}});
        for (int t = 0; t < 3; ++t) {
          setGrad(p, at::tensor(at::ArrayRef<double>(grads[t], 6)).reshape({2, 3}).to(dtype));
          adam.step(lr);
        }
        const auto expected = reference(correct, b2), otherBeta2 = reference(correct, 0.999);
        const auto got = p.tensor.detach().to(at::kDouble).reshape({6});
        double worstOther = 0;
        for (int i = 0; i < 6; ++i) {
          const double tol = 2e-6 * std::max(1.0, std::abs(expected[i]));
          QVERIFY2(std::abs(got[i].item<double>() - expected[i]) <= tol,
                   qPrintable(QStringLiteral("correct=%1 %2 i=%3: %4 vs %5").arg(correct).arg(at::toString(dtype)).arg(i)
                                  .arg(got[i].item<double>(), 0, 'g', 10).arg(expected[i], 0, 'g', 10)));
          worstOther = std::max(worstOther, std::abs(otherBeta2[i] - expected[i]));
        }
        QVERIFY(worstOther > 1e-4);  // beta2 matters by step 3: a kernel ignoring it would fail
      }
    }
  }

  void decoupledWeightDecay() {
    optim::OptimizerConfig cfg;
    cfg.kind = optim::OptimizerKind::AdamW;
    cfg.weightDecay = 0.5;
    const auto w0 = at::full({4, 4}, 2.0f);
    auto p = matrixParam("w", Role::Hidden, w0);
    optim::AdamW adam(cfg, {{p, 1.0}});
    setGrad(p, at::zeros({4, 4}));
    adam.step(0.1);
    QVERIFY(std::abs(p.tensor[1][2].item<double>() - 2.0 * (1 - 0.1 * 0.5)) < 1e-7);
  }

  void sgdMomentumTwoSteps() {
    optim::OptimizerConfig cfg;
    cfg.kind = optim::OptimizerKind::Sgd;
    cfg.momentum = 0.9;
    cfg.nesterov = false;
    auto p = matrixParam("w", Role::Hidden, at::zeros({1, 1}));
    optim::Sgd sgd(cfg, {{p, 1.0}});
    setGrad(p, at::full({1, 1}, 1.0f));
    sgd.step(0.1);  // buf = 1, w = -0.1
    sgd.step(0.1);  // buf = 1.9, w = -0.29
    QVERIFY(std::abs(p.tensor.item<double>() + 0.29) < 1e-7);
  }

  // Embedding rows get unit-RMS updates, inflated at most embed_max_inflation times.
  void embeddingColumnNormalised() {
    auto cfg = muonConfig();
    cfg.embedMaxInflation = 16;
    auto p = matrixParam("embed", Role::Embedding, at::zeros({3, 8}), -1);
    optim::Muon muon(cfg, {{p, 1.0}});
    auto g = at::zeros({3, 8});
    g[0] = 10.0;   // large: scaled down to RMS 1
    g[1] = 1e-3;   // tiny: inflated by 16 only
    setGrad(p, g);
    muon.step(1.0);
    const auto rows = p.tensor.detach().square().mean({1}).sqrt();
    QVERIFY(std::abs(rows[0].item<double>() - 1.0) < 1e-6);
    QVERIFY(std::abs(rows[1].item<double>() - 16e-3) < 1e-7);
    QCOMPARE(rows[2].item<double>(), 0.0);
  }

  void schedules() {
    optim::LrSchedule lin{optim::ScheduleKind::Linear, 100, 0};
    QCOMPARE(lin.factor(0), 1.0);
    QCOMPARE(lin.factor(50), 0.5);
    optim::LrSchedule cos{optim::ScheduleKind::Cosine, 100, 0};
    QVERIFY(std::abs(cos.factor(50) - 0.5) < 1e-12);
    QVERIFY(std::abs(cos.factor(100)) < 1e-12);
    optim::LrSchedule warm{optim::ScheduleKind::Constant, 100, 4};
    QCOMPARE(warm.factor(0), 0.2);
    QCOMPARE(warm.factor(3), 0.8);
    QCOMPARE(warm.factor(4), 1.0);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, optim::parseScheduleKind("exp"));
  }

  // stable_decay (SEEDS-002-004 B.3): linear warm-up, a plateau, then linear to 0 over the
  // last decay steps. S = 100, 2 warm-up steps, 10 decay steps, factors written out.
  void stableDecaySchedule() {
    const optim::LrSchedule s{optim::ScheduleKind::StableDecay, 100, 2, 10};
    const std::vector<std::pair<int64_t, double>> table = {
        {0, 1.0 / 3}, {1, 2.0 / 3}, {2, 1.0}, {50, 1.0}, {89, 1.0}, {90, 10.0 / 11}, {95, 5.0 / 11}, {99, 1.0 / 11}};
    for (const auto& [step, f] : table) QVERIFY2(std::abs(s.factor(step) - f) < 1e-12, qPrintable(QString::number(step)));
    // Monotone down through the decay, never negative.
    for (int64_t t = 90; t < 100; ++t) QVERIFY(s.factor(t) > s.factor(t + 1) || t == 99);
    QVERIFY(optim::parseScheduleKind("stable_decay") == optim::ScheduleKind::StableDecay);
  }

  // Decay by depth (App. F): residual layer l of L gets depth_decay^(L-1-l).
  void groupAndDepthMultipliers() {
    optim::OptimizerConfig cfg;
    cfg.depthDecay = 0.5;
    cfg.embedLr = 3.0;
    cfg.headLr = 2.0;
    const auto z = at::zeros({2, 2});
    std::vector<models::Param> params{matrixParam("embed", Role::Embedding, z, -1),
                                      matrixParam("b0.q", Role::Query, z, 0),
                                      matrixParam("b0.mlp", Role::MlpIn, z, 0),
                                      matrixParam("b1.mlp", Role::MlpOut, z, 1),
                                      matrixParam("head", Role::Head, z, 2)};
    const auto slots = optim::makeSlots(params, cfg, 4);
    QCOMPARE(slots[0].lrMultiplier, 3.0);
    QCOMPARE(slots[1].lrMultiplier, 0.125);  // layer 0 of 4
    QCOMPARE(slots[2].lrMultiplier, 0.25);   // layer 1
    QCOMPARE(slots[3].lrMultiplier, 1.0);    // layer 3
    QCOMPARE(slots[4].lrMultiplier, 2.0);
  }

  // Modula's units (000 App. F) for a 2-block Lipschitz transformer, blocks mass 32: the
  // factors below were worked out by hand (docs/DESIGN.md "Learning rates in Modula's units"):
  // total mass 34, each of the 12 block matrices mass 8/3; residual layers 0..3 (attn 0, mlp 0,
  // attn 1, mlp 1) halve once per later layer; q, k, v take 3/4 of an attention layer, its
  // output 1/4, each MLP matrix 1/2.
  void modulaTargetsTwoBlocks() {
    const auto z = at::zeros({2, 2});
    std::vector<models::Param> params{matrixParam("embed", Role::Embedding, z, -1)};
    for (int b = 0; b < 2; ++b)
      for (Role r : {Role::Query, Role::Key, Role::Value, Role::AttnOut, Role::MlpIn, Role::MlpOut})
        params.push_back(matrixParam(std::string("b").append(std::to_string(b)), r, z, b));
    params.push_back(matrixParam("head", Role::Head, z, 2));
    params.push_back({"gain", Role::Other, at::zeros({2}), 0});
    const std::vector<double> expected{1.0 / 544,                                               // embed: 1/34 / 2^4
                                       1.0 / 34, 1.0 / 34, 1.0 / 34, 1.0 / 102, 1.0 / 51, 1.0 / 51,  // block 0
                                       2.0 / 17, 2.0 / 17, 2.0 / 17, 2.0 / 51, 4.0 / 51, 4.0 / 51,   // block 1
                                       1.0 / 34, 0.0};                                          // head, gain
    const auto got = optim::modulaTargets(params, {models::ModulaMass::ResidualBlocks, "lipschitz_gpt", 2, 32.0, 1.0});
    QCOMPARE(got.size(), expected.size());
    for (size_t i = 0; i < got.size(); ++i) QVERIFY2(std::abs(got[i] - expected[i]) < 1e-15, params[i].name.c_str());
    // A final logit scale is a Mul of that sensitivity: every target is divided by it.
    const auto scaled = optim::modulaTargets(params, {models::ModulaMass::ResidualBlocks, "lipschitz_gpt", 2, 32.0, 4.0});
    for (size_t i = 0; i < got.size(); ++i) QVERIFY(std::abs(scaled[i] - expected[i] / 4.0) < 1e-15);
    // An MLP of L matrices: 1/L each (App. F: "scaled by 1/3" for 3 layers).
    std::vector<models::Param> mlp{matrixParam("l0", Role::Hidden, z, 0), matrixParam("l1", Role::Hidden, z, 1),
                                   matrixParam("out", Role::Head, z, 2)};
    for (double t : optim::modulaTargets(mlp, {models::ModulaMass::Chain, "mlp", 0, 32.0, 1.0})) QCOMPARE(t, 1.0 / 3.0);
    QVERIFY_THROWS_EXCEPTION(InputError, optim::modulaTargets(mlp, {models::ModulaMass::None, "icl_transformer", 0, 32.0, 1.0}));

    // The trainer's slots: the group multipliers times the targets.
    run::RunConfig rc;
    rc.model.kind = models::ModelKind::LipschitzGpt;
    rc.model.blocks = 2;
    rc.optimizer.lrUnits = optim::LrUnits::Modula;
    rc.optimizer.headLr = 2.0;
    const auto slots = optim::makeSlots(params, rc.optimizer, rc.model);
    QVERIFY(std::abs(slots[13].lrMultiplier - 2.0 / 34) < 1e-15);
    QVERIFY(std::abs(slots[10].lrMultiplier - 2.0 / 51) < 1e-15);
    rc.model.standard = true;  // the baseline has LayerNorm and plain residuals: not defined
    QVERIFY_THROWS_EXCEPTION(InputError, optim::makeSlots(params, rc.optimizer, rc.model));
  }

  // The recipe keys refuse what they cannot mean, naming the key.
  void recipeKeysRefuseBadValues() {
    const auto refuses = [](const std::string& overrides, const std::string& key) {
      nlohmann::json j = nlohmann::json::object();
      std::string rest = overrides;
      for (size_t pos; !rest.empty(); rest = pos == std::string::npos ? "" : rest.substr(pos + 1)) {
        pos = rest.find(' ');
        run::applyOverride(j, rest.substr(0, pos));
      }
      try {
        run::parseRunConfig(j);
      } catch (const InputError& e) {
        return std::string(e.what()).find(key) != std::string::npos;
      }
      return false;
    };
    QVERIFY(refuses("optimizer.lr_units=mass", "optimizer.lr_units"));
    QVERIFY(refuses("optimizer.kind=adamw optimizer.lr_units=modula", "optimizer.lr_units"));
    QVERIFY(refuses("optimizer.lr_units=modula optimizer.depth_decay=0.5", "optimizer.depth_decay"));
    QVERIFY(refuses("optimizer.blocks_mass=0", "optimizer.blocks_mass"));
    QVERIFY(refuses("model.zero_init=head", "model.zero_init"));
    QVERIFY(refuses("model.residual_alpha=1", "model.residual_alpha"));
    QVERIFY(refuses("model.residual_alpha=-0.1", "model.residual_alpha"));
    QVERIFY(refuses("model.score_scale=0", "model.score_scale"));
    QVERIFY(refuses("optimizer.lr_units=modula model.attention_scores=position", "model.attention_scores"));
    QVERIFY(!refuses("optimizer.lr_units=plain model.attention_scores=position", "model.attention_scores"));
    QVERIFY(!refuses("optimizer.lr_units=modula model.zero_init=outputs_and_head", "lr_units"));
  }

  // Muon + soft cap with alpha* keeps the RMS->RMS norm at or below sigma_max for 200
  // steps of random gradients (Theorem B.1 with Muon's kappa-inflated update bound).
  void muonSoftCapKeepsBound() {
    auto cfg = muonConfig();
    cfg.momentum = 0.9;
    run::RunConfig rc;
    optim::ConstraintConfig& cc = rc.constraint;
    cc.method = spectral::ConstraintMethod::SpectralSoftCap;
    cc.sigmaMax = 1.5;
    const auto w0 = test::spectrumMatrix(48, 24, 1.0, 0.1, 5).to(at::kFloat);
    auto p = matrixParam("w", Role::Hidden, w0 * std::sqrt(48.0 / 24.0));  // RMS norm 1
    optim::Muon muon(cfg, {{p, 1.0}});
    optim::ConstraintStep cap(rc.constraint, rc.optimizer, rc.seed);
    auto gen = at::make_generator<at::CPUGeneratorImpl>(1);
    double worst = 0;
    for (int i = 0; i < 200; ++i) {
      setGrad(p, at::randn({48, 24}, gen) - p.tensor.detach() * 0.5);  // pushes the norm up
      muon.step(0.1);
      cap.apply(muon, 0.1);
      worst = std::max(worst, test::singularValues(p.tensor).front() * std::sqrt(24.0 / 48.0));
    }
    qInfo("max RMS norm over 200 steps: %.6f (sigma_max 1.5)", worst);
    QVERIFY(worst <= 1.5 * (1 + 1e-4));
    QVERIFY(worst > 1.0);  // the updates did push against the cap
  }

  void hardCapStepHoldsNorm() {
    auto cfg = muonConfig();
    run::RunConfig rc;
    optim::ConstraintConfig& cc = rc.constraint;
    cc.method = spectral::ConstraintMethod::SpectralHardCap;
    cc.sigmaMax = 1.0;
    cc.norm = spectral::ThresholdNorm::Spectral;
    auto p = matrixParam("w", Role::Hidden, test::spectrumMatrix(16, 32, 4.0, 0.1, 2).to(at::kFloat));
    auto e = matrixParam("embed", Role::Embedding, at::full({4, 4}, 3.0f), -1);
    optim::Muon muon(cfg, {{p, 1.0}, {e, 1.0}});
    optim::ConstraintStep(rc.constraint, rc.optimizer, rc.seed).apply(muon, 0.1);
    QVERIFY(std::abs(test::singularValues(p.tensor).front() - 1.0) < 1e-3);
    QCOMPARE(e.tensor[0][0].item<float>(), 3.0f);  // embeddings are the model's business
  }
};

QTEST_APPLESS_MAIN(TestOptim)
#include "tst_optim.moc"
