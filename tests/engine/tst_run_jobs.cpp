// The two engine jobs the CLI and the app share (issue 27 §2):
// - run::launchRun trains a small MNIST MLP into a run directory, its hooks come in order,
//   and its error paths leave a clear message (a refused config or missing data: nothing
//   written; a taken or uncreatable folder; a failure while training: status "failed").
// - run::robustnessOfCheckpoint on that run against a reference computed here from the
//   checkpoint's weights: clean and certified accuracy from the test's own forward pass and
//   margin test (margin > sqrt(2) L eps), L = sigma1(W0) sigma1(head) from eigenvalues of the
//   Gram matrices; PGD accuracy between certified and clean; the attacked example inside its
//   eps-ball and the pixel box, its prediction and p(correct) recomputed here.
#include "data/dataset.h"
#include "io/input_error.h"
#include "run/checkpoint.h"
#include "run/launch_run.h"
#include "run/robustness_job.h"
#include "run/run_directory_reader.h"
#include "run/saved_model.h"
#include "run/trainer.h"

#include <ATen/TensorOperators.h>
#include <ATen/ops/linalg_eigvalsh.h>
#include <ATen/ops/log_softmax.h>
#include <ATen/ops/relu.h>
#include <ATen/ops/tensor.h>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>

using namespace lwb;

namespace {

const std::string kMnist = LWB_SOURCE_DIR "/resources/data/mnist";

run::RunConfig mnistConfig(int64_t steps) {
  return run::parseRunConfig(nlohmann::json{{"task", "mnist"},
                                            {"data_path", kMnist},
                                            {"mnist_train_count", 2000},
                                            {"steps", steps},
                                            {"batch_size", 100},
                                            {"eval_every", steps},
                                            {"eval_batches", 2},
                                            {"log_every", 10},
                                            {"spectra_every", 0},
                                            {"model", {{"kind", "mlp"}, {"widths", {16}}}},
                                            {"optimizer", {{"kind", "adamw"}, {"lr", 0.01}}},
                                            {"constraint", {{"method", "none"}}}});
}

run::RunSummary launch(const run::RunConfig& cfg, const std::string& dir) {
  run::TrainerControl control;
  run::LaunchOptions o;
  o.runDir = dir;
  return run::launchRun(cfg, o, control);
}

// The InputError's text, or "" when `f` throws none.
template <class F>
std::string inputError(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return {};
}

// sigma1 of W as the square root of the largest eigenvalue of its smaller Gram matrix.
double sigma1(const at::Tensor& w) {
  const auto g = w.size(0) <= w.size(1) ? w.matmul(w.t()) : w.t().matmul(w);
  return std::sqrt(at::linalg_eigvalsh(g).max().item<double>());
}

class ThrowingSink final : public run::MetricsSink {
 public:
  void onStep(const run::StepMetrics& m) override {
    if (m.step >= 10) throw std::runtime_error("sink refused step 10");
  }
};

}  // namespace

class TestRunJobs : public QObject {
  Q_OBJECT

  QTemporaryDir tmp_;
  std::string run_;  // a finished MNIST run (initTestCase)

 private Q_SLOTS:
  void initTestCase() {
    QVERIFY(tmp_.isValid());
    run_ = tmp_.filePath(QStringLiteral("mnist")).toStdString();
    std::vector<std::string> order;
    run::TrainerControl control;
    run::LaunchOptions o;
    o.runDir = run_;
    o.built = [&](run::Trainer&) { order.push_back(std::filesystem::exists(run_) ? "built+dir" : "built"); };
    o.ready = [&](const std::vector<std::string>&, const std::vector<std::string>&) {
      order.push_back(std::filesystem::exists(run_) ? "ready+dir" : "ready");
    };
    o.recording = [&] {
      order.push_back(std::filesystem::exists(std::filesystem::path(run_) / "config.json") ? "recording" : "recording-no-config");
    };
    const auto summary = run::launchRun(mnistConfig(60), o, control);
    QCOMPARE(summary.status, run::RunStatus::Finished);
    QCOMPARE(order, (std::vector<std::string>{"built", "ready", "recording"}));
    const run::RunDirectoryReader reader(run_);
    QVERIFY(reader.config().has_value());
    QCOMPARE(reader.status()->status, run::RunStatus::Finished);
    QCOMPARE(reader.checkpoints().size(), size_t{1});
  }

  void badConfigIsRefusedBeforeAnythingIsWritten() {
    auto cfg = mnistConfig(5);
    cfg.batchSize = 0;  // a config built in code: the file's checks apply
    const auto dir = tmp_.filePath(QStringLiteral("bad_batch")).toStdString();
    std::string e = inputError([&] { launch(cfg, dir); });
    QVERIFY2(e.find("batch_size") != std::string::npos, e.c_str());
    QVERIFY(!std::filesystem::exists(dir));

    cfg = mnistConfig(5);
    cfg.dataPath = tmp_.filePath(QStringLiteral("no_such_data")).toStdString();
    e = inputError([&] { launch(cfg, dir); });
    QVERIFY2(e.find("no_such_data") != std::string::npos, e.c_str());
    QVERIFY(!std::filesystem::exists(dir));
  }

