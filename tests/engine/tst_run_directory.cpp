// Run directory: refusal to overwrite, atomic whole files, metrics.jsonl (torn last line
// forgiven, malformed middle line named), spectra round trip and hostile spectra indexes.
#include "run/run_directory.h"
#include "run/run_directory_reader.h"
#include "run/run_layout.h"

#include "io/input_error.h"

#include "support/test_files.h"

#include <QtTest/QtTest>

#include <fstream>
#include <sstream>

using namespace lwb;
using namespace lwb::run;
using nlohmann::json;

namespace {

std::string slurp(const QString& path) {
  std::ifstream in(path.toStdString(), std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void writeText(const QString& path, const std::string& text, bool append = false) {
  std::ofstream(path.toStdString(), std::ios::binary | (append ? std::ios::app : std::ios::trunc)) << text;
}

QString errorOf(const std::function<void()>& f) { return lwb::test::inputErrorOf(f); }

std::vector<json> readMetrics(const std::string& dir) { return RunDirectoryReader(dir).metrics(); }

// step -> snapshot, as the writer was given them.
std::map<int64_t, SpectraSnapshot> readSpectra(const std::string& dir) {
  std::map<int64_t, SpectraSnapshot> out;
  for (auto& r : RunDirectoryReader(dir).spectraSince(-1)) out[r.step] = std::move(r.after);
  return out;
}

}  // namespace

class TestRunDirectory : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void createsParentsAndRefusesNonEmpty() {
    QTemporaryDir tmp;
    const QString path = tmp.filePath("a/b/run1");
    { RunDirectory run(path.toStdString()); }
    QVERIFY(QFileInfo(path).isDir());
    const QString got = errorOf([&] { RunDirectory again(path.toStdString()); });
    QCOMPARE(got, path + ": run directory exists and is not empty");
    // An existing empty folder is fine; a file in the way is not.
    QVERIFY(QDir(tmp.path()).mkdir(QStringLiteral("empty")));
    RunDirectory fine(tmp.filePath("empty").toStdString());
    writeText(tmp.filePath("file"), "x");
    QVERIFY(errorOf([&] { RunDirectory r(tmp.filePath("file").toStdString()); }).contains("not a directory"));
  }

  void wholeFilesAreAtomic() {
    QTemporaryDir tmp;
    const QString path = tmp.filePath("run");
    RunDirectory run(path.toStdString());
    run.writeConfig(json{{"steps", 5}, {"seed", 1}});
    run.writeSummary(json{{"final_loss", 1.5}});
    run.setStatus(RunStatus::Running);
    QCOMPARE(json::parse(slurp(path + "/config.json")), (json{{"steps", 5}, {"seed", 1}}));
    QCOMPARE(json::parse(slurp(path + "/summary.json"))["final_loss"], json(1.5));
    QCOMPARE(slurp(path + "/status"), std::string("running\n"));
    // Replacing keeps one file; a multi-line message is folded onto the second line.
    run.setStatus(RunStatus::Failed, "out of memory\nat step 3");
    QCOMPARE(slurp(path + "/status"), std::string("failed\nout of memory at step 3\n"));
    run.writeConfig(json{{"steps", 6}});
    QCOMPARE(json::parse(slurp(path + "/config.json")), (json{{"steps", 6}}));
    const QStringList leftovers = QDir(path).entryList({QStringLiteral("*.tmp*")}, QDir::Files);
    QVERIFY2(leftovers.isEmpty(), qPrintable(leftovers.join(' ')));
  }

  void writeFileAtomicallyFailsCleanly() {
    QTemporaryDir tmp;
    const std::string target = tmp.filePath("missing/dir/x.json").toStdString();
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, writeFileAtomically(target, "{}"));
    QVERIFY(QDir(tmp.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries).isEmpty());
    const QString file = tmp.filePath("f.txt");
    writeFileAtomically(file.toStdString(), "one");
    writeFileAtomically(file.toStdString(), "two");
    QCOMPARE(slurp(file), std::string("two"));
  }

