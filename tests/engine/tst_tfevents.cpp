// TensorBoard event files (engine/io/tfevents.h, issue 29 §3) written here by a test-side
// writer: TFRecord framing with a bit-by-bit CRC-32C (not the reader's table) and Event
// protobufs encoded by hand. Scalars from simple_value, float_val, double_val and
// tensor_content; a bad data CRC skips one record with a warning; a truncated last record is
// "still being written" and a follower continues from nextOffset; hostile lengths (huge,
// negative), a bad length CRC, garbage, an empty file and a directory.
#include "io/input_error.h"
#include "io/tfevents.h"
#include "support/tfevents_writer.h"

#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <fstream>
#include <string>

using namespace lwb;

namespace {

using namespace lwb::test::tfevents;

}  // namespace

class TestTfEvents : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void crcMatchesTheKnownValue() {
    // RFC 3720's check value: CRC-32C("123456789") = 0xE3069283.
    QCOMPARE(io::crc32c("123456789"), 0xE3069283u);
    QCOMPARE(crc32cBitwise("123456789"), 0xE3069283u);
    QCOMPARE(io::maskedCrc32c("some bytes"), masked("some bytes"));
  }

  void everyScalarEncodingIsRead() {
    const std::string file = fileVersion() + record(scalarEvent(0, "Loss/train", simpleValue(2.5f))) +
                             record(scalarEvent(1, "Loss/val", tensorFloatVal(1.25f))) +
                             record(scalarEvent(2, "lr", tensorDoubleVal(0.001))) +
                             record(scalarEvent(3, "acc", tensorContentFloat(0.75f))) +
                             record(scalarEvent(4, "bound", tensorContentDouble(12.345678901234))) +
                             // a histogram-like tensor (3 doubles) is not a scalar: ignored
                             record(scalarEvent(5, "hist", tensor(key(1, 0) + varint(2) + bytesField(4, doubleBits(1) + doubleBits(2) + doubleBits(3)))));
    const auto scan = io::scanTfEvents(file, "t");
    QVERIFY(scan.warnings.empty());
    QVERIFY(!scan.stillBeingWritten);
    QCOMPARE(scan.records, int64_t{7});
    QCOMPARE(scan.nextOffset, uint64_t{file.size()});
    QCOMPARE(scan.scalars.size(), size_t{5});
    const std::vector<std::pair<std::string, double>> want{{"Loss/train", 2.5}, {"Loss/val", 1.25}, {"lr", 0.001}, {"acc", 0.75}, {"bound", 12.345678901234}};
    for (size_t i = 0; i < want.size(); ++i) {
      QCOMPARE(scan.scalars[i].tag, want[i].first);
      QCOMPARE(scan.scalars[i].step, static_cast<int64_t>(i));
      QCOMPARE(scan.scalars[i].value, want[i].second);
      QCOMPARE(scan.scalars[i].wallTime, 1.7e9);
    }
  }

  void badDataCrcSkipsOneRecordWithAWarning() {
    std::string bad = record(scalarEvent(1, "x", simpleValue(2)));
    bad[bad.size() - 1] ^= 0x40;  // the data CRC
    const std::string file = record(scalarEvent(0, "x", simpleValue(1))) + bad + record(scalarEvent(2, "x", simpleValue(3)));
    const auto scan = io::scanTfEvents(file, "events.out.tfevents.1");
    QCOMPARE(scan.scalars.size(), size_t{2});
    QCOMPARE(scan.scalars[1].value, 3.0);
    QCOMPARE(scan.warnings.size(), size_t{1});
    QVERIFY2(scan.warnings[0].find("data CRC mismatch") != std::string::npos, scan.warnings[0].c_str());
    QVERIFY(scan.warnings[0].find("events.out.tfevents.1") != std::string::npos);
    // A flipped byte inside the data, CRC left as it was: the same.
    std::string flipped = record(scalarEvent(1, "x", simpleValue(2)));
    flipped[20] ^= 0x01;
    QCOMPARE(io::scanTfEvents(flipped, "t").warnings.size(), size_t{1});
    QCOMPARE(io::scanTfEvents(flipped, "t").scalars.size(), size_t{0});
  }

  void truncatedTailIsStillBeingWritten() {
    const std::string first = record(scalarEvent(0, "x", simpleValue(1)));
    const std::string second = record(scalarEvent(1, "x", simpleValue(2)));
    for (size_t cut : {size_t{1}, size_t{11}, size_t{12}, second.size() - 1}) {
      const std::string file = first + second.substr(0, cut);
      const auto scan = io::scanTfEvents(file, "t");
      QVERIFY2(scan.stillBeingWritten, qPrintable(QString::number(cut)));
      QVERIFY(scan.warnings.empty());
      QCOMPARE(scan.scalars.size(), size_t{1});
      QCOMPARE(scan.nextOffset, uint64_t{first.size()});
      // The writer finishes: a follower reads on from nextOffset and gets only the new one.
      const auto more = io::scanTfEvents(first + second, "t", scan.nextOffset);
      QCOMPARE(more.scalars.size(), size_t{1});
      QCOMPARE(more.scalars[0].value, 2.0);
      QVERIFY(!more.stillBeingWritten);
    }
  }

  void hostileLengthsStopWithAMessage_data() {
    QTest::addColumn<uint64_t>("length");
    QTest::newRow("huge 2^40") << (uint64_t{1} << 40);
    QTest::newRow("negative -1") << ~uint64_t{0};
    QTest::newRow("negative -2^62") << static_cast<uint64_t>(-(int64_t{1} << 62));
    QTest::newRow("just above the limit") << io::kMaxTfRecordBytes + 1;
  }
  void hostileLengthsStopWithAMessage() {
    QFETCH(uint64_t, length);
    const std::string len = le(length, 8);
    const std::string file = record(scalarEvent(0, "x", simpleValue(1))) + len + le(masked(len), 4) + "tiny";
    const auto scan = io::scanTfEvents(file, "t");
    QCOMPARE(scan.scalars.size(), size_t{1});
    QCOMPARE(scan.warnings.size(), size_t{1});
    QVERIFY2(scan.warnings[0].find("exceeds the 64 MiB record limit") != std::string::npos, scan.warnings[0].c_str());
    QVERIFY(!scan.stillBeingWritten);
  }

  void badLengthCrcStopsTheScan() {
    std::string second = record(scalarEvent(1, "x", simpleValue(2)));
    second[8] ^= 0x01;  // the length CRC
    const auto scan = io::scanTfEvents(record(scalarEvent(0, "x", simpleValue(1))) + second + record(scalarEvent(2, "x", simpleValue(3))), "t");
    QCOMPARE(scan.scalars.size(), size_t{1});
    QCOMPARE(scan.warnings.size(), size_t{1});
    QVERIFY2(scan.warnings[0].find("length CRC mismatch") != std::string::npos, scan.warnings[0].c_str());
  }

  void malformedEventsAreSkipped() {
    // Valid framing around bytes that are not an Event (a varint that never ends, a length
    // running past the end, a group wire type).
    for (const std::string& data : {std::string(12, '\xff'), key(5, 2) + varint(1000) + "ab", key(1, 3)}) {
      const auto scan = io::scanTfEvents(record(data) + record(scalarEvent(0, "ok", simpleValue(4))), "t");
      QCOMPARE(scan.warnings.size(), size_t{1});
      QVERIFY(scan.warnings[0].find("not a readable Event") != std::string::npos);
      QCOMPARE(scan.scalars.size(), size_t{1});
    }
  }

  void emptyGarbageDirectoryAndMissingFiles() {
    QVERIFY(io::scanTfEvents("", "t").scalars.empty());
    QVERIFY(!io::scanTfEvents("", "t").stillBeingWritten);
    const auto garbage = io::scanTfEvents(std::string(4096, 'A'), "t");
    QCOMPARE(garbage.warnings.size(), size_t{1});  // the first length CRC fails: stop
    QTemporaryDir dir;
    const std::string d = dir.filePath(QStringLiteral("events.out.tfevents.123.host")).toStdString();
    QVERIFY(QDir().mkpath(QString::fromStdString(d)));
    try {
      io::readTfEventsFile(d);
      QFAIL("a directory was read as an event file");
    } catch (const InputError& e) {
      QVERIFY2(std::string(e.what()).find("directory") != std::string::npos, e.what());
    }
    QVERIFY_THROWS_EXCEPTION(InputError, io::readTfEventsFile(dir.filePath(QStringLiteral("missing")).toStdString()));
    // A real file on disk round-trips.
    const std::string f = dir.filePath(QStringLiteral("events.out.tfevents.1.host")).toStdString();
    std::ofstream(f, std::ios::binary) << fileVersion() + record(scalarEvent(7, "Loss/val", simpleValue(0.5f)));
    const auto scan = io::readTfEventsFile(f);
    QCOMPARE(scan.scalars.size(), size_t{1});
    QCOMPARE(scan.scalars[0].step, int64_t{7});
  }

  void tagsMapToCompareColumns() {
    QCOMPARE(io::compareKeyForTag("Loss/train"), std::string("train_loss"));
    QCOMPARE(io::compareKeyForTag("train/loss"), std::string("train_loss"));
    QCOMPARE(io::compareKeyForTag("Loss/val"), std::string("val_loss"));
    QCOMPARE(io::compareKeyForTag("eval/loss"), std::string("val_loss"));
    QCOMPARE(io::compareKeyForTag("Accuracy/val"), std::string("val_acc"));
    QCOMPARE(io::compareKeyForTag("lr"), std::string("lr"));
    QCOMPARE(io::compareKeyForTag("charts/SPS"), std::string("charts/SPS"));
    QVERIFY(io::isTfEventsFileName("events.out.tfevents.1700000000.host.123.0"));
    QVERIFY(!io::isTfEventsFileName("metrics.jsonl"));
  }
};

QTEST_GUILESS_MAIN(TestTfEvents)
#include "tst_tfevents.moc"
