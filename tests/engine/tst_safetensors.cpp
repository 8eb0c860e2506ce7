// safetensors reader/writer and RawTensor <-> at::Tensor: bit-exact round trips of every
// dtype, a byte-exact known file, and every malformed-header path.
#include "io/safetensors.h"
#include "io/tensor_convert.h"
#include "support/test_files.h"

#include <ATen/TensorOperators.h>
#include <ATen/ops/equal.h>
#include <ATen/ops/full.h>
#include <ATen/ops/randn.h>
#include <QtTest/QtTest>

#include <cstring>
#include <limits>

using namespace lwb;
using io::DType;

Q_DECLARE_METATYPE(std::string)
Q_DECLARE_METATYPE(lwb::io::DType)
Q_DECLARE_METATYPE(std::vector<int64_t>)

namespace {

// 8-byte little-endian length + header text + data.
std::string image(const std::string& header, const std::string& data = {}) {
  std::string out;
  for (int k = 0; k < 8; ++k) out.push_back(static_cast<char>((uint64_t{header.size()} >> (8 * k)) & 0xff));
  return out + header + data;
}

std::string lengthPrefix(uint64_t n) {
  std::string out;
  for (int k = 0; k < 8; ++k) out.push_back(static_cast<char>((n >> (8 * k)) & 0xff));
  return out;
}

io::TensorFile decode(const std::string& bytes, const std::string& what = "mem") {
  return io::decodeSafetensors(std::make_shared<const std::string>(bytes), what);
}

// A tensor of the dtype with varied values; floating dtypes also hold NaN, -0.0 and inf,
// whose bits an exact round trip must keep.
at::Tensor sample(DType d, const std::vector<int64_t>& shape) {
  at::Tensor x = at::randn(shape, at::TensorOptions().dtype(at::kDouble)) * 50;
  const auto st = io::toScalarType(d);
  if (d == DType::Bool) return x.gt(0);
  if (d == DType::U8) return x.abs().to(st);
  at::Tensor t = x.to(st);
  if (io::isFloating(d) && t.numel() >= 3) {
    auto flat = t.view({-1});
    flat[0] = std::numeric_limits<double>::quiet_NaN();
    flat[1] = -0.0;
    flat[2] = -std::numeric_limits<double>::infinity();
  }
  return t;
}

bool sameBytes(const io::RawTensor& a, const io::RawTensor& b) {
  return a.nbytes == b.nbytes && (a.nbytes == 0 || std::memcmp(a.data.get(), b.data.get(), a.nbytes) == 0);
}

const std::string kEntryF32x2 = R"({"dtype":"F32","shape":[2],"data_offsets":[0,8]})";

}  // namespace

