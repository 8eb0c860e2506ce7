// MNIST: the real t10k files, generated raw and gzipped IDX files, and every corruption of
// them (IDX header, sizes, labels, gzip stream, missing files).
#include "data/data_location.h"
#include "data/dataset.h"
#include "data/file_bytes.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/ops/equal.h>
#include "support/test_files.h"

#include <QtTest/QtTest>
#include <zlib.h>

#include <cmath>
#include <filesystem>
#include <fstream>

using namespace lwb;
using namespace lwb::data;

namespace {

std::string be32(uint32_t v) {
  return {static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8),
          static_cast<char>(v)};
}

// Pixel k of image i (the `salt` tells two files apart).
uint8_t pixel(int i, int k, int salt = 0) { return static_cast<uint8_t>((i * 7 + k + salt) % 256); }

std::string idxImages(uint32_t count, uint32_t rows = 28, uint32_t cols = 28, int salt = 0) {
  std::string s = be32(0x803) + be32(count) + be32(rows) + be32(cols);
  for (uint32_t i = 0; i < count; ++i)
    for (uint32_t k = 0; k < rows * cols; ++k) s.push_back(static_cast<char>(pixel(i, k, salt)));
  return s;
}

std::string idxLabels(uint32_t count, int salt = 0) {
  std::string s = be32(0x801) + be32(count);
  for (uint32_t i = 0; i < count; ++i) s.push_back(static_cast<char>((i * 3 + salt) % 10));
  return s;
}

std::string gzipBytes(const std::string& raw) {
  z_stream z{};
  if (deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK) return {};
  std::string out(deflateBound(&z, raw.size()), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(raw.data()));
  z.avail_in = static_cast<uInt>(raw.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}


using lwb::test::inputErrorOf;
using lwb::test::writeFile;

// Rows of `b` hold images first..first+n-1 of a generated file, labels included.
bool matchesGenerated(const Batch& b, int first, int salt = 0) {
  const auto x = b.inputs.accessor<float, 2>();
  for (int64_t i = 0; i < b.inputs.size(0); ++i) {
    if (b.targets[i].item<int64_t>() != ((first + i) * 3 + salt) % 10) return false;
    for (int k = 0; k < 784; ++k)
      if (std::abs(x[i][k] * 255.0f - pixel(first + i, k, salt)) > 1e-4f) return false;
  }
  return true;
}

const char kImages[] = "t10k-images-idx3-ubyte";
const char kLabels[] = "t10k-labels-idx1-ubyte";

}  // namespace

