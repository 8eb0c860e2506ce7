// A run directory's checkpoints as a history and two checkpoints' per-layer deltas
// (engine/inspect/checkpoint_history.h, issue 29 §2), on tiny hand-made checkpoints: σ₁ and
// ‖W‖_F against the exact float64 SVD and a loop written here, α against the Hill/KS fit
// written here, ‖ΔW‖/‖W‖ against a loop; history order by step (not by file name); hostile
// run directories (no checkpoints folder, none in it, a corrupt checkpoint in the middle:
// reported and skipped, all corrupt: a clear error).
#include "common/torch_compat.h"
#include "inspect/checkpoint_history.h"
#include "io/input_error.h"
#include "io/safetensors.h"
#include "io/tensor_convert.h"
#include "support/random_tensors.h"

#include <QtTest/QtTest>

#include <ATen/ops/diag.h>
#include <ATen/ops/linalg_qr.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

using namespace lwb;
namespace fs = std::filesystem;

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();

std::vector<double> exactSigmas(const at::Tensor& w) {
  const auto s = compat::svdvals(w.to(at::kDouble)).contiguous();
  return {s.data_ptr<double>(), s.data_ptr<double>() + s.numel()};
}

double loopFrobenius(const at::Tensor& w) {
  const auto c = w.to(at::kDouble).contiguous();
  double s = 0;
  for (int64_t i = 0; i < c.numel(); ++i) s += c.data_ptr<double>()[i] * c.data_ptr<double>()[i];
  return std::sqrt(s);
}

// WeightWatcher's α as the issue states it: x = sorted λ > 1e-5; for each xmin = x_i the Hill
// estimate and the one-sided KS distance; the α of the first smallest distance.
double referenceAlpha(const at::Tensor& w) {
  std::vector<double> x;
  for (double s : exactSigmas(w))
    if (s * s > 1e-5) x.push_back(s * s);
  std::sort(x.begin(), x.end());
  const size_t n = x.size();
  if (n < 2) return kNaN;
  double best = 2, alpha = kNaN;
  for (size_t i = 0; i + 1 < n; ++i) {
    const double m = static_cast<double>(n - i);
    double logs = 0;
    for (size_t j = i; j < n; ++j) logs += std::log(x[j] / x[i]);
    const double a = x[n - 1] > x[i] ? 1 + m / logs : kNaN;
    double ks = 1;
    if (a > 1) {
      ks = 0;
      for (size_t k = 0; k < n - i; ++k)
        ks = std::max(ks, std::abs(1 - std::pow(x[i + k] / x[i], 1 - a) - static_cast<double>(k) / m));
    }
    if (ks < best) best = ks, alpha = a;
  }
  return alpha;
}

// A matrix with the given singular values (random orthogonal factors).
at::Tensor withSpectrum(int64_t rows, int64_t cols, const std::vector<double>& sigmas, uint64_t seed) {
  const auto u = std::get<0>(at::linalg_qr(test::gaussian({rows, rows}, seed)));
  const auto v = std::get<0>(at::linalg_qr(test::gaussian({cols, cols}, seed + 1)));
  auto s = at::zeros({rows, cols}, at::kDouble);
  for (size_t i = 0; i < sigmas.size(); ++i) s[static_cast<int64_t>(i)][static_cast<int64_t>(i)] = sigmas[i];
  return u.matmul(s).matmul(v.t());
}

struct Layer {
  std::string name;
  at::Tensor w;
};

// A workbench-style checkpoint: "param.<name>" weights beside optimizer state.
void writeCheckpoint(const fs::path& file, const std::vector<Layer>& layers) {
  std::vector<io::RawTensor> t;
  for (const auto& l : layers) t.push_back(io::fromTensor("param." + l.name, l.w.to(at::kFloat)));
  t.push_back(io::fromTensor("optim.momentum.a", at::ones({7, 7}, at::kFloat)));
  io::writeSafetensors(file.string(), t, {{"format", "lipschitz-workbench-checkpoint-1"}});
}

// The matrices of step s: a spectrum that moves with s, so every step differs.
std::vector<Layer> layersAt(int64_t s) {
  const double k = 1 + 0.1 * static_cast<double>(s);
  return {{"a", withSpectrum(6, 4, {3 * k, 2, 1.5, 0.5}, 10)}, {"b", withSpectrum(5, 7, {k, 0.9, 0.4, 0.2, 0.1}, 20)}};
}

// The float32 values the checkpoint stores, back as double (the reference's input).
at::Tensor stored(const at::Tensor& w) { return w.to(at::kFloat).to(at::kDouble); }

