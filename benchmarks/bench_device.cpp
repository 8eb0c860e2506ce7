// The spectral ops on one device (issue 31): correctness against float64 SVD and speed against
// the device's own measured GEMM rate. No Google Benchmark, so a headless GPU build needs only
// LibTorch.
//
//   lwb-bench-device [--device cpu|cuda] [--check] [--perf] [--sizes 1024,4096] [--peak-tflops X]
//
// --check: every constraint method (every clip implementation of the clip family) on a 256 x 512
//   matrix with a known spectrum (3 … 0.05), float32 and bfloat16, on the device and on the CPU in
//   the same run. Reference: f(σ) of constraint_methods.h applied to the float64 singular values
//   of the input as rounded to the dtype; the output's singular values by float64 SVD on the CPU.
//   A device row passes when its error is within twice the CPU's error of the same op, plus the
//   dtype's rounding (the device must do what the CPU does, not better than the method can).
// --perf: median time per op (spectral_cases.h, the list lwb-bench-spectral times) at each size,
//   float32 and bfloat16, priced against X Xᵀ through matmul measured in the same run, and, with
//   --peak-tflops, against the card's nominal dense peak for that dtype.
// Prints Markdown tables; exit status 1 when a --check row fails.
#include "spectral_cases.h"

#include "common/torch_compat.h"

#include <ATen/Context.h>
#include <ATen/TensorOperators.h>
#include <ATen/ops/randn.h>
#include <c10/util/Exception.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <sstream>
#include <string>
#include <vector>

using namespace lwb::spectral;
using namespace lwb::bench;

