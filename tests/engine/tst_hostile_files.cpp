// Hostile files and runaway resources (issue 33): every defect of the hostile-file round has a
// case here that reproduces it with a small generated file. Cases that would allocate without
// end on a regression run under an address-space limit (setrlimit RLIMIT_AS: in a CLI child,
// or lowered and restored around the in-process call), so a regression fails the test instead
// of exhausting the shared machine.
#include "io/file_io.h"
#include "io/json_read.h"
#include "io/npy.h"
#include "io/safetensors.h"
#include "io/tensor_convert.h"
#include "io/tensor_file.h"
#include "models/factory.h"
#include "run/checkpoint.h"
#include "run/memory_estimate.h"
#include "run/results_json.h"
#include "run/run_config.h"
#include "run/run_directory.h"
#include "run/run_directory_reader.h"
#include "support/sqlite_exec.h"
#include "support/test_files.h"
#include "sweep/run_index.h"
#include "sweep/sweep_directory.h"
#include "sweep/sweep_spec.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/ops/eye.h>
#include <ATen/ops/ones.h>
#include <ATen/ops/zeros.h>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <sqlite3.h>
#include <csignal>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>

using namespace lwb;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Address space a lipschitz-cli child may map: LibTorch and its thread pools need ~1.5 GiB of
// mappings; 4 GiB lets every legitimate command here run and stops a runaway allocation of
// the hostile cases (terabytes) long before the machine is touched.
constexpr rlim_t kChildAddressSpace = rlim_t{4} << 30;

struct Cli {
  int code = -1;  // -2: killed by a signal (a crash), -1: timeout
  QString out, err;
};

// `fileSize` limits every file the child writes (RLIMIT_FSIZE, SIGXFSZ ignored so a write
// fails with EFBIG as it would with ENOSPC on a full disk).
Cli runCli(const QStringList& args, const QStringList& env = {}, rlim_t fileSize = RLIM_INFINITY) {
  QProcess p;
  auto e = QProcessEnvironment::systemEnvironment();
  for (const QString& kv : env) e.insert(kv.section('=', 0, 0), kv.section('=', 1));
  p.setProcessEnvironment(e);
  p.setChildProcessModifier([fileSize] {
    const rlimit rl{kChildAddressSpace, kChildAddressSpace};
    ::setrlimit(RLIMIT_AS, &rl);
    if (fileSize != RLIM_INFINITY) {
      const rlimit fs{fileSize, fileSize};
      ::setrlimit(RLIMIT_FSIZE, &fs);
      ::signal(SIGXFSZ, SIG_IGN);
    }
  });
  p.start(QStringLiteral(LWB_CLI_PATH), args);
  if (!p.waitForFinished(120000)) {
    p.kill();
    p.waitForFinished();
    return {};
  }
  return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2, QString::fromUtf8(p.readAllStandardOutput()),
          QString::fromUtf8(p.readAllStandardError())};
}

QString show(const Cli& r) { return QStringLiteral("exit %1: %2").arg(r.code).arg(r.err.left(400)); }

// Lowers this process's soft RLIMIT_AS to what is mapped now plus `headroom`, restores it on
// scope exit. For in-process cases that would allocate gigabytes on a regression.
class AddressSpaceLimit {
 public:
  explicit AddressSpaceLimit(rlim_t headroom) {
    ::getrlimit(RLIMIT_AS, &saved_);
    long pages = 0;
    std::ifstream("/proc/self/statm") >> pages;
    rlimit rl = saved_;
    rl.rlim_cur = static_cast<rlim_t>(pages) * static_cast<rlim_t>(::sysconf(_SC_PAGESIZE)) + headroom;
    if (saved_.rlim_max != RLIM_INFINITY) rl.rlim_cur = std::min(rl.rlim_cur, saved_.rlim_max);
    ::setrlimit(RLIMIT_AS, &rl);
  }
  ~AddressSpaceLimit() { ::setrlimit(RLIMIT_AS, &saved_); }

 private:
  rlimit saved_{};
};

std::string nested(size_t depth, const std::string& inner = "") {
  return std::string(depth, '[') + inner + std::string(depth, ']');
}

void writeText(const fs::path& file, const std::string& text) {
  fs::create_directories(file.parent_path());
  test::writeFile(QString::fromStdString(file.string()), text);
}

using test::sql;

// A small, valid modular-addition config (generated data: no files needed).
json smallConfig() {
  return {{"task", "modular_addition"}, {"modulus", 23}, {"steps", 4}, {"batch_size", 8}, {"threads", 1},
          {"eval_every", 2}, {"log_every", 1}, {"spectra_every", 2}, {"checkpoint_every", 2},
          {"model", {{"kind", "modular_mlp"}, {"embed_dim", 8}, {"width", 16}}}};
}

// A checkpoint holding an MLP of width 8 on MNIST's shape whose __metadata__ config text is
// `configText` (written as raw text: a deep value could not even be dumped by the test).
void writeMlpCheckpoint(const fs::path& file, const std::string& configText) {
  std::vector<io::RawTensor> raw{io::fromTensor("param.layers.0", at::zeros({8, 784})),
                                 io::fromTensor("param.head", at::zeros({10, 8}))};
  fs::create_directories(file.parent_path());
  io::writeSafetensors(file, raw, {{"format", run::kCheckpointFormat}, {"step", "2"}, {"config", configText}});
}

double parameterCount(models::Model& m) {
  double n = 0;
  for (const auto& p : m.parameters()) n += static_cast<double>(p.tensor.numel());
  return n;
}

}  // namespace

