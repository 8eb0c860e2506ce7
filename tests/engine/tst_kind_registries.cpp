// The task, model, optimizer and schedule registries (issue 27 §1) against what each kind
// does, as tst_constraint_methods does for the methods: every enum value has a row and its id
// round-trips; a task's data trait is what opening its dataset accepts and refuses, its input
// trait is the batch its dataset yields, its fixed sizes are the dataset's; a model row's task
// input is the one its factory accepts, its size function counts the model's weights, its
// bound trait is whether a bound comes out, its Modula trait whether the mass rule runs; an
// optimizer row's factory builds that optimizer, its state per weight bounds the state it
// saves, its Modula trait is what the config accepts; schedule ids round-trip.
#include "data/masked_chars.h"
#include "data/task_kinds.h"
#include "io/input_error.h"
#include "models/factory.h"
#include "models/model_kinds.h"
#include "optim/optimizer.h"
#include "optim/optimizer_kinds.h"
#include "optim/schedule.h"
#include "run/run_config.h"
#include "run/saved_model.h"
#include "run/trainer.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/ops/randn.h>

#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <cmath>
#include <fstream>
#include <set>

using namespace lwb;
using nlohmann::json;
using data::TaskData;
using data::TaskInput;

namespace {

// A CIFAR-10 binary folder of `records` examples (label byte + 3072 pixel bytes), as the
// format's test_batch.bin; CIFAR-10 is not bundled.
void writeCifar(const QString& folder, int records) {
  std::ofstream out((folder + "/test_batch.bin").toStdString(), std::ios::binary);
  for (int r = 0; r < records; ++r) {
    out.put(static_cast<char>(r % 10));
    for (int i = 0; i < 3072; ++i) out.put(static_cast<char>((r * 31 + i) % 256));
  }
}

}  // namespace

class TstKindRegistries : public QObject {
  Q_OBJECT

  QTemporaryDir tmp_;
  QString cifar_, text_;

  // A small config of this task with a data_path of the kind its row names.
  json taskConfig(const data::TaskRow& t) const {
    json j{{"task", std::string(t.info.id)}, {"mnist_train_count", 100}, {"modulus", 7}, {"model", {{"seq_len", 16}}},
           {"icl", {{"pairs", 8}, {"dim", 2}}}};
    if (t.kind == data::TaskKind::Mnist) j["data_path"] = "@data/mnist";
    if (t.kind == data::TaskKind::Cifar10) j["data_path"] = cifar_.toStdString();
    if (t.data == TaskData::TextFile) j["data_path"] = text_.toStdString();
    return j;
  }

  // A small model of this kind and a config of a task whose input it takes.
  json modelConfig(const models::ModelRow& m) const {
    for (const auto& t : data::taskRows())
      if (t.input == m.input) {
        json j = taskConfig(t);
        j["model"] = {{"kind", std::string(m.info.id)}, {"widths", {8}}, {"d_model", 8}, {"heads", 2}, {"blocks", 1},
                      {"seq_len", 16}, {"layers", 1}, {"embed_dim", 4}, {"width", 8}, {"mlp_ratio", 2}};
        return j;
      }
    return {};
  }

 private Q_SLOTS:
  void initTestCase() {
    QVERIFY(tmp_.isValid());
    cifar_ = tmp_.filePath("cifar");
    QVERIFY(QDir().mkpath(cifar_));
    writeCifar(cifar_, 40);
    text_ = tmp_.filePath("text.txt");
    std::ofstream(text_.toStdString()) << std::string(2000, 'a') + "the quick brown fox jumps over the lazy dog\n";
  }

  void everyEnumValueHasOneRowAndItsIdRoundTrips() {
    std::set<std::string_view> ids;
    for (int i = 0; i <= static_cast<int>(data::TaskKind::IclLeastSquares); ++i) {
      const auto k = static_cast<data::TaskKind>(i);
      QVERIFY(data::parseTaskKind(data::toString(k)) == k);
      QVERIFY(ids.insert(data::toString(k)).second);
    }
    QCOMPARE(data::taskRows().size(), ids.size());
    ids.clear();
    for (int i = 0; i <= static_cast<int>(models::ModelKind::AttLip); ++i) {
      const auto k = static_cast<models::ModelKind>(i);
      QVERIFY(models::parseModelKind(models::toString(k)) == k);
      QVERIFY(ids.insert(models::toString(k)).second);
    }
    QCOMPARE(models::modelRows().size(), ids.size());
    ids.clear();
    for (int i = 0; i <= static_cast<int>(optim::OptimizerKind::ManifoldMuon); ++i) {
      const auto k = static_cast<optim::OptimizerKind>(i);
      QVERIFY(optim::parseOptimizerKind(optim::toString(k)) == k);
      QVERIFY(ids.insert(optim::toString(k)).second);
    }
    QCOMPARE(optim::optimizerRows().size(), ids.size());
    for (int i = 0; i <= static_cast<int>(optim::ScheduleKind::StableDecay); ++i) {
      const auto k = static_cast<optim::ScheduleKind>(i);
      QVERIFY(optim::parseScheduleKind(optim::toString(k)) == k);
    }
    QVERIFY(!data::parseTaskKind("chars ") && !models::parseModelKind("MLP") && !optim::parseOptimizerKind("adam"));
    // The config keeps the enum and writes the id.
    const auto c = run::parseRunConfig(json{{"task", "chars_masked"}, {"model", {{"kind", "attlip"}}}, {"optimizer", {{"schedule", "cosine"}}}});
    QVERIFY(c.task == data::TaskKind::CharsMasked && c.model.kind == models::ModelKind::AttLip &&
            c.optimizer.schedule == optim::ScheduleKind::Cosine);
    QCOMPARE(run::toJson(c)["model"]["kind"].get<std::string>(), std::string("attlip"));
  }

