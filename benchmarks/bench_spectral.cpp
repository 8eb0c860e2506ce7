// Spectral toolkit benchmark. Before registering the ops it measures the plain GEMM rate
// of each shape/dtype (X X^T through matmul, a full GEMM) in the same run; every op reports
// its time as a multiple of the time its FLOPs would take at that rate ("x_bound"), so the
// table reads the same on a noisy shared machine as on a quiet one. FLOPs are what the code
// computes: a symmetric product through BLAS syrk (float32/float64) counts one triangle, so
// an op can only read below 1.00 by beating the GEMM rate. syrk itself runs below the GEMM
// rate here (0.5x at 256^2, 0.75x at 1024^2 float32, measured and printed each run), so a
// second column ("x_routine_bound") prices the syrk FLOPs at syrk's own measured rate.
//
//   lwb-bench-spectral [--quick] [google-benchmark flags]
//   --quick: 256^2 and 1024^2 only, one repetition (used for a fast look).
#include "common/blas_core.h"
#include "common/threads.h"
#include "spectral/spectral.h"
#include "spectral/symmetric_product.h"
#include "spectral_cases.h"

#include <ATen/Context.h>
#include <ATen/TensorOperators.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/randn.h>
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

using namespace lwb::spectral;
using namespace lwb::bench;

namespace {

struct Shape {
  int64_t m, n;
};

// Median rate (FLOP/s) of X X^T for an m x n input in `dtype`: through matmul (a GEMM, 2 m^2 n
// FLOPs) or, with `syrk`, through gramOfRows (BLAS syrk, one triangle m (m + 1) n FLOPs, plus
// the mirror copy it needs for a full symmetric result).
double measureGramRate(int64_t m, int64_t n, at::ScalarType dtype, bool syrk) {
  const auto x = at::randn({m, n}).to(dtype);
  auto once = [&] {
    auto g = syrk ? gramOfRows(x) : x.matmul(x.mT());
    benchmark::DoNotOptimize(g.data_ptr());
  };
  for (int i = 0; i < 3; ++i) once();  // warm up threads, allocator and kernels
  // Median over 9 samples of >= 50 ms each.
  std::vector<double> secs;
  for (int i = 0; i < 9; ++i) {
    int reps = 0;
    const auto t0 = std::chrono::steady_clock::now();
    double elapsed = 0;
    do {
      once();
      ++reps;
      elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    } while (elapsed < 0.05);
    secs.push_back(elapsed / reps);
  }
  std::sort(secs.begin(), secs.end());
  const double flops = syrk ? static_cast<double>(m) * static_cast<double>(m + 1) * static_cast<double>(n) : gemmFlops(m, n, m);
  return flops / secs[secs.size() / 2];
}

double measureGemmRate(int64_t m, int64_t n, at::ScalarType dtype) { return measureGramRate(m, n, dtype, false); }

// The run's context for the Markdown summary: BLAS core, threads, GEMM rates measured.
std::string& notes() {
  static std::string text;
  return text;
}

// Console output as usual, plus a Markdown table of the medians at the end for
// docs/BENCHMARKS.md.
class MarkdownSummary : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const auto& r : runs) {
      const bool keep = r.run_type == Run::RT_Aggregate ? r.aggregate_name == "median" : r.repetitions <= 1;
      if (!keep || r.error_occurred) continue;
      auto name = r.run_name.function_name;
      rows_.push_back({name, r.GetAdjustedRealTime(), counter(r, "GFLOPs"), counter(r, "x_bound"),
                       counter(r, "x_routine_bound")});
    }
  }
  void Finalize() override {
    ConsoleReporter::Finalize();
    std::printf("\n%s\n", notes().c_str());
    std::printf("\n| op / shape / dtype | median ms | GFLOP/s | x GEMM bound | x syrk+GEMM bound |\n|---|---:|---:|---:|---:|\n");
    for (const auto& r : rows_)
      std::printf("| %s | %.3f | %.1f | %.2f | %.2f |\n", r.name.c_str(), r.ms, r.gflops, r.xBound, r.xRoutineBound);
  }

 private:
  struct Row {
    std::string name;
    double ms, gflops, xBound, xRoutineBound;
  };
  static double counter(const Run& r, const char* key) {
    const auto it = r.counters.find(key);
    return it == r.counters.end() ? 0.0 : static_cast<double>(it->second);
  }
  std::vector<Row> rows_;
};

}  // namespace

