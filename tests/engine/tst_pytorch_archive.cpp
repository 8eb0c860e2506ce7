// PyTorch zip archives through the restricted pickle reader: state-dict structure, storages
// shared by views, strided tensors, and hostile pickles and storages (each a specific error,
// never a crash). Pickles are written opcode by opcode, as torch.save (protocol 2) writes them.
#include "engine/zip_builder.h"
#include "io/pytorch_archive.h"
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

// Pickle opcodes, spelled out.
std::string str(const std::string& s) {
  std::string out = "X";
  test::putLe(out, s.size(), 4);
  return out + s;
}
std::string int1(int v) { return std::string("K") + static_cast<char>(v); }
std::string long8(int64_t v) {
  std::string out("\x8a\x08", 2);
  test::putLe(out, static_cast<uint64_t>(v), 8);
  return out;
}
std::string intTuple(const std::vector<int64_t>& v) {
  std::string out = "(";
  for (const int64_t x : v) out += long8(x);
  return out + "t";
}
const std::string kOrderedDict = "ccollections\nOrderedDict\n)R";

struct T {
  std::string storageType = "FloatStorage";
  std::string key = "0";
  int64_t storageNumel = 6;
  int64_t offset = 0;
  std::vector<int64_t> sizes{2, 3}, strides{3, 1};
};

std::string tensor(const T& t) {
  return "ctorch._utils\n_rebuild_tensor_v2\n(" + ("(" + str("storage") + "ctorch\n" + t.storageType + "\n" +
                                                     str(t.key) + str("cpu") + long8(t.storageNumel) + "tQ") +
         long8(t.offset) + intTuple(t.sizes) + intTuple(t.strides) + "\x89" + kOrderedDict + "tR";
}

// {name: value, ...} as an OrderedDict filled by SETITEMS.
std::string dict(const std::vector<std::pair<std::string, std::string>>& items) {
  std::string out = kOrderedDict + "(";
  for (const auto& [k, v] : items) out += str(k) + v;
  return out + "u";
}

std::string pickle(const std::string& body) { return std::string("\x80\x02", 2) + body + "."; }

std::string floats(int n) {
  std::string s(static_cast<size_t>(n) * 4, '\0');
  for (int i = 0; i < n; ++i) {
    const float f = static_cast<float>(i);
    std::memcpy(s.data() + 4 * i, &f, 4);
  }
  return s;
}

std::string archive(const std::string& pkl, std::vector<ZipEntry> records = {{"archive/data/0", floats(6)}}) {
  records.insert(records.begin(), ZipEntry{"archive/data.pkl", pkl});
  records.push_back({"archive/version", "3\n"});
  return test::makeZip(records);
}

io::TensorFile decode(const std::string& zip) {
  return io::decodePytorchArchive(std::make_shared<const std::string>(zip), "bad.pt");
}

}  // namespace

