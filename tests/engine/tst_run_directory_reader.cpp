// RunDirectoryReader: metrics.jsonl read incrementally (offsets, torn last line, a rewritten
// or truncated file, a line longer than a chunk), spectra since a step, status and summary
// files, what counts as a run directory, and files that are missing, hostile or too large.
#include "run/run_directory.h"
#include "run/run_directory_reader.h"

#include "support/test_files.h"

#include <QtTest/QtTest>

using namespace lwb;
using namespace lwb::run;
using nlohmann::json;

namespace {

std::string row(int step) { return json{{"step", step}, {"train_loss", 3.0 - 0.01 * step}}.dump() + "\n"; }

std::vector<int64_t> steps(const MetricsChunk& c) {
  std::vector<int64_t> out;
  for (const auto& r : c.rows) out.push_back(r["step"].get<int64_t>());
  return out;
}

QString errorOf(const std::function<void()>& f) { return test::inputErrorOf(f); }

}  // namespace

class TestRunDirectoryReader : public QObject {
  Q_OBJECT

 private:
  QTemporaryDir tmp_;
  QString file(const char* name) const { return tmp_.filePath(QString::fromLatin1(name)); }
  RunDirectoryReader reader() const { return RunDirectoryReader(tmp_.path().toStdString()); }

 private Q_SLOTS:
  void cleanup() {
    for (const QString& f : QDir(tmp_.path()).entryList(QDir::Files)) QFile::remove(tmp_.filePath(f));
    QDir(tmp_.filePath(QStringLiteral("checkpoints"))).removeRecursively();
  }

  void metricsAreReadFromTheLastOffset() {
    test::writeFile(file("metrics.jsonl"), row(1) + row(2) + "{\"step\": 3, \"tr");
    const auto r = reader();
    MetricsChunk c = r.metricsSince({});
    QCOMPARE(steps(c), (std::vector<int64_t>{1, 2}));  // the torn 3rd line is not consumed
    QVERIFY(c.caughtUp && !c.restarted && c.malformedLines.empty());
    QCOMPARE(c.next.offset, uint64_t(row(1).size() + row(2).size()));
    QCOMPARE(c.lastRowLine, uint64_t{2});

    c = r.metricsSince(c.next);  // nothing new: nothing re-read
    QVERIFY(c.rows.empty());
    test::writeFile(file("metrics.jsonl"), "ain_loss\": 1}\n" + row(4), true);
    c = r.metricsSince(c.next);
    QCOMPARE(steps(c), (std::vector<int64_t>{3, 4}));
    QCOMPARE(c.lastRowLine, uint64_t{4});

    // A complete line that is no JSON object is reported and skipped, blank lines ignored.
    test::writeFile(file("metrics.jsonl"), "garbage\n\n[5]\n" + row(6), true);
    c = r.metricsSince(c.next);
    QCOMPARE(steps(c), (std::vector<int64_t>{6}));
    QCOMPARE(c.malformedLines, (std::vector<uint64_t>{5, 7}));
    QCOMPARE(c.lastRowLine, uint64_t{8});
  }

  void metricsAreReadInBoundedChunks() {
    std::string all;
    for (int s = 1; s <= 50; ++s) all += row(s);
    test::writeFile(file("metrics.jsonl"), all);
    const auto r = reader();
    MetricsCursor at;
    std::vector<int64_t> got;
    int calls = 0;
    for (MetricsChunk c;; ++calls) {
      c = r.metricsSince(at, 100);
      for (int64_t s : steps(c)) got.push_back(s);
      at = c.next;
      if (c.caughtUp) break;
      QVERIFY(calls < 100);
    }
    QCOMPARE(got.size(), size_t{50});
    QCOMPARE(got.back(), int64_t{50});
    QVERIFY(calls > 5);
  }

  void rewrittenOrTruncatedMetricsRestart() {
    test::writeFile(file("metrics.jsonl"), row(1) + row(2) + row(3));
    const auto r = reader();
    const MetricsChunk first = r.metricsSince({});
    // A resumed run keeps rows up to its checkpoint and writes the file anew.
    writeFileAtomically(file("metrics.jsonl").toStdString(), row(1) + row(2) + row(10) + row(11));
    MetricsChunk c = r.metricsSince(first.next);
    QVERIFY(c.restarted);
    QCOMPARE(steps(c), (std::vector<int64_t>{1, 2, 10, 11}));
    // Shorter than what was read: truncated.
    test::writeFile(file("metrics.jsonl"), row(1));
    c = r.metricsSince(c.next);
    QVERIFY(c.restarted);
    QCOMPARE(steps(c), (std::vector<int64_t>{1}));
    // A new file whose consumed part is byte-for-byte the same (an rsync copy) continues.
    writeFileAtomically(file("metrics.jsonl").toStdString(), row(1) + row(2));
    c = r.metricsSince(c.next);
    QVERIFY(!c.restarted);
    QCOMPARE(steps(c), (std::vector<int64_t>{2}));
  }

