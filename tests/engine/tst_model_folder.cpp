// Hugging Face model folders (engine/io/model_folder.h, issue 29 §2): a weight_map over two
// shards reads as one model in the map's order with unknown index keys ignored; a single-file
// folder; and every bad index (a missing shard named, a shard outside the folder, an index
// naming an index (a cycle), a map that is no object, a tensor its shard lacks, an empty
// folder) is one InputError naming the problem.
#include "io/input_error.h"
#include "io/safetensors.h"
#include "io/tensor_convert.h"
#include "io/tensor_file.h"

#include <ATen/ops/arange.h>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include <fstream>

#include <sys/wait.h>
#include <unistd.h>

using namespace lwb;
namespace fs = std::filesystem;

namespace {

void writeText(const fs::path& p, const std::string& text) { std::ofstream(p) << text; }

at::Tensor matrix(int64_t r, int64_t c, double start) { return at::arange(start, start + static_cast<double>(r * c), at::kFloat).reshape({r, c}); }

// shard 1: a (3x4), b (2x2); shard 2: c (5x3). The map lists them c, a, b.
fs::path shardedFolder(const QTemporaryDir& tmp, const std::string& index) {
  const fs::path dir = fs::path(tmp.path().toStdString()) / "gpt";
  fs::create_directories(dir);
  io::writeSafetensors((dir / "model-00001-of-00002.safetensors").string(),
                       {io::fromTensor("a", matrix(3, 4, 0)), io::fromTensor("b", matrix(2, 2, 100))}, {});
  io::writeSafetensors((dir / "model-00002-of-00002.safetensors").string(), {io::fromTensor("c", matrix(5, 3, 200))}, {});
  writeText(dir / "model.safetensors.index.json", index);
  return dir;
}

const std::string kGoodIndex = R"({"metadata": {"total_size": 120, "format": "pt", "some_new_key": [1, 2]},
  "weight_map": {"c": "model-00002-of-00002.safetensors", "a": "model-00001-of-00002.safetensors",
                 "b": "model-00001-of-00002.safetensors"}})";

QString errorOf(const fs::path& dir) {
  try {
    io::readTensorFile(dir);
  } catch (const InputError& e) {
    return QString::fromUtf8(e.what());
  }
  return {};
}

}  // namespace

class TestModelFolder : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void shardedFolderReadsAsOneModel() {
    QTemporaryDir tmp;
    const auto dir = shardedFolder(tmp, kGoodIndex);
    const io::TensorFile f = io::readTensorFile(dir);
    QCOMPARE(f.format, std::string("huggingface"));
    QCOMPARE(f.metadata.at("shards"), std::string("2"));
    QCOMPARE(f.tensors.size(), size_t{3});
    // nlohmann's object keeps keys sorted: a, b, c.
    QCOMPARE(f.tensors[0].name, std::string("a"));
    QCOMPARE(f.tensors[2].name, std::string("c"));
    QCOMPARE(f.tensors[2].shape, (std::vector<int64_t>{5, 3}));
    const auto c = io::asTensor(f.tensors[2]);
    QCOMPARE(c.select(0, 4).select(0, 2).item<float>(), 214.0f);
    QCOMPARE(io::asTensor(f.tensors[1]).select(0, 1).select(0, 1).item<float>(), 103.0f);
  }

  void singleFileFolder() {
    QTemporaryDir tmp;
    const fs::path dir = fs::path(tmp.path().toStdString());
    io::writeSafetensors((dir / "model.safetensors").string(), {io::fromTensor("w", matrix(2, 3, 0))}, {});
    const io::TensorFile f = io::readTensorFile(dir);
    QCOMPARE(f.tensors.size(), size_t{1});
    QCOMPARE(f.format, std::string("safetensors"));
  }

  void badIndexesAreNamed_data() {
    QTest::addColumn<QString>("index");
    QTest::addColumn<QString>("message");
    QTest::newRow("missing shard") << R"({"weight_map": {"a": "model-00001-of-00002.safetensors", "z": "model-00009-of-00009.safetensors"}})"
                                   << "shard model-00009-of-00009.safetensors (of z and 0 more) is missing";
    QTest::newRow("shard outside (..)") << R"({"weight_map": {"a": "../model-00001-of-00002.safetensors"}})" << "is not a file name in the folder";
    QTest::newRow("shard outside (absolute)") << R"({"weight_map": {"a": "/etc/passwd"}})" << "is not a file name in the folder";
    QTest::newRow("cycle: the index itself") << R"({"weight_map": {"a": "model.safetensors.index.json"}})" << "is an index itself (a cycle)";
    QTest::newRow("cycle: another index") << R"({"weight_map": {"a": "pytorch_model.bin.index.json"}})" << "is an index itself (a cycle)";
    QTest::newRow("map not an object") << R"({"weight_map": ["a"]})" << "no \"weight_map\" object";
    QTest::newRow("no map") << R"({"metadata": {}})" << "no \"weight_map\" object";
    QTest::newRow("shard not a string") << R"({"weight_map": {"a": 3}})" << "weight_map[\"a\"] is not a file name";
    QTest::newRow("tensor not in its shard") << R"({"weight_map": {"c": "model-00001-of-00002.safetensors"}})" << "c is mapped to model-00001-of-00002.safetensors, which does not hold it";
    QTest::newRow("not JSON") << "{weight_map" << "not valid JSON";
  }
  void badIndexesAreNamed() {
    QFETCH(QString, index);
    QFETCH(QString, message);
    QTemporaryDir tmp;
    const auto dir = shardedFolder(tmp, index.toStdString());
    const QString e = errorOf(dir);
    QVERIFY2(e.contains(message), qPrintable(e));
    QVERIFY(!e.contains(QLatin1Char('\n')));
  }

  void emptyFolderAndShardThatIsAFolder() {
    QTemporaryDir tmp;
    const fs::path dir = fs::path(tmp.path().toStdString());
    QVERIFY(errorOf(dir).contains(QStringLiteral("no model.safetensors.index.json")));
    // A shard name that is a directory counts as missing.
    fs::create_directories(dir / "m" / "shard.safetensors");
    writeText(dir / "m" / "model.safetensors.index.json", R"({"weight_map": {"a": "shard.safetensors"}})");
    QVERIFY2(errorOf(dir / "m").contains(QStringLiteral("is missing")), qPrintable(errorOf(dir / "m")));
  }

  // A folder the user may not search was "no model files in it"; now permission denied. Root
  // reads everything, so a forked child checks as nobody.
  void lockedFolderSaysPermissionDenied() {
    QTemporaryDir base;
    QVERIFY(QFile::setPermissions(base.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner |
                                                   QFileDevice::ReadOther | QFileDevice::ExeOther));
    const auto dir = shardedFolder(base, kGoodIndex);
    QVERIFY(QFile::setPermissions(QString::fromStdString(dir.string()), QFileDevice::Permissions()));
    const pid_t child = ::fork();
    if (child == 0) {
      if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0)) ::_exit(3);
      const QString e = errorOf(dir);
      ::_exit(e.contains(QLatin1String("permission denied")) && !e.contains(QLatin1String("no model")) ? 0 : 1);
    }
    int status = 0;
    QCOMPARE(::waitpid(child, &status, 0), child);
    QVERIFY(WIFEXITED(status));
    QCOMPARE(WEXITSTATUS(status), 0);
    QFile::setPermissions(QString::fromStdString(dir.string()), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
  }
};

QTEST_GUILESS_MAIN(TestModelFolder)
#include "tst_model_folder.moc"
