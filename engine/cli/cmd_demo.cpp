// lipschitz-cli demo: the headless demonstration of spectral clipping. Builds a matrix with
// a known spectrum, caps it with every implementation, and compares with the exact SVD clip.
#include "cli/cli_support.h"
#include "cli/commands.h"
#include "spectral/spectral.h"

#include <ATen/TensorOperators.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>

namespace lwb::cli {
namespace {

struct DemoArgs {
  int rows = 256, cols = 512;
  double sigma1 = 10.0, sigmaMax = 1.0;
  uint64_t seed = 1;
  bool json = false;
};

void printValues(const char* label, const std::vector<double>& s) {
  std::printf("  %-22s", label);
  for (size_t i = 0; i < std::min<size_t>(6, s.size()); ++i) std::printf(" %9.4f", s[i]);
  std::printf("  ...  %9.4f\n", s.back());
}

int runDemo(const DemoArgs& a) {
  if (a.rows < 2 || a.cols < 2 || a.rows > 4096 || a.cols > 4096)
    throw std::invalid_argument("--rows and --cols must be in [2, 4096]");
  // Bounded above too: the matrix is float32, and σ₁ = inf or 1e300 reached LibTorch's SVD
  // as non-finite entries ("the algorithm failed to converge").
  if (!(a.sigma1 > 0.01 && a.sigma1 <= 1e6) || !(a.sigmaMax > 0 && a.sigmaMax <= 1e6))
    throw std::invalid_argument("--sigma1 must be in (0.01, 1e6] and --sigma-max in (0, 1e6]");
  const auto spectrum = spectral::logSpacedSpectrum(std::min(a.rows, a.cols), a.sigma1, 1e-2);
  const auto w64 = spectral::matrixWithSpectrum(a.rows, a.cols, spectrum, a.seed);
  const auto w = w64.to(at::kFloat);
  const auto exact = exactSingularValues(spectral::svdClip(w64, 0.0, a.sigmaMax));

  if (!a.json) {
    std::printf("Spectral hard cap of a %dx%d float32 matrix, sigma_max = %g\n", a.rows, a.cols, a.sigmaMax);
    std::printf("singular values log-spaced from %g down to 0.01 (seed %llu)\n\n", a.sigma1,
                static_cast<unsigned long long>(a.seed));
    printValues("before", spectrum);
    printValues("exact clip (SVD)", exact);
    std::printf("\n  %-12s %12s %18s %10s\n", "impl", "sigma1 after", "max |s - exact|", "seconds");
  }
  nlohmann::json rows = nlohmann::json::array();
  for (const auto impl : {spectral::ClipImpl::Nested, spectral::ClipImpl::AbdDense,
                          spectral::ClipImpl::AbdBlock, spectral::ClipImpl::Svd}) {
    spectral::ClipOptions opt;
    opt.impl = impl;
    const auto t0 = std::chrono::steady_clock::now();
    const auto capped = spectral::spectralHardCap(w, a.sigmaMax, opt);
    const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const auto s = exactSingularValues(capped);
    double err = 0;
    for (size_t i = 0; i < s.size(); ++i) err = std::max(err, std::abs(s[i] - exact[i]));
    rows.push_back({{"impl", spectral::toString(impl)}, {"sigma1_after", s.front()},
                    {"max_abs_error", err}, {"seconds", sec}});
    if (!a.json)
      std::printf("  %-12s %12.5f %18.2e %10.3f\n", std::string(spectral::toString(impl)).c_str(),
                  s.front(), err, sec);
  }
  if (a.json) printJson({{"shape", {a.rows, a.cols}}, {"sigma1_before", spectrum.front()},
                         {"sigma_max", a.sigmaMax}, {"results", rows}});
  else std::printf("\nEvery implementation should give sigma1 <= %.4f (1.01 sigma_max).\n", 1.01 * a.sigmaMax);
  return 0;
}

}  // namespace

Command addDemoCommand(CLI::App& app) {
  auto args = std::make_shared<DemoArgs>();
  auto* sub = app.add_subcommand("demo", "spectral hard cap of a random matrix: before/after singular values");
  sub->add_option("--rows", args->rows, "rows (default 256)");
  sub->add_option("--cols", args->cols, "columns (default 512)");
  sub->add_option("--sigma1", args->sigma1, "largest singular value of the input (default 10)");
  sub->add_option("--sigma-max", args->sigmaMax, "cap (default 1)");
  sub->add_option("--seed", args->seed, "random seed (default 1)")->transform(unsignedInteger());
  sub->add_flag("--json", args->json, "print one JSON object instead of the table");
  return {sub, [args] { return runDemo(*args); }};
}

}  // namespace lwb::cli