  // The layout header's names are the run-directory format's (ARCHITECTURE.md "Run
  // directory", spelled here), and the writer puts every file where the header says.
  void layoutNames() {
    QCOMPARE(std::string(layout::kConfigFile), std::string("config.json"));
    QCOMPARE(std::string(layout::kMetricsFile), std::string("metrics.jsonl"));
    QCOMPARE(std::string(layout::kSummaryFile), std::string("summary.json"));
    QCOMPARE(std::string(layout::kStatusFile), std::string("status"));
    QCOMPARE(std::string(layout::kSpectraIndexFile), std::string("spectra.json"));
    QCOMPARE(std::string(layout::kSpectraDataFile), std::string("spectra.bin"));
    QCOMPARE(std::string(layout::kCheckpointsDir), std::string("checkpoints"));
    QCOMPARE(std::string(layout::kIndexFile), std::string("index.sqlite"));
    QTemporaryDir tmp;
    const std::string path = tmp.filePath("run").toStdString();
    RunDirectory run(path);
    run.writeConfig(json{{"steps", 1}});
    run.appendMetrics(json{{"step", 1}});
    run.appendSpectra(1, {{"w", {1.0f, 0.5f}}});
    run.writeSummary(json{{"status", "finished"}});
    run.setStatus(RunStatus::Finished);
    for (const char* name : {layout::kConfigFile, layout::kMetricsFile, layout::kSpectraIndexFile, layout::kSpectraDataFile,
                             layout::kSummaryFile, layout::kStatusFile})
      QVERIFY2(QFileInfo(QString::fromStdString(path + "/" + name)).isFile(), name);
    QCOMPARE(RunDirectoryReader(path).status()->status, RunStatus::Finished);
  }

  void statusWords() {
    QCOMPARE(toString(RunStatus::Running), "running");
    QCOMPARE(toString(RunStatus::Finished), "finished");
    QCOMPARE(toString(RunStatus::Diverged), "diverged");
    QCOMPARE(toString(RunStatus::Stopped), "stopped");
    QCOMPARE(toString(RunStatus::Failed), "failed");
  }

  void metricsRoundTrip() {
    QTemporaryDir tmp;
    const QString path = tmp.filePath("run");
    RunDirectory run(path.toStdString());
    QVERIFY(readMetrics(path.toStdString()).empty());
    const std::vector<json> rows{{{"step", 0}, {"loss", 2.5}}, {{"step", 10}, {"loss", 1.25}}};
    for (const auto& r : rows) run.appendMetrics(r);
    // Flushed per line: visible to a reader while the writer is still open.
    QCOMPARE(readMetrics(path.toStdString()), rows);
    QCOMPARE(slurp(path + "/metrics.jsonl"), std::string("{\"loss\":2.5,\"step\":0}\n{\"loss\":1.25,\"step\":10}\n"));
  }

  void tornLastMetricsLineIgnored() {
    QTemporaryDir tmp;
    const QString path = tmp.filePath("run");
    RunDirectory run(path.toStdString());
    run.appendMetrics({{"step", 1}});
    run.appendMetrics({{"step", 2}});
    writeText(path + "/metrics.jsonl", "{\"step\": 3, \"lo", /*append=*/true);
    QCOMPARE(readMetrics(path.toStdString()).size(), size_t{2});
    writeText(path + "/metrics.jsonl", "\n\n", /*append=*/true);  // trailing blank lines too
    QCOMPARE(readMetrics(path.toStdString()).size(), size_t{2});
  }

  void malformedMiddleMetricsLineNamed_data() {
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("needle");
    QTest::newRow("garbage") << QByteArray("{\"step\":1}\nnot json\n{\"step\":3}\n") << "line 2 ";
    QTest::newRow("not an object") << QByteArray("{\"step\":1}\n{\"step\":2}\n[3]\n{\"step\":4}\n") << "line 3 ";
    QTest::newRow("torn then more") << QByteArray("{\"step\":1\n{\"step\":2}\n") << "line 1 ";
  }

  void malformedMiddleMetricsLineNamed() {
    QFETCH(QByteArray, content);
    QFETCH(QString, needle);
    QTemporaryDir tmp;
    writeText(tmp.filePath("metrics.jsonl"), content.toStdString());
    const QString got = errorOf([&] { readMetrics(tmp.path().toStdString()); });
    QVERIFY2(got.startsWith(tmp.filePath("metrics.jsonl") + ": "), qPrintable(got));
    QVERIFY2(got.contains(needle), qPrintable(got));
  }

  void readersNeedARunDirectory() {
    QTemporaryDir tmp;
    const std::string missing = tmp.filePath("nope").toStdString();
    QVERIFY(errorOf([&] { readMetrics(missing); }).contains("no such run directory"));
    QVERIFY(errorOf([&] { readSpectra(missing); }).contains("no such run directory"));
    QVERIFY(readSpectra(tmp.path().toStdString()).empty());
  }

