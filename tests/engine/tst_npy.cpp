// .npy reader/writer: round trips, byte order, and every malformed-file path.
#include "io/npy.h"

#include <ATen/ops/arange.h>
#include <ATen/ops/equal.h>
#include <QtTest/QtTest>

#include <cstring>
#include <fstream>

using namespace lwb;

Q_DECLARE_METATYPE(std::string)

namespace {

// A v1.0 .npy image with the given header dict and raw payload.
std::string npyImage(const std::string& dict, const std::string& payload, char major = 1) {
  std::string header = dict;
  header.push_back('\n');
  std::string out("\x93NUMPY", 6);
  out.push_back(major);
  out.push_back('\0');
  if (major == 1) {
    out.push_back(static_cast<char>(header.size() & 0xff));
    out.push_back(static_cast<char>(header.size() >> 8));
  } else {
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((header.size() >> (8 * i)) & 0xff));
  }
  return out + header + payload;
}

std::string floats(std::initializer_list<float> v) {
  std::string s(v.size() * 4, '\0');
  std::memcpy(s.data(), std::data(v), s.size());
  return s;
}

}  // namespace

class TestNpy : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void roundTripFloat32() {
    QTemporaryDir dir;
    const auto t = at::arange(12, at::TensorOptions().dtype(at::kFloat)).reshape({3, 4}) * 0.5;
    const std::string path = dir.filePath("a.npy").toStdString();
    io::writeNpy(path, t);
    QVERIFY(!QFile::exists(QString::fromStdString(path + ".tmp")));
    const auto back = io::readNpy(path);
    QCOMPARE(back.scalar_type(), at::kFloat);
    QVERIFY(at::equal(back, t));
    // numpy's layout: header padded so the data starts at a multiple of 64.
    QCOMPARE(io::parseNpyHeader(io::encodeNpy(t), "x").dataOffset % 64, size_t{0});
  }

  void readsFloat64VersionTwoAndBigEndian() {
    const auto v2 = npyImage("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 2), }", floats({1.5f, -2.0f}), 2);
    const auto t = io::decodeNpy(v2, "v2");
    QCOMPARE(t.size(1), int64_t{2});
    QCOMPARE(t[0][1].item<float>(), -2.0f);
    std::string be = floats({3.25f});
    std::reverse(be.begin(), be.end());
    const auto b = io::decodeNpy(npyImage("{'descr': '>f4', 'fortran_order': False, 'shape': (1,), }", be), "be");
    QCOMPARE(b[0].item<float>(), 3.25f);
    double d = 7.0;
    const auto f64 = io::decodeNpy(npyImage("{'descr': '<f8', 'fortran_order': False, 'shape': (1, 1), }",
                                            std::string(reinterpret_cast<char*>(&d), 8)), "f64");
    QCOMPARE(f64.scalar_type(), at::kDouble);
    QCOMPARE(f64.item<double>(), 7.0);
  }

  void rejectsMalformed_data() {
    QTest::addColumn<std::string>("bytes");
    QTest::addColumn<QString>("needle");
    const std::string ok = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }";
    const std::string data = floats({1, 2, 3, 4});
    QTest::newRow("empty") << std::string() << "magic";
    QTest::newRow("text") << std::string("hello world, not numpy") << "magic";
    QTest::newRow("version 7") << npyImage(ok, data, 7) << "version";
    QTest::newRow("truncated header") << npyImage(ok, data).substr(0, 30) << "truncated";
    QTest::newRow("int32") << npyImage("{'descr': '<i4', 'fortran_order': False, 'shape': (2, 2), }", data) << "dtype";
    QTest::newRow("object") << npyImage("{'descr': '|O', 'fortran_order': False, 'shape': (2, 2), }", data) << "dtype";
    QTest::newRow("structured") << npyImage("{'descr': [('a', '<f4'), ('b', '<f4')], 'fortran_order': False, 'shape': (2,), }", data)
                                << "a structured (record) dtype";
    QTest::newRow("fortran") << npyImage("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }", data) << "Fortran";
    QTest::newRow("missing shape") << npyImage("{'descr': '<f4', 'fortran_order': False, }", data) << "lacks 'shape'";
    QTest::newRow("extra key") << npyImage("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), 'x': 'y', }", data) << "unexpected key";
    QTest::newRow("duplicate key") << npyImage("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }", data) << "duplicate";
    QTest::newRow("negative dim") << npyImage("{'descr': '<f4', 'fortran_order': False, 'shape': (-2, 2), }", data) << "integer";
    QTest::newRow("shape not tuple") << npyImage("{'descr': '<f4', 'fortran_order': False, 'shape': '2', }", data) << "tuple";
    QTest::newRow("short data") << npyImage(ok, data.substr(0, 12)) << "size mismatch";
    QTest::newRow("long data") << npyImage(ok, data + "xxxx") << "size mismatch";
    QTest::newRow("overflowing shape") << npyImage("{'descr': '<f4', 'fortran_order': False, 'shape': (999999999999, 999999999999), }", data) << "limit";
    QTest::newRow("unterminated string") << npyImage("{'descr': '<f4", data) << "unterminated";
    QTest::newRow("no closing brace") << npyImage("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2)", data) << "expected";
    std::string huge("\x93NUMPY\x01\x00\xff\xff", 10);
    QTest::newRow("header too long") << huge + std::string(100, ' ') << "truncated";
    std::string v2huge("\x93NUMPY\x02\x00\xff\xff\xff\x7f", 12);
    QTest::newRow("v2 header over limit") << v2huge << "exceeds the limit";
  }

  void rejectsMalformed() {
    QFETCH(std::string, bytes);
    QFETCH(QString, needle);
    try {
      io::decodeNpy(bytes, "bad.npy");
      QFAIL("accepted a malformed file");
    } catch (const InputError& e) {
      const QString msg = QString::fromUtf8(e.what());
      QVERIFY2(msg.startsWith(QStringLiteral("bad.npy: ")), qPrintable(msg));
      QVERIFY2(msg.contains(needle), qPrintable(msg));
    }
  }

  void missingFileAndDirectory() {
    QTemporaryDir dir;
    QVERIFY_THROWS_EXCEPTION(InputError, io::readNpy(dir.filePath("nope.npy").toStdString()));
    QVERIFY_THROWS_EXCEPTION(InputError, io::readNpy(dir.path().toStdString()));
  }
};

QTEST_APPLESS_MAIN(TestNpy)
#include "tst_npy.moc"
