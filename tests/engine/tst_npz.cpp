// .npz reader and the zip pre-validator under it: stored and deflated members, every dtype
// and layout the .npy decoder converts, and hostile archives (traversal, bombs, lying headers).
#include "engine/zip_builder.h"
#include "io/npy_format.h"
#include "io/npz.h"
#include "io/tensor_convert.h"
#include "support/test_files.h"

#include <ATen/TensorOperators.h>
#include <ATen/ops/arange.h>
#include <ATen/ops/equal.h>
#include <ATen/ops/tensor.h>
#include <QtTest/QtTest>

#include <cstring>

using namespace lwb;
using test::ZipEntry;

Q_DECLARE_METATYPE(std::string)

namespace {

std::string npy(const std::string& descr, const std::string& shape, const std::string& payload,
                bool fortran = false) {
  std::string dict = "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") +
                     ", 'shape': " + shape + ", }";
  dict.append((64 - (10 + dict.size() + 1) % 64) % 64, ' ');
  dict.push_back('\n');
  std::string out("\x93NUMPY\x01\x00", 8);
  out.push_back(static_cast<char>(dict.size() & 0xff));
  out.push_back(static_cast<char>(dict.size() >> 8));
  return out + dict + payload;
}

template <class T>
std::string bytesOf(std::initializer_list<T> v, bool bigEndian = false) {
  std::string s(v.size() * sizeof(T), '\0');
  std::memcpy(s.data(), std::data(v), s.size());
  if (bigEndian)
    for (size_t i = 0; i < s.size(); i += sizeof(T)) std::reverse(s.begin() + i, s.begin() + i + sizeof(T));
  return s;
}

io::TensorFile decode(const std::string& zip, const io::ZipLimits& limits = {}) {
  return io::decodeNpz(std::make_shared<const std::string>(zip), "bad.npz", limits);
}

const std::string kFloats = bytesOf<float>({0, 1, 2, 3, 4, 5});
const std::string kW = npy("<f4", "(2, 3)", kFloats);

}  // namespace