class TestHostileFiles : public QObject {
  Q_OBJECT
  QTemporaryDir tmp_;
  fs::path root() const { return tmp_.path().toStdString(); }

 private Q_SLOTS:
  // 1. Depth is limited while parsing, by the one shared reader.
  void sharedReaderLimitsDepthAtParseTime() {
    QVERIFY(jsonio::parse(nested(jsonio::kMaxDepth), "ok.json").is_array());
    const QString deeper = test::inputErrorOf([] { jsonio::parse(nested(jsonio::kMaxDepth + 1), "deep.json"); });
    QVERIFY2(deeper.startsWith("deep.json: ") && deeper.contains("deeper than 64 levels"), qPrintable(deeper));
    // 200 000 levels (the crash of the report) is refused, not recursed into.
    const QString crash = test::inputErrorOf([] { jsonio::parse("{\"name\":" + nested(200000) + "}", "d.json"); });
    QVERIFY2(crash.contains("d.json: JSON nests deeper"), qPrintable(crash));
    std::string why;
    QVERIFY(!jsonio::tryParse(nested(100000), &why));
    QVERIFY(why.find("deeper") != std::string::npos);
    // 10. 1e999 overflows a double: one line naming the file, never a raw json.exception.
    const QString big = test::inputErrorOf([] { jsonio::parse(R"({"steps": 1e999})", "big.json"); });
    QVERIFY2(big.startsWith("big.json: not valid JSON") && !big.contains("[json.exception"), qPrintable(big));
    // A NUL byte ended nlohmann's input: what followed it was never read.
    const QString nul = test::inputErrorOf([] { jsonio::parse(std::string("{\"steps\": 2}\0garbage", 20), "nul.json"); });
    QVERIFY2(nul.contains("nul.json: not valid JSON at line 1, column 13 (a NUL byte"), qPrintable(nul));
    const QString syntax = test::inputErrorOf([] { jsonio::parse("{\n \"a\": ]", "s.json"); });
    QVERIFY2(syntax.contains("s.json: not valid JSON at line 2, column 7") && !syntax.contains("[json"), qPrintable(syntax));
    // A key given twice in one object: nlohmann kept the last without a word (a config's second
    // "steps" won). The same key in two objects is fine.
    const QString twice = test::inputErrorOf([] { jsonio::parse(R"({"steps": 2, "model": {"steps": 1}, "steps": 3})", "dup.json"); });
    QVERIFY2(twice.contains("dup.json: key 'steps' appears twice in one object"), qPrintable(twice));
    QCOMPARE(jsonio::parse(R"({"a": {"k": 1}, "b": {"k": 2}, "c": [{"k": 3}, {"k": 4}]})", "ok.json")["c"][1]["k"], 4);
    // A syntax error before a deep or repeated part is reported as the syntax error, with its place.
    const QString first = test::inputErrorOf([] { jsonio::parse("{\"a\": x, \"a\": 1}", "f.json"); });
    QVERIFY2(first.contains("f.json: not valid JSON at line 1, column"), qPrintable(first));
  }

  void deepJsonIsRefusedByEveryCommand_data() {
    QTest::addColumn<QString>("kind");
    QTest::newRow("sweep spec name") << "spec-name";
    QTest::newRow("sweep grid value") << "spec-grid";
    QTest::newRow("train --config") << "config";
    QTest::newRow("bound (checkpoint metadata)") << "bound";
    QTest::newRow("robustness (checkpoint metadata)") << "robustness";
    QTest::newRow("train --resume (checkpoint metadata)") << "resume";
  }
  void deepJsonIsRefusedByEveryCommand() {
    QFETCH(QString, kind);
    const fs::path dir = root() / ("deep-" + kind.toStdString());
    fs::create_directories(dir);
    const std::string deep = nested(200000);
    QStringList args;
    std::string named;
    if (kind.startsWith("spec")) {
      named = (dir / "d.json").string();
      writeText(named, kind == "spec-name" ? R"({"base": "mnist_muon_softcap", "seeds": [0, 1], "name": )" + deep + "}"
                                           : R"({"base": "mnist_muon_softcap", "grid": {"optimizer.lr": )" + deep + "}}");
      args = {"sweep", "--spec", QString::fromStdString(named), "--out", QString::fromStdString((dir / "x").string()), "--dry-run"};
    } else if (kind == "config") {
      named = (dir / "c.json").string();
      writeText(named, R"({"steps": 2, "model": )" + deep + "}");
      args = {"train", "--config", QString::fromStdString(named), "--out", QString::fromStdString((dir / "run").string())};
    } else {
      named = (dir / "run" / "checkpoints" / "step_2.safetensors").string();
      writeMlpCheckpoint(named, R"({"task": "mnist", "model": )" + deep + "}");
      writeText(dir / "run" / "config.json", smallConfig().dump());
      const QString run = QString::fromStdString((dir / "run").string());
      if (kind == "bound") args = {"bound", run};
      if (kind == "robustness") args = {"robustness", run, "--eps", "0.1"};
      if (kind == "resume") args = {"train", "--resume", run};
    }
    const Cli r = runCli(args);
    QVERIFY2(r.code == 2, qPrintable(show(r)));
    QVERIFY2(r.err.contains(QString::fromStdString(named)) && r.err.contains("deeper than 64 levels"), qPrintable(r.err));
    QCOMPARE(r.err.trimmed().count('\n'), 0);  // one line
  }

