// The door, readTensorFile: format by magic bytes (never by extension), and a clear error for
// every file that is not a tensor file at all.
#include "engine/zip_builder.h"
#include "io/npy.h"
#include "io/safetensors.h"
#include "io/tensor_convert.h"
#include "io/tensor_file.h"
#include "support/test_files.h"

#include <ATen/ops/arange.h>
#include <ATen/ops/equal.h>
#include <QtTest/QtTest>

#include <sys/stat.h>

using namespace lwb;

class TestTensorFile : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void dispatchesOnMagicBytes() {
    QTemporaryDir dir;
    const at::Tensor w = at::arange(6, at::kFloat).reshape({2, 3});
    const std::string npy = io::encodeNpy(w);
    // A .npy named like something else is still a .npy; the tensor takes the file's stem.
    const QString npyPath = dir.filePath(QStringLiteral("layer_3.weights"));
    test::writeFile(npyPath, npy);
    auto file = io::readTensorFile(npyPath.toStdString());
    QCOMPARE(file.format, std::string("npy"));
    QCOMPARE(file.path, npyPath.toStdString());
    QCOMPARE(file.tensors.at(0).name, std::string("layer_3"));
    QVERIFY(at::equal(io::toTensor(file.tensors.at(0)), w));

    const QString st = dir.filePath(QStringLiteral("m.safetensors"));
    io::writeSafetensors(st.toStdString(), {io::fromTensor("w", w)}, {{"step", "3"}});
    file = io::readTensorFile(st.toStdString());
    QCOMPARE(file.format, std::string("safetensors"));
    QCOMPARE(file.metadata.at("step"), std::string("3"));

    const QString npz = dir.filePath(QStringLiteral("a.npz"));
    test::writeFile(npz, test::makeZip({{"w.npy", npy, true}}));
    file = io::readTensorFile(npz.toStdString());
    QCOMPARE(file.format, std::string("npz"));
    QCOMPARE(file.tensors.at(0).name, std::string("w"));

    const QString pt = dir.filePath(QStringLiteral("a.pt"));
    test::writeFile(pt, test::makeZip({{"a/data.pkl", std::string("\x80\x02}.", 4)}}));
    file = io::readTensorFile(pt.toStdString());
    QCOMPARE(file.format, std::string("pytorch"));
    QCOMPARE(file.tensors.size(), size_t{0});
  }

  void rejectsWhatIsNotATensorFile_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("needle");
    QTest::newRow("empty") << QByteArray() << "empty file";
    QTest::newRow("text") << QByteArray("hello, world\n") << "unknown format";
    QTest::newRow("git lfs pointer")
        << QByteArray("version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345\n")
        << "a Git LFS pointer, not the file's data (fetch it with `git lfs pull`)";
    QTest::newRow("legacy torch.save") << QByteArray("\x80\x02\x8a\x0a", 4) + "l\xfc\x9c" "F\xf9 j\xa8P\x19." << "legacy (pre-1.6";
    QTest::newRow("plain zip") << QByteArray::fromStdString(test::makeZip({{"notes.txt", "hi"}}))
                               << "neither an .npz";
    QTest::newRow("truncated safetensors") << QByteArray("\x40\x00\x00\x00\x00\x00\x00\x00{\"a\":", 13)
                                           << "beyond the end of the file";
  }

  void rejectsWhatIsNotATensorFile() {
    QFETCH(QByteArray, bytes);
    QFETCH(QString, needle);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("x.pt"));
    test::writeFile(path, bytes.toStdString());
    const QString msg = test::inputErrorOf([&] { io::readTensorFile(path.toStdString()); });
    QVERIFY2(msg.startsWith(path + QStringLiteral(": ")), qPrintable(msg));
    QVERIFY2(msg.contains(needle), qPrintable(msg));
  }

  // Issue 33 item 9: a cancellable read (the app's pages) reads the same bytes in chunks, and
  // stops with lwb::Cancelled once its flag is set.
  void cancellableReadIsChunkedAndStops() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bytes.bin"));
    std::string bytes(3 * io::kReadChunkBytes + 12345, '\0');  // several chunks and a tail
    uint32_t x = 1;
    for (char& c : bytes) c = static_cast<char>((x = x * 1664525u + 1013904223u) >> 24);
    bytes.replace(0, 6, "\x93NUMPY");  // passes the format sniff: readTensorFile gets to the read
    test::writeFile(path, bytes);
    const std::atomic<bool> go{false}, stop{true};
    const io::SharedBytes whole = io::readFileBuffer(path.toStdString(), io::kMaxTensorFileBytes, &go);
    QCOMPARE(whole.view().size(), bytes.size());
    QVERIFY(whole.view() == std::string_view(bytes));
    QVERIFY_THROWS_EXCEPTION(Cancelled, io::readFileBuffer(path.toStdString(), io::kMaxTensorFileBytes, &stop));
    QVERIFY_THROWS_EXCEPTION(Cancelled, io::readTensorFile(path.toStdString(), io::kMaxTensorFileBytes, &stop));
  }

  void rejectsWhatIsNotAFile() {
    QTemporaryDir dir;
    const std::string missing = dir.filePath(QStringLiteral("nope.safetensors")).toStdString();
    QCOMPARE(test::inputErrorOf([&] { io::readTensorFile(missing); }), QString::fromStdString(missing + ": no such file"));
    QVERIFY(test::inputErrorOf([&] { io::readTensorFile(dir.path().toStdString()); }).contains("a folder, but no model.safetensors.index.json"));
    // A FIFO would block a plain open()/read() forever.
    const std::string fifo = dir.filePath(QStringLiteral("pipe")).toStdString();
    QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
    QVERIFY(test::inputErrorOf([&] { io::readTensorFile(fifo); }).contains("is not a regular file"));
    const QString big = dir.filePath(QStringLiteral("big.npy"));
    test::writeFile(big, io::encodeNpy(at::arange(100, at::kFloat)));
    QVERIFY(test::inputErrorOf([&] { io::readTensorFile(big.toStdString(), 64); }).contains("larger than the limit of 64 bytes"));
  }
};

QTEST_APPLESS_MAIN(TestTensorFile)
#include "tst_tensor_file.moc"