  void spectraRoundTrip() {
    QTemporaryDir tmp;
    const QString path = tmp.filePath("run");
    RunDirectory run(path.toStdString());
    const std::map<std::string, std::vector<float>> s0{{"blocks.0.attn.q", {3.0f, 2.0f, 0.5f}}, {"head", {1.0f}}};
    const std::map<std::string, std::vector<float>> s1{{"blocks.0.attn.q", {2.5f, 1.0f, 0.25f}}, {"empty", {}}};
    run.appendSpectra(0, s0);
    run.appendSpectra(100, s1);
    const auto back = readSpectra(path.toStdString());
    QCOMPARE(back.size(), size_t{2});
    QCOMPARE(back.at(0), s0);
    QCOMPARE(back.at(100), s1);
    QCOMPARE(QFileInfo(path + "/spectra.bin").size(), qint64{7 * 4});
    const json index = json::parse(slurp(path + "/spectra.json"));
    QCOMPARE(index.size(), size_t{4});
    QCOMPARE(index[2], (json{{"step", 100}, {"name", "blocks.0.attn.q"}, {"offset", 4}, {"count", 3}}));
    // Little-endian float32 on disk: 3.0f is 00 00 40 40.
    QCOMPARE(slurp(path + "/spectra.bin").substr(0, 4), std::string("\x00\x00\x40\x40", 4));
    // A torn trailing partial float does not disturb the indexed data.
    writeText(path + "/spectra.bin", "\x01\x02", /*append=*/true);
    QCOMPARE(readSpectra(path.toStdString()).at(100), s1);
  }

  void hostileSpectraIndexRejected_data() {
    QTest::addColumn<QByteArray>("index");
    QTest::addColumn<QString>("needle");
    // spectra.bin holds 4 floats in every case.
    QTest::newRow("offset beyond file") << QByteArray(R"([{"step":0,"name":"w","offset":9,"count":1}])") << "beyond spectra.bin (4 floats)";
    QTest::newRow("count beyond file") << QByteArray(R"([{"step":0,"name":"w","offset":2,"count":3}])") << "beyond spectra.bin";
    QTest::newRow("overflowing offset") << QByteArray(R"([{"step":0,"name":"w","offset":18446744073709551615,"count":2}])") << "beyond spectra.bin";
    QTest::newRow("overflowing count") << QByteArray(R"([{"step":0,"name":"w","offset":1,"count":18446744073709551615}])") << "beyond spectra.bin";
    QTest::newRow("negative offset") << QByteArray(R"([{"step":0,"name":"w","offset":-1,"count":1}])") << "'offset' must be a non-negative integer";
    QTest::newRow("fractional count") << QByteArray(R"([{"step":0,"name":"w","offset":0,"count":1.5}])") << "'count' must be a non-negative integer";
    QTest::newRow("missing name") << QByteArray(R"([{"step":0,"offset":0,"count":1}])") << "'name' must be a string";
    QTest::newRow("string step") << QByteArray(R"([{"step":"0","name":"w","offset":0,"count":1}])") << "'step' must be an integer";
    QTest::newRow("entry not object") << QByteArray(R"([{"step":0,"name":"w","offset":0,"count":1}, 5])") << "entry 1: expected an object";
    QTest::newRow("not an array") << QByteArray(R"({"step":0})") << "expected a JSON array";
    QTest::newRow("not json") << QByteArray("[{\"step\":0,") << "not valid JSON";
  }

  void hostileSpectraIndexRejected() {
    QFETCH(QByteArray, index);
    QFETCH(QString, needle);
    QTemporaryDir tmp;
    writeText(tmp.filePath("spectra.bin"), std::string(16, '\0'));
    writeText(tmp.filePath("spectra.json"), index.toStdString());
    const QString got = errorOf([&] { readSpectra(tmp.path().toStdString()); });
    QVERIFY2(got.startsWith(tmp.filePath("spectra.json") + ": "), qPrintable(got));
    QVERIFY2(got.contains(needle), qPrintable(got));
  }

  void indexWithoutBinRejected() {
    QTemporaryDir tmp;
    writeText(tmp.filePath("spectra.json"), R"([{"step":0,"name":"w","offset":0,"count":1}])");
    QVERIFY(errorOf([&] { readSpectra(tmp.path().toStdString()); }).contains("beyond spectra.bin (0 floats)"));
  }
};

QTEST_APPLESS_MAIN(TestRunDirectory)
#include "tst_run_directory.moc"