  // index: one deep config.json among the runs is reported and skipped; the scan goes on.
  void deepConfigInOneRunDoesNotStopTheIndex() {
    const fs::path runs = root() / "index-runs";
    run::RunDirectory(( runs / "good").string()).writeConfig(smallConfig());
    writeText(runs / "bad" / "config.json", R"({"model": )" + nested(200000) + "}");
    writeText(runs / "bad" / "metrics.jsonl", "");
    const Cli r = runCli({"index", QString::fromStdString(runs.string()), "--db",
                          QString::fromStdString((root() / "index-deep.sqlite").string())});
    QVERIFY2(r.code == 0, qPrintable(show(r)));
    const json out = json::parse(r.out.toStdString());
    QCOMPARE(out["runs"].get<int>(), 1);
    QCOMPARE(out["problems"].size(), size_t{1});
    QVERIFY(out["problems"][0].get<std::string>().find("deeper than 64") != std::string::npos);
  }

  // 2. A checkpoint whose metadata claims a huge model is refused before anything is built.
  void checkpointClaimingAHugeModelIsRefusedBeforeBuilding_data() {
    QTest::addColumn<QString>("command");
    QTest::newRow("bound") << "bound";
    QTest::newRow("robustness") << "robustness";
    QTest::newRow("train --resume") << "resume";
  }
  void checkpointClaimingAHugeModelIsRefusedBeforeBuilding() {
    QFETCH(QString, command);
    const fs::path run = root() / ("huge-" + command.toStdString());
    json cfg = run::toJson(run::parseRunConfig({{"task", "mnist"}, {"steps", 10}}));
    cfg["model"]["widths"] = std::vector<int64_t>(256, 65536);  // in range: 65536 ≤ kMaxWidth, 256 layers
    writeMlpCheckpoint(run / "checkpoints" / "step_2.safetensors", cfg.dump());
    writeText(run / "config.json", cfg.dump());
    const QString dir = QString::fromStdString(run.string());
    const Cli r = runCli(command == "bound"        ? QStringList{"bound", dir}
                         : command == "robustness" ? QStringList{"robustness", dir, "--eps", "0.1"}
                                                   : QStringList{"train", "--resume", dir});
    QVERIFY2(r.code == 2, qPrintable(show(r)));
    QVERIFY2(r.err.contains("step_2.safetensors") && r.err.contains("the metadata does not belong to these weights"),
             qPrintable(r.err));
  }

  // 3. Memory is estimated before the model, optimizer state and batch are allocated.
  void estimateCountsEveryWeightOfEveryModel_data() {
    QTest::addColumn<QString>("config");
    QTest::addColumn<int>("inputDim");
    QTest::addColumn<int>("classes");
    QTest::newRow("mlp") << R"({"task": "mnist", "model": {"kind": "mlp", "widths": [32, 16]}})" << 784 << 10;
    QTest::newRow("modular_mlp") << R"({"task": "modular_addition", "model": {"kind": "modular_mlp", "embed_dim": 6, "width": 10}})" << 2 << 23;
    QTest::newRow("lipschitz_gpt") << R"({"task": "chars", "model": {"kind": "lipschitz_gpt", "d_model": 16, "blocks": 2, "heads": 2, "seq_len": 8}})" << 8 << 30;
    for (const char* scores : {"content_position", "position"})
      QTest::newRow(scores) << QString(R"({"task": "chars", "model": {"kind": "lipschitz_gpt", "d_model": 16, "blocks": 2, "heads": 2, "seq_len": 8, "attention_scores": "%1"}})").arg(scores) << 8 << 30;
    QTest::newRow("gpt maxmin") << R"({"task": "chars", "model": {"kind": "lipschitz_gpt", "d_model": 16, "blocks": 2, "heads": 2, "seq_len": 8, "mlp_activation": "maxmin"}})" << 8 << 30;
    QTest::newRow("gpt standard") << R"({"task": "chars", "model": {"kind": "lipschitz_gpt", "d_model": 16, "blocks": 2, "heads": 2, "seq_len": 8, "standard": true}})" << 8 << 30;
    QTest::newRow("icl") << R"({"task": "icl_least_squares", "model": {"kind": "icl_transformer", "d_model": 16, "layers": 2, "heads": 2}})" << 7 << 1;
    QTest::newRow("icl gains") << R"({"task": "icl_least_squares", "model": {"kind": "icl_transformer", "d_model": 16, "layers": 2, "heads": 2, "gain_cap": 2}})" << 7 << 1;
    for (const char* a : {"attlip", "l2", "standard", "none"})
      QTest::newRow(a) << QString(R"({"task": "chars_masked", "model": {"kind": "attlip", "d_model": 16, "heads": 2, "seq_len": 8, "attention": "%1"}})").arg(a) << 8 << 30;
  }
  void estimateCountsEveryWeightOfEveryModel() {
    QFETCH(QString, config);
    QFETCH(int, inputDim);
    QFETCH(int, classes);
    const run::RunConfig cfg = run::parseRunConfig(json::parse(config.toStdString()));
    auto gen = at::make_generator<at::CPUGeneratorImpl>(1);
    const auto model = models::makeModel(cfg.model, {inputDim, classes}, run::modelContext(cfg), gen, at::Device(at::kCPU));
    QCOMPARE(run::estimateParameters(cfg, inputDim, classes), parameterCount(*model));  // the model is the reference
  }