  void folderThatCannotBeWrittenIsNamed() {
    // A folder that is not empty is never written into.
    const auto taken = tmp_.filePath(QStringLiteral("taken")).toStdString();
    std::filesystem::create_directories(taken);
    { std::ofstream(taken + "/notes.txt") << "mine\n"; }
    std::string e = inputError([&] { launch(mnistConfig(5), taken); });
    QVERIFY2(e.find(taken) != std::string::npos && e.find("not empty") != std::string::npos, e.c_str());
    QCOMPARE(std::distance(std::filesystem::directory_iterator(taken), std::filesystem::directory_iterator()), 1);

    // A folder the process may not create: under a read-only parent (root ignores the mode,
    // so root gets a path in sysfs, where nobody may create folders).
    std::string dir, reason;
    if (geteuid() != 0) {
      const auto parent = tmp_.filePath(QStringLiteral("read_only")).toStdString();
      std::filesystem::create_directories(parent);
      QCOMPARE(::chmod(parent.c_str(), 0500), 0);
      dir = parent + "/run";
      reason = "Permission denied";
    } else {
      dir = "/sys/lwb_tst_run_jobs/run";
      reason = "Operation not permitted";
    }
    e = inputError([&] { launch(mnistConfig(5), dir); });
    QVERIFY2(e.find(dir + ": cannot create run directory") != std::string::npos && e.find(reason) != std::string::npos, e.c_str());

    // Under a file: the file in the way is named ("Not a directory" named the new folder).
    const auto file = tmp_.filePath(QStringLiteral("a_file")).toStdString();
    { std::ofstream(file) << "x\n"; }
    e = inputError([&] { launch(mnistConfig(5), file + "/run"); });
    QVERIFY2(e.find(file + "/run: cannot create run directory (" + file + " is a file, not a folder)") != std::string::npos, e.c_str());
  }