namespace {

// Waits for the device: a one-element copy to the host blocks until queued work is done.
void sync(const at::Tensor& t) {
  if (t.defined() && t.numel() > 0 && !t.device().is_cpu()) (void)t.reshape(-1)[0].item<float>();
}

std::vector<double> singularValues(const at::Tensor& w) {
  const auto s = lwb::compat::svdvals(w.detach().to(at::kCPU).to(at::kDouble)).contiguous();
  return std::vector<double>(s.data_ptr<double>(), s.data_ptr<double>() + s.numel());
}

struct CheckRow {
  std::string name;
  ConstraintSettings settings;
};

std::vector<CheckRow> checkRows() {
  std::vector<CheckRow> rows;
  for (const auto& t : constraintMethods()) {
    if (t.id == ConstraintMethod::None) continue;
    ConstraintSettings s;
    s.method = t.id;
    s.sigmaMax = 1.0;
    s.sigmaMin = reads(t.id, kSigmaMin) ? 0.3 : 0.0;
    s.alpha = 0.1;
    s.lambda = 0.1;
    s.lr = 1.0;
    if (reads(t.id, kImpl)) {
      for (const auto& impl : clipImpls()) {
        s.impl = impl.id;
        rows.push_back({std::string(t.key) + "/" + std::string(impl.key), s});
      }
    } else {
      rows.push_back({std::string(t.key), s});
    }
  }
  return rows;
}

// Largest |σ_out,i − |f(σ_in,i)|| over the sorted spectra, relative to max(1, σmax).
double spectrumError(const std::vector<double>& in, const std::vector<double>& out, const ConstraintSettings& s) {
  const double alpha = reads(s.method, kAlpha) ? resolvedAlpha(s) : 0.0;
  std::vector<double> expect;
  for (const double x : in) expect.push_back(std::abs(scalarMap(s, x, in.front(), alpha)));
  std::sort(expect.begin(), expect.end(), std::greater<>());
  double err = 0;
  for (size_t i = 0; i < std::min(expect.size(), out.size()); ++i) err = std::max(err, std::abs(out[i] - expect[i]));
  return err / std::max(1.0, s.sigmaMax);
}

int runCheck(const at::Device& device) {
  // σ₁ = 3 stands apart from the rest (2 … 0.05) so that the power iteration of the methods that
  // act on σ₁ alone converges in its 20 steps: the table compares devices, not convergence.
  auto spectrum = logSpacedSpectrum(255, 2.0, 0.05);
  spectrum.insert(spectrum.begin(), 3.0);
  const auto base = matrixWithSpectrum(256, 512, spectrum, 7);
  std::printf("\n### Spectral ops on %s vs float64 SVD (256 x 512, σ 3 then 2 … 0.05, σmax 1)\n\n",
              device.str().c_str());
  std::printf("| method | dtype | max error, %s | max error, cpu | σ₁ out, %s | bound kept | pass |\n",
              device.str().c_str(), device.str().c_str());
  std::printf("|---|---|---:|---:|---:|---|---|\n");
  int failures = 0;
  for (const auto dtype : {at::kFloat, at::kBFloat16}) {
    const double rounding = dtype == at::kFloat ? 1e-5 : 2e-2;  // bf16: 8 mantissa bits, σ ≤ 3
    const auto w = base.to(dtype);
    const auto in = singularValues(w);
    for (const auto& row : checkRows()) {
      ConstraintParams p;
      static_cast<ConstraintSettings&>(p) = row.settings;
      std::string errDev = "error", errCpu = "error", top = "-", kept = "-", pass = "FAIL";
      try {
        const auto cpuOut = applyConstraint(w, p);
        const double eCpu = spectrumError(in, singularValues(cpuOut), row.settings);
        const auto devOut = applyConstraint(w.to(device), p);
        sync(devOut);
        const auto outDev = singularValues(devOut);
        const double eDev = spectrumError(in, outDev, row.settings);
        std::ostringstream a, b, c;
        a.precision(2);
        b.precision(2);
        c.precision(5);
        a << std::scientific << eDev;
        b << std::scientific << eCpu;
        c << outDev.front();
        errDev = a.str();
        errCpu = b.str();
        top = c.str();
        // The soft cap with a fixed α holds σmax only for weights near it (σmax + ‖ΔW‖, App. B);
        // σ₁ = 3 is far outside, so its row checks the map alone.
        if (traits(row.settings.method).enforcesBound && row.settings.method != ConstraintMethod::SpectralSoftCap)
          kept = outDev.front() <= row.settings.sigmaMax * (1 + rounding) + 2 * eCpu ? "yes" : "NO";
        const bool ok = std::isfinite(eDev) && eDev <= 2 * eCpu + rounding && kept != "NO";
        pass = ok ? "yes" : "FAIL";
        failures += ok ? 0 : 1;
      } catch (const c10::Error& e) {
        ++failures;
        errDev = std::string("error: ") + e.what_without_backtrace();
        errDev = errDev.substr(0, 80);
      }
      std::printf("| %s | %s | %s | %s | %s | %s | %s |\n", row.name.c_str(), dtype == at::kFloat ? "f32" : "bf16",
                  errDev.c_str(), errCpu.c_str(), top.c_str(), kept.c_str(), pass.c_str());
      std::fflush(stdout);
    }
  }
  std::printf("\n%d row(s) failed.\n", failures);
  return failures;
}

// Whether t lives on the CPU (there every call has finished when it returns).
bool device_is_cpu(const at::Tensor& t) { return !t.defined() || t.device().is_cpu(); }

// Median seconds per call of fn over 5 samples of >= minSeconds each (after 2 warm-ups).
template <class Fn>
double medianSeconds(Fn&& fn, double minSeconds) {
  for (int i = 0; i < 2; ++i) sync(fn());
  std::vector<double> secs;
  for (int s = 0; s < 5; ++s) {
    int reps = 0;
    const auto t0 = std::chrono::steady_clock::now();
    double elapsed = 0;
    at::Tensor last;
    do {
      last = fn();
      ++reps;
      if (reps % 4 == 0 || device_is_cpu(last)) sync(last);
      elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    } while (elapsed < minSeconds);
    sync(last);
    elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    secs.push_back(elapsed / reps);
  }
  std::sort(secs.begin(), secs.end());
  return secs[secs.size() / 2];
}

int runPerf(const at::Device& device, const std::vector<int64_t>& sizes, double peakTflops) {
  std::printf("\n### Spectral ops on %s: median ms, TFLOP/s, and time over the GEMM bound\n\n", device.str().c_str());
  std::printf("GEMM rate: X Xᵀ through matmul at the op's shape, measured in this run. ");
  if (peakTflops > 0) std::printf("Nominal dense peak given: %.0f TFLOP/s (bf16); float32 runs at the TF32 or FP32 rate LibTorch picks.\n\n", peakTflops);
  else std::printf("\n\n");
  std::printf("| op | shape | dtype | median ms | TFLOP/s | GEMM TFLOP/s | x GEMM bound |%s\n", peakTflops > 0 ? " % of bf16 peak |" : "");
  std::printf("|---|---|---|---:|---:|---:|---:|%s\n", peakTflops > 0 ? "---:|" : "");
  for (const auto dtype : {at::kFloat, at::kBFloat16}) {
    const char* dname = dtype == at::kFloat ? "f32" : "bf16";
    for (const int64_t n : sizes) {
      const auto x = (at::randn({n, n}) * 3.0).to(dtype).to(device);
      const double gemmSec = medianSeconds([&] { return x.matmul(x.mT()); }, 0.2);
      const double gemmRate = gemmFlops(n, n, n) / gemmSec;
      for (const auto& c : cases()) {
        PowerIterationState pi;
        const double flops = c.flops(n, n, false);
        const double sec = medianSeconds([&] { return c.run(x, pi); }, 0.2);
        const double rate = flops / sec;
        std::printf("| %s | %lldx%lld | %s | %.3f | %.3g | %.3g | %.2f |", c.name.c_str(), static_cast<long long>(n),
                    static_cast<long long>(n), dname, sec * 1e3, rate / 1e12, gemmRate / 1e12, sec / (flops / gemmRate));
        if (peakTflops > 0) std::printf(" %.1f %% |", 100.0 * rate / (peakTflops * 1e12));
        std::printf("\n");
        std::fflush(stdout);
      }
    }
  }
  return 0;
}

std::vector<int64_t> parseSizes(const std::string& text) {
  std::vector<int64_t> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    const long long v = std::atoll(item.c_str());
    if (v < 2 || v > 32768) throw std::invalid_argument("--sizes: expected integers in [2, 32768], got '" + item + "'");
    out.push_back(v);
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::string deviceName = "cpu", sizes = "1024,4096";
  bool check = false, perf = false;
  double peak = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "lwb-bench-device: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--device") deviceName = value();
    else if (a == "--check") check = true;
    else if (a == "--perf") perf = true;
    else if (a == "--sizes") sizes = value();
    else if (a == "--peak-tflops") peak = std::atof(value().c_str());
    else {
      std::fprintf(stderr, "lwb-bench-device: unknown argument '%s' (--device cpu|cuda, --check, --perf, --sizes, --peak-tflops)\n", a.c_str());
      return 2;
    }
  }
  if (!check && !perf) check = perf = true;
  try {
    const at::Device device(deviceName);
    if (device.is_cuda() && !at::hasCUDA()) {
      std::fprintf(stderr, "lwb-bench-device: --device %s: this LibTorch has no CUDA or no GPU is visible\n", deviceName.c_str());
      return 2;
    }
    int failures = 0;
    if (check) failures = runCheck(device);
    if (perf) runPerf(device, parseSizes(sizes), peak);
    return failures > 0 ? 1 : 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "lwb-bench-device: %s\n", e.what());
    return 2;
  }
}
