// Seed 002 costs (issue 14), measured side by side so the ratios hold on a busy machine:
//  1. one optimizer step of manifold_muon vs muon on the same model and gradients
//     (icl_transformer, the CPU preset's size by default, or --full for L 15, d 256);
//  2. msign by polar_express × 10 vs jordan5 × 5: time per call and max |σ − 1| afterwards
//     (the retraction test of SEEDS §H.1: W on the manifold, W − 0.1·A).
// Steps alternate between the variants; medians of --reps repetitions are printed.
//
//   lwb-bench-manifold [--full] [--reps N]
#include "bench_timing.h"
#include "common/threads.h"
#include "models/icl_transformer.h"
#include "optim/optimizer.h"
#include "optim/optimizer_kinds.h"
#include "run/run_config.h"
#include "spectral/newton_schulz.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/TensorOperators.h>
#include <ATen/ops/linalg_svd.h>
#include <ATen/ops/linalg_svdvals.h>
#include <ATen/ops/randn.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

using namespace lwb;
using bench::median;
using bench::seconds;

namespace {


struct Setup {
  std::unique_ptr<models::IclTransformer> model;
  std::unique_ptr<optim::Optimizer> optimizer;
};

Setup makeSetup(const models::IclShape& shape, const std::string& kind) {
  auto gen = at::make_generator<at::CPUGeneratorImpl>(0);
  Setup s;
  s.model = std::make_unique<models::IclTransformer>(shape, gen, at::kCPU);
  optim::OptimizerConfig cfg;
  cfg.kind = *optim::parseOptimizerKind(kind);
  cfg.lr = kind == "muon" ? 0.003 : 0.1;
  cfg.muonScale = optim::MuonScale::Jordan;
  cfg.embedUpdate = optim::EmbedUpdate::AdamW;
  cfg.normalizeDual = true;
  s.optimizer = optim::makeOptimizer(cfg, optim::makeSlots(s.model->parameters(), cfg, 0));
  for (auto& p : s.model->parameters()) p.tensor.mutable_grad() = at::randn(p.tensor.sizes(), gen) * 1e-3;
  return s;
}

at::Tensor polar(const at::Tensor& x) {
  auto [u, s, vh] = at::linalg_svd(x.to(at::kDouble), false);
  return u.matmul(vh);
}

double maxDeviation(const at::Tensor& x) {
  const auto s = at::linalg_svdvals(x.to(at::kDouble));
  return std::max(std::abs(s.max().item<double>() - 1), std::abs(s.min().item<double>() - 1));
}

}  // namespace

int main(int argc, char** argv) {
  bool full = false;
  int reps = 15;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--full")) full = true;
    else if (!std::strcmp(argv[i], "--reps") && i + 1 < argc) reps = std::max(3, std::atoi(argv[++i]));
  }
  at::manual_seed(0);
  const int threads = setIntraOpThreads(defaultIntraOpThreads());
  models::IclShape shape;
  if (!full) {
    shape.layers = 4;
    shape.dModel = 64;
    shape.heads = 4;
  }
  std::printf("threads %d, icl_transformer L %lld d %lld, %d repetitions (medians)\n", threads,
              static_cast<long long>(shape.layers), static_cast<long long>(shape.dModel), reps);

  auto muon = makeSetup(shape, "muon"), mm = makeSetup(shape, "manifold_muon");
  std::vector<double> tMuon, tMm;
  for (int r = 0; r < reps + 2; ++r) {
    const double a = seconds([&] { muon.optimizer->step(0.003); });
    const double b = seconds([&] { mm.optimizer->step(0.1); });
    if (r < 2) continue;  // warm-up
    tMuon.push_back(a);
    tMm.push_back(b);
  }
  std::printf("optimizer step: muon %.2f ms, manifold_muon %.2f ms, ratio %.2f\n", 1e3 * median(tMuon),
              1e3 * median(tMm), median(tMm) / median(tMuon));

  for (const auto& [n, k] : {std::pair<int64_t, int64_t>{256, 128}, {1024, 256}}) {
    const auto w = polar(at::randn({n, k}, at::kDouble)), a = polar(at::randn({n, k}, at::kDouble));
    const auto x = (w - 0.1 * a).to(at::kFloat);
    const spectral::NewtonSchulzConfig pe{spectral::NsCoefficients::PolarExpress, 10, 0};
    const spectral::NewtonSchulzConfig jordan = spectral::NewtonSchulzConfig::muon();
    std::vector<double> tPe, tJ;
    at::Tensor outPe, outJ;
    for (int r = 0; r < reps + 2; ++r) {
      const double a1 = seconds([&] { outPe = spectral::msign(x, pe); });
      const double a2 = seconds([&] { outJ = spectral::msign(x, jordan); });
      if (r < 2) continue;
      tPe.push_back(a1);
      tJ.push_back(a2);
    }
    std::printf("msign %lldx%lld float32: polar_express x10 %.3f ms (max|sigma-1| %.1e), jordan5 x5 %.3f ms "
                "(max|sigma-1| %.2f), time ratio %.2f\n",
                static_cast<long long>(n), static_cast<long long>(k), 1e3 * median(tPe), maxDeviation(outPe),
                1e3 * median(tJ), maxDeviation(outJ), median(tPe) / median(tJ));
  }
  return 0;
}