  // model.mlp_activation: the standard baseline (which keeps GeLU) and an unknown activation
  // are refused with the key named. (The hidden width d_model × mlp_ratio is even whenever
  // d_model splits into heads of even size, which the model requires.)
  void modelOptionRefusals_data() {
    QTest::addColumn<QString>("config");
    QTest::addColumn<QString>("message");
    QTest::newRow("standard") << R"({"task": "chars", "model": {"kind": "lipschitz_gpt", "d_model": 16, "heads": 2, "seq_len": 8, "standard": true, "mlp_activation": "maxmin"}})"
                              << "model.mlp_activation: maxmin is a Lipschitz-model option";
    QTest::newRow("unknown") << R"({"task": "chars", "model": {"kind": "lipschitz_gpt", "mlp_activation": "relu"}})"
                             << "model.mlp_activation: must be one of gelu, maxmin; got 'relu'";
    // The relaxed prox is 1-Lipschitz for α ∈ (0, 2] and, beyond 1, only for the converged prox.
    QTest::newRow("relaxation 2.5") << R"({"task": "chars_masked", "model": {"kind": "attlip", "prox_relaxation": 2.5}})"
                                    << "model.prox_relaxation: must be <= 2, got 2.5";
    QTest::newRow("relaxation 0") << R"({"task": "chars_masked", "model": {"kind": "attlip", "prox_relaxation": 0}})"
                                  << "model.prox_relaxation: must be > 0, got 0";
    QTest::newRow("relaxation with the fixed rule")
        << R"({"task": "chars_masked", "model": {"kind": "attlip", "prox_step_rule": "fixed", "prox_relaxation": 2}})"
        << "model.prox_relaxation: above 1 needs prox_step_rule armijo";
  }
  void modelOptionRefusals() {
    QFETCH(QString, config);
    QFETCH(QString, message);
    QString got;
    try {
      const run::RunConfig cfg = run::parseRunConfig(json::parse(config.toStdString()));
      auto gen = at::make_generator<at::CPUGeneratorImpl>(1);
      models::makeModel(cfg.model, {8, 30}, run::modelContext(cfg), gen, at::Device(at::kCPU));
    } catch (const std::exception& e) {
      got = QString::fromStdString(e.what());
    }
    QVERIFY2(got.contains(message), qPrintable(got));
  }

  void overTheLimitIsRefusedAndOverridable() {
    run::MemoryEstimate e;
    e.bytes = 1e18;  // an exabyte: more than any machine has
    e.breakdown = "test";
    QVERIFY(test::inputErrorOf([&] { run::requireMemory(e, "x"); }).contains("needs about 888.2 PiB (test) but about"));
    ::setenv("LWB_MEMORY_CHECK", "off", 1);
    run::requireMemory(e, "x");  // the user's override
    ::unsetenv("LWB_MEMORY_CHECK");
    // ulimit -v counts: with 1 GiB of headroom the available memory is at most that.
    AddressSpaceLimit limit(rlim_t{1} << 30);
    QVERIFY(run::availableMemoryBytes() <= 1.1 * double(rlim_t{1} << 30));
  }

  void trainingThatCannotFitIsRefusedBeforeTheRunFolder_data() {
    QTest::addColumn<QStringList>("sets");
    QTest::newRow("batch 1e6") << QStringList{"batch_size=1000000", "model.width=4096"};
    QTest::newRow("widths 65536") << QStringList{"model.embed_dim=65536", "model.width=65536"};
  }
  void trainingThatCannotFitIsRefusedBeforeTheRunFolder() {
    QFETCH(QStringList, sets);
    const fs::path dir = root() / ("fit-" + std::string(QTest::currentDataTag()));
    writeText(dir / "c.json", smallConfig().dump());
    QStringList args{"train", "--config", QString::fromStdString((dir / "c.json").string()), "--out",
                     QString::fromStdString((dir / "run").string())};
    for (const QString& s : sets) args << "--set" << s;
    const Cli r = runCli(args);
    QVERIFY2(r.code == 2, qPrintable(show(r)));
    QVERIFY2(r.err.contains("needs about") && r.err.contains("is available") && r.err.contains("LWB_MEMORY_CHECK=off"),
             qPrintable(r.err));
    QVERIFY(!fs::exists(dir / "run"));  // never left "running"
  }

  void attentionRestartsThatCannotFitAreRefused() {
    const Cli r = runCli({"attention", "--kind", "l2", "--dim", "64", "--heads", "4", "--tokens", "4096", "--restarts", "1000"});
    QVERIFY2(r.code == 2 && r.err.contains("attention N=4096: needs about"), qPrintable(show(r)));
  }

  // 4. Counts in spectra.json are bounded by the data and by what a plot can show.
  void lyingSpectraCountsAreRefused_data() {
    QTest::addColumn<int>("entries");
    QTest::addColumn<qlonglong>("count");
    QTest::addColumn<QString>("fragment");
    QTest::newRow("one entry of 2^30") << 1 << (qlonglong(1) << 30) << "more singular values than a weight matrix has";
    QTest::newRow("1024 entries of 2^20") << 1024 << (qlonglong(1) << 20) << "values in all";
  }
  void lyingSpectraCountsAreRefused() {
    QFETCH(int, entries);
    QFETCH(qlonglong, count);
    QFETCH(QString, fragment);
    const fs::path dir = root() / ("spectra-" + std::to_string(entries));
    run::RunDirectory(dir.string()).writeConfig(smallConfig());
    json index = json::array();
    for (int i = 0; i < entries; ++i)
      index.push_back({{"step", i}, {"name", "a"}, {"offset", uint64_t(i) * uint64_t(count)}, {"count", count}});
    writeText(dir / "spectra.json", index.dump());
    {
      std::ofstream(dir / "spectra.bin").put('\0');
    }
    fs::resize_file(dir / "spectra.bin", uint64_t{4} << 30);  // sparse: no disk, no memory
    AddressSpaceLimit limit(rlim_t{1} << 30);
    const QString msg = test::inputErrorOf([&] { run::RunDirectoryReader(dir).spectraSince(-1); });
    QVERIFY2(msg.contains(fragment), qPrintable(msg));
  }