QString messageOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return QString::fromUtf8(e.what());
  }
  return {};
}

}  // namespace

class TestCheckpointHistory : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void historyInStepOrderWithExactValues();
  void deltaAgainstExactSvd();
  void deltaListsUnmatchedLayers();
  void deltaMatchesWithoutWrapperPrefixes();
  void hostileRunDirectories();
  void cancelStopsBetweenCheckpoints();
};

void TestCheckpointHistory::historyInStepOrderWithExactValues() {
  QTemporaryDir dir;
  const fs::path run = dir.path().toStdString();
  fs::create_directories(run / "checkpoints");
  // Written out of order; by name "step_100" < "step_20" < "step_3".
  for (int64_t s : {20, 3, 100}) writeCheckpoint(run / "checkpoints" / ("step_" + std::to_string(s) + ".safetensors"), layersAt(s));
  std::vector<std::pair<size_t, size_t>> progress;
  const auto h = inspect::checkpointHistory(run, [&](size_t d, size_t t) { progress.emplace_back(d, t); });
  QCOMPARE(h.checkpoints.size(), size_t{3});
  QCOMPARE(h.checkpoints[0].step, int64_t{3});
  QCOMPARE(h.checkpoints[1].step, int64_t{20});
  QCOMPARE(h.checkpoints[2].step, int64_t{100});
  QVERIFY(h.skipped.empty());
  QVERIFY(h.complete);
  QCOMPARE(progress.back(), std::make_pair(size_t{3}, size_t{3}));
  // The optimizer state is no layer; "param." is dropped from the names.
  QCOMPARE(h.layerNames(), (std::vector<std::string>{"a", "b"}));

  const auto keys = inspect::historyMetrics();
  const auto index = [&](std::string_view key) {
    for (size_t i = 0; i < keys.size(); ++i)
      if (keys[i].key == key) return i;
    return keys.size();
  };
  QCOMPARE(index("sigma1"), size_t{0});
  QVERIFY(index("alpha") < keys.size());
  QVERIFY(index("mp_sigma") < keys.size());
  for (const std::string layer : {"a", "b"}) {
    const auto sigma = h.series(layer, index("sigma1"));
    const auto fro = h.series(layer, index("frobenius"));
    const auto alpha = h.series(layer, index("alpha"));
    for (size_t i = 0; i < 3; ++i) {
      const auto& l = layersAt(h.checkpoints[i].step);
      const at::Tensor w = stored(layer == "a" ? l[0].w : l[1].w);
      QVERIFY2(std::abs(sigma[i] - exactSigmas(w)[0]) < 1e-9 * exactSigmas(w)[0], layer.c_str());
      QVERIFY(std::abs(fro[i] - loopFrobenius(w)) < 1e-9 * loopFrobenius(w));
      QVERIFY2(std::abs(alpha[i] - referenceAlpha(w)) < 1e-6 * std::abs(referenceAlpha(w)), layer.c_str());
    }
  }
  // σ₁ of layer a grows with the step: the series is in step order.
  const auto a = h.series("a", 0);
  QVERIFY(a[0] < a[1] && a[1] < a[2]);
}

void TestCheckpointHistory::deltaAgainstExactSvd() {
  QTemporaryDir dir;
  const fs::path pa = fs::path(dir.path().toStdString()) / "a.safetensors", pb = fs::path(dir.path().toStdString()) / "b.safetensors";
  const auto la = layersAt(0), lb = layersAt(50);
  writeCheckpoint(pa, la);
  writeCheckpoint(pb, lb);
  const auto d = inspect::checkpointDelta(pa, pb);
  QCOMPARE(d.layers.size(), size_t{2});
  QVERIFY(d.onlyInA.empty() && d.onlyInB.empty() && d.shapeChanged.empty());
  for (size_t i = 0; i < 2; ++i) {
    const auto& l = d.layers[i];
    QCOMPARE(l.name, la[i].name);
    QCOMPARE(l.shape, (std::vector<int64_t>{la[i].w.size(0), la[i].w.size(1)}));
    const at::Tensor wa = stored(la[i].w), wb = stored(lb[i].w);
    const double ds = exactSigmas(wb)[0] - exactSigmas(wa)[0];
    QVERIFY2(std::abs(l.deltaSigma1() - ds) < 1e-9 * exactSigmas(wb)[0], l.name.c_str());
    QVERIFY(std::abs(ds) > 0.1);  // the steps differ: the check can see a wrong pairing
    const double da = referenceAlpha(wb) - referenceAlpha(wa);
    QVERIFY2(std::abs(l.deltaAlpha() - da) < 1e-6 * std::max(1.0, std::abs(da)), l.name.c_str());
    const double rel = loopFrobenius(wb - wa) / loopFrobenius(wa);
    QVERIFY2(std::abs(l.relativeChange - rel) < 1e-12 * rel, l.name.c_str());
  }
  // A checkpoint against itself: no change at all.
  const auto same = inspect::checkpointDelta(pa, pa);
  for (const auto& l : same.layers) {
    QCOMPARE(l.deltaSigma1(), 0.0);
    QCOMPARE(l.relativeChange, 0.0);
  }
}