class TestDataMnist : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void realTestSplit() {
    // The bundled copy (resources/data), found as a preset names it; never skipped.
    const QString dir = QString::fromStdString(lwb::data::resolveDataPath("@data/mnist"));
    QCOMPARE(readMaybeGzipped((dir + QStringLiteral("/t10k-images-idx3-ubyte.gz")).toStdString()).size(),
             size_t{7840016});
    const auto ds = makeMnistDataset(dir.toStdString());
    QCOMPARE(ds->size(Split::Train), int64_t{8000});
    QCOMPARE(ds->size(Split::Val), int64_t{2000});
    QCOMPARE(ds->inputDim(), int64_t{784});
    QCOMPARE(ds->numClasses(), int64_t{10});
    const Batch train = ds->slice(Split::Train, 0, 8000);
    const Batch val = ds->slice(Split::Val, 0, 2000);
    QCOMPARE(train.inputs.sizes().vec(), (std::vector<int64_t>{8000, 784}));
    QCOMPARE(train.inputs.scalar_type(), at::kFloat);
    QCOMPARE(train.targets.scalar_type(), at::kLong);
    // The well-known first ten test labels.
    const std::vector<int64_t> first{7, 2, 1, 0, 4, 1, 4, 9, 5, 9};
    for (int i = 0; i < 10; ++i) QCOMPARE(train.targets[i].item<int64_t>(), first[i]);
    // Label counts from resources/data/README.md, over both parts of the split.
    const std::vector<int64_t> counts{980, 1135, 1032, 1010, 982, 892, 958, 1028, 974, 1009};
    for (int64_t c = 0; c < 10; ++c)
      QCOMPARE((train.targets == c).sum().item<int64_t>() + (val.targets == c).sum().item<int64_t>(), counts[c]);
    for (const Batch* b : {&train, &val}) {
      QCOMPARE(b->inputs.min().item<float>(), 0.0f);
      QCOMPARE(b->inputs.max().item<float>(), 1.0f);
      // Every value is a byte / 255.
      QVERIFY(((b->inputs * 255).round() - b->inputs * 255).abs().max().item<float>() < 1e-4f);
    }
    auto g1 = at::make_generator<at::CPUGeneratorImpl>(5), g2 = at::make_generator<at::CPUGeneratorImpl>(5);
    const Batch s = ds->sample(Split::Val, 32, g1);
    QVERIFY(at::equal(s.inputs, ds->sample(Split::Val, 32, g2).inputs));
    QVERIFY(inputErrorOf([&] { makeMnistDataset(dir.toStdString(), 10000); })
                .contains(QStringLiteral("train count 10000 must be in 1..9999")));
  }

  void generatedFiles_data() {
    QTest::addColumn<bool>("gzImages");
    QTest::addColumn<bool>("gzLabels");
    QTest::addColumn<bool>("twoMembers");
    QTest::newRow("raw") << false << false << false;
    QTest::newRow("gzip") << true << true << false;
    QTest::newRow("mixed") << true << false << false;
    QTest::newRow("gzip, two members") << true << true << true;
  }

  void generatedFiles() {
    QFETCH(bool, gzImages);
    QFETCH(bool, gzLabels);
    QFETCH(bool, twoMembers);
    QTemporaryDir dir;
    const std::string images = idxImages(10), labels = idxLabels(10);
    // gzip(1) reads concatenated members as one stream; so must we.
    const auto gz = [&](const std::string& s) {
      const size_t half = s.size() / 2;
      return twoMembers ? gzipBytes(s.substr(0, half)) + gzipBytes(s.substr(half)) : gzipBytes(s);
    };
    writeFile(dir.filePath(kImages) + (gzImages ? ".gz" : ""), gzImages ? gz(images) : images);
    writeFile(dir.filePath(kLabels) + (gzLabels ? ".gz" : ""), gzLabels ? gz(labels) : labels);
    const auto ds = makeMnistDataset(dir.path().toStdString(), 6);
    QCOMPARE(ds->size(Split::Train), int64_t{6});
    QCOMPARE(ds->size(Split::Val), int64_t{4});
    QVERIFY(matchesGenerated(ds->slice(Split::Train, 0, 6), 0));
    QVERIFY(matchesGenerated(ds->slice(Split::Val, 0, 4), 6));
    QVERIFY(matchesGenerated(ds->slice(Split::Val, 3, 1), 9));
  }

  void trainFilesTrainAndTestFilesValidate() {
    QTemporaryDir dir;
    writeFile(dir.filePath("train-images-idx3-ubyte.gz"), gzipBytes(idxImages(5, 28, 28, 1)));
    writeFile(dir.filePath("train-labels-idx1-ubyte.gz"), gzipBytes(idxLabels(5, 1)));
    writeFile(dir.filePath(kImages), idxImages(3));
    writeFile(dir.filePath(kLabels), idxLabels(3));
    const auto ds = makeMnistDataset(dir.path().toStdString(), 8000);  // trainCount unused
    QCOMPARE(ds->size(Split::Train), int64_t{5});
    QCOMPARE(ds->size(Split::Val), int64_t{3});
    QVERIFY(matchesGenerated(ds->slice(Split::Train, 0, 5), 0, 1));
    QVERIFY(matchesGenerated(ds->slice(Split::Val, 0, 3), 0));
  }

  void trainFilesAlone() {
    QTemporaryDir dir;
    writeFile(dir.filePath("train-images-idx3-ubyte"), idxImages(10));
    writeFile(dir.filePath("train-labels-idx1-ubyte"), idxLabels(10));
    const auto ds = makeMnistDataset(dir.path().toStdString(), 7);
    QCOMPARE(ds->size(Split::Train), int64_t{7});
    QVERIFY(matchesGenerated(ds->slice(Split::Val, 0, 3), 7));
  }

  void rejectsCorruptFiles_data() {
    QTest::addColumn<QString>("imagesName");  // "" = absent, ending in "/" = a directory
    QTest::addColumn<QByteArray>("imagesBytes");
    QTest::addColumn<QString>("labelsName");
    QTest::addColumn<QByteArray>("labelsBytes");
    QTest::addColumn<QString>("blamed");  // the file the message must start with; "" = the folder
    QTest::addColumn<QString>("needle");
    const QString img = kImages, lab = kLabels, imgGz = img + ".gz";
    const auto b = [](const std::string& s) { return QByteArray::fromStdString(s); };
    const std::string good = idxImages(4), labels = idxLabels(4), gz = gzipBytes(good);
    std::string badHeader = gz, badCrc = gz;
    badHeader[10] = '\xff';  // first deflate block: BTYPE 11 is reserved
    badCrc[badCrc.size() - 8] ^= 0x5a;
    auto row = [&](const char* name, QString in, std::string ib, QString ln, std::string lb, QString blamed, const char* needle) {
      QTest::newRow(name) << in << b(ib) << ln << b(lb) << blamed << QString::fromUtf8(needle);
    };
    row("images bad magic", img, be32(0x804) + good.substr(4), lab, labels, img,
        "bad magic 0x00000804, expected 0x00000803 (IDX images)");
    row("labels bad magic", img, good, lab, be32(0x803) + labels.substr(4), lab,
        "bad magic 0x00000803, expected 0x00000801 (IDX labels)");
    row("images empty", img, "", lab, labels, img, "empty file, expected IDX images");
    row("images short header", img, good.substr(0, 10), lab, labels, img, "truncated IDX header");
    row("labels short header", img, good, lab, labels.substr(0, 6), lab, "truncated IDX header");
    row("images truncated", img, good.substr(0, good.size() - 1), lab, labels, img,
        "truncated: header says 4 images x 28 x 28 = 3136 bytes, file has 3135");
    row("images trailing bytes", img, good + "xx", lab, labels, img, "trailing data");
    row("huge count", img, be32(0x803) + be32(0xffffffff) + good.substr(8), lab, labels, img,
        "truncated: header says 4294967295 images");
    row("huge dims", img, idxImages(4).substr(0, 8) + be32(0xffffffff) + be32(0xffffffff), lab, labels, img,
        "images are 4294967295x4294967295, expected 28x28");
    row("32x32 images", img, idxImages(4, 32, 32), lab, labels, img, "expected 28x28");
    row("zero images", img, idxImages(0), lab, idxLabels(0), img, "holds no images");
    row("labels truncated", img, good, lab, labels.substr(0, 10), lab, "truncated: header says 4 labels");
    row("label 10", img, good, lab, labels.substr(0, 10) + '\x0a' + labels.substr(11), lab,
        "label 10 at index 2 is out of range 0..9");
    row("label 255", img, good, lab, labels.substr(0, 8) + '\xff' + labels.substr(9), lab,
        "label 255 at index 0");
    row("count mismatch", img, idxImages(5), lab, labels, img, "holds 5 images but");
    row(".gz name, raw bytes", imgGz, good, lab, labels, imgGz, "not gzip-compressed (no 1f 8b header) although");
    row("gzip truncated", imgGz, gz.substr(0, gz.size() / 2), lab, labels, imgGz, "truncated gzip data");
    row("gzip header only", imgGz, gz.substr(0, 10), lab, labels, imgGz, "truncated gzip data");
    row("gzip trailer cut", imgGz, gz.substr(0, gz.size() - 4), lab, labels, imgGz, "truncated gzip data");
    row("gzip bad block", imgGz, badHeader, lab, labels, imgGz, "corrupt gzip data (invalid block type)");
    row("gzip bad crc", imgGz, badCrc, lab, labels, imgGz, "corrupt gzip data (incorrect data check)");
    row("gzip trailing garbage", imgGz, gz + "junk", lab, labels, imgGz, "4 bytes of trailing garbage");
    row("gzip of text", imgGz, gzipBytes("<html>404</html>"), lab, labels, imgGz, "bad magic 0x3c68746d");
    row("labels missing", img, good, "", "", img, "its labels t10k-labels-idx1-ubyte[.gz] are missing");
    row("images missing", "", "", lab, labels, lab, "its images t10k-images-idx3-ubyte[.gz] are missing");
    row("images is a directory", imgGz + "/", "", lab, labels, imgGz, "is a directory");
    row("no files", "", "", "", "", "", "no MNIST files");
  }

  void rejectsCorruptFiles() {
    QFETCH(QString, imagesName);
    QFETCH(QByteArray, imagesBytes);
    QFETCH(QString, labelsName);
    QFETCH(QByteArray, labelsBytes);
    QFETCH(QString, blamed);
    QFETCH(QString, needle);
    QTemporaryDir dir;
    for (const auto& [name, bytes] : {std::pair{imagesName, imagesBytes}, std::pair{labelsName, labelsBytes}}) {
      if (name.endsWith(QLatin1Char('/'))) QVERIFY(QDir(dir.path()).mkdir(name.chopped(1)));
      else if (!name.isEmpty()) writeFile(dir.filePath(name), bytes.toStdString());
    }
    const QString msg = inputErrorOf([&] { makeMnistDataset(dir.path().toStdString(), 2); });
    const QString prefix = (blamed.isEmpty() ? dir.path() : dir.filePath(blamed)) + QStringLiteral(": ");
    QVERIFY2(msg.startsWith(prefix), qPrintable(msg));
    QVERIFY2(msg.contains(needle), qPrintable(msg));
  }

  void rejectsBadFolder() {
    QTemporaryDir dir;
    const QString missing = dir.filePath("nope");
    QCOMPARE(inputErrorOf([&] { makeMnistDataset(missing.toStdString()); }).section(QStringLiteral(" ("), 0, 0),
             missing + QStringLiteral(": no such folder"));
    const QString file = dir.filePath(kImages);
    writeFile(file, idxImages(1));
    QVERIFY(inputErrorOf([&] { makeMnistDataset(file.toStdString()); })
                .startsWith(file + QStringLiteral(": is not a folder")));
  }

  void sizeLimits() {
    // A gzip bomb stops at the output limit instead of filling memory.
    const std::string zeros = gzipBytes(std::string(1 << 20, '\0'));
    QCOMPARE(gunzip(zeros, "z", 1 << 20).size(), size_t{1} << 20);
    QVERIFY(inputErrorOf([&] { gunzip(zeros, "z", 1000); })
                .startsWith(QStringLiteral("z: gzip data inflates to more than the limit of 1000 bytes")));
    // An oversized file is refused from its size, before reading (sparse: no disk used).
    QTemporaryDir dir;
    const QString big = dir.filePath("big.gz");
    writeFile(big, "x");
    std::filesystem::resize_file(big.toStdString(), kMaxDatasetFileBytes + 1);
    QVERIFY(inputErrorOf([&] { readMaybeGzipped(big.toStdString()); })
                .startsWith(big + QStringLiteral(": file of 1073741825 bytes is larger than the limit")));
    QVERIFY(inputErrorOf([&] { readWholeFile("/dev/null"); })
                .startsWith(QStringLiteral("/dev/null: is not a regular file")));
  }
};

QTEST_APPLESS_MAIN(TestDataMnist)
#include "tst_data_mnist.moc"
