// CIFAR-10 binary batches, generated: labels, R/G/B plane order, how batches are combined
// and split, and every bad size or label.
#include "data/dataset.h"
#include "data/file_bytes.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/ops/equal.h>
#include "support/test_files.h"

#include <QtTest/QtTest>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>

using namespace lwb;
using namespace lwb::data;

namespace {

// Record i: label i % 10; plane c (0 R, 1 G, 2 B), pixel k holds (80c + i + k) % 256, so
// every plane and record differs and the plane order is visible in the first pixel.
uint8_t planeValue(int i, int c, int k) { return static_cast<uint8_t>((80 * c + i + k) % 256); }

std::string records(int first, int count) {
  std::string s;
  for (int i = first; i < first + count; ++i) {
    s.push_back(static_cast<char>(i % 10));
    for (int c = 0; c < 3; ++c)
      for (int k = 0; k < 1024; ++k) s.push_back(static_cast<char>(planeValue(i, c, k)));
  }
  return s;
}


using lwb::test::inputErrorOf;
using lwb::test::writeFile;

// Rows of `b` are records first, first + 1, ... of records().
bool matchesRecords(const Batch& b, int first) {
  if (b.inputs.dim() != 2 || b.inputs.size(1) != 3072 || b.inputs.scalar_type() != at::kFloat) return false;
  const auto x = b.inputs.accessor<float, 2>();
  for (int64_t r = 0; r < b.inputs.size(0); ++r) {
    const int i = first + static_cast<int>(r);
    if (b.targets[r].item<int64_t>() != i % 10) return false;
    for (int c = 0; c < 3; ++c)
      for (int k = 0; k < 1024; ++k)
        if (std::abs(x[r][c * 1024 + k] * 255.0f - planeValue(i, c, k)) > 1e-4f) return false;
  }
  return true;
}

}  // namespace