void TestCheckpointHistory::deltaListsUnmatchedLayers() {
  QTemporaryDir dir;
  const fs::path pa = fs::path(dir.path().toStdString()) / "a.safetensors", pb = fs::path(dir.path().toStdString()) / "b.safetensors";
  writeCheckpoint(pa, {{"kept", test::gaussian({3, 3}, 1)}, {"gone", test::gaussian({2, 4}, 2)}, {"grown", test::gaussian({2, 2}, 3)}});
  writeCheckpoint(pb, {{"kept", test::gaussian({3, 3}, 4)}, {"new", test::gaussian({4, 2}, 5)}, {"grown", test::gaussian({3, 2}, 6)}});
  const auto d = inspect::checkpointDelta(pa, pb);
  QCOMPARE(d.layers.size(), size_t{1});
  QCOMPARE(d.layers[0].name, std::string("kept"));
  QCOMPARE(d.onlyInA, std::vector<std::string>{"gone"});
  QCOMPARE(d.onlyInB, std::vector<std::string>{"new"});
  QCOMPARE(d.shapeChanged, std::vector<std::string>{"grown"});
  QVERIFY(d.noSpectrum.empty());
  // A matrix holding NaN in one file has no spectrum: listed, not dropped without a word (the CLI
  // said "no matrix names in common" for two files whose every matrix had a NaN).
  {
    auto bad = test::gaussian({3, 3}, 7);
    bad[0][0].fill_(std::nan(""));
    const fs::path pn = fs::path(dir.path().toStdString()) / "nan.safetensors";
    writeCheckpoint(pn, {{"kept", bad}, {"gone", test::gaussian({2, 4}, 8)}});
    const auto n = inspect::checkpointDelta(pa, pn);
    QCOMPARE(n.noSpectrum, std::vector<std::string>{"kept"});
    QCOMPARE(n.layers.size(), size_t{1});
    QCOMPARE(n.layers[0].name, std::string("gone"));
  }
  // A missing second file names itself.
  QVERIFY(messageOf([&] { inspect::checkpointDelta(pa, pb.string() + ".missing"); }).contains("b.safetensors.missing"));
  QVERIFY(d.prefixA.empty() && d.prefixB.empty());  // names matched as written
}

// The same model saved bare and by Lightning ("state_dict.model." before every name): no name
// matched, so the delta was empty. Matched again without each file's common dotted prefix.
void TestCheckpointHistory::deltaMatchesWithoutWrapperPrefixes() {
  QTemporaryDir dir;
  const fs::path pa = fs::path(dir.path().toStdString()) / "bare.safetensors", pb = fs::path(dir.path().toStdString()) / "lightning.safetensors";
  const auto w0 = test::gaussian({4, 3}, 1), w2 = test::gaussian({2, 4}, 2);
  io::writeSafetensors(pa.string(), {io::fromTensor("0.weight", w0), io::fromTensor("2.weight", w2)});
  io::writeSafetensors(pb.string(), {io::fromTensor("state_dict.model.0.weight", w0 * 2), io::fromTensor("state_dict.model.2.weight", w2)});
  const auto d = inspect::checkpointDelta(pa, pb);
  QCOMPARE(d.prefixA, std::string());
  QCOMPARE(d.prefixB, std::string("state_dict.model."));
  QCOMPARE(d.layers.size(), size_t{2});
  QCOMPARE(d.layers[0].name, std::string("0.weight"));
  QVERIFY(std::abs(d.layers[0].relativeChange - 1.0) < 1e-6);  // ‖2W − W‖ / ‖W‖
  QCOMPARE(d.layers[1].relativeChange, 0.0);
  QVERIFY(d.onlyInA.empty() && d.onlyInB.empty());
}