int main(int argc, char** argv) {
  lwb::reexecWithOpenMpWaitPolicy(argv);  // OpenMP waits as in the CLI and the app (common/threads.h)
  const std::string blasCore = lwb::blasCoreName();
  bool quick = false;
  std::vector<char*> rest;
  for (int i = 0; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quick") == 0) quick = true;
    else rest.push_back(argv[i]);
  }
  int restArgc = static_cast<int>(rest.size());
  benchmark::Initialize(&restArgc, rest.data());
  const int threads = lwb::setIntraOpThreads(0);
  benchmark::AddCustomContext("intra_op_threads", std::to_string(threads));
  benchmark::AddCustomContext("openblas_core", blasCore);
  notes() = "OpenBLAS core: " + blasCore + "; intra-op threads: " + std::to_string(threads) + ".\n";

  std::vector<Shape> shapes{{256, 256}, {1024, 1024}};
  if (!quick) shapes.push_back({1024, 4096});
  for (const auto dtype : {at::kFloat, at::kBFloat16}) {
    const std::string dname = dtype == at::kFloat ? "f32" : "bf16";
    for (const auto& s : shapes) {
      const double rate = measureGemmRate(s.m, s.n, dtype);
      const std::string shape = std::to_string(s.m) + "x" + std::to_string(s.n);
      benchmark::AddCustomContext("gemm_GFLOPs_" + shape + "_" + dname, std::to_string(rate / 1e9));
      char line[160];
      std::snprintf(line, sizeof line, "GEMM rate %s %s: %.1f GFLOP/s. ", shape.c_str(), dname.c_str(), rate / 1e9);
      notes() += line;
      // syrk's own rate, for reading the x-bound column: ops that count syrk's half FLOPs can
      // only reach 1.00 if syrk runs at the GEMM rate.
      const bool syrk = usesBlasSyrk(at::empty({2, 2}, at::TensorOptions().dtype(dtype)));
      double syrkRate = rate;
      if (syrk) {
        syrkRate = measureGramRate(s.m, s.n, dtype, true);
        std::snprintf(line, sizeof line, "syrk rate %s %s: %.1f GFLOP/s. ", shape.c_str(), dname.c_str(), syrkRate / 1e9);
        notes() += line;
      }
      for (const auto& c : cases()) {
        const double flops = c.flops(s.m, s.n, syrk);
        // The second bound prices each routine at its own measured rate: the syrk share of the
        // FLOPs (what a GEMM count adds on top: m (m - 1) k per product, within 1/m of
        // syrk's m (m + 1) k) at syrk's rate, the rest at the GEMM rate.
        const double syrkFlops = syrk ? c.flops(s.m, s.n, false) - flops : 0.0;
        const double boundSeconds = (flops - syrkFlops) / rate + syrkFlops / syrkRate;
        const bool big = s.m * s.n >= 1024 * 4096;
        auto* b = benchmark::RegisterBenchmark(
            (c.name + "/" + shape + "/" + dname).c_str(),
            [c, s, dtype, flops, rate, boundSeconds](benchmark::State& st) {
              const auto w = (at::randn({s.m, s.n}) * 3.0).to(dtype);
              PowerIterationState pi;
              for (auto _ : st) {
                auto out = c.run(w, pi);
                benchmark::DoNotOptimize(out.data_ptr());
              }
              st.counters["GFLOPs"] = benchmark::Counter(flops / 1e9, benchmark::Counter::kIsIterationInvariantRate);
              // time per iteration / (flops / gemm rate): 1.0 = as fast as plain GEMM.
              st.counters["x_bound"] = benchmark::Counter(
                  flops / rate, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
              st.counters["x_routine_bound"] = benchmark::Counter(
                  boundSeconds, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
            });
        b->Unit(benchmark::kMillisecond)->UseRealTime();
        if (big && c.heavy) b->Iterations(1)->Repetitions(quick ? 1 : 2);
        else b->MinTime(quick ? 0.2 : 0.5)->Repetitions(quick ? 1 : 3);
        if (!quick) b->ReportAggregatesOnly(true);
      }
    }
  }
  MarkdownSummary reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
