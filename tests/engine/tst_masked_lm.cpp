// Seed 004 Table 2 analogue (issue 15): the chars_masked task's masking statistics and
// determinism, the masked loss, the attlip model (shapes, non-causality, its AttLip block equal
// to attention::attlipProx, the K schedule, the bound) and a short run of every preset through
// the trainer into a run directory.
#include "attention/attlip.h"
#include "data/data_location.h"
#include "data/masked_chars.h"
#include "models/attlip_model.h"
#include "run/measurements.h"
#include "run/run_directory.h"
#include "run/run_directory_reader.h"
#include "run/run_directory_sink.h"
#include "run/trainer.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/core/grad_mode.h>
#include <ATen/ops/cross_entropy_loss.h>
#include <ATen/ops/equal.h>
#include <ATen/ops/gelu.h>
#include <ATen/ops/linear.h>
#include <ATen/ops/log_softmax.h>
#include <ATen/ops/randint.h>
#include <ATen/ops/randn.h>
#include <QtTest/QtTest>

#include <cmath>

using namespace lwb;
using data::MaskedCharsDataset;
using data::Split;

namespace {

const std::string kShakespeare = "@data/tinyshakespeare/input.txt";

at::Generator seeded(uint64_t seed) { return at::make_generator<at::CPUGeneratorImpl>(seed); }

MaskedCharsDataset shakespeare(int64_t seqLen, uint64_t seed = 0) {
  return MaskedCharsDataset(data::resolveDataPath(kShakespeare), seqLen, 0.15, seed);
}

models::AttLipShape smallShape(models::AttentionKind kind) {
  models::AttLipShape s;
  s.vocab = 12;
  s.seqLen = 10;
  s.dModel = 16;
  s.heads = 2;
  s.mlpRatio = 2;
  s.attention = kind;
  return s;
}

at::Tensor param(models::Model& m, const std::string& name) {
  for (const auto& p : m.parameters())
    if (p.name == name) return p.tensor;
  qFatal("no parameter %s", name.c_str());
}

// Trains `cfg` through the trainer into a run directory at `path` (the run folder the app and
// the CLI write), returning the trainer's own summary.
run::RunSummary trainIntoRunDirectory(const run::RunConfig& cfg, const std::string& path) {
  run::RunDirectory dir(path);
  run::RunDirectorySink sink(dir);
  run::Trainer trainer(cfg);
  trainer.addSink(&sink);
  run::TrainerControl control;
  return trainer.run(control);
}

}  // namespace