  void aLineLongerThanAChunkIsSkippedOnceComplete() {
    const std::string longLine = "{\"step\": 2, \"pad\": \"" + std::string(500, 'x');
    test::writeFile(file("metrics.jsonl"), row(1) + longLine);
    const auto r = reader();
    MetricsChunk c = r.metricsSince({}, 64);
    QCOMPARE(steps(c), (std::vector<int64_t>{1}));
    c = r.metricsSince(c.next, 64);
    QVERIFY(c.rows.empty());
    QVERIFY(c.caughtUp);  // nothing consumable until it ends: never spun on
    test::writeFile(file("metrics.jsonl"), "\"}\n" + row(3), true);
    c = r.metricsSince(c.next, 64);
    QCOMPARE(c.malformedLines, (std::vector<uint64_t>{2}));
    c = r.metricsSince(c.next, 64);
    QCOMPARE(steps(c), (std::vector<int64_t>{3}));
  }

  void wholeMetricsForgiveOnlyATornEnd() {
    test::writeFile(file("metrics.jsonl"), row(1) + row(2) + "{\"step\": 3, \"lo");
    QCOMPARE(reader().metrics().size(), size_t{2});
    // Written by another tool without a final newline: the last row still counts.
    test::writeFile(file("metrics.jsonl"), row(1) + json{{"step", 2}}.dump());
    QCOMPARE(reader().metrics().size(), size_t{2});
    test::writeFile(file("metrics.jsonl"), row(1) + "oops\n" + row(3));
    QVERIFY(errorOf([&] { reader().metrics(); }).contains("line 2 is not a valid JSON object"));
    QFile::remove(file("metrics.jsonl"));
    QVERIFY(reader().metrics().empty());
    QVERIFY(reader().metricsSince({}).rows.empty());
  }

  void spectraSinceAStep() {
    {
      RunDirectory w(tmp_.filePath(QStringLiteral("run")).toStdString());
      w.appendSpectra(10, {{"a", {3.f, 1.f}}});
      w.appendSpectra(20, {{"a", {2.f}}, {"b", {5.f}}});
      w.appendSpectra(20, {{"b", {4.f}}});  // a final snapshot on a periodic step: the later wins
    }
    const RunDirectoryReader r(tmp_.filePath(QStringLiteral("run")).toStdString());
    auto all = r.spectraSince(-1);
    QCOMPARE(all.size(), size_t{2});
    QCOMPARE(all[0].step, int64_t{10});
    QCOMPARE(all[0].after.at("a"), (std::vector<float>{3.f, 1.f}));
    QVERIFY(all[0].before.empty());
    QCOMPARE(all[1].after.at("b"), std::vector<float>{4.f});
    QCOMPARE(all[1].after.at("a"), std::vector<float>{2.f});
    const auto later = r.spectraSince(10);
    QCOMPARE(later.size(), size_t{1});
    QCOMPARE(later[0].step, int64_t{20});
    QVERIFY(r.spectraSince(20).empty());
    QDir(tmp_.filePath(QStringLiteral("run"))).removeRecursively();
  }

  void spectraIndexAheadOfItsDataIsAnError() {
    // spectra.json arrived before spectra.bin (a copy in progress): an error to retry, no read.
    test::writeFile(file("spectra.bin"), std::string(8, '\0'));
    test::writeFile(file("spectra.json"), R"([{"step":1,"name":"w","offset":0,"count":2},{"step":2,"name":"w","offset":2,"count":2}])");
    const QString got = errorOf([&] { reader().spectraSince(-1); });
    QVERIFY2(got.startsWith(file("spectra.json") + QStringLiteral(": entry 1")), qPrintable(got));
    test::writeFile(file("spectra.bin"), std::string(8, '\0'), true);
    QCOMPARE(reader().spectraSince(-1).size(), size_t{2});
  }

