// Character-level text and modular-arithmetic datasets: exact contents, split sizes,
// determinism for a generator seed, and every bad argument or file.
#include "data/chars_dataset.h"
#include "data/data_location.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/ops/equal.h>
#include "support/test_files.h"

#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>

using namespace lwb;
using namespace lwb::data;

namespace {

// 50 characters: the first 40 train, the last 10 ("hat!\nyes.\n") validate at valFraction 0.2.
const std::string kText = "the cat sat on the mat.\nthe dog ate the hat!\nyes.\n";
// Distinct bytes in ASCII order: class id == position in the text, so a window's start
// can be read off its first id.
const std::string kAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwx";


using lwb::test::inputErrorOf;
using lwb::test::writeFile;

at::Generator seeded(uint64_t seed) { return at::make_generator<at::CPUGeneratorImpl>(seed); }

}  // namespace

class TestData : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void charsVocabularySplitsAndSlices() {
    QTemporaryDir dir;
    const QString path = dir.filePath("t.txt");
    writeFile(path, kText);
    CharsDataset ds(path.toStdString(), 4, 0.2);
    QCOMPARE(ds.vocabulary(), std::string("\n !.acdeghmnosty"));
    QCOMPARE(ds.numClasses(), int64_t{16});
    QCOMPARE(ds.inputDim(), int64_t{4});
    QCOMPARE(ds.characters(Split::Train), int64_t{40});
    QCOMPARE(ds.characters(Split::Val), int64_t{10});
    QCOMPARE(ds.size(Split::Train), int64_t{9});  // (40 - 1) / 4 windows of 5 characters
    QCOMPARE(ds.size(Split::Val), int64_t{2});    // (10 - 1) / 4