class TestMaskedLm : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  // RoBERTa's 15 % and 80/10/10 (G.3.6) over 64k positions; tolerances are ≥ 4 binomial
  // standard deviations (selected: 0.0014, 80 %: 0.005, 10 %: 0.004).
  void maskingStatistics() {
    const auto ds = shakespeare(64);
    const int64_t v = ds.maskId();
    QCOMPARE(ds.numClasses(), v + 1);
    const auto b = ds.slice(Split::Train, 0, 1000);
    const auto clean = ds.chars().slice(Split::Train, 0, 1000).inputs;
    const auto selected = b.targets != data::kIgnoreTarget;
    const double n = static_cast<double>(selected.numel()), s = selected.sum().item<double>();
    QVERIFY2(std::abs(s / n - 0.15) < 0.006, qPrintable(QString::number(s / n)));
    // Loss targets: the original character exactly at the selected positions.
    QVERIFY(at::equal(b.targets.masked_select(selected), clean.masked_select(selected)));
    // Positions not selected show the original character.
    QVERIFY(at::equal(b.inputs.masked_select(~selected), clean.masked_select(~selected)));
    const auto in = b.inputs.masked_select(selected), orig = clean.masked_select(selected);
    const double masked = (in == v).sum().item<double>() / s;
    const double kept = (in == orig).sum().item<double>() / s;
    const double random = ((in != v) & (in != orig)).sum().item<double>() / s;
    QVERIFY2(std::abs(masked - 0.8) < 0.025, qPrintable(QString::number(masked)));
    // A random character equals the original with probability 1/V.
    const double vocab = static_cast<double>(v);
    QVERIFY2(std::abs(kept - (0.1 + 0.1 / vocab)) < 0.02, qPrintable(QString::number(kept)));
    QVERIFY2(std::abs(random - 0.1 * (1 - 1 / vocab)) < 0.02, qPrintable(QString::number(random)));
    QVERIFY(b.inputs.min().item<int64_t>() >= 0 && b.inputs.max().item<int64_t>() <= v);
    // Every window has at least one selected position.
    QVERIFY(selected.any(1).all().item<bool>());
  }

  void maskingIsDeterministic() {
    const auto ds = shakespeare(32, 7);
    auto g1 = seeded(3), g2 = seeded(3);
    const auto a = ds.sample(Split::Train, 16, g1), b = ds.sample(Split::Train, 16, g2);
    QVERIFY(at::equal(a.inputs, b.inputs) && at::equal(a.targets, b.targets));
    // A validation window's mask does not depend on the batch that holds it ...
    const auto whole = ds.slice(Split::Val, 0, 6), one = ds.slice(Split::Val, 4, 1);
    QVERIFY(at::equal(whole.inputs[4], one.inputs[0]) && at::equal(whole.targets[4], one.targets[0]));
    QVERIFY(at::equal(whole.targets, shakespeare(32, 7).slice(Split::Val, 0, 6).targets));
    // ... but on the dataset's seed.
    QVERIFY(!at::equal(whole.targets, shakespeare(32, 8).slice(Split::Val, 0, 6).targets));
  }

  void badMaskRate() {
    try {
      MaskedCharsDataset(data::resolveDataPath(kShakespeare), 16, 0.0, 0);
      QFAIL("no error");
    } catch (const InputError& e) {
      QVERIFY2(QString::fromUtf8(e.what()).startsWith(QLatin1String("mask_rate:")), e.what());
    }
  }

  // The loss reads the selected positions only: logits elsewhere do not change it, and it
  // equals the hand-computed mean of −log p(target) over them.
  void lossOnlyOnSelectedPositions() {
    const auto ds = shakespeare(16);
    auto gen = seeded(1);
    const auto b = ds.sample(Split::Train, 8, gen);
    auto logits = at::randn({8, 16, ds.numClasses()}, gen);
    const auto la = run::lossAndAccuracy(logits, b, at::kCPU, true);
    const auto selected = b.targets != data::kIgnoreTarget;
    auto changed = logits.clone();
    changed.masked_fill_((~selected).unsqueeze(-1), 1e3);
    const auto lb = run::lossAndAccuracy(changed, b, at::kCPU, true);
    QCOMPARE(lb.loss.item<double>(), la.loss.item<double>());
    QCOMPARE(lb.acc, la.acc);
    const auto logp = at::log_softmax(logits, -1).reshape({-1, ds.numClasses()});
    const auto t = b.targets.reshape({-1}), sel = selected.reshape({-1});
    double sum = 0, hits = 0, count = 0;
    for (int64_t i = 0; i < t.numel(); ++i) {
      if (!sel[i].item<bool>()) continue;
      sum -= logp[i][t[i].item<int64_t>()].item<double>();
      hits += logp[i].argmax().item<int64_t>() == t[i].item<int64_t>() ? 1 : 0;
      ++count;
    }
    QVERIFY(std::abs(la.loss.item<double>() - sum / count) < 1e-5);
    QVERIFY(std::abs(la.acc - hits / count) < 1e-12);
  }

  void forwardShapesAndCausality_data() {
    QTest::addColumn<QString>("kind");
    for (const char* k : {"attlip", "l2", "standard", "none"}) QTest::newRow(k) << QString::fromLatin1(k);
  }
  // Every variant maps [B, T] ids to [B, T, V] logits; attention kinds are non-causal (a later
  // token changes the first position's output), the MLP-only model is position-wise.
  void forwardShapesAndCausality() {
    QFETCH(QString, kind);
    auto gen = seeded(2);
    models::AttLipModel m(smallShape(attention::attentionKindFromString(kind.toStdString())), gen, at::kCPU);
    at::NoGradGuard noGrad;
    auto tokens = at::randint(0, 12, {3, 10}, gen);
    const auto a = m.forward(tokens);
    QCOMPARE(a.sizes().vec(), (std::vector<int64_t>{3, 10, 12}));
    tokens.select(1, 9).fill_(0);
    auto other = tokens.clone();
    other.select(1, 9).fill_(5);
    const double change = (m.forward(other) - m.forward(tokens)).select(1, 0).abs().max().item<double>();
    if (kind == QLatin1String("none")) QCOMPARE(change, 0.0);
    else QVERIFY2(change > 1e-6, qPrintable(QString::number(change)));
  }

  // The model's AttLip block is attention::attlipProx with the scheduled K in training and
  // prox_steps_eval / prox_tol at evaluation; the rest is x + MLP(x) and the head.
  void attlipBlockIsTheProx() {
    auto gen = seeded(4);
    auto shape = smallShape(models::AttentionKind::AttLip);
    shape.proxSteps = 3;
    models::AttLipModel m(shape, gen, at::kCPU);
    at::NoGradGuard noGrad;
    const auto tokens = at::randint(0, 12, {2, 10}, gen);
    const auto x = at::embedding(param(m, "embed"), tokens) + param(m, "pos_embed");
    const auto rest = [&](const at::Tensor& y) {
      const auto h = y + at::linear(at::gelu(at::linear(y, param(m, "mlp.in"))), param(m, "mlp.out"));
      return at::linear(h, param(m, "head"));
    };
    for (const int64_t step : {0, 50, 99}) {
      m.setTrainingProgress(step, 100);
      attention::ProxOptions o;
      o.maxSteps = static_cast<int>(models::AttLipModel::scheduledProxSteps(3, step, 100));
      const auto want = rest(attention::attlipProx(x, param(m, "attn.w"), o).output);
      QVERIFY(at::allclose(m.forward(tokens), want, 1e-5, 1e-6));
      QCOMPARE(m.lastProx()->steps, o.maxSteps);
    }
    m.setEvaluation(true);
    attention::ProxOptions eval;
    eval.maxSteps = 20;
    eval.relTolerance = 1e-6;
    const auto ref = attention::attlipProx(x, param(m, "attn.w"), eval);
    QVERIFY(at::allclose(m.forward(tokens), rest(ref.output), 1e-5, 1e-6));
    QCOMPARE(m.lastProx()->residual, ref.residual);
    QCOMPARE(m.lastProx()->converged, ref.converged);
  }

  void proxSchedule() {
    using models::AttLipModel;
    // 1 → 3 in equal thirds of the run (§5.2 "K_prox 1→3").
    QCOMPARE(AttLipModel::scheduledProxSteps(3, 0, 1500), int64_t{1});
    QCOMPARE(AttLipModel::scheduledProxSteps(3, 499, 1500), int64_t{1});
    QCOMPARE(AttLipModel::scheduledProxSteps(3, 500, 1500), int64_t{2});
    QCOMPARE(AttLipModel::scheduledProxSteps(3, 1000, 1500), int64_t{3});
    QCOMPARE(AttLipModel::scheduledProxSteps(3, 1499, 1500), int64_t{3});
    QCOMPARE(AttLipModel::scheduledProxSteps(1, 1499, 1500), int64_t{1});
  }

  // The bound: attention (1, 1 + Eq. 6, none) × (1 + ‖W_out‖‖W_in‖·1.1289) × ‖W_head‖; null for
  // standard attention. It is an upper bound on the map from the embedded sequence to the logits
  // (RMS of the whole sequence) at the converged prox: checked against random pairs.
  void boundOfEveryVariant() {
    for (const auto kind : {models::AttentionKind::AttLip, models::AttentionKind::L2, models::AttentionKind::Standard,
                            models::AttentionKind::None}) {
      auto gen = seeded(5);
      models::AttLipModel m(smallShape(kind), gen, at::kCPU);
      const auto norms = run::normsFrom(run::measureSpectra(m.parameters()));
      const auto trace = run::lipschitzBound(m, norms);
      if (kind == models::AttentionKind::Standard) {
        QVERIFY(!trace);
        continue;
      }
      QVERIFY(trace);
      std::map<std::string, double> byName;
      for (const auto& n : norms) byName[n.name] = n.rmsNorm;
      const double mlp = 1 + byName["mlp.out"] * byName["mlp.in"] * 1.1289;
      const double att = kind == models::AttentionKind::AttLip ? 1.0
                         : kind == models::AttentionKind::L2   ? 1.0 + *m.attentionBound(10)
                                                               : 1.0;
      QVERIFY(std::abs(trace->bound - att * mlp * byName["head"]) <= 1e-9 * trace->bound);
      if (kind != models::AttentionKind::AttLip) continue;
      // Random pairs through the converged prox, in the whole-sequence RMS norm.
      at::NoGradGuard noGrad;
      attention::ProxOptions conv;
      conv.maxSteps = 500;
      conv.relTolerance = 1e-8;
      const auto full = [&](const at::Tensor& x) {
        const auto y = attention::attlipProx(x.to(at::kDouble), param(m, "attn.w").to(at::kDouble), conv).output.to(at::kFloat);
        const auto h = y + at::linear(at::gelu(at::linear(y, param(m, "mlp.in"))), param(m, "mlp.out"));
        return at::linear(h, param(m, "head"));
      };
      const auto rms = [](const at::Tensor& z) { return z.square().mean().sqrt().item<double>(); };
      for (int i = 0; i < 3; ++i) {
        const auto x = at::randn({1, 10, 16}, gen) * 0.3, y = x + at::randn({1, 10, 16}, gen) * 0.01;
        const double ratio = rms(full(x) - full(y)) / rms(x - y);
        QVERIFY2(ratio <= trace->bound, qPrintable(QString::number(ratio) + " > " + QString::number(trace->bound)));
      }
    }
  }

  void attentionCertificate_data() {
    QTest::addColumn<QStringList>("overrides");
    QTest::addColumn<QString>("certificate");
    // Armijo whose evaluation solve stops short of prox_tol: no certificate.
    QTest::newRow("none") << QStringList{"model.prox_steps_eval=1", "model.prox_tol=1e-9"} << QStringLiteral("none");
    // The fixed certified step on unit-norm tokens: 1-Lipschitz for every K (unrelaxed: the
    // preset's α = 2 needs the converged prox).
    QTest::newRow("certified_step") << QStringList{"model.prox_step_rule=fixed", "model.token_norm=true",
                                                   "model.prox_steps_eval=3", "model.prox_relaxation=1"}
                                    << QStringLiteral("certified_step");
    // With the preset's relaxation α = 2: PGD measures the relaxed block.
    QTest::newRow("converged") << QStringList{"model.prox_eta=0.3", "model.prox_w_cap=3", "model.token_norm=true",
                                              "model.prox_steps_eval=500"}
                               << QStringLiteral("converged");
  }
  // summary.json's attention_certificate names what certifies the evaluated forward, and PGD
  // on that forward (the end-of-run measurement) stays ≤ 1 + 1e−6 whenever one is claimed.
  void attentionCertificate() {
    QFETCH(QStringList, overrides);
    QFETCH(QString, certificate);
    auto j = run::toJson(run::loadRunConfig(LWB_PRESETS_DIR "/masked_chars_attlip_cpu.json"));
    for (const char* o : {"steps=10", "batch_size=4", "eval_every=10", "eval_batches=1", "model.seq_len=12",
                          "model.d_model=16", "model.heads=2", "threads=1"})
      run::applyOverride(j, o);
    for (const auto& o : overrides) run::applyOverride(j, o.toStdString());
    const auto cfg = run::parseRunConfig(j);
    QTemporaryDir tmp;
    const std::string path = tmp.filePath(QStringLiteral("run")).toStdString();
    QCOMPARE(trainIntoRunDirectory(cfg, path).status, run::RunStatus::Finished);
    const auto summary = *run::RunDirectoryReader(path).summary();
    QCOMPARE(QString::fromStdString(summary.attentionCertificate), certificate);
    QCOMPARE(summary.message.empty(), certificate != QLatin1String("none"));
    if (certificate != QLatin1String("none"))
      QVERIFY2(summary.attentionPgdEstimate <= 1 + 1e-6 && summary.attentionPgdEstimate > 0.1,
               qPrintable(QString::number(summary.attentionPgdEstimate)));
  }

  void presetsTrainAndWriteTheNewMetrics_data() {
    QTest::addColumn<QString>("preset");
    for (const char* p : {"attlip", "l2", "standard", "mlp"}) QTest::newRow(p) << QString::fromLatin1(p);
  }
  // Each preset as shipped, shrunk (seq 16, d 16, 2 heads) for the test's time, 20 steps,
  // through the trainer into a run directory.
  void presetsTrainAndWriteTheNewMetrics() {
    QFETCH(QString, preset);
    auto j = run::toJson(run::loadRunConfig(LWB_PRESETS_DIR "/masked_chars_" + preset.toStdString() + "_cpu.json"));
    for (const char* o : {"steps=20", "batch_size=8", "eval_every=10", "eval_batches=2", "model.seq_len=16",
                          "model.d_model=16", "model.heads=2", "threads=1"})
      run::applyOverride(j, o);
    const auto cfg = run::parseRunConfig(j);
    QTemporaryDir tmp;
    const std::string path = tmp.filePath(QStringLiteral("run")).toStdString();
    {
      const auto summary = trainIntoRunDirectory(cfg, path);
      QCOMPARE(summary.status, run::RunStatus::Finished);
      QVERIFY(std::isfinite(summary.valLoss));
    }
    const run::RunDirectoryReader reader(path);
    const auto rows = reader.metrics();
    QCOMPARE(rows.size(), size_t{2});
    const auto& last = rows.back();
    const auto summary = *reader.summary();
    const bool attlip = preset == QLatin1String("attlip");
    QCOMPARE(last.contains("attlip_residual"), attlip);
    QCOMPARE(last.contains("val_attlip_residual"), attlip);
    if (attlip) {
      QCOMPARE(rows.front()["attlip_steps"].get<int>(), 2);  // step 10 of 20: 1 + ⌊3·9/20⌋
      QCOMPARE(last["attlip_steps"].get<int>(), 3);
      QVERIFY(last["val_attlip_steps"].get<int>() >= 1 && last["val_attlip_steps"].get<int>() <= 500);
      QVERIFY(summary.attlipEvalSteps && summary.attlipEvalConverged);
      QCOMPARE(summary.attentionCertificate, std::string("converged"));
      // Issue 26's diagnostics on every logged row, the evaluation's on evaluation rows.
      for (const char* key : {"attlip_movement", "attlip_step_mean", "attlip_step_min", "attlip_residual_ratio",
                              "val_attlip_movement", "val_attlip_residual_ratio"})
        QVERIFY2(last.contains(key) && last[key].get<double>() >= 0, key);
      QVERIFY(last["attlip_movement"].get<double>() > 0);
      QVERIFY(last["attlip_step_min"].get<double>() <= last["attlip_step_mean"].get<double>());
      QVERIFY(last["val_attlip_residual_ratio"].get<double>() <= 1e-6 * (1 + 1e-9));
      // §F target: the converged prox's PGD estimate ≤ 1 (+ float64 rounding).
      QVERIFY2(summary.attentionPgdEstimate <= 1 + 1e-6 && summary.attentionPgdEstimate > 0.5,
               qPrintable(QString::number(summary.attentionPgdEstimate)));
      QCOMPARE(summary.attentionBound, 1.0);
    }
    if (preset == QLatin1String("l2"))
      QVERIFY(summary.attentionPgdEstimate > 0 && summary.attentionPgdEstimate < summary.attentionBound);
    if (preset == QLatin1String("standard")) {
      QVERIFY(summary.attentionPgdEstimate > 0);
      QVERIFY(std::isnan(summary.attentionBound) && std::isnan(summary.lipschitzBound));
      QVERIFY(!last.contains("lipschitz_bound"));
    } else {
      QVERIFY(std::isfinite(summary.lipschitzBound));
    }
    if (preset == QLatin1String("mlp")) QVERIFY(std::isnan(summary.attentionPgdEstimate));
    if (!attlip) {
      QVERIFY(summary.attentionCertificate.empty());
      QVERIFY(!last.contains("attlip_movement"));
    }
  }
};

QTEST_APPLESS_MAIN(TestMaskedLm)
#include "tst_masked_lm.moc"