  void failureWhileTrainingLeavesStatusFailed() {
    const auto dir = tmp_.filePath(QStringLiteral("fails")).toStdString();
    ThrowingSink sink;
    run::TrainerControl control;
    run::LaunchOptions o;
    o.runDir = dir;
    o.sinks = {&sink};
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, run::launchRun(mnistConfig(40), o, control));
    const auto status = run::RunDirectoryReader(dir).status();
    QVERIFY(status.has_value());
    QCOMPARE(status->status, run::RunStatus::Failed);
    QCOMPARE(status->message, std::string("sink refused step 10"));
  }

  void robustnessMatchesTheMarginReference() {
    const int64_t n = 300;
    const std::vector<double> eps{0, 0.1, 0.5};
    run::CheckpointRobustnessRequest req;
    req.target = run_;
    req.examples = n;
    req.options.eps = eps;
    req.options.attackSteps = 5;
    req.attackExample = true;
    int64_t lastDone = 0, lastTotal = -1;
    const auto r = run::robustnessOfCheckpoint(req, [&](int64_t d, int64_t t) {
      lastDone = d;
      lastTotal = t;
    });
    QCOMPARE(lastDone, lastTotal);

    // The reference: the checkpoint's weights, the last n validation examples.
    const auto ckpt = run::readCheckpoint(run::resolveCheckpointPath(run_));
    const auto w0 = ckpt.tensors.at("param.layers.0").to(at::kDouble), head = ckpt.tensors.at("param.head").to(at::kDouble);
    const auto data = data::makeMnistDataset(kMnist, 2000);
    const int64_t split = data->size(data::Split::Val);
    const auto batch = data->slice(data::Split::Val, split - n, n);
    const auto forward = [&](const at::Tensor& x) { return at::relu(x.to(at::kDouble).matmul(w0.t())).matmul(head.t()); };
    const auto logits = forward(batch.inputs);
    const double l2 = sigma1(w0) * sigma1(head);

    QCOMPARE(r.task, std::string("mnist"));
    QCOMPARE(r.first, split - n);
    QCOMPARE(r.count, n);
    QCOMPARE(r.splitSize, split);
    QCOMPARE(r.sigmaMethod, std::string("exact SVD (float64)"));
    QVERIFY2(std::abs(r.result.l2Bound - l2) <= 1e-6 * l2, qPrintable(QStringLiteral("%1 vs %2").arg(r.result.l2Bound).arg(l2)));

    // Per example: correct?, margin; an example within float32 rounding of a threshold is
    // "unsure" and may fall either way.
    int64_t correct = 0, unsureClean = 0;
    std::vector<double> margins;
    for (int64_t i = 0; i < n; ++i) {
      const auto row = logits[i];
      const int64_t y = batch.targets[i].item<int64_t>();
      double best = -INFINITY;
      for (int64_t j = 0; j < row.size(0); ++j)
        if (j != y) best = std::max(best, row[j].item<double>());
      const double m = row[y].item<double>() - best;
      margins.push_back(m);
      correct += m > 0;
      unsureClean += std::abs(m) < 1e-4;
    }
    QVERIFY2(std::abs(r.result.cleanAcc * n - correct) <= unsureClean,
             qPrintable(QStringLiteral("clean %1 vs %2 of %3").arg(r.result.cleanAcc).arg(correct).arg(n)));
    QCOMPARE(r.result.points.size(), eps.size());
    double previousPgd = 1;
    for (size_t k = 0; k < eps.size(); ++k) {
      const double threshold = std::sqrt(2.0) * l2 * eps[k];
      int64_t certified = 0, unsure = 0;
      for (const double m : margins) {
        certified += m > 0 && m > threshold;
        unsure += std::abs(m - threshold) < 1e-4 * (1 + threshold) || std::abs(m) < 1e-4;
      }
      const auto& p = r.result.points[k];
      QVERIFY2(std::abs(p.certifiedAcc * n - certified) <= unsure,
               qPrintable(QStringLiteral("eps %1: certified %2 vs %3 of %4").arg(eps[k]).arg(p.certifiedAcc).arg(certified).arg(n)));
      QVERIFY(p.certifiedAcc <= p.pgdAcc && p.pgdAcc <= r.result.cleanAcc && p.pgdAcc <= previousPgd);
      previousPgd = p.pgdAcc;
    }
    QCOMPARE(r.result.points[0].pgdAcc, r.result.cleanAcc);
    for (const auto& p : r.result.points)
      qInfo("eps %.2f: pgd %.4f certified %.4f (clean %.4f, l2 bound %.4g, reference %.4g)", p.eps, p.pgdAcc, p.certifiedAcc,
            r.result.cleanAcc, r.result.l2Bound, l2);

    // The attacked example: the first of the n, inside its eps-ball and [0, 1].
    QCOMPARE(r.label, batch.targets[0].item<int64_t>());
    QCOMPARE(r.attacked.size(), eps.size());
    const auto x0 = batch.inputs[0].to(at::kDouble);
    for (size_t k = 0; k < eps.size(); ++k) {
      const auto& a = r.attacked[k];
      QCOMPARE(a.eps, eps[k]);
      QCOMPARE(a.pixels.size(), size_t{784});
      const auto xa = at::tensor(a.pixels).to(at::kDouble);
      QVERIFY(xa.min().item<double>() >= 0 && xa.max().item<double>() <= 1);
      QVERIFY((xa - x0).norm().item<double>() <= eps[k] * (1 + 1e-5) + 1e-5);
      const auto out = forward(xa.unsqueeze(0))[0];
      const auto p = at::exp(at::log_softmax(out, 0));
      QVERIFY2(std::abs(p[r.label].item<double>() - a.pCorrect) < 1e-4, qPrintable(QString::number(a.pCorrect)));
      QCOMPARE(a.predicted, out.argmax().item<int64_t>());
    }
  }

  void robustnessRefusesBadInput() {
    run::CheckpointRobustnessRequest req;
    req.target = tmp_.filePath(QStringLiteral("missing")).toStdString();
    std::string e = inputError([&] { run::robustnessOfCheckpoint(req); });
    QVERIFY2(e.find("missing") != std::string::npos, e.c_str());

    req.target = run_;
    req.dataPath = tmp_.filePath(QStringLiteral("no_data_here")).toStdString();
    e = inputError([&] { run::robustnessOfCheckpoint(req); });
    QVERIFY2(e.find("no_data_here") != std::string::npos, e.c_str());

    req.dataPath.clear();
    req.options.eps = {0, 1, 0.5};
    e = inputError([&] { run::robustnessOfCheckpoint(req); });
    QVERIFY2(e.find("increas") != std::string::npos, e.c_str());

    // A run that is no image classifier.
    const auto modular = tmp_.filePath(QStringLiteral("modular")).toStdString();
    launch(run::parseRunConfig(nlohmann::json{{"task", "modular_addition"}, {"modulus", 7}, {"steps", 3},
                                              {"batch_size", 8}, {"log_every", 1}, {"eval_every", 3},
                                              {"model", {{"kind", "modular_mlp"}, {"embed_dim", 7}, {"width", 8}}}}),
           modular);
    req.target = modular;
    req.options.eps = {0, 1};
    e = inputError([&] { run::robustnessOfCheckpoint(req); });
    QVERIFY2(e.find("not an image classifier") != std::string::npos, e.c_str());
  }

  void cancelStopsTheJob() {
    std::atomic<bool> cancel{false};
    run::CheckpointRobustnessRequest req;
    req.target = run_;
    req.examples = 500;
    req.options.batchSize = 50;
    int calls = 0;
    QVERIFY_THROWS_EXCEPTION(Cancelled, run::robustnessOfCheckpoint(req, [&](int64_t, int64_t) {
      if (++calls == 2) cancel.store(true);
    }, &cancel));
    QCOMPARE(calls, 2);
  }
};

QTEST_GUILESS_MAIN(TestRunJobs)
#include "tst_run_jobs.moc"