class TestDataCifar10 : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void oneTrainBatchSplits90_10() {
    QTemporaryDir dir;
    writeFile(dir.filePath("data_batch_1.bin"), records(0, 20));
    const auto ds = makeCifar10Dataset(dir.path().toStdString());
    QCOMPARE(ds->size(Split::Train), int64_t{18});
    QCOMPARE(ds->size(Split::Val), int64_t{2});
    QCOMPARE(ds->inputDim(), int64_t{3072});
    QCOMPARE(ds->numClasses(), int64_t{10});
    const Batch train = ds->slice(Split::Train, 0, 18);
    QVERIFY(matchesRecords(train, 0));
    QVERIFY(matchesRecords(ds->slice(Split::Val, 0, 2), 18));
    // File order, R plane first: record 3 starts R = 3, G = 83, B = 163.
    QCOMPARE(std::lround(train.inputs[3][0].item<float>() * 255), 3L);
    QCOMPARE(std::lround(train.inputs[3][1024].item<float>() * 255), 83L);
    QCOMPARE(std::lround(train.inputs[3][2048].item<float>() * 255), 163L);
    QCOMPARE(train.targets[13].item<int64_t>(), int64_t{3});
    QCOMPARE(train.inputs.min().item<float>(), 0.0f);
    QCOMPARE(train.inputs.max().item<float>(), 1.0f);
    QVERIFY(QString::fromStdString(ds->describe()).contains(QStringLiteral("18 train / 2 val")));
  }

  void trainBatchesInOrderAndTestBatchValidates() {
    QTemporaryDir dir;
    writeFile(dir.filePath("data_batch_1.bin"), records(0, 20));
    writeFile(dir.filePath("data_batch_3.bin"), records(20, 10));  // gaps in 1..5 are fine
    writeFile(dir.filePath("test_batch.bin"), records(100, 5));
    const auto ds = makeCifar10Dataset(dir.path().toStdString());
    QCOMPARE(ds->size(Split::Train), int64_t{30});
    QCOMPARE(ds->size(Split::Val), int64_t{5});
    QVERIFY(matchesRecords(ds->slice(Split::Train, 0, 30), 0));
    QVERIFY(matchesRecords(ds->slice(Split::Val, 0, 5), 100));
    QVERIFY(matchesRecords(ds->slice(Split::Train, 25, 3), 25));
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, ds->slice(Split::Val, 3, 3));
  }

  void testBatchAloneAndArchiveFolder() {
    QTemporaryDir dir;
    QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("cifar-10-batches-bin")));
    writeFile(dir.filePath("cifar-10-batches-bin/test_batch.bin"), records(0, 10));
    const auto ds = makeCifar10Dataset(dir.path().toStdString());
    QCOMPARE(ds->size(Split::Train), int64_t{9});
    QCOMPARE(ds->size(Split::Val), int64_t{1});
    QVERIFY(matchesRecords(ds->slice(Split::Val, 0, 1), 9));
  }

  void sampleIsDeterministicAndDrawsWholeRecords() {
    QTemporaryDir dir;
    writeFile(dir.filePath("data_batch_2.bin"), records(0, 20));
    const auto ds = makeCifar10Dataset(dir.path().toStdString());
    auto g1 = at::make_generator<at::CPUGeneratorImpl>(11), g2 = at::make_generator<at::CPUGeneratorImpl>(11);
    const Batch a = ds->sample(Split::Train, 200, g1);
    const Batch b = ds->sample(Split::Train, 200, g2);
    QVERIFY(at::equal(a.inputs, b.inputs));
    QVERIFY(at::equal(a.targets, b.targets));
    QCOMPARE(a.inputs.sizes().vec(), (std::vector<int64_t>{200, 3072}));
    std::set<long> drawn;
    for (int64_t r = 0; r < 200; ++r) {
      const long i = std::lround(a.inputs[r][0].item<float>() * 255);  // R pixel 0 = record index
      QVERIFY(i >= 0 && i < 18);
      QVERIFY(matchesRecords({a.inputs.narrow(0, r, 1), a.targets.narrow(0, r, 1)}, static_cast<int>(i)));
      drawn.insert(i);
    }
    QCOMPARE(drawn.size(), size_t{18});  // 200 draws of 18 with replacement reach them all
  }

  void rejectsBadFiles_data() {
    QTest::addColumn<QString>("name");   // "" = no file, ending in "/" = a directory
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<qint64>("sparseSize");
    QTest::addColumn<QString>("blamed");  // "" = the folder
    QTest::addColumn<QString>("needle");
    const auto b = [](const std::string& s) { return QByteArray::fromStdString(s); };
    const QString train = QStringLiteral("data_batch_1.bin"), test = QStringLiteral("test_batch.bin");
    std::string badLabel = records(0, 5), label255 = records(0, 2);
    badLabel[3 * 3073] = 10;
    label255[0] = '\xff';
    QTest::newRow("3072 bytes") << train << b(records(0, 1).substr(1)) << qint64(0) << train
                                << "size 3072 is not a multiple of the 3073-byte record";
    QTest::newRow("one byte extra") << test << b(records(0, 2) + "x") << qint64(0) << test
                                    << "size 6147 is not a multiple";
    QTest::newRow("empty") << train << QByteArray() << qint64(0) << train << "empty file";
    QTest::newRow("label 10") << train << b(badLabel) << qint64(0) << train
                              << "label 10 of record 3 is out of range 0..9";
    QTest::newRow("label 255") << test << b(label255) << qint64(0)
                               << test << "label 255 of record 0";
    QTest::newRow("one record") << test << b(records(0, 1)) << qint64(0) << ""
                                << "only 1 record(s): at least 2 are needed";
    QTest::newRow("directory") << test + "/" << QByteArray() << qint64(0) << test << "is a directory";
    QTest::newRow("no files") << "" << QByteArray() << qint64(0) << "" << "no CIFAR-10 files";
    QTest::newRow("other files only") << "data_batch_6.bin" << b(records(0, 2)) << qint64(0) << ""
                                      << "no CIFAR-10 files";
    // Sparse, a multiple of 3073, one record past 1 GiB: refused before reading.
    QTest::newRow("too large") << train << QByteArray("x") << qint64(3073) * 349526 << train
                               << "larger than the limit of 1073741824 bytes";
  }

  void rejectsBadFiles() {
    QFETCH(QString, name);
    QFETCH(QByteArray, bytes);
    QFETCH(qint64, sparseSize);
    QFETCH(QString, blamed);
    QFETCH(QString, needle);
    QTemporaryDir dir;
    if (name.endsWith(QLatin1Char('/'))) QVERIFY(QDir(dir.path()).mkdir(name.chopped(1)));
    else if (!name.isEmpty()) writeFile(dir.filePath(name), bytes.toStdString());
    if (sparseSize > 0) std::filesystem::resize_file(dir.filePath(name).toStdString(), sparseSize);
    const QString msg = inputErrorOf([&] { makeCifar10Dataset(dir.path().toStdString()); });
    const QString prefix = (blamed.isEmpty() ? dir.path() : dir.filePath(blamed)) + QStringLiteral(": ");
    QVERIFY2(msg.startsWith(prefix), qPrintable(msg));
    QVERIFY2(msg.contains(needle), qPrintable(msg));
  }

  void rejectsBadFolder() {
    QTemporaryDir dir;
    const QString missing = dir.filePath("nope");
    QVERIFY(inputErrorOf([&] { makeCifar10Dataset(missing.toStdString()); })
                .startsWith(missing + QStringLiteral(": no such folder")));
    writeFile(dir.filePath("test_batch.bin"), records(0, 2));
    QVERIFY(inputErrorOf([&] { makeCifar10Dataset(dir.filePath("test_batch.bin").toStdString()); })
                .contains(QStringLiteral(": is not a folder")));
  }
};

QTEST_APPLESS_MAIN(TestDataCifar10)
#include "tst_data_cifar10.moc"
