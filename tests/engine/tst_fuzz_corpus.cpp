// Replays the kept fuzzing corpora and crash reproducers (tests/fixtures/fuzz/<parser>/) through
// the same harnesses the libFuzzer targets run (fuzz/harness_*.h): every file must either
// parse or raise lwb::InputError; any other exception or a failed round-trip property fails.
#include "harness_json.h"
#include "harness_npy.h"
#include "harness_pickle.h"
#include "harness_safetensors.h"
#include "harness_tfevents.h"
#include "harness_zip.h"

#include <QtTest/QtTest>

#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <limits>
#include <map>

namespace fs = std::filesystem;

namespace {

using Harness = std::function<void(const uint8_t*, size_t)>;

// Parser folder → harness. A folder that is missing or empty fails the suite, so a lost
// corpus cannot pass silently.
std::map<std::string, Harness> harnesses() {
  return {
      {"safetensors", lwb::fuzz::runSafetensors},
      {"npy", lwb::fuzz::runNpy},
      {"zip", lwb::fuzz::runZip},
      {"npz", lwb::fuzz::runNpz},
      {"pytorch", lwb::fuzz::runPytorch},
      {"pickle", lwb::fuzz::runPickle},
      {"pytorch_pickle", lwb::fuzz::runPytorchPickle},
      // The project's own file kinds (issue 33; seeds: fuzz/make_file_kind_seeds.py).
      {"json", lwb::fuzz::runJson},
      {"spectra_index", lwb::fuzz::runSpectraIndex},
      {"index", lwb::fuzz::runIndex},
      // TensorBoard event files (issue 29 §3; seeds: fuzz/make_tfevents_seeds.py).
      {"tfevents", lwb::fuzz::runTfEvents},
  };
}

std::string readAll(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

class TestFuzzCorpus : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void everyParserHasACorpus() {
    for (const auto& [parser, _] : harnesses()) {
      const fs::path dir = fs::path(LWB_FUZZ_CORPUS_DIR) / parser;
      QVERIFY2(fs::is_directory(dir), qPrintable(QString::fromStdString(dir.string())));
      QVERIFY2(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) >= 10,
               qPrintable(QStringLiteral("fewer than 10 corpus files in ") + QString::fromStdString(dir.string())));
    }
  }

  void replay_data() {
    QTest::addColumn<QString>("parser");
    QTest::addColumn<QString>("file");
    for (const auto& [parser, _] : harnesses()) {
      const fs::path dir = fs::path(LWB_FUZZ_CORPUS_DIR) / parser;
      if (!fs::is_directory(dir)) continue;
      std::vector<fs::path> files;
      for (const auto& e : fs::directory_iterator(dir))
        if (e.is_regular_file()) files.push_back(e.path());
      std::sort(files.begin(), files.end());
      for (const fs::path& f : files) {
        const std::string row = parser + "/" + f.filename().string();
        QTest::newRow(row.c_str()) << QString::fromStdString(parser) << QString::fromStdString(f.string());
      }
    }
  }

  // Root causes of fuzzer findings, asserted directly: a gcc build without sanitizers would
  // replay the crash input silently (signed overflow wraps), so the corpus alone cannot fail.
  void findingNumelOverflowBeforeZeroDim() {
    // fuzz_npy, crash-numel-overflow-before-zero-dim: (4e6, 2, 2, 2, 20002, 2, 2, 4e6, 0, 2, 2)
    // is a valid empty array, but multiplying left to right overflowed int64 before the 0.
    lwb::io::RawTensor t;
    t.shape = {4'000'000, 2, 2, 2, 20002, 2, 2, 4'000'000, 0, 2, 2};
    QCOMPARE(t.numel(), int64_t{0});
    t.shape = {int64_t{1} << 40, int64_t{1} << 40};
    QCOMPARE(t.numel(), std::numeric_limits<int64_t>::max());  // saturates, never wraps
    t.shape = {3, 5, 7};
    QCOMPARE(t.numel(), int64_t{105});
    t.shape = {};
    QCOMPARE(t.numel(), int64_t{1});
  }

  void replay() {
    QFETCH(QString, parser);
    QFETCH(QString, file);
    const std::string bytes = readAll(file.toStdString());
    try {
      harnesses().at(parser.toStdString())(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    } catch (const std::exception& e) {
      QFAIL(qPrintable(QStringLiteral("not an InputError: ") + QString::fromUtf8(e.what())));
    }
  }
};

QTEST_APPLESS_MAIN(TestFuzzCorpus)
#include "tst_fuzz_corpus.moc"