  // 5. An index file with our application id but someone else's SQL runs none of it.
  void foreignSqlInAnIndexIsNeverRun_data() {
    QTest::addColumn<QString>("schema");
    QTest::newRow("runs is a recursive view") << "CREATE VIEW runs AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
                                                 "SELECT x AS path, x AS id, x AS status, zeroblob(1000000) AS config FROM c;";
    QTest::newRow("a trigger on runs") << "CREATE TRIGGER grow AFTER INSERT ON runs BEGIN "
                                          "INSERT INTO runs (path, id, status) SELECT path || 'x', id, status FROM runs; END;";
    QTest::newRow("another column") << "ALTER TABLE runs ADD COLUMN blob BLOB DEFAULT (zeroblob(100000000));";
    QTest::newRow("an index on an expression") << "CREATE INDEX heavy ON runs(length(zeroblob(100000000)));";
  }
  void foreignSqlInAnIndexIsNeverRun() {
    QFETCH(QString, schema);
    const fs::path file = root() / ("foreign-" + QString::number(qHash(schema)).toStdString() + ".sqlite");
    if (schema.startsWith("CREATE VIEW")) {
      sql(file, "PRAGMA application_id=" + std::to_string(sweep::RunIndex::kApplicationId) + "; PRAGMA user_version=2;" +
                    schema.toStdString());
    } else {
      { sweep::RunIndex make(file); }
      sql(file, schema.toStdString());
    }
    const auto before = fs::file_size(file);
    AddressSpaceLimit limit(rlim_t{1} << 30);
    for (const auto access : {sweep::RunIndex::Access::ReadWrite, sweep::RunIndex::Access::ReadOnly}) {
      const QString msg = test::inputErrorOf([&] {
        sweep::RunIndex index(file, access);
        sweep::IndexRow r;
        r.path = "/r/1";
        r.id.assign(1, '1');  // assigned from a literal, GCC 12 warns falsely (-Wstringop-overflow)
        r.status = "finished";
        index.upsert(r);
        (void)index.rows();
      });
      QVERIFY2(msg.contains("not a Lipschitz Workbench run index (unexpected schema object") && msg.contains("--rebuild"),
               qPrintable(msg));
    }
    QCOMPARE(fs::file_size(file), before);
    // --rebuild treats it as foreign: moved aside, not deleted.
    QCOMPARE(sweep::RunIndex::discard(file), file.string() + ".bak");
    QVERIFY(fs::exists(file.string() + ".bak") && !fs::exists(file));
  }

  void readOnlyIndexIsNotWritten() {
    const fs::path file = root() / "readonly.sqlite";
    {
      sweep::RunIndex index(file);
      sweep::IndexRow r;
      r.path = "/r/1";
      r.id = "1";
      r.status = "finished";
      index.upsert(r);
    }
    const auto size = fs::file_size(file);
    const auto mtime = fs::last_write_time(file);
    sweep::RunIndex index(file, sweep::RunIndex::Access::ReadOnly);
    QCOMPARE(index.rows().size(), size_t{1});
    QVERIFY(test::inputErrorOf([&] { index.upsert(sweep::IndexRow{}); }).contains("cannot open the run index for writing"));
    QCOMPARE(fs::file_size(file), size);
    QVERIFY(fs::last_write_time(file) == mtime);
    QVERIFY(test::inputErrorOf([&] { sweep::RunIndex(root() / "absent.sqlite", sweep::RunIndex::Access::ReadOnly); })
                .contains("no such run index"));
    QVERIFY(!fs::exists(root() / "absent.sqlite"));
  }

