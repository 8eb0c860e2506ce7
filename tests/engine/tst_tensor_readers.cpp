// Every fixture made by real PyTorch / NumPy (tests/fixtures/make_fixtures.py) reads through the
// one door, readTensorFile, with the names, shapes and dtypes the generator recorded in
// expected.json, and each matrix's singular values match the ones it was built with
// (U diag(s) Vᵀ) to the sidecar's tolerance: u·‖W‖_F for the file's dtype (Weyl) plus 1e-5·σ₁.
#include "common/torch_compat.h"
#include "io/tensor_convert.h"
#include "io/tensor_file.h"

#include <ATen/ops/sum.h>
#include <QtTest/QtTest>
#include <nlohmann/json.hpp>

#include <fstream>
#include <set>

using namespace lwb;
using nlohmann::json;

namespace {

// From CMake, not QFINDTESTDATA: __FILE__ may be relative (compiler caches rewrite it).
QString fixturesDir() { return QStringLiteral(LWB_FIXTURES_DIR); }

json expectedJson() {
  std::ifstream in((fixturesDir() + QStringLiteral("/expected.json")).toStdString());
  return json::parse(in);
}

}  // namespace

class TestTensorReaders : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void fixture_data() {
    QTest::addColumn<QString>("file");
    const json e = expectedJson();
    QVERIFY(e["files"].size() >= 7);
    for (const auto& [name, _] : e["files"].items()) QTest::newRow(name.c_str()) << QString::fromStdString(name);
  }

  void fixture() {
    QFETCH(QString, file);
    const json want = expectedJson()["files"][file.toStdString()];
    const io::TensorFile got = io::readTensorFile((fixturesDir() + QLatin1Char('/') + file).toStdString());
    QCOMPARE(QString::fromStdString(got.format), QString::fromStdString(want["format"].get<std::string>()));

    std::set<std::string> names, wantNames;
    for (const auto& t : got.tensors) QVERIFY2(names.insert(t.name).second, t.name.c_str());
    for (const auto& [n, _] : want["tensors"].items()) wantNames.insert(n);
    QCOMPARE(names, wantNames);

    for (const io::RawTensor& raw : got.tensors) {
      const json w = want["tensors"][raw.name];
      const char* what = raw.name.c_str();
      QVERIFY2(raw.shape == w["shape"].get<std::vector<int64_t>>(), what);
      QCOMPARE(std::string(io::dtypeName(raw.dtype)), w["dtype"].get<std::string>());
      const at::Tensor t = io::toTensor(raw);
      if (w.contains("sum"))
        QVERIFY2(std::abs(t.to(at::kDouble).sum().item<double>() - w["sum"].get<double>()) <= 1e-5, what);
      if (!w.contains("singular_values")) continue;
      const at::Tensor s = compat::svdvals(compat::svdCompatible(t)).to(at::kDouble);
      const auto expected = w["singular_values"].get<std::vector<double>>();
      const double tol = w["tolerance"].get<double>();
      QCOMPARE(s.numel(), static_cast<int64_t>(expected.size()));
      for (size_t i = 0; i < expected.size(); ++i) {
        const double err = std::abs(s[static_cast<int64_t>(i)].item<double>() - expected[i]);
        QVERIFY2(err <= tol, qPrintable(QStringLiteral("%1: σ%2 off by %3 > %4")
                                            .arg(QString::fromStdString(raw.name)).arg(i + 1).arg(err).arg(tol)));
      }
    }
    if (want.contains("metadata")) {
      const auto metadata = want["metadata"].get<std::map<std::string, std::string>>();
      QVERIFY(got.metadata == metadata);
    }
  }

  // The tolerance is not vacuous: it is far below the gap between neighbouring singular
  // values, so a transposed, truncated or mis-typed matrix would fail.
  void tolerancesAreTight() {
    for (const auto& [file, f] : expectedJson()["files"].items())
      for (const auto& [name, t] : f["tensors"].items())
        if (t.contains("singular_values"))
          QVERIFY2(t["tolerance"].get<double>() < 0.05 * t["singular_values"][0].get<double>(), name.c_str());
  }
};

QTEST_APPLESS_MAIN(TestTensorReaders)
#include "tst_tensor_readers.moc"