void TestCheckpointHistory::hostileRunDirectories() {
  QTemporaryDir dir;
  const fs::path run = dir.path().toStdString();
  QVERIFY(messageOf([&] { inspect::checkpointHistory(run / "nowhere"); }).contains("nowhere: no such folder"));
  QVERIFY(messageOf([&] { inspect::checkpointHistory(run); }).contains("no checkpoints folder"));
  fs::create_directories(run / "checkpoints");
  QVERIFY(messageOf([&] { inspect::checkpointHistory(run); }).contains("no step_N.safetensors"));

  // A corrupt checkpoint in the middle is reported and skipped; the others make the history.
  writeCheckpoint(run / "checkpoints" / "step_1.safetensors", layersAt(1));
  { std::ofstream(run / "checkpoints" / "step_2.safetensors") << "not a safetensors file at all"; }
  writeCheckpoint(run / "checkpoints" / "step_3.safetensors", layersAt(3));
  const auto h = inspect::checkpointHistory(run);
  QCOMPARE(h.checkpoints.size(), size_t{2});
  QCOMPARE(h.checkpoints[0].step, int64_t{1});
  QCOMPARE(h.checkpoints[1].step, int64_t{3});
  QCOMPARE(h.skipped.size(), size_t{1});
  QCOMPARE(h.skipped[0].step, int64_t{2});
  QVERIFY2(QString::fromStdString(h.skipped[0].error).contains("step_2.safetensors"), h.skipped[0].error.c_str());
  // A missing layer in one checkpoint is NaN there, not a shifted series.
  writeCheckpoint(run / "checkpoints" / "step_4.safetensors", {layersAt(4)[1]});
  const auto h4 = inspect::checkpointHistory(run);
  const auto a = h4.series("a", 0);
  QCOMPARE(a.size(), size_t{3});
  QVERIFY(std::isnan(a[2]));
  QVERIFY(!std::isnan(h4.series("b", 0)[2]));
  // Another model's checkpoint copied in ('a' of another shape) was merged into the series;
  // a checkpoint whose own step is not its name's was taken for that step. Both are skipped,
  // said why, and the series keep their four checkpoints.
  writeCheckpoint(run / "checkpoints" / "step_5.safetensors", {{"a", withSpectrum(9, 4, {5, 1, 1, 1}, 30)}, layersAt(5)[1]});
  {
    std::vector<io::RawTensor> t;
    for (const auto& l : layersAt(6)) t.push_back(io::fromTensor("param." + l.name, l.w.to(at::kFloat)));
    io::writeSafetensors((run / "checkpoints" / "step_6.safetensors").string(), t,
                         {{"format", "lipschitz-workbench-checkpoint-1"}, {"step", "68"}});
  }
  const auto h6 = inspect::checkpointHistory(run);
  QCOMPARE(h6.checkpoints.size(), size_t{3});
  QCOMPARE(h6.checkpoints.back().step, int64_t{4});
  QCOMPARE(h6.skipped.size(), size_t{3});  // step 2 (corrupt), 5 and 6
  QVERIFY2(QString::fromStdString(h6.skipped[1].error).contains("step_5.safetensors: holds another model ('param.a' is [9, 4] here, [6, 4]"),
           h6.skipped[1].error.c_str());
  QVERIFY2(QString::fromStdString(h6.skipped[2].error).contains("holds step 68, not 6 as its name says"), h6.skipped[2].error.c_str());
  fs::remove(run / "checkpoints" / "step_5.safetensors");
  fs::remove(run / "checkpoints" / "step_6.safetensors");

  // Nothing readable: one clear error naming the first reason.
  const fs::path bad = run / "bad";
  fs::create_directories(bad / "checkpoints");
  { std::ofstream(bad / "checkpoints" / "step_5.safetensors") << "x"; }
  fs::create_directories(bad / "checkpoints" / "step_6.safetensors");  // a folder with a checkpoint's name is skipped by the lister
  const QString e = messageOf([&] { inspect::checkpointHistory(bad); });
  QVERIFY2(e.contains("no checkpoint could be read") && e.contains("step_5.safetensors"), qPrintable(e));
}

void TestCheckpointHistory::cancelStopsBetweenCheckpoints() {
  QTemporaryDir dir;
  const fs::path run = dir.path().toStdString();
  fs::create_directories(run / "checkpoints");
  for (int64_t s : {1, 2, 3}) writeCheckpoint(run / "checkpoints" / ("step_" + std::to_string(s) + ".safetensors"), layersAt(s));
  CancelFlag cancel{false};
  const auto h = inspect::checkpointHistory(run, [&](size_t done, size_t) { if (done == 1) cancel = true; }, &cancel);
  QVERIFY(!h.complete);
  QCOMPARE(h.checkpoints.size(), size_t{1});
}

QTEST_GUILESS_MAIN(TestCheckpointHistory)
#include "tst_checkpoint_history.moc"