  // 6. Resume trusts no checkpoint: config match, integrity, the run-folder lock, fallback.
  void resumeChecksTheCheckpointAndTheFolder_data() {
    QTest::addColumn<QString>("edit");
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("fragment");
    QTest::newRow("checkpoint of another run") << "foreign" << 2 << "belongs to another run: its config differs from config.json at 'optimizer.lr'";
    QTest::newRow("run still being written") << "locked" << 2 << "another process is writing this run";
    QTest::newRow("newest truncated") << "truncated" << 0 << "skipped";
    QTest::newRow("newest bit-flipped") << "flipped" << 0 << "checksum mismatch";
    // metrics.jsonl cut after step 1 (log_every 1), checkpoint at step 4: resumed with a gap at
    // steps 2–4 that nothing mentioned.
    QTest::newRow("metrics cut before the checkpoint") << "cut" << 0
                                                       << "metrics.jsonl ends at step 1 but the run resumes after step 4 (the file was cut): steps 2–4";
    // spectra.bin cut to 10 bytes: the index points past it. The resume refused, although the
    // checkpoint and the metrics were sound; now the spectra are set aside, kept, and said.
    // Every step trained, the summary not written: "completed" alone left the user nowhere.
    QTest::newRow("completed, record not ended") << "unended" << 2
                                                 << "completed its 6 steps; its record did not end (status failed: summary.json: disk full)";
    // spectra.bin cut after the checkpoint's snapshots (an interrupted copy): the later entries
    // point past it, the kept ones are whole; nothing is set aside (everything once was).
    QTest::newRow("spectra cut after the checkpoint") << "spectra-tail" << 0 << "";
    QTest::newRow("spectra damaged") << "spectra" << 0
                                     << "the saved spectra were moved aside (spectra.json.damaged, spectra.bin.damaged) and the run records new snapshots after step 4";
  }
  void resumeChecksTheCheckpointAndTheFolder() {
    QFETCH(QString, edit);
    QFETCH(int, code);
    QFETCH(QString, fragment);
    // Runs a and b (another learning rate) are trained once and copied for each row.
    const fs::path trained = root() / "resume-trained";
    if (!fs::exists(trained / "b" / "status")) {
      json cfg = smallConfig();
      cfg["steps"] = 6;
      cfg["keep_checkpoints"] = 5;
      writeText(trained / "a.json", cfg.dump());
      cfg["optimizer"] = {{"lr", 0.05}};
      writeText(trained / "b.json", cfg.dump());
      for (const QString& run : {QStringLiteral("a"), QStringLiteral("b")}) {
        const QString path = QString::fromStdString(trained.string()) + QLatin1Char('/') + run;
        const Cli r = runCli({"train", "--config", path + QStringLiteral(".json"), "--out", path});
        QVERIFY2(r.code == 0, qPrintable(show(r)));
      }
    }
    const fs::path dir = root() / ("resume-" + edit.toStdString());
    fs::copy(trained, dir, fs::copy_options::recursive);
    const QString a = QString::fromStdString((dir / "a").string());
    // A crash after step 4's checkpoint of run a: step 6 gone, its status still running.
    const fs::path ckpts = dir / "a" / "checkpoints";
    if (edit == "unended") writeText(dir / "a" / "status", "failed\nsummary.json: disk full\n");
    else fs::remove(ckpts / "step_6.safetensors");
    const fs::path newest = ckpts / "step_4.safetensors";
    if (edit == "foreign") fs::copy_file(dir / "b" / "checkpoints" / "step_4.safetensors", newest, fs::copy_options::overwrite_existing);
    if (edit == "truncated") fs::resize_file(newest, fs::file_size(newest) * 2 / 3);
    if (edit == "flipped") {
      std::fstream f(newest, std::ios::in | std::ios::out | std::ios::binary);
      f.seekg(-5, std::ios::end);
      const char c = static_cast<char>(f.get());
      f.seekp(-5, std::ios::end);
      f.put(static_cast<char>(c ^ 0x40));
    }
    if (edit == "spectra") fs::resize_file(dir / "a" / "spectra.bin", 10);
    if (edit == "spectra-tail") {
      uint64_t end = 0;
      for (const auto& e : run::RunDirectoryReader(dir / "a").spectraIndex())
        if (e.step <= 4) end = std::max(end, (e.offset + e.count) * 4);
      QVERIFY(end > 0 && end + 2 < fs::file_size(dir / "a" / "spectra.bin"));
      fs::resize_file(dir / "a" / "spectra.bin", end + 2);
    }
    if (edit == "cut") {
      std::string rows;
      for (const auto& row : run::RunDirectoryReader(dir / "a").metrics())
        if (row["step"].get<int>() <= 1) rows += row.dump() + "\n";
      writeText(dir / "a" / "metrics.jsonl", rows);
    }
    std::optional<run::RunFolderLock> held;
    if (edit == "locked") held.emplace((dir / "a").string());
    std::ifstream in(dir / "a" / "metrics.jsonl");
    const std::string metricsBefore((std::istreambuf_iterator<char>(in)), {});
    const Cli r = runCli({"train", "--resume", a});
    QVERIFY2(r.code == code && r.err.contains(fragment), qPrintable(show(r)));
    if (code == 2) {
      std::ifstream after(dir / "a" / "metrics.jsonl");
      QCOMPARE(std::string((std::istreambuf_iterator<char>(after)), {}), metricsBefore);  // nothing cut
    } else if (edit == "spectra-tail") {
      QVERIFY2(!r.err.contains("damaged") && !fs::exists(dir / "a" / "spectra.json.damaged"), qPrintable(r.err));
      const auto spectra = run::RunDirectoryReader(dir / "a").spectraSince(-1);
      QVERIFY(!spectra.empty() && spectra.front().step <= 4 && spectra.back().step == 6);  // kept, then continued
    } else if (edit == "spectra") {
      QVERIFY(fs::file_size(dir / "a" / "spectra.bin.damaged") == 10 && fs::exists(dir / "a" / "spectra.json.damaged"));
      const auto spectra = run::RunDirectoryReader(dir / "a").spectraSince(-1);
      QVERIFY(!spectra.empty() && spectra.front().step > 4);  // new snapshots after the checkpoint
    } else if (edit != "cut") {
      QVERIFY2(r.err.contains("resuming from") && r.err.contains("step_2.safetensors"), qPrintable(r.err));
      QCOMPARE(run::RunDirectoryReader(dir / "a").metrics().back()["step"].get<int>(), 6);
    }
  }

  // 7. spec.json stays about the size of the spec, whatever its nesting.
  void deepSpecIsWrittenCompactly() {
    const fs::path dir = root() / "spec-size";
    std::string zeros;
    for (int i = 0; i < 50000; ++i) zeros += i ? ",0" : "0";
    const std::string text = R"({"base": "mnist_muon_softcap", "seeds": [0, 1], "name": )" + nested(60, zeros) + "}";
    writeText(dir / "spec.json.in", text);
    const sweep::SweepSpec spec = sweep::loadSweepSpec(dir / "spec.json.in");
    sweep::SweepDirectory sweepDir(dir / "out");
    auto points = sweep::expandSweep(spec);
    sweepDir.prepare(spec, points);
    const auto written = fs::file_size(dir / "out" / "spec.json");
    QVERIFY2(written < 2 * text.size() + 16384, qPrintable(QString::number(written)));  // indented: ~6 MB
    QVERIFY(jsonio::dumpReadable(json{{"a", 1}}).find('\n') != std::string::npos);  // small: still indented
  }