    const Batch b = ds.slice(Split::Train, 1, 2);  // windows at characters 4 and 8
    QCOMPARE(b.inputs.sizes().vec(), (std::vector<int64_t>{2, 4}));
    QCOMPARE(b.inputs.scalar_type(), at::kLong);
    QCOMPARE(b.targets.scalar_type(), at::kLong);
    QCOMPARE(ds.decode(b.inputs), std::string("cat sat "));
    QCOMPARE(ds.decode(b.targets), std::string("at sat o"));
    const Batch last = ds.slice(Split::Train, 8, 1);  // characters 32..36 of 0..39
    QCOMPARE(ds.decode(last.inputs), std::string("ate "));
    QCOMPARE(ds.decode(last.targets), std::string("te t"));
    const Batch val = ds.slice(Split::Val, 0, 2);
    QCOMPARE(ds.decode(val.inputs), std::string("hat!\nyes"));
    QCOMPARE(ds.decode(val.targets), std::string("at!\nyes."));
    QCOMPARE(ds.slice(Split::Val, 2, 0).inputs.size(0), int64_t{0});
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, ds.slice(Split::Train, 8, 2));
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, ds.slice(Split::Val, -1, 1));
    QVERIFY(QString::fromStdString(ds.describe()).contains(QStringLiteral("vocabulary 16")));
    // The factory builds the same thing behind the interface.
    QCOMPARE(makeCharsDataset(path.toStdString(), 4, 0.2)->size(Split::Train), int64_t{9});
  }

  void charsSampleCoversEveryStartAndShiftsByOne() {
    QTemporaryDir dir;
    const QString path = dir.filePath("abc.txt");
    writeFile(path, kAlphabet);
    CharsDataset ds(path.toStdString(), 4, 0.2);  // train = ids 0..39, val = ids 40..49
    auto gen = seeded(7);
    const Batch b = ds.sample(Split::Train, 2000, gen);
    QCOMPARE(b.inputs.sizes().vec(), (std::vector<int64_t>{2000, 4}));
    std::set<int64_t> starts;
    for (int64_t i = 0; i < 2000; ++i) {
      const int64_t s = b.inputs[i][0].item<int64_t>();
      starts.insert(s);
      for (int64_t t = 0; t < 4; ++t) {
        QCOMPARE(b.inputs[i][t].item<int64_t>(), s + t);
        QCOMPARE(b.targets[i][t].item<int64_t>(), s + t + 1);
      }
    }
    // Every window of 5 characters inside the train split, and none crossing into val.
    QCOMPARE(starts.size(), size_t{36});
    QCOMPARE(*starts.begin(), int64_t{0});
    QCOMPARE(*starts.rbegin(), int64_t{35});
    const Batch v = ds.sample(Split::Val, 500, gen);
    QCOMPARE(v.inputs.min().item<int64_t>(), int64_t{40});
    QCOMPARE(v.targets.max().item<int64_t>(), int64_t{49});
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, ds.sample(Split::Train, 0, gen));
  }

  void charsSampleIsDeterministicForASeed() {
    QTemporaryDir dir;
    const QString path = dir.filePath("t.txt");
    writeFile(path, kText);
    const auto ds = makeCharsDataset(path.toStdString(), 4, 0.2);
    auto a = seeded(123), b = seeded(123), c = seeded(124);
    const Batch x = ds->sample(Split::Train, 64, a);
    QVERIFY(at::equal(x.inputs, ds->sample(Split::Train, 64, b).inputs));
    QVERIFY(!at::equal(x.inputs, ds->sample(Split::Train, 64, c).inputs));
    QVERIFY(!at::equal(x.inputs, ds->sample(Split::Train, 64, a).inputs));  // the state advanced
  }

  void charsRejectsBadInput_data() {
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<int>("kind");  // 0 file with content, 1 no file, 2 directory, 3 sparse 2 GiB + 1
    QTest::addColumn<int>("seqLen");
    QTest::addColumn<double>("valFraction");
    QTest::addColumn<QString>("needle");
    const QByteArray text = QByteArray::fromStdString(kText);
    QTest::newRow("missing") << QByteArray() << 1 << 4 << 0.1 << "no such file";
    QTest::newRow("directory") << QByteArray() << 2 << 4 << 0.1 << "is a directory";
    QTest::newRow("empty") << QByteArray() << 0 << 4 << 0.1 << "empty text file";
    QTest::newRow("too large") << QByteArray() << 3 << 4 << 0.1 << "larger than the limit of 2147483648";
    QTest::newRow("seqLen 0") << text << 0 << 0 << 0.1 << "sequence length 0";
    QTest::newRow("seqLen -3") << text << 0 << -3 << 0.1 << "sequence length -3";
    QTest::newRow("valFraction 0") << text << 0 << 4 << 0.0 << "validation fraction";
    QTest::newRow("valFraction 1") << text << 0 << 4 << 1.0 << "validation fraction";
    QTest::newRow("valFraction -0.5") << text << 0 << 4 << -0.5 << "validation fraction";
    QTest::newRow("valFraction NaN") << text << 0 << 4 << std::numeric_limits<double>::quiet_NaN()
                                     << "validation fraction";
    QTest::newRow("val too short") << text << 0 << 10 << 0.2 << "validation split has 10 characters";
    QTest::newRow("train too short") << QByteArray("abc") << 0 << 4 << 0.1 << "train split has 2";
  }

  void charsRejectsBadInput() {
    QFETCH(QByteArray, content);
    QFETCH(int, kind);
    QFETCH(int, seqLen);
    QFETCH(double, valFraction);
    QFETCH(QString, needle);
    QTemporaryDir dir;
    const QString path = dir.filePath("in.txt");
    if (kind == 0) writeFile(path, content.toStdString());
    if (kind == 2) QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("in.txt")));
    if (kind == 3) {  // sparse: no disk space used, rejected from its size before any read
      writeFile(path, "x");
      std::filesystem::resize_file(path.toStdString(), (uint64_t{2} << 30) + 1);
    }
    const QString msg = inputErrorOf([&] { makeCharsDataset(path.toStdString(), seqLen, valFraction); });
    QVERIFY2(msg.startsWith(path + QStringLiteral(": ")), qPrintable(msg));
    QVERIFY2(msg.contains(needle), qPrintable(msg));
  }

  void charsTinyShakespeare() {
    // The bundled copy (resources/data), found as a preset names it; never skipped.
    const QString path = QString::fromStdString(lwb::data::resolveDataPath("@data/tinyshakespeare/input.txt"));
    CharsDataset ds(path.toStdString(), 1);
    QCOMPARE(ds.numClasses(), int64_t{65});
    QCOMPARE(ds.vocabulary(), std::string("\n !$&',-.3:;?ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"));
    // nanoGPT: n = 1,115,394, train = data[:int(n * 0.9)].
    QCOMPARE(ds.characters(Split::Train), int64_t{1003854});
    QCOMPARE(ds.characters(Split::Val), int64_t{111540});
    QCOMPARE(ds.size(Split::Train), int64_t{1003853});
    QCOMPARE(ds.size(Split::Val), int64_t{111539});
    QCOMPARE(ds.decode(ds.slice(Split::Train, 0, 14).inputs), std::string("First Citizen:"));
    QCOMPARE(ds.decode(ds.slice(Split::Val, 111538, 1).targets), std::string("\n"));
    const auto ds256 = makeCharsDataset(path.toStdString(), 256);
    QCOMPARE(ds256->size(Split::Train), int64_t{3921});
    QCOMPARE(ds256->size(Split::Val), int64_t{435});
    auto gen = seeded(1);
    QCOMPARE(ds256->sample(Split::Train, 8, gen).targets.sizes().vec(), (std::vector<int64_t>{8, 256}));
  }

  void modularEveryPairOnce_data() {
    QTest::addColumn<bool>("add");
    QTest::addColumn<int>("p");
    QTest::addColumn<double>("fraction");
    QTest::addColumn<int>("trainSize");
    QTest::newRow("add 7") << true << 7 << 0.3 << 14;          // floor(49 * 0.3)
    QTest::newRow("mul 7") << false << 7 << 0.5 << 24;         // floor(49 * 0.5)
    QTest::newRow("add 113") << true << 113 << 0.3 << 3830;    // floor(12769 * 0.3)
    QTest::newRow("mul 97") << false << 97 << 0.9 << 8468;     // floor(9409 * 0.9)
    QTest::newRow("add 2") << true << 2 << 0.5 << 2;
  }

  void modularEveryPairOnce() {
    QFETCH(bool, add);
    QFETCH(int, p);
    QFETCH(double, fraction);
    QFETCH(int, trainSize);
    const auto ds = makeModularDataset(add ? ModularOp::Addition : ModularOp::Multiplication, p, fraction, 5);
    QCOMPARE(ds->size(Split::Train), int64_t{trainSize});
    QCOMPARE(ds->size(Split::Val), int64_t{p} * p - trainSize);
    QCOMPARE(ds->numClasses(), int64_t{p});
    QCOMPARE(ds->inputDim(), int64_t{2});
    std::vector<int> seen(static_cast<size_t>(p * p), 0);
    for (const Split s : {Split::Train, Split::Val}) {
      const Batch b = ds->slice(s, 0, ds->size(s));
      QCOMPARE(b.inputs.scalar_type(), at::kLong);
      const auto x = b.inputs.accessor<int64_t, 2>();
      const auto y = b.targets.accessor<int64_t, 1>();
      for (int64_t i = 0; i < b.targets.size(0); ++i) {
        const int64_t a = x[i][0], c = x[i][1];
        QVERIFY(a >= 0 && a < p && c >= 0 && c < p);
        QCOMPARE(y[i], add ? (a + c) % p : (a * c) % p);
        ++seen[static_cast<size_t>(a * p + c)];
      }
    }
    QCOMPARE(std::count(seen.begin(), seen.end(), 1), std::ptrdiff_t{p} * p);
  }

  void modularShuffleIsSeeded() {
    const auto a = makeModularDataset(ModularOp::Addition, 31, 0.3, 3);
    const auto b = makeModularDataset(ModularOp::Addition, 31, 0.3, 3);
    const auto c = makeModularDataset(ModularOp::Addition, 31, 0.3, 4);
    const at::Tensor ta = a->slice(Split::Train, 0, a->size(Split::Train)).inputs;
    QVERIFY(at::equal(ta, b->slice(Split::Train, 0, b->size(Split::Train)).inputs));
    QVERIFY(!at::equal(ta, c->slice(Split::Train, 0, c->size(Split::Train)).inputs));
    // Shuffled, not the first 288 pairs in (a, b) order: those would all have a <= 9.
    QVERIFY(ta.select(1, 0).max().item<int64_t>() > 9);
    auto g1 = seeded(9), g2 = seeded(9);
    const Batch s = a->sample(Split::Val, 256, g1);
    QVERIFY(at::equal(s.inputs, a->sample(Split::Val, 256, g2).inputs));
    QVERIFY(at::equal(s.targets, (s.inputs.select(1, 0) + s.inputs.select(1, 1)) % 31));
  }

  void modularLargestModulus() {
    const auto ds = makeModularDataset(ModularOp::Multiplication, 1000, 0.3, 0);
    QCOMPARE(ds->size(Split::Train), int64_t{300000});
    QCOMPARE(ds->size(Split::Val), int64_t{700000});
  }

  void modularRejectsBadArguments_data() {
    QTest::addColumn<int>("p");
    QTest::addColumn<double>("fraction");
    QTest::addColumn<QString>("needle");
    QTest::newRow("p 1") << 1 << 0.3 << "modulus p = 1 must be in 2..1000";
    QTest::newRow("p 0") << 0 << 0.3 << "modulus p = 0";
    QTest::newRow("p -7") << -7 << 0.3 << "modulus p = -7";
    QTest::newRow("p 1001") << 1001 << 0.3 << "modulus p = 1001";
    QTest::newRow("fraction 0") << 7 << 0.0 << "train fraction";
    QTest::newRow("fraction 1") << 7 << 1.0 << "train fraction";
    QTest::newRow("fraction 1.5") << 7 << 1.5 << "train fraction";
    QTest::newRow("fraction NaN") << 7 << std::numeric_limits<double>::quiet_NaN() << "train fraction";
    QTest::newRow("empty train") << 2 << 0.1 << "leaves a split empty";
  }

  void modularRejectsBadArguments() {
    QFETCH(int, p);
    QFETCH(double, fraction);
    QFETCH(QString, needle);
    const QString msg = inputErrorOf([&] { makeModularDataset(ModularOp::Addition, p, fraction, 0); });
    QVERIFY2(msg.startsWith(QStringLiteral("modular dataset: ")), qPrintable(msg));
    QVERIFY2(msg.contains(needle), qPrintable(msg));
  }
};

QTEST_APPLESS_MAIN(TestData)
#include "tst_data.moc"