class TestPytorchArchive : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void readsStateDictLikeTorchSave() {
    T w;
    T wt = w;  // a transposed view of the same storage
    wt.sizes = {3, 2};
    wt.strides = {1, 3};
    T tail = w;  // elements 2..5 of the storage, as a 2×2 view with an offset
    tail.offset = 2;
    tail.sizes = {2, 2};
    tail.strides = {2, 1};
    T d{"DoubleStorage", "1", 2, 0, {}, {}};  // a 0-d float64 tensor
    d.storageNumel = 1;
    // torch.save(model.state_dict()) ends with BUILD of the OrderedDict's `_metadata`.
    const std::string meta = "}" + str("_metadata") + kOrderedDict + "(" + str("") + "}" + str("version") + int1(1) +
                             "su" + "s" + "b";
    const std::string body =
        dict({{"fc.weight", tensor(w)}, {"fc.weight_t", tensor(wt)}, {"tail", tensor(tail)},
              {"nested", dict({{"list", "]" + ("(" + tensor(d) + str("skip me") + "e")}})},
              {"epoch", int1(3)}}) +
        meta;
    double one = 1.5;
    std::string dbl(8, '\0');
    std::memcpy(dbl.data(), &one, 8);
    const auto file = decode(archive(pickle(body), {{"archive/data/0", floats(6)}, {"archive/data/1", dbl}}));
    QCOMPARE(file.format, std::string("pytorch"));
    std::vector<std::string> names;
    for (const auto& t : file.tensors) names.push_back(t.name);
    QCOMPARE(names, (std::vector<std::string>{"fc.weight", "fc.weight_t", "tail", "nested.list.0"}));
    const at::Tensor base = at::arange(6, at::kFloat).reshape({2, 3});
    QVERIFY(at::equal(io::toTensor(file.tensors[0]), base));
    QVERIFY(at::equal(io::toTensor(file.tensors[1]), base.t()));
    QVERIFY(at::equal(io::toTensor(file.tensors[2]), at::arange(2, 6, at::kFloat).reshape({2, 2})));
    QCOMPARE(file.tensors[3].dtype, io::DType::F64);
    QCOMPARE(io::toTensor(file.tensors[3]).item<double>(), 1.5);
    // Contiguous tensors view into the storage record: fc.weight and tail share its bytes.
    QCOMPARE(file.tensors[2].data.get(), file.tensors[0].data.get() + 8);
  }

  void bareTensorAndParameters() {
    const std::string param = "ctorch._utils\n_rebuild_parameter\n(" + tensor(T{}) + "\x88" + kOrderedDict + "tR";
    const auto file = decode(archive(pickle(param)));
    QCOMPARE(file.tensors.size(), size_t{1});
    QCOMPARE(file.tensors[0].name, std::string("tensor"));
  }

  // Nothing is dropped without a word: a pickled object beside the tensors (a whole nn.Module,
  // a NumPy array) is listed in `skipped` with why; a tuple key makes a name, "(2, 3)"; a key
  // that makes none (a dict as key is impossible in Python, a None key is not) is skipped too.
  void leftOutEntriesAreListed() {
    const std::string module = "c__main__\nNet\n)\x81";
    const std::string numpyArray = "cnumpy.core.multiarray\n_reconstruct\n)\x81";
    std::string body = kOrderedDict + "(" + str("model") + module + str("np") + numpyArray + str("w") + tensor(T{}) +
                       ("(" + long8(2) + long8(3) + "t") + tensor(T{}) + "N" + tensor(T{}) + "u";
    const auto file = decode(archive(pickle(body)));
    std::vector<std::string> names;
    for (const auto& t : file.tensors) names.push_back(t.name);
    QCOMPARE(names, (std::vector<std::string>{"w", "(2, 3)"}));
    QCOMPARE(file.skipped.size(), size_t{3});
    const auto listed = [&](const std::string& start) {
      return std::any_of(file.skipped.begin(), file.skipped.end(), [&](const std::string& s) { return s.starts_with(start); });
    };
    QVERIFY(listed("model: a pickled Python object (__main__.Net)"));
    QVERIFY(listed("np: a NumPy array"));
    QVERIFY(listed("(root): an entry whose dict key is neither"));

    // A complex (or quantized) tensor beside real ones: listed as skipped, the rest read (it
    // once made the whole file unreadable: "torch.ComplexFloatStorage is not supported").
    T complex;
    complex.storageType = "ComplexFloatStorage";
    complex.key = "1";
    const auto mixed = decode(archive(pickle(dict({{"w", tensor(T{})}, {"z", tensor(complex)}})),
                                      {{"archive/data/0", floats(6)}, {"archive/data/1", floats(12)}}));
    QCOMPARE(mixed.tensors.size(), size_t{1});
    QCOMPARE(mixed.tensors[0].name, std::string("w"));
    QCOMPARE(mixed.skipped.size(), size_t{1});
    QVERIFY2(mixed.skipped[0].starts_with("z: a tensor of torch.ComplexFloatStorage"), mixed.skipped[0].c_str());
  }

  void rejectsMalformed_data() {
    QTest::addColumn<std::string>("zip");
    QTest::addColumn<QString>("needle");
    auto one = [](const T& t) { return archive(pickle(dict({{"w", tensor(t)}}))); };
    T t;
    t.storageNumel = 100;
    QTest::newRow("storage larger than record") << one(t) << "storage claims 100 elements of float32 but its record holds 24 bytes";
    t = {};
    t.sizes = {3, 3};
    QTest::newRow("view past storage") << one(t) << "reach element 8 of a storage of 6";
    t = {};
    t.offset = 5;
    QTest::newRow("offset past storage") << one(t) << "reach element 10";
    t = {};
    t.offset = -1;
    QTest::newRow("negative offset") << one(t) << "negative storage offset";
    t = {};
    t.strides = {3, -1};
    QTest::newRow("negative stride") << one(t) << "negative stride in dimension 1";
    t = {};
    t.sizes = {-2, 3};
    QTest::newRow("negative size") << one(t) << "negative size in dimension 0";
    t = {};
    t.sizes = {int64_t{1} << 62, 4};
    t.strides = {0, 0};
    QTest::newRow("element count overflow") << one(t) << "element count overflows";
    t = {};
    t.sizes = {int64_t{1} << 40, 2};
    t.strides = {int64_t{1} << 40, 1};
    QTest::newRow("stride overflow") << one(t) << "overflow";
    t = {};
    t.sizes = {1'000'000, 1'000'000};
    t.strides = {0, 0};
    QTest::newRow("expanded view too large") << one(t) << "add up to more than";
    t = {};
    t.sizes = {2, 3, 1};
    QTest::newRow("size/stride rank mismatch") << one(t) << "different lengths";
    t = {};
    t.key = "7";
    QTest::newRow("missing record") << one(t) << "storage record 'archive/data/7' is missing";
    t = {};
    t.key = "../../etc/passwd";
    QTest::newRow("key with path") << one(t) << "not a plain record name";
    t = {};
    t.storageType = "FloatTensor";
    QTest::newRow("not a storage class") << one(t) << "torch.FloatTensor is not supported";
    QTest::newRow("stack underflow") << archive(pickle("R")) << "stack underflow";
    QTest::newRow("pop across mark") << archive(pickle(int1(1) + "(\x85")) << "stack underflow";
    QTest::newRow("mark never set") << archive(pickle("t")) << "MARK that was never set";
    QTest::newRow("empty stack at stop") << archive(pickle("")) << "empty stack";
    QTest::newRow("text opcode") << archive(pickle("I1\n")) << "unsupported pickle opcode 0x49";
    QTest::newRow("truncated string") << archive(std::string("\x80\x02X\xff\xff\xff\x7f", 8)) << "truncated pickle";
    QTest::newRow("no stop") << archive(std::string("\x80\x02K\x01", 4)) << "truncated pickle";
    QTest::newRow("unset memo") << archive(pickle("h\x05")) << "memo entry 5";
    QTest::newRow("self insertion") << archive(pickle(std::string("]q\x00h\x00", 5) + "a")) << "inside itself";
    QTest::newRow("modify after placing")
        << archive(pickle(std::string("]q\x00]h\x00", 6) + "a" + std::string("h\x00", 2) + int1(1) + "a"))
        << "after placing";
    QTest::newRow("deep nesting") << archive(pickle(std::string(40, ']') + std::string(39, 'a'))) << "deeper than 32";
    QTest::newRow("odd dict items") << archive(pickle("}(" + int1(1) + "u")) << "key/value pairs";
    QTest::newRow("append to non-list") << archive(pickle("}" + int1(1) + "a")) << "not a list";
    QTest::newRow("whole module") << archive(pickle("c__main__\nNet\n)\x81")) << "no tensors outside pickled Python objects (__main__.Net)";
    QTest::newRow("duplicate names") << archive(pickle(dict({{"a", dict({{"b", tensor(T{})}})}, {"a.b", tensor(T{})}})))
                                     << "two tensors are both named 'a.b'";
    QTest::newRow("persid not storage") << archive(pickle("(" + str("module") + int1(1) + int1(1) + int1(1) + int1(1) + "tQ"))
                                        << "not a storage";
    QTest::newRow("no data.pkl") << test::makeZip({{"archive/data/0", floats(6)}}) << "not a PyTorch archive";
    QTest::newRow("two data.pkl") << test::makeZip({{"a/data.pkl", pickle("N")}, {"b/data.pkl", pickle("N")}})
                                  << "more than one";
    QTest::newRow("torchscript") << test::makeZip({{"m/data.pkl", pickle("N")}, {"m/constants.pkl", pickle("N")}})
                                 << "TorchScript";
    QTest::newRow("big endian") << archive(pickle(dict({})), {{"archive/byteorder", "big"}}) << "big-endian";
  }

  void rejectsMalformed() {
    QFETCH(std::string, zip);
    QFETCH(QString, needle);
    const QString msg = test::inputErrorOf([&] { decode(zip); });
    QVERIFY2(msg.startsWith(QStringLiteral("bad.pt: ")), qPrintable(msg));
    QVERIFY2(msg.contains(needle), qPrintable(msg));
  }

  void pickleLimits() {
    io::PytorchLimits l;
    l.pickle.maxValues = 10;
    const std::string many = archive(pickle("(" + std::string(20, 'N') + "l"));
    QVERIFY(test::inputErrorOf([&] { io::decodePytorchArchive(std::make_shared<const std::string>(many), "x", l); })
                .contains("more than 10 values"));
    l = {};
    l.maxPickleBytes = 4;
    QVERIFY(test::inputErrorOf([&] { io::decodePytorchArchive(std::make_shared<const std::string>(many), "x", l); })
                .contains("data.pkl of 25 bytes exceeds the limit of 4"));
    // Shared sub-trees: 2^20 paths through 20 levels of [x, x] from ~60 bytes of pickle.
    std::string lvl = tensor(T{}) + std::string("q\x00", 2);
    for (int i = 0; i < 20; ++i) lvl += std::string("h\x00h\x00\x86q\x00", 7);
    l = {};
    l.maxVisits = 100'000;
    const std::string wide = archive(pickle(lvl));
    QVERIFY(test::inputErrorOf([&] { io::decodePytorchArchive(std::make_shared<const std::string>(wide), "x", l); })
                .contains("more than 100000 entries"));
  }
};

QTEST_APPLESS_MAIN(TestPytorchArchive)
#include "tst_pytorch_archive.moc"