  void statusFile_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("status");  // -1: none
    QTest::addColumn<QString>("message");
    QTest::newRow("running") << QByteArray("running\n") << int(RunStatus::Running) << QString();
    QTest::newRow("diverged with reason") << QByteArray("diverged\nnon-finite training loss at step 4\n")
                                          << int(RunStatus::Diverged) << QStringLiteral("non-finite training loss at step 4");
    QTest::newRow("crlf") << QByteArray("stopped\r\nstopped at step 3\r\n") << int(RunStatus::Stopped) << QStringLiteral("stopped at step 3");
    QTest::newRow("empty") << QByteArray("") << -1 << QString();
    QTest::newRow("blank") << QByteArray(" \n") << -1 << QString();
    QTest::newRow("unknown with message") << QByteArray("exploded\nboom\n") << int(RunStatus::Failed) << QStringLiteral("boom");
    QTest::newRow("binary") << QByteArray("\x01\xff\xfe", 3) << int(RunStatus::Failed) << QStringLiteral("unknown status");
    QTest::newRow("huge") << QByteArray(1 << 20, 'x') << int(RunStatus::Failed) << QStringLiteral("unknown status");
  }

  void statusFile() {
    QFETCH(QByteArray, text);
    QFETCH(int, status);
    QFETCH(QString, message);
    test::writeFile(file("status"), text.toStdString());
    const auto s = reader().status();
    QCOMPARE(s.has_value(), status >= 0);
    if (!s) return;
    QCOMPARE(int(s->status), status);
    QVERIFY2(QString::fromStdString(s->message).startsWith(message), s->message.c_str());
  }

  void configAndSummary() {
    const auto r = reader();
    QVERIFY(!r.config() && !r.summary() && !r.status());  // nothing written yet
    test::writeFile(file("config.json"), R"({"steps": 9})");
    QCOMPARE((*r.config())["steps"].get<int>(), 9);
    test::writeFile(file("summary.json"), R"({"status": "finished", "steps": 9, "val_loss": null})");
    QCOMPARE(r.summary()->steps, int64_t{9});
    QVERIFY(std::isnan(r.summary()->valLoss));
    test::writeFile(file("config.json"), R"({"steps": 9)");  // torn copy
    QVERIFY(errorOf([&] { r.config(); }).startsWith(file("config.json") + QStringLiteral(": not valid JSON at line 1, column 12")));
    test::writeFile(file("summary.json"), "[1]");
    QCOMPARE(errorOf([&] { r.summary(); }), file("summary.json") + QStringLiteral(": not a JSON object"));
    QVERIFY(QDir(tmp_.path()).mkdir(QStringLiteral("status")));
    QVERIFY(errorOf([&] { r.status(); }).contains("not a regular file"));
    QDir(tmp_.path()).rmdir(QStringLiteral("status"));
  }

  void oversizedJsonIsRefusedByName() {
    // The size decides before any byte is parsed.
    test::writeFile(file("config.json"), std::string(RunDirectoryReader::kMaxJsonFileBytes + 1, ' '));
    QCOMPARE(errorOf([&] { reader().config(); }), file("config.json") + QStringLiteral(": larger than 64 MiB"));
  }

  void whatIsARunDirectory() {
    const std::string dir = tmp_.path().toStdString();
    QVERIFY(!RunDirectoryReader::isRunDirectory(dir));
    test::writeFile(file("metrics.jsonl"), "");  // the writer's first file
    QVERIFY(RunDirectoryReader::isRunDirectory(dir));
    QFile::remove(file("metrics.jsonl"));
    test::writeFile(file("config.json"), "{}");
    QVERIFY(RunDirectoryReader::isRunDirectory(dir));
    QVERIFY(!RunDirectoryReader::isRunDirectory(file("config.json").toStdString()));  // a file
    QVERIFY(!RunDirectoryReader::isRunDirectory(file("nope").toStdString()));
  }

  void missingFolderIsNamed() {
    const RunDirectoryReader r(file("gone").toStdString());
    const QString expected = file("gone") + QStringLiteral(": no such run directory");
    QCOMPARE(errorOf([&] { r.metrics(); }), expected);
    QCOMPARE(errorOf([&] { r.metricsSince({}); }), expected);
    QCOMPARE(errorOf([&] { r.spectraSince(-1); }), expected);
    QCOMPARE(errorOf([&] { r.config(); }), expected);
    QCOMPARE(errorOf([&] { r.status(); }), expected);
    QVERIFY(r.checkpoints().empty());
    QVERIFY(!r.newestCheckpoint());
  }

  void checkpointsInStepOrder() {
    QVERIFY(QDir(tmp_.path()).mkdir(QStringLiteral("checkpoints")));
    for (const char* name : {"step_100.safetensors", "step_20.safetensors", "step_3.safetensors", "step_x.safetensors",
                             "step_5.safetensors.tmp", "notes.txt"})
      test::writeFile(tmp_.filePath(QStringLiteral("checkpoints/") + QString::fromLatin1(name)), "x");
    const auto all = reader().checkpoints();
    QCOMPARE(all.size(), size_t{3});
    QCOMPARE(all[0].step, int64_t{3});
    QCOMPARE(all[2].step, int64_t{100});
    QCOMPARE(reader().newestCheckpoint()->filename().string(), std::string("step_100.safetensors"));
  }
};

QTEST_APPLESS_MAIN(TestRunDirectoryReader)
#include "tst_run_directory_reader.moc"