class TestSafetensors : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void roundTripEveryDtype_data() {
    QTest::addColumn<DType>("dtype");
    QTest::addColumn<std::vector<int64_t>>("shape");
    for (const DType d : io::kAllDTypes) {
      const QByteArray n(io::safetensorsName(d).data(), static_cast<int>(io::safetensorsName(d).size()));
      QTest::newRow(n + " 0-d") << d << std::vector<int64_t>{};
      QTest::newRow(n + " empty 0x3") << d << std::vector<int64_t>{0, 3};
      QTest::newRow(n + " 5") << d << std::vector<int64_t>{5};
      QTest::newRow(n + " 3x4x2") << d << std::vector<int64_t>{3, 4, 2};
    }
  }

  void roundTripEveryDtype() {
    QFETCH(DType, dtype);
    QFETCH(std::vector<int64_t>, shape);
    const at::Tensor t = sample(dtype, shape);
    QCOMPARE(t.scalar_type(), io::toScalarType(dtype));
    const io::RawTensor raw = io::fromTensor("w", t);
    QCOMPARE(raw.dtype, dtype);
    QCOMPARE(raw.shape, shape);
    QCOMPARE(raw.nbytes, static_cast<size_t>(t.numel()) * io::elementSize(dtype));

    // A second tensor of another element size checks the alignment-preserving order.
    const io::RawTensor other = io::fromTensor("z_other", at::full({3}, 7, at::TensorOptions().dtype(at::kHalf)));
    const std::string bytes = io::encodeSafetensors({other, raw}, {{"step", "12"}});
    uint64_t headerLen = 0;
    std::memcpy(&headerLen, bytes.data(), 8);
    QCOMPARE(headerLen % 8, uint64_t{0});  // the data buffer starts 8-aligned
    const io::TensorFile file = decode(bytes);
    QCOMPARE(file.format, std::string("safetensors"));
    QCOMPARE(file.tensors.size(), size_t{2});
    QCOMPARE(file.metadata.at("step"), std::string("12"));
    const io::RawTensor* back = nullptr;
    for (const auto& r : file.tensors)
      if (r.name == "w") back = &r;
    QVERIFY(back);
    QCOMPARE(back->dtype, dtype);
    QCOMPARE(back->shape, shape);
    QVERIFY(sameBytes(*back, raw));

    const at::Tensor again = io::toTensor(*back);
    QCOMPARE(again.scalar_type(), t.scalar_type());
    QCOMPARE(again.sizes().vec(), t.sizes().vec());
    QVERIFY(sameBytes(io::fromTensor("w", again), raw));
    if (!io::isFloating(dtype)) QVERIFY(at::equal(again, t));
  }

  void dataIsAlignedToElementSize() {
    // F16 of odd length first by name, then F64: the writer must still place F64 at a multiple of 8.
    const auto h = io::fromTensor("a", at::full({3}, 1, at::TensorOptions().dtype(at::kHalf)));
    const auto d = io::fromTensor("b", at::full({2}, 2, at::TensorOptions().dtype(at::kDouble)));
    const std::string bytes = io::encodeSafetensors({h, d});
    const auto file = decode(bytes);
    for (const auto& r : file.tensors) {
      const size_t offset = reinterpret_cast<const char*>(r.data.get()) - bytes.data();
      QCOMPARE(offset % io::elementSize(r.dtype), size_t{0});
    }
    QCOMPARE(file.tensors.front().name, std::string("b"));
  }

  void knownFileByteExact() {
    const float f[2] = {1.0f, -2.0f};
    io::RawTensor b{"b", DType::F32, {2}, io::ownBytes(std::string(reinterpret_cast<const char*>(f), 8)), 8};
    io::RawTensor a{"a", DType::I8, {}, io::ownBytes(std::string("\x05", 1)), 1};
    const std::string header =
        R"({"__metadata__":{"k":"v"},"a":{"data_offsets":[8,9],"dtype":"I8","shape":[]},)"
        R"("b":{"data_offsets":[0,8],"dtype":"F32","shape":[2]}})";
    QCOMPARE(header.size(), size_t{130});  // padded with 6 spaces to 136
    const std::string expected = lengthPrefix(136) + header + "      " +
                                 std::string("\x00\x00\x80\x3f\x00\x00\x00\xc0\x05", 9);
    QCOMPARE(io::encodeSafetensors({a, b}, {{"k", "v"}}), expected);
  }

  void readsHandWrittenFile() {
    // As another writer may lay it out: unpadded header, keys in any order, F16 data.
    const std::string bytes =
        image(R"({"x":{"shape":[1,2],"dtype":"F16","data_offsets":[0,4]},"__metadata__":{"format":"pt"}})",
              std::string("\x00\x3c\x00\xc0", 4));
    const auto file = decode(bytes);
    QCOMPARE(file.tensors.size(), size_t{1});
    QCOMPARE(file.metadata.at("format"), std::string("pt"));
    const at::Tensor x = io::toTensor(file.tensors[0]);
    QCOMPARE(x.scalar_type(), at::kHalf);
    QCOMPARE(x.sizes().vec(), (std::vector<int64_t>{1, 2}));
    QCOMPARE(x[0][0].item<float>(), 1.0f);
    QCOMPARE(x[0][1].item<float>(), -2.0f);
    // Zero tensors and an empty header are a valid (empty) file.
    QCOMPARE(decode(image("{}")).tensors.size(), size_t{0});
  }

  void writeIsAtomicAndReadable() {
    QTemporaryDir dir;
    const std::string path = dir.filePath("ck.safetensors").toStdString();
    const auto w = io::fromTensor("w", sample(DType::F32, {4, 3}));
    io::writeSafetensors(path, {w}, {{"config", "{\"steps\": 3}"}});
    io::writeSafetensors(path, {w}, {{"config", "{\"steps\": 4}"}});  // over an existing file
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{QStringLiteral("ck.safetensors")});
    const auto file = io::readSafetensors(path);
    QCOMPARE(file.path, path);
    QCOMPARE(file.metadata.at("config"), std::string("{\"steps\": 4}"));
    QVERIFY(sameBytes(file.tensors.at(0), w));
    QVERIFY_THROWS_EXCEPTION(std::runtime_error,
                             io::writeSafetensors(dir.filePath("no/such/dir/x.safetensors").toStdString(), {w}));
  }

  void readErrorsNameTheFile() {
    QTemporaryDir dir;
    const std::string missing = dir.filePath("nope.safetensors").toStdString();
    QCOMPARE(test::inputErrorOf([&] { io::readSafetensors(missing); }),
             QString::fromStdString(missing + ": no such file"));
    QVERIFY(test::inputErrorOf([&] { io::readSafetensors(dir.path().toStdString()); }).contains("is a directory"));
    const QString empty = dir.filePath("empty.safetensors");
    test::writeFile(empty, "");
    QVERIFY(test::inputErrorOf([&] { io::readSafetensors(empty.toStdString()); }).contains("too short"));
  }

  void encoderRejectsInconsistentRecords() {
    const auto w = io::fromTensor("w", sample(DType::F32, {2}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, io::encodeSafetensors({w, w}));
    auto meta = w;
    meta.name = "__metadata__";
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, io::encodeSafetensors({meta}));
    auto shortBytes = w;
    shortBytes.nbytes = 4;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, io::encodeSafetensors({shortBytes}));
    auto notUtf8 = w;
    notUtf8.name = "\xff";
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, io::encodeSafetensors({notUtf8}));
  }

  void fromTensorIsASnapshotInCOrder() {
    at::Tensor t = at::randn({3, 4});
    const auto raw = io::fromTensor("t", t);
    const std::string before(reinterpret_cast<const char*>(raw.data.get()), raw.nbytes);
    t.add_(1);
    QCOMPARE(std::string(reinterpret_cast<const char*>(raw.data.get()), raw.nbytes), before);
    const at::Tensor tt = t.t();  // non-contiguous view: bytes are its C-order copy
    QVERIFY(at::equal(io::toTensor(io::fromTensor("tt", tt)), tt));
    QVERIFY(test::inputErrorOf([] { io::fromTensor("c", at::randn({2}, at::TensorOptions().dtype(at::kComplexFloat))); })
                .startsWith("tensor 'c': dtype"));
  }

  void asTensorViewsAlignedRecords() {
    const auto w = io::fromTensor("w", at::randn({3, 4}));
    const auto file = decode(io::encodeSafetensors({w, io::fromTensor("h", at::randn({3}).to(at::kHalf))}));
    const io::RawTensor& r = file.tensors.at(0);  // the float32 tensor comes first (element size)
    QCOMPARE(r.name, std::string("w"));
    const at::Tensor view = io::asTensor(r);
    QCOMPARE(static_cast<const void*>(view.data_ptr()), static_cast<const void*>(r.data.get()));
    QVERIFY(at::equal(view, io::toTensor(r)));
    // One byte off alignment: a copy, with the same values.
    std::string shifted = "x" + std::string(reinterpret_cast<const char*>(w.data.get()), w.nbytes);
    io::RawTensor odd = w;
    odd.data = io::SharedBytes(std::make_shared<const std::string>(shifted)).at(1);
    const at::Tensor copy = io::asTensor(odd);
    QVERIFY(static_cast<const void*>(copy.data_ptr()) != static_cast<const void*>(odd.data.get()));
    QVERIFY(at::equal(copy, io::toTensor(w)));
  }

  void toTensorNormalisesBoolBytes() {
    io::RawTensor b{"b", DType::Bool, {3}, io::ownBytes(std::string("\x00\x01\x07", 3)), 3};
    const at::Tensor t = io::toTensor(b);
    QCOMPARE(t.sum().item<int64_t>(), int64_t{2});
    QCOMPARE(static_cast<const unsigned char*>(t.data_ptr())[2], static_cast<unsigned char>(1));
  }

  // A dtype this tool does not read (FP8, U32, a newer one) is checked like any other, then
  // listed under `skipped`: one FP8 tensor made the whole file unreadable.
  void unreadDtypesAreSkippedNotFatal() {
    const std::string header = R"({"w":)" + kEntryF32x2 + R"(,"q":{"dtype":"F8_E4M3","shape":[2,2],"data_offsets":[8,12]},)" +
                               R"("n":{"dtype":"F6_E3M2","shape":[3],"data_offsets":[12,15]}})";
    const auto file = decode(image(header, std::string(15, '\0')), "fp8.safetensors");
    QCOMPARE(file.tensors.size(), size_t{1});
    QCOMPARE(file.tensors[0].name, std::string("w"));
    QCOMPARE(file.skipped.size(), size_t{2});
    QVERIFY2(file.skipped[0] == "q: dtype F8_E4M3, which this tool does not read", file.skipped[0].c_str());
    QVERIFY2(file.skipped[1].starts_with("n: dtype F6_E3M2"), file.skipped[1].c_str());
  }

  void rejectsMalformed_data() {
    QTest::addColumn<std::string>("bytes");
    QTest::addColumn<QString>("needle");
    const std::string f8(8, '\0');
    auto one = [](const std::string& entry) { return R"({"a":)" + entry + "}"; };
    QTest::newRow("too short") << std::string("abc") << "too short";
    QTest::newRow("header over limit") << lengthPrefix(200'000'000) + "{}" << "exceeds the limit";
    QTest::newRow("header beyond file") << lengthPrefix(100) + "{}" << "beyond the end of the file";
    QTest::newRow("huge length") << lengthPrefix(~uint64_t{0}) << "exceeds the limit";
    QTest::newRow("not json") << image("{not json") << "not valid JSON";
    QTest::newRow("invalid utf-8") << image("{\"\xff\":1}") << "not valid JSON";
    QTest::newRow("root array") << image("[]") << "must be a JSON object";
    QTest::newRow("duplicate name") << image(R"({"a":)" + kEntryF32x2 + R"(,"a":)" + kEntryF32x2 + "}", f8)
                                    << "duplicate tensor name 'a'";
    QTest::newRow("duplicate field")
        << image(one(R"({"dtype":"F32","dtype":"F16","shape":[2],"data_offsets":[0,8]})"), f8) << "duplicate key 'dtype'";
    QTest::newRow("deep nesting") << image(one(R"({"dtype":"F32","shape":[[2]],"data_offsets":[0,8]})"), f8)
                                  << "nests deeper";
    QTest::newRow("entry not object") << image(R"({"a":5})") << "entry must be a JSON object";
    QTest::newRow("missing dtype") << image(one(R"({"shape":[2],"data_offsets":[0,8]})"), f8) << "lacks \"dtype\"";
    QTest::newRow("missing offsets") << image(one(R"({"dtype":"F32","shape":[2]})"), f8) << "lacks \"data_offsets\"";
    QTest::newRow("dtype not string") << image(one(R"({"dtype":4,"shape":[2],"data_offsets":[0,8]})"), f8)
                                      << "\"dtype\" must be a string";
    QTest::newRow("empty dtype") << image(one(R"({"dtype":"","shape":[8],"data_offsets":[0,8]})"), f8)
                                 << "unknown dtype \"\"";
    QTest::newRow("FP8 byte count") << image(one(R"({"dtype":"F8_E4M3","shape":[4],"data_offsets":[0,8]})"), f8)
                                    << "does not match shape × F8_E4M3 = 4 bytes";
    QTest::newRow("shape not array") << image(one(R"({"dtype":"F32","shape":2,"data_offsets":[0,8]})"), f8)
                                     << "\"shape\" must be an array";
    QTest::newRow("negative dim") << image(one(R"({"dtype":"F32","shape":[-2],"data_offsets":[0,8]})"), f8)
                                  << "shape entry must be a non-negative integer, got -2";
    QTest::newRow("fractional dim") << image(one(R"({"dtype":"F32","shape":[2.5],"data_offsets":[0,8]})"), f8)
                                    << "shape entry must be a non-negative integer";
    QTest::newRow("dim beyond int64") << image(one(R"({"dtype":"F32","shape":[18446744073709551615],"data_offsets":[0,8]})"), f8)
                                      << "is too large";
    QTest::newRow("overflowing product")
        << image(one(R"({"dtype":"F32","shape":[4294967296,4294967296,4294967296],"data_offsets":[0,8]})"), f8)
        << "more bytes than the file holds";
    std::string ones;
    for (int i = 0; i < 65; ++i) ones += i ? ",1" : "1";
    QTest::newRow("rank 65") << image(one(R"({"dtype":"F32","shape":[)" + ones + R"(],"data_offsets":[0,4]})"), "abcd")
                             << "more than 64 dimensions";
    QTest::newRow("offsets not a pair") << image(one(R"({"dtype":"F32","shape":[2],"data_offsets":[0]})"), f8)
                                        << "[begin, end]";
    QTest::newRow("offsets reversed") << image(one(R"({"dtype":"F32","shape":[0],"data_offsets":[8,0]})"), f8)
                                      << "begin is after end";
    QTest::newRow("offsets beyond buffer") << image(one(R"({"dtype":"F32","shape":[1],"data_offsets":[12,16]})"), f8)
                                           << "beyond the data buffer of 8 bytes";
    QTest::newRow("byte count mismatch") << image(one(R"({"dtype":"F16","shape":[2],"data_offsets":[0,8]})"), f8)
                                         << "does not match shape";
    QTest::newRow("overlap") << image(R"({"a":)" + kEntryF32x2 + R"(,"b":)" + kEntryF32x2 + "}", f8) << "overlaps";
    QTest::newRow("gap") << image(one(R"({"dtype":"F32","shape":[1],"data_offsets":[4,8]})"), f8) << "gap of 4 bytes";
    QTest::newRow("trailing bytes") << image(one(kEntryF32x2), f8 + "xx") << "2 trailing bytes";
    QTest::newRow("empty header, data") << image("{}", "abcd") << "4 trailing bytes";
    QTest::newRow("metadata not object") << image(R"({"__metadata__":[1]})") << "\"__metadata__\" must be a JSON object";
    QTest::newRow("metadata value") << image(R"({"__metadata__":{"k":1}})") << "value of 'k' must be a string";
    // Names with a NUL or a newline: the message ended at the NUL ("tensor 'x"), and the CLI
    // printed only the part before the newline; both are written as escapes, the reason kept.
    QTest::newRow("NUL in a name") << image(R"({"x\u0000y":{"dtype":"F32","shape":[1],"data_offsets":[12,16]}})", f8)
                                   << "tensor 'x\\0y': data_offsets end 16 is beyond the data buffer of 8 bytes";
    QTest::newRow("newline in a name") << image(R"({"x\ny":{"dtype":"F32","shape":[1],"data_offsets":[12,16]}})", f8)
                                       << "tensor 'x\\ny': data_offsets end 16 is beyond";
  }

  void rejectsMalformed() {
    QFETCH(std::string, bytes);
    QFETCH(QString, needle);
    const QString msg = test::inputErrorOf([&] { decode(bytes, "bad.safetensors"); });
    QVERIFY2(msg.startsWith(QStringLiteral("bad.safetensors: ")), qPrintable(msg));
    QVERIFY2(msg.contains(needle), qPrintable(msg));
  }
};

QTEST_APPLESS_MAIN(TestSafetensors)
#include "tst_safetensors.moc"
