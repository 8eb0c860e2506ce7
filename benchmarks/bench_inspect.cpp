// Inspect benchmark (issue 4): a 124M-parameter GPT-2-shaped checkpoint (12 layers, d=768,
// vocab 50257, HF Conv1D layout) is written as .safetensors, then read and every matrix's
// singular values computed, as `lipschitz-cli inspect` does. Also times block 0's four
// matrices by float32 SVD (at::linalg_svdvals) and by the Gram route side by side, to justify
// the Gram route (the SVD of every matrix takes minutes on 2 cores).
//   lwb-bench-inspect [--dir DIR] [--repeats N] [--skip-svd]
#include "common/blas_core.h"
#include "common/threads.h"
#include "common/torch_compat.h"
#include "inspect/spectral_metrics.h"
#include "inspect/tensor_report.h"
#include "io/safetensors.h"
#include "io/tensor_convert.h"
#include "io/tensor_file.h"

#include <ATen/Parallel.h>
#include <ATen/ops/randn.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

std::vector<lwb::io::RawTensor> gpt2Small() {
  std::vector<std::pair<std::string, std::vector<int64_t>>> shapes{{"wte.weight", {50257, 768}}, {"wpe.weight", {1024, 768}}};
  for (int l = 0; l < 12; ++l) {
    const std::string h = "h." + std::to_string(l) + ".";
    shapes.push_back({h + "ln_1.weight", {768}});
    shapes.push_back({h + "ln_1.bias", {768}});
    shapes.push_back({h + "attn.c_attn.weight", {768, 2304}});
    shapes.push_back({h + "attn.c_attn.bias", {2304}});
    shapes.push_back({h + "attn.c_proj.weight", {768, 768}});
    shapes.push_back({h + "attn.c_proj.bias", {768}});
    shapes.push_back({h + "ln_2.weight", {768}});
    shapes.push_back({h + "ln_2.bias", {768}});
    shapes.push_back({h + "mlp.c_fc.weight", {768, 3072}});
    shapes.push_back({h + "mlp.c_fc.bias", {3072}});
    shapes.push_back({h + "mlp.c_proj.weight", {3072, 768}});
    shapes.push_back({h + "mlp.c_proj.bias", {768}});
  }
  shapes.push_back({"ln_f.weight", {768}});
  shapes.push_back({"ln_f.bias", {768}});
  std::vector<lwb::io::RawTensor> out;
  for (const auto& [name, shape] : shapes) out.push_back(lwb::io::fromTensor(name, at::randn(shape) * 0.02));
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  lwb::reexecWithOpenMpWaitPolicy(argv);  // OpenMP waits and OpenBLAS kernels as in the CLI and the app
  const std::string blasCore = lwb::blasCoreName();
  std::string dir = std::filesystem::temp_directory_path() / "lwb-bench-inspect";
  int repeats = 3;
  bool svd = true;
  bool keep = false;  // leave the file for timing the whole `lipschitz-cli inspect` process
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--dir") && i + 1 < argc) dir = argv[++i];
    else if (!std::strcmp(argv[i], "--repeats") && i + 1 < argc) repeats = std::max(1, std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--skip-svd")) svd = false;
    else if (!std::strcmp(argv[i], "--keep")) keep = true;
    else {
      std::fprintf(stderr, "usage: lwb-bench-inspect [--dir DIR] [--repeats N] [--skip-svd] [--keep]\n");
      return 2;
    }
  }
  lwb::setIntraOpThreads(0);
  std::filesystem::create_directories(dir);
  const auto file = std::filesystem::path(dir) / "gpt2_small.safetensors";
  {
    const auto tensors = gpt2Small();
    int64_t params = 0;
    for (const auto& t : tensors) params += t.numel();
    const auto t0 = Clock::now();
    lwb::io::writeSafetensors(file, tensors);
    std::printf("wrote %s: %lld parameters, %.0f MB in %.2f s\n", file.c_str(), static_cast<long long>(params),
                std::filesystem::file_size(file) / 1e6, since(t0));
  }
  std::vector<double> readS, specS, svdS, metricS;
  size_t matrices = 0;
  for (int r = 0; r < repeats; ++r) {
    auto t0 = Clock::now();
    const auto f = lwb::io::readTensorFile(file);
    readS.push_back(since(t0));
    t0 = Clock::now();
    const auto reports = lwb::inspect::reportTensors(f, /*keepSingularValues=*/true);
    specS.push_back(since(t0));
    matrices = static_cast<size_t>(std::count_if(reports.begin(), reports.end(), [](const auto& x) { return x.stats.has_value(); }));
    // The WeightWatcher-parity metrics alone (issue 29 §1), from the same singular values:
    // their share of the step above.
    t0 = Clock::now();
    for (const auto& x : reports)
      if (x.stats) (void)lwb::inspect::spectralMetrics(x.stats->singularValues, x.shape[0], x.shape[1]);
    metricS.push_back(since(t0));
    if (svd && r == 0) {
      std::vector<const lwb::io::RawTensor*> block0;
      for (const auto& t : f.tensors)
        if (t.shape.size() == 2 && t.name.rfind("h.0.", 0) == 0) block0.push_back(&t);
      t0 = Clock::now();
      for (const auto* t : block0) (void)lwb::compat::svdvals(lwb::io::toTensor(*t));
      svdS.push_back(since(t0));
      t0 = Clock::now();
      for (const auto* t : block0) (void)lwb::inspect::reportTensor(*t, true);
      svdS.push_back(since(t0));
    }
  }
  const double total = median(readS) + median(specS);
  std::printf("OpenBLAS core: %s; at::parallel_for team: %d of %d threads\n", blasCore.c_str(), lwb::parallelForTeamSize(), at::get_num_threads());
  std::printf("| step | median of %d (s) |\n|---|---|\n", repeats);
  std::printf("| read %s | %.2f |\n", file.filename().c_str(), median(readS));
  std::printf("| singular values + every metric of %zu matrices (float64 Gram in slices + eigvalsh, whole matrices per thread) | %.2f |\n", matrices, median(specS));
  std::printf("| of which the WeightWatcher-parity metrics (power law, MP fit, ...) | %.2f |\n", median(metricS));
  std::printf("| **inspect total** (issue 29 target <= 2 s) | **%.2f** |\n", total);
  if (!svdS.empty())
    std::printf("| block 0's 4 matrices: float32 SVD %.2f s vs Gram route %.2f s | %.1fx |\n", svdS[0], svdS[1], svdS[0] / svdS[1]);
  if (keep) std::printf("kept %s\n", file.c_str());
  else std::filesystem::remove(file);
  return total <= 10.0 ? 0 : 1;
}