  void taskDataTraitIsWhatOpeningAccepts() {
    for (const auto& t : data::taskRows()) {
      const QString id = QString::fromUtf8(t.info.id.data(), static_cast<qsizetype>(t.info.id.size()));
      json j = taskConfig(t);
      // The named data opens.
      QVERIFY2(run::makeDataset(run::parseRunConfig(j)) != nullptr, qPrintable(id));
      if (t.data == TaskData::Generated) continue;
      // Without data_path: refused, naming the key.
      j.erase("data_path");
      try {
        run::makeDataset(run::parseRunConfig(j));
        QFAIL(qPrintable(id + ": opened without data_path"));
      } catch (const InputError& e) {
        QVERIFY2(std::string(e.what()).find("data_path") != std::string::npos, e.what());
      }
      // The other kind of path: a folder for a text task, a text file for a folder task.
      j["data_path"] = t.data == TaskData::TextFile ? tmp_.path().toStdString() : text_.toStdString();
      QVERIFY_THROWS_EXCEPTION(InputError, run::makeDataset(run::parseRunConfig(j)));
    }
  }

  void taskInputTraitIsTheBatchItsDatasetYields() {
    for (const auto& t : data::taskRows()) {
      const QString id = QString::fromUtf8(t.info.id.data(), static_cast<qsizetype>(t.info.id.size()));
      const auto ds = run::makeDataset(run::parseRunConfig(taskConfig(t)));
      auto gen = at::make_generator<at::CPUGeneratorImpl>(1);
      const auto b = ds->sample(data::Split::Train, 4, gen);
      if (t.features > 0) QCOMPARE(ds->inputDim(), t.features);
      if (t.classes > 0) QCOMPARE(ds->numClasses(), t.classes);
      QCOMPARE(data::generatesText(t.info.id), t.input == TaskInput::NextToken);
      switch (t.input) {
        case TaskInput::Features:
          QVERIFY2(b.inputs.dim() == 2 && b.inputs.is_floating_point() && b.inputs.size(1) == ds->inputDim(), qPrintable(id));
          break;
        case TaskInput::OperandPair:
          QVERIFY2(b.inputs.dim() == 2 && b.inputs.size(1) == 2 && !b.inputs.is_floating_point(), qPrintable(id));
          QCOMPARE(ds->numClasses(), int64_t{7});
          break;
        case TaskInput::NextToken:  // targets are the inputs shifted by one
          QVERIFY2(b.inputs.dim() == 2 && !b.inputs.is_floating_point(), qPrintable(id));
          QVERIFY(b.targets.slice(1, 0, -1).equal(b.inputs.slice(1, 1)));
          break;
        case TaskInput::MaskedToken:  // the loss reads the selected positions only
          QVERIFY2(b.inputs.dim() == 2 && !b.inputs.is_floating_point(), qPrintable(id));
          QVERIFY((b.targets == data::kIgnoreTarget).any().item<bool>());
          break;
        case TaskInput::IclSequence:
          QVERIFY2(b.inputs.dim() == 3 && b.positions.defined(), qPrintable(id));
          break;
      }
      if (t.imageClassifier)
        QVERIFY2(b.inputs.min().item<double>() >= 0 && b.inputs.max().item<double>() <= 1, qPrintable(id));
    }
  }

