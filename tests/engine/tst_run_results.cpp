// Run results and their one JSON codec: every field of a metrics row and a summary survives
// toJson -> text -> fromJson (non-finite values as null, back as NaN), rows of older run
// directories (no "matrices") still read, and the status words parse both ways.
#include "run/results_json.h"

#include <QtTest/QtTest>

#include <set>

#include <cmath>
#include <limits>

using namespace lwb;
using namespace lwb::run;
using nlohmann::json;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

StepMetrics fullStep() {
  StepMetrics m;
  m.step = 40;
  m.lr = 0.02;
  m.trainLoss = 1.25;
  m.trainAcc = 0.5;
  m.stepsPerSecond = 12.5;
  m.etaSeconds = 8;
  m.constraintSecondsPerStep = 0.001;
  m.stepSecondsPerStep = 0.08;
  m.alpha = 0.01;
  m.norms = {{"layers.1", "hidden", 1.5, 3.0}, {"head", "head", 2.5, 1.25}};  // parameter order, not sorted
  m.lipschitzBound = 3.75;
  m.boundTrace = {3.75, {{"layers.1", 1.5, 1.5, 1.5}, {"head", 2.5, 3.75, 3.75}}};
  m.boundTrace.singleHeadBound = 2.5;  // a transformer's App. D value: lipschitz_bound_app_d
  m.valLoss = 2.0;
  m.valAcc = 0.25;
  m.valLossPaper = 1.75;
  m.valLossFull = 2.125;
  m.activations = models::ActivationStats{{"block0.attn", "block0.mlp"}, {4.0, 6.0}, {1.0, 0.5}, {0.25, 0.125}};
  m.stiefel = {{"layers.0.attn.qkv", 0.25, 1.0 - 3e-7, 1.0 + 4e-7, 25, false, 7, 0},
               {"layers.0.mlp.fc2", 0.125, 0.5, 1.0, 40, true, 3, 1}};  // retraction steps, SVD, counts (issue 26)
  return m;
}

// Through text, as metrics.jsonl carries it.
std::optional<StepMetrics> throughText(const StepMetrics& m) { return stepMetricsFromJson(json::parse(toJson(m).dump())); }

}  // namespace

