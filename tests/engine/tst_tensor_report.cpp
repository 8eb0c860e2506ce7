// The inspect route for large files (issue 29 §2 speed): the float64 Gram accumulated over
// float32/float16/bfloat16 slices against the exact float64 SVD of the same matrix, and the
// parallel reportTensors against reportTensor called one tensor at a time (file order, equal
// numbers, one progress call per tensor, non-finite entries noted in every dtype, cancel).
#include "common/threads.h"
#include "common/torch_compat.h"
#include "inspect/tensor_report.h"
#include "io/tensor_convert.h"
#include "spectral/matrix_stats.h"

#include <ATen/ops/randn.h>
#include <ATen/ops/zeros.h>

#include <QtTest/QtTest>

#include <cmath>
#include <limits>

using namespace lwb;

namespace {

std::vector<double> exactSingularValues(const at::Tensor& w) {
  const auto s = compat::svdvals(w.to(at::kDouble)).contiguous();
  return {s.data_ptr<double>(), s.data_ptr<double>() + s.numel()};
}

// Largest |a_i − b_i| relative to σ₁ (the Gram route's error is absolute in σ², so small σ
// carry a larger relative error; relative to σ₁ the bound is uniform).
double maxErrorOverSigma1(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size() || a.empty()) return std::numeric_limits<double>::infinity();
  double e = 0;
  for (size_t i = 0; i < a.size(); ++i) e = std::max(e, std::abs(a[i] - b[i]));
  return b.front() > 0 ? e / b.front() : e;  // the zero matrix: the absolute error
}

at::Tensor withValue(at::Tensor w, int64_t r, int64_t c, double v) {
  w = w.clone().contiguous();
  w.data_ptr<float>()[r * w.size(1) + c] = static_cast<float>(v);
  return w;
}

}  // namespace