  // 8. A moved sweep folder keeps its rows: keys are relative to the index; vanished rows go.
  void movedSweepFolderIsNotCountedTwice() {
    const fs::path before = root() / "sweep-before", after = root() / "sweep-after";
    for (const char* id : {"a", "b"}) {
      run::RunDirectory d((before / "runs" / id).string());
      d.writeConfig(smallConfig());
      d.setStatus(run::RunStatus::Finished);
    }
    {
      sweep::RunIndex index(before / "index.sqlite");
      QCOMPARE(index.scan({before / "runs"}).added, 2);
      // A row an older version wrote with an absolute key, for a folder that is gone.
      sweep::IndexRow old;
      old.path = "/nonexistent/moved-away/runs/c";
      old.id = "c";
      old.status = "finished";
      index.upsert(old);
      QCOMPARE(index.count(), int64_t{3});
    }
    fs::rename(before, after);
    sweep::RunIndex index(after / "index.sqlite");
    const auto report = index.scan({after / "runs"});
    QCOMPARE(report.added, 0);
    QCOMPARE(report.removed, 1);  // the vanished row
    QCOMPARE(index.count(), int64_t{2});
    for (const auto& r : index.rows()) QVERIFY2(r.path.starts_with(sweep::indexPath(after) + "/runs/"), r.path.c_str());
    // Stored relative: what a moved copy reads back.
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open_v2((after / "index.sqlite").c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
    sqlite3_stmt* st = nullptr;
    sqlite3_prepare_v2(db, "SELECT path FROM runs ORDER BY path", -1, &st, nullptr);
    QVERIFY(sqlite3_step(st) == SQLITE_ROW);
    QCOMPARE(std::string(reinterpret_cast<const char*>(sqlite3_column_text(st, 0))), std::string("runs/a"));
    sqlite3_finalize(st);
    sqlite3_close(db);
  }

  // Index files written before keys were relative: absolute keys under the index's folder are
  // rewritten once, so the next scan does not add the same runs again.
  void legacyAbsoluteKeysAreRelativized() {
    const fs::path dir = root() / "legacy";
    run::RunDirectory d((dir / "runs" / "a").string());
    d.writeConfig(smallConfig());
    d.setStatus(run::RunStatus::Finished);
    { sweep::RunIndex make(dir / "index.sqlite"); }
    sql(dir / "index.sqlite", "INSERT INTO runs (path, id, status, sweep) VALUES ('" + sweep::indexPath(dir / "runs" / "a") +
                                  "', 'a', 'finished', '" + sweep::indexPath(dir) + "');");
    sweep::RunIndex index(dir / "index.sqlite");
    index.scan({dir / "runs"});
    QCOMPARE(index.count(), int64_t{1});
    QCOMPARE(index.rows().front().sweep, sweep::indexPath(dir));
    QCOMPARE(index.rows({sweep::indexPath(dir), false}).size(), size_t{1});
  }

  // 9. The format is sniffed from the first bytes: a 2 GiB file of another kind is not read.
  void unknownFormatIsRefusedBeforeReading() {
    const fs::path file = root() / "big.bin";
    {
      std::ofstream(file) << "GIF89a, not a tensor file";
    }
    fs::resize_file(file, uint64_t{2} << 30);  // sparse
    AddressSpaceLimit limit(rlim_t{256} << 20);  // reading it would need 2 GiB
    const QString msg = test::inputErrorOf([&] { io::readTensorFile(file); });
    QVERIFY2(msg.contains("unknown format"), qPrintable(msg));
  }

  // 10. A full disk while writing metrics: status failed with the reason, no torn row.
  void fullDiskLeavesWholeRowsAndAFailedStatus() {
    const fs::path dir = root() / "full-disk";
    json cfg = smallConfig();
    cfg["steps"] = 400;
    cfg["log_every"] = 1;
    cfg["spectra_every"] = 0;
    cfg["checkpoint_every"] = 0;
    writeText(dir / "c.json", cfg.dump());
    const Cli r = runCli({"train", "--config", QString::fromStdString((dir / "c.json").string()), "--out",
                          QString::fromStdString((dir / "run").string())},
                         {}, 48 << 10);
    QVERIFY2(r.code == 1 && r.err.contains("metrics.jsonl: write failed (File too large)"), qPrintable(show(r)));
    const run::RunDirectoryReader reader(dir / "run");
    QCOMPARE(reader.status()->status, run::RunStatus::Failed);
    QVERIFY(QString::fromStdString(reader.status()->message).contains("metrics.jsonl: write failed"));
    std::ifstream in(dir / "run" / "metrics.jsonl");
    std::string line;
    int rows = 0;
    while (std::getline(in, line)) {
      QVERIFY2(jsonio::tryParse(line).has_value(), line.c_str());  // whole rows only
      ++rows;
    }
    QVERIFY(rows > 10);
  }

  // 10. The rest of the contract: bad input is exit 2 and one line; output never throws.
  void cliContractCases_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("fragment");
    QTest::newRow("--seed -1") << QStringList{"robustness", "nothing", "--seed", "-1"} << "--seed: must be an integer >= 0, got -1";
    QTest::newRow("--eps 1e308") << QStringList{"robustness", "nothing", "--eps", "1e308"} << "eps: 1e+308 is larger than 1000";
    // CLI::Range said "Value abc not in range 0 to 4096", let "nan" through, and CLI11 clamped a
    // seed past 2^64 - 1 to it.
    QTest::newRow("--threads abc") << QStringList{"--threads", "abc", "robustness", "nothing"}
                                   << "--threads: must be an integer from 0 to 4096, got abc";
    QTest::newRow("--index-wait nan") << QStringList{"sweep", "--spec", "nothing", "--out", "nowhere", "--index-wait", "nan"}
                                      << "--index-wait: must be a finite number from 0 to 86400, got nan";
    QTest::newRow("--seed 2^64") << QStringList{"robustness", "nothing", "--seed", "18446744073709551616"}
                                 << "--seed: must be at most 18446744073709551615";
    // An empty --out: spectral failed on "cannot make absolute path", sweep wrote into the cwd.
    QTest::newRow("spectral --out ''") << QStringList{"spectral", "--op", "none", "--in", "x.npy", "--out", ""} << "--out: must not be empty";
    QTest::newRow("sweep --out ''") << QStringList{"sweep", "--spec", "x.json", "--out", ""} << "--out: must not be empty";
  }