class TestRunResults : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void stepRoundTripsEveryField() {
    const StepMetrics m = fullStep();
    const auto back = throughText(m);
    QVERIFY(back.has_value());
    QVERIFY(*back == m);
  }

  void stepKeepsTheKeysScriptsReadAndAddsMatrices() {
    const json j = toJson(fullStep());
    for (const char* k : {"step", "lr", "train_loss", "train_acc", "steps_per_s", "eta_s", "constraint_s_per_step",
                          "step_s_per_step", "alpha", "rms_norms", "lipschitz_bound", "lipschitz_bound_app_d", "bound_trace", "val_loss", "val_acc",
                          "activations", "max_act_entry", "max_act_rms", "matrices"})
      QVERIFY2(j.contains(k), k);
    QCOMPARE(j["rms_norms"], (json{{"head", 2.5}, {"layers.1", 1.5}}));
    QCOMPARE(j["matrices"][0], (json{{"name", "layers.1"}, {"role", "hidden"}, {"rms_norm", 1.5}, {"sigma1", 3.0}}));
    QCOMPARE(j["max_act_entry"].get<double>(), 6.0);
    QCOMPARE(j["max_act_rms"].get<double>(), 1.0);
  }

  void stepOptionalPartsStayAbsent() {
    StepMetrics m;
    m.step = 3;
    const json j = toJson(m);
    for (const char* k : {"alpha", "matrices", "lipschitz_bound", "bound_trace", "val_loss", "val_acc", "activations"})
      QVERIFY2(!j.contains(k), k);
    const auto back = throughText(m);
    QVERIFY(back && *back == m);
  }

  void nonFiniteIsNullOnDiskAndNaNInMemory() {
    StepMetrics m = fullStep();
    m.trainLoss = kInf;
    m.lr = std::nan("");
    m.valLoss = -kInf;
    m.lipschitzBound = kInf;
    m.boundTrace.bound = kInf;
    m.norms[0].rmsNorm = std::nan("");
    m.norms[1].sigma1 = kInf;
    m.activations->maxAbsEntry[1] = kInf;
    m.boundTrace.layers[0].lipschitzAfter = std::nan("");
    const json j = toJson(m);
    QVERIFY(j["train_loss"].is_null());
    QVERIFY(j["lr"].is_null());
    QVERIFY(j["val_loss"].is_null());
    QVERIFY(j["lipschitz_bound"].is_null());
    QVERIFY(j["rms_norms"]["layers.1"].is_null());
    QVERIFY(j["matrices"][1]["sigma1"].is_null());
    QVERIFY(j["activations"][1]["max_entry"].is_null());
    QVERIFY(j["max_act_entry"].is_null());
    const auto back = stepMetricsFromJson(json::parse(j.dump()));
    QVERIFY(back.has_value());
    QVERIFY(std::isnan(back->trainLoss));
    QVERIFY(std::isnan(back->lr));
    QVERIFY(back->valLoss && std::isnan(*back->valLoss));  // present, not finite
    QVERIFY(back->lipschitzBound && std::isnan(*back->lipschitzBound));
    QVERIFY(std::isnan(back->boundTrace.bound));
    QVERIFY(std::isnan(back->norms[0].rmsNorm));
    QVERIFY(std::isnan(back->norms[1].sigma1));
    QVERIFY(std::isnan(back->activations->maxAbsEntry[1]));
    QVERIFY(std::isnan(back->boundTrace.layers[0].lipschitzAfter));
    QCOMPARE(back->valAcc, m.valAcc);
  }

  void olderRowsWithoutMatricesStillRead() {
    // A row as run directories wrote them before "matrices": norms by name only, σ₁ unknown.
    const json row = json::parse(R"({"step": 40, "lr": 0.1, "train_loss": null, "train_acc": 0.5, "steps_per_s": 12.5,
      "eta_s": 8, "alpha": 0.01, "rms_norms": {"w1": 1.5, "w2": 2.5}, "lipschitz_bound": 3.75,
      "bound_trace": [{"name": "w1", "block": 1.5, "lipschitz": 1.5, "activation": 1.5}],
      "val_loss": 2.0, "activations": [{"name": "b0", "max_entry": 4, "max_rms": 1}]})");
    const auto m = stepMetricsFromJson(row);
    QVERIFY(m.has_value());
    QCOMPARE(m->step, int64_t{40});
    QVERIFY(std::isnan(m->trainLoss));
    QCOMPARE(m->norms.size(), size_t{2});
    QCOMPARE(m->norms[1], (MatrixNorm{"w2", "", 2.5, 0}));
    QCOMPARE(*m->lipschitzBound, 3.75);
    QCOMPARE(m->boundTrace.bound, 3.75);
    QCOMPARE(m->boundTrace.layers.size(), size_t{1});
    QCOMPARE(*m->valLoss, 2.0);
    QVERIFY(!m->valAcc);
    QCOMPARE(m->activations->maxAbsEntry.front(), 4.0);
    // Absent keys: NaN for what is plotted, the defaults otherwise.
    const auto bare = stepMetricsFromJson(json{{"step", 1}});
    QVERIFY(std::isnan(bare->lr) && std::isnan(bare->trainLoss) && std::isnan(bare->trainAcc));
    QCOMPARE(bare->stepsPerSecond, 0.0);
    QCOMPARE(bare->alpha, -1.0);
    QVERIFY(!bare->activations && !bare->lipschitzBound);
  }

  void notMetricsRows_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::newRow("no step") << QByteArray(R"({"loss": 1})");
    QTest::newRow("array") << QByteArray("[1, 2]");
    QTest::newRow("string step") << QByteArray(R"({"step": "4"})");
    QTest::newRow("fractional step") << QByteArray(R"({"step": 4.5})");
    QTest::newRow("huge step") << QByteArray(R"({"step": 18446744073709551615})");
  }

  void notMetricsRows() {
    QFETCH(QByteArray, text);
    QVERIFY(!stepMetricsFromJson(json::parse(text.toStdString())));
  }

  void hostileShapesDoNotThrow() {
    // Wrong types inside a row read as NaN / empty, never as an exception.
    const json row = json::parse(R"({"step": 2, "lr": "fast", "rms_norms": [1], "matrices": [5, {"name": 3}],
      "bound_trace": {"x": 1}, "lipschitz_bound": "big", "activations": [null, {"name": "a", "max_entry": "x"}]})");
    const auto m = stepMetricsFromJson(row);
    QVERIFY(m.has_value());
    QVERIFY(std::isnan(m->lr));
    QCOMPARE(m->norms.size(), size_t{1});
    QCOMPARE(m->norms[0].name, std::string());
    QVERIFY(m->lipschitzBound && std::isnan(*m->lipschitzBound));
    QVERIFY(m->boundTrace.layers.empty());
    QCOMPARE(m->activations->names, std::vector<std::string>{"a"});
    QVERIFY(std::isnan(m->activations->maxAbsEntry[0]));
  }

  void summaryRoundTripsEveryField() {
    RunSummary s;
    s.status = RunStatus::Diverged;
    s.message = "non-finite training loss at step 6";
    s.steps = 6;
    s.valLoss = 1.5;
    s.valAcc = 0.75;
    s.lipschitzBound = kInf;  // → null → NaN
    s.maxActEntry = 4;
    s.maxActRms = 2;
    s.seconds = 1.5;
    s.stepsPerSecond = 4;
    s.constraintFraction = 0.25;
    s.trainLossLast50 = 0.469;
    const json j = toJson(s);
    QCOMPARE(j["status"].get<std::string>(), std::string("diverged"));
    QVERIFY(j["lipschitz_bound"].is_null());
    const RunSummary back = runSummaryFromJson(json::parse(j.dump()));
    QCOMPARE(back.status, s.status);
    QCOMPARE(back.message, s.message);
    QCOMPARE(back.steps, s.steps);
    QCOMPARE(back.valLoss, s.valLoss);
    QCOMPARE(back.valAcc, s.valAcc);
    QVERIFY(std::isnan(back.lipschitzBound));
    QCOMPARE(back.maxActEntry, s.maxActEntry);
    QCOMPARE(back.maxActRms, s.maxActRms);
    QCOMPARE(back.seconds, s.seconds);
    QCOMPARE(back.stepsPerSecond, s.stepsPerSecond);
    QCOMPARE(back.constraintFraction, s.constraintFraction);
    QCOMPARE(back.trainLossLast50, s.trainLossLast50);
  }

  // Task chars (issue 25): the paper window, the full split and the n-gram levels by key;
  // other tasks' summaries keep their keys; a hand-edited level that is not a number is
  // dropped, not drawn at 0.
  void summaryCharacterTaskMembers() {
    RunSummary s;
    s.valLossPaper = 1.375;
    s.valLossFull = kNotMeasured;  // stopped before its last step
    s.valPaperBatches = 12;
    s.referenceLevels = {{"unigram", 3.25, "unigram"}, {"5-gram", 1.5, "5gram"}};
    s.referenceLevelsPaper = {{"unigram", 3.125, "unigram"}};
    const json j = toJson(s);
    QCOMPARE(j["val_loss_paper"].get<double>(), 1.375);
    QVERIFY(j["val_loss_full"].is_null());
    QCOMPARE(j["val_loss_paper_batches"].get<int>(), 12);
    QCOMPARE(j["reference_levels"].dump(), std::string(R"({"5gram":1.5,"unigram":3.25})"));
    const RunSummary back = runSummaryFromJson(json::parse(j.dump()));
    QCOMPARE(back.valLossPaper.value(), 1.375);
    QVERIFY(back.valLossFull.has_value() && std::isnan(*back.valLossFull));
    QCOMPARE(back.valPaperBatches, int64_t{12});
    QCOMPARE(back.referenceLevels.size(), size_t{2});
    QCOMPARE(back.referenceLevels[0].key, std::string("5gram"));
    QCOMPARE(back.referenceLevels[0].label, std::string("5-gram"));  // the plot's label for the key
    QCOMPARE(back.referenceLevels[0].value, 1.5);
    QCOMPARE(back.referenceLevelsPaper.size(), size_t{1});

    const json other = toJson(RunSummary{});
    for (const char* k : {"val_loss_paper", "val_loss_full", "reference_levels", "reference_levels_paper"})
      QVERIFY2(!other.contains(k), k);
    const RunSummary hostile = runSummaryFromJson(
        json{{"status", "finished"}, {"reference_levels", {{"bigram", nullptr}, {"trigram", "2"}, {"4gram", 1.75}}}});
    QCOMPARE(hostile.referenceLevels.size(), size_t{1});
    QCOMPARE(hostile.referenceLevels[0].label, std::string("4gram"));  // an unknown key labels itself
    QVERIFY(runSummaryFromJson(json{{"status", "finished"}, {"reference_levels", 3}}).referenceLevels.empty());
  }

  void summaryDefaultsSayNotMeasured() {
    // A run that never evaluated writes null, not 0, for what it never measured.
    const json j = toJson(RunSummary{});
    for (const char* k : {"val_loss", "val_acc", "lipschitz_bound", "max_act_entry", "max_act_rms"})
      QVERIFY2(j[k].is_null(), k);
    const RunSummary partial = runSummaryFromJson(json{{"status", "finished"}, {"steps", 30}});
    QCOMPARE(partial.status, RunStatus::Finished);
    QVERIFY(std::isnan(partial.valLoss) && std::isnan(partial.seconds));
    QCOMPARE(runSummaryFromJson(json{{"status", "exploded"}}).status, RunStatus::Failed);
    QCOMPARE(runSummaryFromJson(json::array()).status, RunStatus::Failed);
  }

  void statusWords() {
    for (const RunStatus s : {RunStatus::Running, RunStatus::Finished, RunStatus::Diverged, RunStatus::Stopped, RunStatus::Failed}) {
      QCOMPARE(parseRunStatus(toString(s)), std::optional<RunStatus>(s));
      QCOMPARE(isTerminal(s), s != RunStatus::Running);
    }
    // The on-disk words, spelled here independently of the table (ARCHITECTURE.md: a run's
    // status file and summary.json; the index's status column adds pending): each parses to
    // its status and back, the run's own words from a status file too, pending only where
    // the index and sweep events use it.
    const std::pair<const char*, RunStatus> onDisk[] = {{"pending", RunStatus::Pending},   {"running", RunStatus::Running},
                                                        {"finished", RunStatus::Finished}, {"diverged", RunStatus::Diverged},
                                                        {"stopped", RunStatus::Stopped},   {"failed", RunStatus::Failed}};
    for (const auto& [word, s] : onDisk) {
      QCOMPARE(parseStatusWord(word), std::optional<RunStatus>(s));
      QCOMPARE(std::string(toString(s)), std::string(word));
      QCOMPARE(parseRunStatus(word).has_value(), s != RunStatus::Pending);
    }
    QVERIFY(!parseRunStatus("pending"));  // never in a run directory
    // The table itself: one row per status, in enum order, words unique, each round-trips.
    const auto table = runStatusTable();
    QCOMPARE(table.size(), std::size(onDisk));
    std::set<std::string> words;
    for (size_t i = 0; i < table.size(); ++i) {
      QCOMPARE(static_cast<size_t>(table[i].status), i);
      QCOMPARE(&info(table[i].status), &table[i]);
      QCOMPARE(parseStatusWord(table[i].word), std::optional<RunStatus>(table[i].status));
      QVERIFY2(words.insert(table[i].word).second, table[i].word);
      // The traits the sweep and the app act on, against the rule each states.
      const RunStatus s = table[i].status;
      QCOMPARE(table[i].runWritten, s != RunStatus::Pending);
      QCOMPARE(table[i].ended, s != RunStatus::Pending && s != RunStatus::Running);
      QCOMPARE(table[i].hasResult, s == RunStatus::Finished || s == RunStatus::Diverged);
      QCOMPARE(table[i].problem, s == RunStatus::Diverged || s == RunStatus::Failed);
    }
    QCOMPARE(parseRunStatus(" stopped\r\n"), std::optional<RunStatus>(RunStatus::Stopped));
    QVERIFY(!parseRunStatus("gibberish"));
    QVERIFY(!parseRunStatus(""));
    QVERIFY(!parseRunStatus("Finished"));
  }
};

QTEST_APPLESS_MAIN(TestRunResults)
#include "tst_run_results.moc"