class TstTensorReport : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void slicedGramMatchesExactSvd_data() {
    QTest::addColumn<int>("rows");
    QTest::addColumn<int>("cols");
    QTest::addColumn<int>("dtype");
    QTest::addColumn<qint64>("sliceEntries");
    const int f32 = static_cast<int>(at::kFloat), f16 = static_cast<int>(at::kHalf), bf16 = static_cast<int>(at::kBFloat16);
    // 7 rows (or columns) a slice, not dividing 301: a short last slice.
    QTest::newRow("float32 tall, 43 slices") << 301 << 40 << f32 << qint64(7 * 40);
    QTest::newRow("float32 wide, 43 slices") << 40 << 301 << f32 << qint64(7 * 40);
    QTest::newRow("float32 tall, one slice") << 301 << 40 << f32 << qint64(spectral::kGramSliceEntries);
    QTest::newRow("float16 tall, slices of 1") << 120 << 30 << f16 << qint64(1);
    QTest::newRow("bfloat16 wide, 9 slices") << 30 << 257 << bf16 << qint64(30 * 29);
    QTest::newRow("float32 square") << 64 << 64 << f32 << qint64(64 * 5);
  }
  void slicedGramMatchesExactSvd() {
    QFETCH(int, rows);
    QFETCH(int, cols);
    QFETCH(int, dtype);
    QFETCH(qint64, sliceEntries);
    at::manual_seed(rows * 1000 + cols);
    const auto w = at::randn({rows, cols}).to(static_cast<at::ScalarType>(dtype));
    // The reference: the exact SVD of the same (already rounded) entries in float64.
    const auto exact = exactSingularValues(w);
    const auto viaGram = spectral::singularValuesViaGram(w, sliceEntries);
    QVERIFY2(maxErrorOverSigma1(viaGram, exact) < 1e-10,
             qPrintable(QString("error/σ₁ %1").arg(maxErrorOverSigma1(viaGram, exact))));
  }

  // The comparison above can fail: a Gram that lost a slice is far from the SVD.
  void comparisonFailsOnMissingSlice() {
    at::manual_seed(3);
    const auto w = at::randn({301, 40});
    const auto exact = exactSingularValues(w);
    const auto lost = spectral::singularValuesViaGram(w.narrow(0, 0, 294));  // one 7-row slice short
    QVERIFY(maxErrorOverSigma1(lost, exact) > 1e-4);
  }

  // Many tensors on two threads = one at a time, in file order, with the progress contract.
  void parallelReportEqualsSerial() {
    const int previous = setIntraOpThreads(2);
    at::manual_seed(11);
    io::TensorFile file;
    file.tensors.push_back(io::fromTensor("big_tall", at::randn({900, 64})));
    file.tensors.push_back(io::fromTensor("bias", at::randn({64})));
    file.tensors.push_back(io::fromTensor("wide", at::randn({48, 700})));
    file.tensors.push_back(io::fromTensor("nan_f32", withValue(at::randn({20, 10}), 3, 4, std::nan(""))));
    file.tensors.push_back(io::fromTensor("inf_f16", withValue(at::randn({20, 10}), 0, 0, INFINITY).to(at::kHalf)));
    file.tensors.push_back(io::fromTensor("neg_inf_bf16", withValue(at::randn({10, 20}), 9, 19, -INFINITY).to(at::kBFloat16)));
    file.tensors.push_back(io::fromTensor("neg_inf_f64", withValue(at::randn({10, 20}), 5, 5, -INFINITY).to(at::kDouble)));
    file.tensors.push_back(io::fromTensor("small", at::randn({5, 3})));
    file.tensors.push_back(io::fromTensor("zeros_bf16", at::zeros({6, 4}).to(at::kBFloat16)));
    file.tensors.push_back(io::fromTensor("big_f64", at::randn({64, 500}, at::kDouble)));
    std::vector<size_t> calls;
    size_t totalSeen = 0;
    const auto reports = inspect::reportTensors(file, true, [&](size_t done, size_t total) {
      calls.push_back(done);
      totalSeen = total;
    });
    setIntraOpThreads(previous);
    QCOMPARE(reports.size(), file.tensors.size());
    QCOMPARE(totalSeen, file.tensors.size());
    QCOMPARE(calls.size(), file.tensors.size());
    for (size_t i = 0; i < calls.size(); ++i) QCOMPARE(calls[i], i + 1);  // serialised, counting up
    for (size_t i = 0; i < reports.size(); ++i) {
      const auto serial = inspect::reportTensor(file.tensors[i], true);
      QCOMPARE(reports[i].name, file.tensors[i].name);
      QCOMPARE(reports[i].note, serial.note);
      QCOMPARE(reports[i].stats.has_value(), serial.stats.has_value());
      if (!serial.stats) continue;
      QCOMPARE(reports[i].stats->singularValues.size(), serial.stats->singularValues.size());
      QVERIFY(maxErrorOverSigma1(reports[i].stats->singularValues, serial.stats->singularValues) < 1e-12);
      const double a = reports[i].metrics.alpha, b = serial.metrics.alpha;
      QVERIFY(std::isnan(a) ? std::isnan(b) : std::abs(a - b) <= 1e-9 * std::abs(b));
    }
    // Non-finite entries are noted in every dtype; finite ones get stats.
    for (const char* name : {"nan_f32", "inf_f16", "neg_inf_bf16", "neg_inf_f64"}) {
      const auto it = std::find_if(reports.begin(), reports.end(), [&](const auto& r) { return r.name == name; });
      QVERIFY2(it != reports.end() && !it->stats && it->note.find("NaN or infinite") != std::string::npos, name);
    }
    QVERIFY(reports[0].stats && reports[2].stats && reports[9].stats && reports[8].stats);
    QCOMPARE(reports[8].stats->sigma1, 0.0);
  }

  // A convolution kernel is said to be outside the analysis (it was listed with no word, and
  // WeightWatcher users expect conv layers analysed); a vector is plainly not a matrix.
  void convolutionKernelsAreNoted() {
    const auto conv = inspect::reportTensor(io::fromTensor("conv.weight", at::randn({8, 3, 3, 3})), false);
    QVERIFY(!conv.stats);
    QVERIFY2(conv.note.find("4-D tensor") != std::string::npos && conv.note.find("2-D matrices only") != std::string::npos,
             conv.note.c_str());
    const auto bias = inspect::reportTensor(io::fromTensor("conv.bias", at::randn({8})), false);
    QVERIFY(!bias.stats && bias.note.empty());
  }

  // A cancel returns the finished tensors, in file order, and stops taking new ones.
  void cancelReturnsFinishedInFileOrder() {
    const int previous = setIntraOpThreads(2);
    io::TensorFile file;
    for (int i = 0; i < 12; ++i) file.tensors.push_back(io::fromTensor(std::string("m").append(std::to_string(i)), at::randn({40 + i, 30})));
    std::atomic<bool> cancel{false};
    const auto reports = inspect::reportTensors(
        file, false, [&](size_t done, size_t) { if (done == 3) cancel = true; }, &cancel);
    setIntraOpThreads(previous);
    QVERIFY(reports.size() >= 3 && reports.size() < file.tensors.size());
    for (size_t i = 1; i < reports.size(); ++i) {
      const auto index = [&](const std::string& n) { return std::stoi(n.substr(1)); };
      QVERIFY(index(reports[i - 1].name) < index(reports[i].name));
    }
  }
};

QTEST_GUILESS_MAIN(TstTensorReport)
#include "tst_tensor_report.moc"