  // CLI11 reads integers with base 0, so "--seed 010" was seed 8; the validators hand it "10".
  void leadingZeroIsDecimal() {
    QString bound[3];
    const QStringList seeds{"010", "10", "8"};
    for (int i = 0; i < 3; ++i) {
      const Cli r = runCli({"attention", "--kind", "l2", "--tokens", "4", "--dim", "8", "--heads", "1", "--pgd-iters", "2",
                            "--restarts", "1", "--seed", seeds[i], "--json"});
      QVERIFY2(r.code == 0, qPrintable(show(r)));
      bound[i] = QString::fromStdString(jsonio::tryParse(r.out.toStdString())->at("bound").dump());
    }
    QCOMPARE(bound[0], bound[1]);
    QVERIFY(bound[1] != bound[2]);
  }
  void cliContractCases() {
    QFETCH(QStringList, args);
    QFETCH(QString, fragment);
    const Cli r = runCli(args);
    QVERIFY2(r.code == 2 && r.err.contains(fragment) && r.err.trimmed().count('\n') == 0, qPrintable(show(r)));
  }

  void gridSeedTogetherWithSeedsIsRefused() {
    const QString msg = test::inputErrorOf([] {
      sweep::parseSweepSpec(json::parse(R"({"base": "mnist_muon_softcap", "grid": {"seed": [5, 6]}, "seeds": [0, 1]})"), ".");
    });
    QVERIFY2(msg.contains("grid.seed and seeds both vary the seed"), qPrintable(msg));
    // The same for steps: "steps" won over grid.steps, so steps=10 and steps=20 were two
    // identical 30-step runs under different labels.
    const QString steps = test::inputErrorOf([] {
      sweep::parseSweepSpec(json::parse(R"({"base": "mnist_adamw_wd", "grid": {"steps": [10, 20]}, "steps": 30})"), ".");
    });
    QVERIFY2(steps.contains("grid.steps and steps both set the number of steps"), qPrintable(steps));
    sweep::parseSweepSpec(json::parse(R"({"base": "mnist_adamw_wd", "grid": {"steps": [10, 20]}})"), ".");
  }

  // A path that is not UTF-8 in the output (here in a problem report) is replaced, not thrown
  // after the work was done.
  void nonUtf8PathsInOutput() {
    const fs::path runs = root() / "utf8";
    writeText(runs / "caf\xe9" / "config.json", "{broken");
    const Cli r = runCli({"index", QString::fromStdString(runs.string()), "--db", QString::fromStdString((root() / "utf8.sqlite").string())});
    QVERIFY2(r.code == 0, qPrintable(show(r)));
    QVERIFY(jsonio::tryParse(r.out.toStdString()).has_value());
  }

  // 10. --config that is a folder or a FIFO: one line, exit 2, never a block.
  void configThatIsNoRegularFile_data() {
    QTest::addColumn<QString>("kind");
    QTest::newRow("folder") << "dir";
    QTest::newRow("fifo") << "fifo";
    QTest::newRow("1e999") << "big";
  }
  void configThatIsNoRegularFile() {
    QFETCH(QString, kind);
    const fs::path p = root() / ("config-" + kind.toStdString());
    if (kind == "dir") fs::create_directories(p);
    if (kind == "fifo") QCOMPARE(::mkfifo(p.c_str(), 0600), 0);
    if (kind == "big") writeText(p, R"({"steps": 1e999})");
    const Cli r = runCli({"train", "--config", QString::fromStdString(p.string()), "--out",
                          QString::fromStdString((root() / ("out-" + kind.toStdString())).string())});
    QVERIFY2(r.code == 2 && r.err.contains(QString::fromStdString(p.string())) && !r.err.contains("json.exception") &&
                 r.err.trimmed().count('\n') == 0,
             qPrintable(show(r)));
  }

  // 11. An output path that is a FIFO (or a device): the atomic write's rename put a regular
  // file in its place — `spectral --out /dev/full` replaced the device node, as root, and
  // reported success. Now refused, the FIFO left as it was.
  void outputThatIsNoRegularFileIsNotReplaced() {
    const fs::path fifo = root() / "out.fifo";
    QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
    const QString why = test::inputErrorOf([&] { io::writeFileAtomically(fifo.string(), "data"); });
    QVERIFY2(why.contains("is not a regular file"), qPrintable(why));
    QVERIFY(fs::is_fifo(fifo));
    const fs::path in = root() / "in.npy";
    io::writeNpy(in.string(), at::eye(3));
    const Cli r = runCli({"spectral", "--op", "none", "--in", QString::fromStdString(in.string()), "--out", QString::fromStdString(fifo.string())});
    QVERIFY2(r.code == 2 && r.err.contains("is not a regular file"), qPrintable(show(r)));
    QVERIFY(fs::is_fifo(fifo));
  }
};

QTEST_GUILESS_MAIN(TestHostileFiles)
#include "tst_hostile_files.moc"