class TestNpz : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void readsMembers_data() {
    QTest::addColumn<bool>("deflate");
    QTest::newRow("stored (np.savez)") << false;
    QTest::newRow("deflated (np.savez_compressed)") << true;
  }

  void readsMembers() {
    QFETCH(bool, deflate);
    const std::string zip = test::makeZip({
        {"w.npy", kW, deflate},
        {"layer/b.npy", npy(">f8", "(3,)", bytesOf<double>({1.5, -2, 1e300}, true)), deflate},
        // Column-major 2×3 int32: memory order is (0,0) (1,0) (0,1) (1,1) (0,2) (1,2).
        {"f.npy", npy("<i4", "(2, 3)", bytesOf<int32_t>({0, 10, 1, 11, 2, 12}), true), deflate},
        {"mask.npy", npy("|b1", "(3,)", std::string("\x01\x00\x01", 3)), deflate},
        {"scalar.npy", npy("<f2", "()", bytesOf<uint16_t>({0x3c00})), deflate},
    });
    const io::TensorFile file = decode(zip);
    QCOMPARE(file.format, std::string("npz"));
    QCOMPARE(file.tensors.size(), size_t{5});
    const auto& t = file.tensors;
    QCOMPARE(t[0].name, std::string("w"));
    QVERIFY(at::equal(io::toTensor(t[0]), at::arange(6, at::kFloat).reshape({2, 3})));
    QCOMPARE(t[1].name, std::string("layer/b"));
    QCOMPARE(t[1].dtype, io::DType::F64);
    QVERIFY(at::equal(io::toTensor(t[1]), at::tensor({1.5, -2.0, 1e300}, at::kDouble)));
    QCOMPARE(t[2].dtype, io::DType::I32);
    QVERIFY(at::equal(io::toTensor(t[2]), at::tensor({0, 1, 2, 10, 11, 12}, at::kInt).reshape({2, 3})));
    QCOMPARE(t[3].dtype, io::DType::Bool);
    QCOMPARE(io::toTensor(t[3]).sum().item<int64_t>(), int64_t{2});
    QCOMPARE(t[4].shape, std::vector<int64_t>{});
    QCOMPARE(io::toTensor(t[4]).item<float>(), 1.0f);
  }

  void fortranOrder3d() {
    // Element (i,j,k) = 100i + 10j + k stored column-major: linear index i + 2j + 6k.
    std::vector<int16_t> f(24);
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j)
        for (int k = 0; k < 4; ++k) f[i + 2 * j + 6 * k] = static_cast<int16_t>(100 * i + 10 * j + k);
    std::string payload(48, '\0');
    std::memcpy(payload.data(), f.data(), 48);
    for (const bool big : {false, true}) {
      std::string p = payload;
      if (big)
        for (size_t i = 0; i < p.size(); i += 2) std::swap(p[i], p[i + 1]);
      const auto raw = io::decodeNpyRecord(std::make_shared<const std::string>(npy(big ? ">i2" : "<i2", "(2, 3, 4)", p, true)),
                                           "x", "x.npy");
      const at::Tensor t = io::toTensor(raw);
      const at::Tensor want = (at::arange(2).view({2, 1, 1}) * 100 + at::arange(3).view({1, 3, 1}) * 10 +
                               at::arange(4).view({1, 1, 4})).to(at::kShort);
      QVERIFY(at::equal(t, want));
    }
  }

  void emptyArchiveHasNoTensors() { QCOMPARE(decode(test::makeZip({})).tensors.size(), size_t{0}); }

  void rejectsMalformed_data() {
    QTest::addColumn<std::string>("zip");
    QTest::addColumn<QString>("needle");
    const std::string ok = test::makeZip({{"w.npy", kW}});
    QTest::newRow("not a zip") << std::string("PK\x03\x04 but nothing else") << "not a valid zip archive";
    QTest::newRow("truncated") << ok.substr(0, ok.size() / 2) << "not a valid zip archive";
    QTest::newRow("not npy member") << test::makeZip({{"readme.txt", "hi"}}) << "member 'readme.txt': not a .npy array";
    QTest::newRow("bare .npy") << test::makeZip({{".npy", kW}}) << "not a .npy array";
    QTest::newRow("bad npy member") << test::makeZip({{"w.npy", "garbage"}}) << "member 'w.npy': not a .npy file";
    QTest::newRow("short npy member") << test::makeZip({{"w.npy", kW.substr(0, kW.size() - 4)}})
                                      << "member 'w.npy': data size mismatch";
    QTest::newRow("dot-dot") << test::makeZip({{"../w.npy", kW}}) << "path component '..'";
    QTest::newRow("inner dot-dot") << test::makeZip({{"a/../../w.npy", kW}}) << "path component '..'";
    QTest::newRow("empty component") << test::makeZip({{"a//w.npy", kW}}) << "path component ''";
    QTest::newRow("absolute") << test::makeZip({{"/etc/w.npy", kW}}) << "absolute path";
    QTest::newRow("drive letter") << test::makeZip({{"C:w.npy", kW}}) << "drive-letter";
    QTest::newRow("backslash") << test::makeZip({{"a\\w.npy", kW}}) << "backslash";
    QTest::newRow("control byte") << test::makeZip({{"a\x1b[2Jw.npy", kW}}) << "control character";
    // libzip itself refuses duplicate names on open; ZipArchive checks again in case it ever stops.
    QTest::newRow("duplicate") << test::makeZip({{"w.npy", kW}, {"w.npy", kW}}) << "not a valid zip archive";
    ZipEntry bzip{"w.npy", kW};
    bzip.method = 12;
    QTest::newRow("bzip2 method") << test::makeZip({bzip}) << "compression method 12";
    ZipEntry enc{"w.npy", kW};
    enc.flags = 1;
    QTest::newRow("encrypted") << test::makeZip({enc}) << "encrypted";
    ZipEntry storedLie{"w.npy", kW};
    storedLie.declaredSize = static_cast<int64_t>(kW.size()) + 10;
    QTest::newRow("stored size lie") << test::makeZip({storedLie}) << "stored member declares";
    ZipEntry bomb{"w.npy", kW, true};
    bomb.declaredSize = 4'000'000'000;
    QTest::newRow("impossible ratio") << test::makeZip({bomb}) << "more than deflate can produce";
    ZipEntry crc{"w.npy", kW};
    crc.crc = 12345;
    QTest::newRow("crc mismatch") << test::makeZip({crc}) << "corrupt data";
    ZipEntry longer{"w.npy", kW, true};
    longer.declaredSize = static_cast<int64_t>(kW.size()) - 1;
    QTest::newRow("inflates past header") << test::makeZip({longer}) << "decompresses to more than";
    ZipEntry shorter{"w.npy", kW, true};
    shorter.declaredSize = static_cast<int64_t>(kW.size()) + 7;
    QTest::newRow("inflates short of header") << test::makeZip({shorter}) << "the header says " + QString::number(kW.size() + 7);
  }

  void rejectsMalformed() {
    QFETCH(std::string, zip);
    QFETCH(QString, needle);
    const QString msg = test::inputErrorOf([&] { decode(zip); });
    QVERIFY2(msg.startsWith(QStringLiteral("bad.npz: ")), qPrintable(msg));
    QVERIFY2(msg.contains(needle), qPrintable(msg));
  }

  void limits() {
    const std::string three = test::makeZip({{"a.npy", kW}, {"b.npy", kW}, {"c.npy", kW}});
    io::ZipLimits l;
    l.maxMembers = 2;
    QVERIFY(test::inputErrorOf([&] { decode(three, l); }).contains("3 members, more than the limit of 2"));
    l = {};
    l.maxMemberBytes = kW.size() - 1;
    QVERIFY(test::inputErrorOf([&] { decode(three, l); }).contains("exceeds the limit"));
    // The zip-bomb cap: total ≤ max(floor, expansion × archive size).
    l = {};
    l.totalBytesFloor = 0;
    l.maxExpansion = 1;
    const std::string zeros = npy("<f4", "(4096,)", std::string(4 * 4096, '\0'));
    const std::string bomb = test::makeZip({{"z.npy", zeros, true}});
    QVERIFY2(bomb.size() < zeros.size() / 50, "zeros should deflate well");
    QVERIFY(test::inputErrorOf([&] { decode(bomb, l); }).contains("refusing a possible zip bomb"));
    QCOMPARE(decode(bomb).tensors.at(0).shape, std::vector<int64_t>{4096});
  }
};

QTEST_APPLESS_MAIN(TestNpz)
#include "tst_npz.moc"