  void modelRowsMatchWhatTheModelsDo() {
    for (const auto& m : models::modelRows()) {
      const QString id = QString::fromUtf8(m.info.id.data(), static_cast<qsizetype>(m.info.id.size()));
      const json j = modelConfig(m);
      QVERIFY2(!j.is_null(), qPrintable(id + ": no task has its input"));
      const auto cfg = run::parseRunConfig(j);
      const auto ds = run::makeDataset(cfg);
      const models::TaskShape shape{ds->inputDim(), ds->numClasses()};
      auto gen = at::make_generator<at::CPUGeneratorImpl>(0);
      auto model = models::makeModel(cfg.model, shape, run::modelContext(cfg), gen, at::kCPU);
      QVERIFY(model->kind() == m.kind);
      // Its size function counts the matrices and at most every parameter.
      double matrices = 0, all = 0;
      for (const auto& p : model->parameters()) {
        all += static_cast<double>(p.tensor.numel());
        if (p.isMatrix()) matrices += static_cast<double>(p.tensor.numel());
      }
      models::WeightShapes w;
      m.weights(cfg.model, {static_cast<double>(shape.inputDim), static_cast<double>(shape.numClasses), 4, 16}, w);
      QVERIFY2(w.parameters >= matrices && w.parameters <= all, qPrintable(id + QStringLiteral(": %1 not in [%2, %3]").arg(w.parameters).arg(matrices).arg(all)));
      QVERIFY(m.activations(cfg.model, {static_cast<double>(shape.inputDim), static_cast<double>(shape.numClasses), 4, 16}) > 0);
      // A bound comes out exactly when the row says the model has one.
      QCOMPARE(run::boundOf(*model).trace.has_value(), m.bound != models::ModelBound::None);
      // Modula's mass rule runs exactly for the rows that have one.
      auto o = cfg.optimizer;
      o.lrUnits = optim::LrUnits::Modula;
      bool ran = true;
      try {
        optim::makeSlots(model->parameters(), o, cfg.model);
      } catch (const InputError&) {
        ran = false;
      }
      QCOMPARE(ran, m.modula != models::ModulaMass::None);
      // A task of another input is refused, naming the key and the tasks that fit.
      for (const auto& t : data::taskRows()) {
        if (t.input == m.input) continue;
        auto other = run::modelContext(cfg);
        other.task = t.kind;
        try {
          models::makeModel(cfg.model, shape, other, gen, at::kCPU);
          QFAIL(qPrintable(id + ": built for " + QString::fromUtf8(t.info.id.data())));
        } catch (const InputError& e) {
          const std::string what = e.what();
          QVERIFY2(what.find("model.kind") != std::string::npos && what.find(t.info.id) != std::string::npos, e.what());
        }
      }
    }
  }

  void optimizerRowsMatchWhatTheOptimizersDo() {
    for (const auto& row : optim::optimizerRows()) {
      const QString id = QString::fromUtf8(row.info.id.data(), static_cast<qsizetype>(row.info.id.size()));
      json j{{"task", "mnist"}, {"data_path", "@data/mnist"}, {"model", {{"kind", "mlp"}, {"widths", {16}}}},
             {"optimizer", {{"kind", std::string(row.info.id)}}}};
      const auto cfg = run::parseRunConfig(j);
      auto gen = at::make_generator<at::CPUGeneratorImpl>(0);
      auto model = models::makeModel(cfg.model, {784, 10}, run::modelContext(cfg), gen, at::kCPU);
      auto opt = optim::makeOptimizer(cfg.optimizer, optim::makeSlots(model->parameters(), cfg.optimizer, cfg.model));
      QVERIFY(opt->kind() == row.kind);
      double weights = 0;
      for (auto& p : model->parameters()) {
        p.tensor.mutable_grad() = at::randn(p.tensor.sizes(), gen);
        weights += static_cast<double>(p.tensor.numel());
      }
      opt->step(0.01);
      opt->step(0.01);
      optim::TensorMap state;
      opt->saveState(state);
      double kept = 0;
      for (const auto& [key, t] : state)
        if (t.numel() > 1) kept += static_cast<double>(t.numel());  // scalars: step counters
      // The memory estimate's state per weight is an upper bound on what the optimizer keeps,
      // and exact where the row does not say it is a bound (Manifold Muon's AdamW moments are
      // counted for every weight, but only embeddings and head have them).
      const bool exact = row.kind != optim::OptimizerKind::ManifoldMuon;
      QVERIFY2(kept <= row.statePerWeight * weights && (!exact || kept == row.statePerWeight * weights),
               qPrintable(id + QStringLiteral(": keeps %1 for %2 weights, row says %3 each").arg(kept).arg(weights).arg(row.statePerWeight)));
      // Modula's units: accepted exactly for the rows that define them.
      j["optimizer"]["lr_units"] = "modula";
      bool accepted = true;
      try {
        run::parseRunConfig(j);
      } catch (const InputError& e) {
        accepted = false;
        QVERIFY2(std::string(e.what()).find("optimizer.lr_units") != std::string::npos, e.what());
      }
      QCOMPARE(accepted, row.modulaUnits);
    }
  }

  void scheduleRowsAreTheirShapes() {
    for (const auto& r : optim::scheduleRows()) {
      const optim::LrSchedule s{r.kind, 100, 0, 10};
      QCOMPARE(s.factor(0), 1.0);
      const double last = s.factor(99), mid = s.factor(50);
      switch (r.kind) {
        case optim::ScheduleKind::Constant: QVERIFY(last == 1.0 && mid == 1.0); break;
        case optim::ScheduleKind::Linear: QVERIFY(std::abs(mid - 0.5) < 1e-12 && last < 0.02); break;
        case optim::ScheduleKind::Cosine: QVERIFY(std::abs(mid - 0.5) < 1e-12 && last < 0.001); break;
        case optim::ScheduleKind::StableDecay: QVERIFY(mid == 1.0 && last < 0.1); break;
      }
    }
  }
};

QTEST_GUILESS_MAIN(TstKindRegistries)
#include "tst_kind_registries.moc"
