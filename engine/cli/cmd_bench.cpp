// lipschitz-cli bench: steps/s of every preset (or the given configs) and the share of each
// step spent in the constraint step, measured side by side in one process.
#include "cli/cli_support.h"
#include "cli/commands.h"
#include "common/blas_core.h"
#include "common/linear.h"
#include "io/input_error.h"
#include "run/run_config.h"
#include "run/step_profile.h"
#include "run/trainer.h"

#include <CLI/CLI.hpp>

#include <ATen/Parallel.h>
#include <ATen/ops/mm.h>
#include <ATen/ops/randn.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <vector>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <memory>
#include <stop_token>
#include <thread>

namespace lwb::cli {
namespace {

struct BenchArgs {
  std::vector<std::string> configs;
  std::string presets = "resources/presets";
  int64_t steps = 30;
  double maxSeconds = 0;  // > 0: stop each config after this long (at least one step)
  bool json = false;
  bool roofline = false;
};

// The GEMM rate this process reaches: a 1024² float32 matmul on the intra-op threads in use,
// best of 5 for each routine the engine can use (ATen's mm = the BLAS; lwb::mm = the routed
// GEMM, oneDNN on one thread) — the bound a step's GEMM FLOPs are priced at, beside the rate
// they reached.
double peakGemmGflops() {
  const auto a = at::randn({1024, 1024}), b = at::randn({1024, 1024});
  double best = 0;
  for (const bool routed : {false, true})
    for (int i = 0; i < 6; ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      const auto c = routed ? lwb::mm(a, b) : at::mm(a, b);
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (i > 0) best = std::max(best, 2.0 * 1024 * 1024 * 1024 / s / 1e9);  // the first call warms the routine
    }
  return best;
}

// What the step's GEMMs could cost at their own shapes: each 2-D product shape the step ran,
// timed alone on this process's threads (lwb::mm on random operands, warm caches, best of at
// least 5 calls), times its calls per step; the other GEMM-class FLOPs (bmm, syrk,
// Newton–Schulz) at the probe's rate. Small dimensions (K = 128, a vocabulary of 65) run
// below the 1024² probe, so this floor sits above the bound: how far is the shapes' share of
// a miss, the rest is the step's non-GEMM work. (Operands are untransposed here; the step's
// transposed ones run within ~10 % of that, measured with OpenBLAS directly.)
double gemmFloorMs(const run::StepProfile& p, double peak) {
  double ms = peak > 0 ? p.otherGemmGflopPerStep / peak * 1000.0 : 0.0;
  for (const auto& shape : p.gemmShapes) {
    const auto a = at::randn({shape.m, shape.k}), b = at::randn({shape.k, shape.n});
    (void)lwb::mm(a, b);  // warms the routine and the operands
    double best = std::numeric_limits<double>::infinity(), spent = 0;
    for (int i = 0; i < 200 && (i < 5 || spent < 0.05); ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      const auto c = lwb::mm(a, b);
      const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      best = std::min(best, sec);
      spent += sec;
    }
    ms += shape.callsPerStep * best * 1000.0;
  }
  return ms;
}

// A profiled second run of the config (bench --roofline): the step split by category.
nlohmann::json rooflineOf(const run::RunConfig& cfg, double peak, double perOpMs) {
  run::Trainer trainer(cfg);
  trainer.skipCharEvaluation();
  run::TrainerControl control;
  const auto p = run::profileSteps([&] { trainer.run(control); });
  nlohmann::json categories = nlohmann::json::object(), corrected = nlohmann::json::object();
  for (const auto& c : p.categories) categories[c.name] = c.msPerStep;
  double msPerStep = 0;  // the profiled step without the profiler's cost: the GEMM ms are from the same run
  for (const auto& c : run::withoutProfilerCost(p, perOpMs)) {
    corrected[c.name] = c.msPerStep;
    msPerStep += c.msPerStep;
  }
  const double gemmBoundPeak = p.gemmGflopPerStep / peak * 1000.0;  // ms
  const double floorMs = gemmFloorMs(p, peak);
  nlohmann::json ops = nlohmann::json::array();  // the 40 largest, for what to fuse next
  for (size_t i = 0; i < std::min<size_t>(40, p.ops.size()); ++i)
    ops.push_back({{"op", p.ops[i].name}, {"category", p.ops[i].category}, {"ms_per_step", p.ops[i].msPerStep}, {"calls_per_step", p.ops[i].callsPerStep}});
  return {{"profiled_ms_per_step", p.msPerStep}, {"profiler_cost_per_op_ms", perOpMs}, {"ms_per_step_without_profiler_cost", msPerStep}, {"gemm_gflop_per_step", p.gemmGflopPerStep}, {"gemm_ms_per_step", p.gemmMsPerStep},
          {"gemm_gflops_reached", p.gemmMsPerStep > 0 ? p.gemmGflopPerStep / p.gemmMsPerStep * 1000.0 : 0.0},
          {"peak_gemm_gflops", peak}, {"gemm_bound_ms_at_peak", gemmBoundPeak},
          {"gemm_floor_ms_at_shapes", floorMs}, {"gemm_floor_over_bound", gemmBoundPeak > 0 ? floorMs / gemmBoundPeak : 0.0},
          {"step_over_gemm_time", p.gemmMsPerStep > 0 ? msPerStep / p.gemmMsPerStep : 0.0},
          {"step_over_gemm_bound_at_peak", gemmBoundPeak > 0 ? msPerStep / gemmBoundPeak : 0.0},
          {"categories_ms_per_step", categories}, {"largest_ops", ops}, {"categories_ms_per_step_without_profiler_cost", corrected}};
}

void printRoofline(const std::string& name, double msPerStep, const nlohmann::json& r) {
  std::string split;
  const double total = r["ms_per_step_without_profiler_cost"].get<double>();
  std::vector<std::pair<double, std::string>> cats;
  for (const auto& [k, v] : r["categories_ms_per_step_without_profiler_cost"].items()) cats.push_back({v.get<double>(), k});
  std::sort(cats.rbegin(), cats.rend());
  for (const auto& [v, k] : cats)
    if (total > 0 && v / total >= 0.005) split += (split.empty() ? "" : ", ") + k + " " + std::to_string(static_cast<int>(std::lround(100 * v / total))) + "%";
  const double bound = r["gemm_bound_ms_at_peak"].get<double>(), floorMs = r["gemm_floor_ms_at_shapes"].get<double>();
  std::printf("| %s | %.2f | %.2f | %.3f | %.2f | %.1f | %.2fx | %.2fx | %.2fx | %.2fx | %.2fx | %s |\n", name.c_str(), msPerStep, total,
              r["gemm_gflop_per_step"].get<double>(), r["gemm_ms_per_step"].get<double>(), r["gemm_gflops_reached"].get<double>(),
              r["step_over_gemm_time"].get<double>(), r["step_over_gemm_bound_at_peak"].get<double>(),
              bound > 0 ? msPerStep / bound : 0.0, r["gemm_floor_over_bound"].get<double>(), floorMs > 0 ? msPerStep / floorMs : 0.0,
              split.c_str());
}

int runBench(const BenchArgs& a) {
  std::vector<std::string> files = a.configs;
  if (files.empty()) {
    std::error_code ec;
    if (!std::filesystem::exists(a.presets, ec)) throw InputError("--presets: " + a.presets + " does not exist");
    if (!std::filesystem::is_directory(a.presets, ec)) throw InputError("--presets: " + a.presets + " is not a directory");
    for (const auto& e : std::filesystem::directory_iterator(a.presets))
      if (e.path().extension() == ".json") files.push_back(e.path().string());
    if (files.empty()) throw InputError("--presets: " + a.presets + " holds no .json configs");
    std::sort(files.begin(), files.end());
  }
  // Every config is read and checked before anything is printed: a bad one is one line on
  // stderr and exit 2, not a table header followed by an error (issue 32).
  std::vector<run::RunConfig> configs;
  for (const auto& f : files) configs.push_back(run::loadRunConfig(f));
  const double peak = a.roofline ? peakGemmGflops() : 0.0;
  const double perOpMs = a.roofline ? run::profilerCostPerOpMs() : 0.0;
  if (!a.json && a.roofline)
    std::printf("GEMM rate of this process (1024² float32 matmul, best of the BLAS and the routed GEMM, %d threads): %.1f GFLOP/s\n\n"
                "Profiler cost per recorded op: %.2f µs (removed from the profiled step below).\n\n"
                "| config | ms/step (unprofiled run) | ms/step (profiled run, its cost removed) | GEMM GFLOP/step | GEMM ms/step | "
                "GEMM GFLOP/s reached | step / GEMM time | step / GEMM bound at peak | unprofiled step / GEMM bound | "
                "GEMM floor at the step's shapes / bound | unprofiled step / GEMM floor | step by category |\n"
                "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n",
                at::get_num_threads(), peak, 1000.0 * perOpMs);
  else if (!a.json)
    std::printf("| config | steps/s | ms/step | constraint ms/step | constraint share |\n|---|---:|---:|---:|---:|\n");
  for (size_t i = 0; i < files.size(); ++i) {
    const auto& f = files[i];
    auto cfg = configs[i];
    // Timing only: no evaluation, spectra or logging beyond the last step.
    cfg.steps = a.steps;
    cfg.evalEvery = a.steps;
    cfg.evalBatches = 1;
    cfg.logEvery = a.steps;
    cfg.spectraEvery = 0;
    // A time budget per config (the warm-up included), so a loaded machine (or a GPU-sized
    // preset) cannot stretch a benchmark sweep without bound: a run stops between two steps
    // once it has passed.
    const auto budgetEnd = std::chrono::steady_clock::now() + std::chrono::duration<double>(a.maxSeconds);
    const auto runWithinBudget = [&](run::Trainer& t) {
      run::TrainerControl control;
      std::jthread deadline;
      if (a.maxSeconds > 0)
        deadline = std::jthread([&control, budgetEnd](std::stop_token done) {
          while (!done.stop_requested() && std::chrono::steady_clock::now() < budgetEnd)
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
          if (!done.stop_requested()) control.stop = true;
        });
      auto summary = t.run(control);
      if (deadline.joinable()) deadline.request_stop();
      return summary;
    };
    if (a.roofline) {
      // The roofline compares a step with its GEMM bound, so its timed run starts warm: a
      // 3-step run of the same config first pays the one-time costs (oneDNN's primitives,
      // first touch of the step's buffers; chars_small_cpu's first step takes 80 ms against
      // 35 for the next ones, 4 % of a 30-step run). The steps/s table keeps the cold start,
      // as the PyTorch peer it is compared with does.
      auto warm = cfg;
      warm.steps = warm.evalEvery = warm.logEvery = std::min<int64_t>(3, a.steps);
      run::Trainer warmTrainer(warm);
      warmTrainer.skipCharEvaluation();
      (void)runWithinBudget(warmTrainer);
    }
    run::Trainer trainer(cfg);
    trainer.skipCharEvaluation();
    const auto s = runWithinBudget(trainer);
    const int threadsUsed = at::get_num_threads();  // the tuner's last choice, or the pinned count
    // A run that stopped early (diverged, failed) timed only its first steps: say so, or its
    // steps/s reads like a finished run's (found when a kernel bug made MNIST diverge at step 10).
    if (s.status == run::RunStatus::Diverged || s.status == run::RunStatus::Failed ||
        (s.status == run::RunStatus::Stopped && a.maxSeconds <= 0))
      std::fprintf(stderr, "lipschitz-cli bench: %s %s at step %lld of %lld: its steps/s cover those steps only%s%s\n",
                   std::filesystem::path(f).stem().string().c_str(), run::toString(s.status), static_cast<long long>(s.steps),
                   static_cast<long long>(a.steps), s.message.empty() ? "" : ": ", s.message.c_str());
    const double msPerStep = 1000.0 / std::max(1e-9, s.stepsPerSecond);
    const std::string name = std::filesystem::path(f).stem().string();
    if (a.roofline) {
      const auto r = rooflineOf(cfg, peak, perOpMs);
      if (a.json) {
        nlohmann::json j{{"config", name}, {"steps", s.steps}, {"ms_per_step", msPerStep}, {"threads", threadsUsed}, {"blas_core", lwb::blasCoreName()}};
        j.update(r);
        const double bound = r["gemm_bound_ms_at_peak"].get<double>(), floorMs = r["gemm_floor_ms_at_shapes"].get<double>();
        j["unprofiled_step_over_gemm_bound"] = bound > 0 ? msPerStep / bound : 0.0;
        j["unprofiled_step_over_gemm_floor"] = floorMs > 0 ? msPerStep / floorMs : 0.0;
        printJson(j);
      } else {
        printRoofline(name, msPerStep, r);
        std::fflush(stdout);
      }
    } else if (a.json) {
      printJson({{"config", name}, {"steps", s.steps}, {"steps_per_s", s.stepsPerSecond},
                 {"constraint_fraction", s.constraintFraction}, {"status", run::toString(s.status)}, {"threads", threadsUsed},
                 {"blas_core", lwb::blasCoreName()}});  // the peer is run with the same kernels
    } else {
      std::printf("| %s | %.2f | %.1f | %.2f | %.1f%% |\n", name.c_str(), s.stepsPerSecond, msPerStep,
                  msPerStep * s.constraintFraction, 100.0 * s.constraintFraction);
      std::fflush(stdout);
    }
  }
  return 0;
}

}  // namespace

Command addBenchCommand(CLI::App& app) {
  auto args = std::make_shared<BenchArgs>();
  auto* sub = app.add_subcommand("bench", "steps/s and constraint-step share of each preset (or given configs)");
  sub->add_option("configs", args->configs, "config files (default: every preset in --presets)");
  sub->add_option("--presets", args->presets, "preset folder (default resources/presets)");
  sub->add_option("--steps", args->steps, "steps per config (default 30)")->transform(integerIn(2, 100000));
  sub->add_option("--max-seconds", args->maxSeconds, "stop each config after this many seconds (at least one step; default: no limit)")
      ->check(finiteNonNegative())
      ->check(numberIn(0.0, 86400.0));
  sub->add_flag("--json", args->json, "one JSON object per config instead of a Markdown table");
  sub->add_flag("--roofline", args->roofline,
                "also run each config under LibTorch's profiler: GEMM FLOPs and time per step, the step against its GEMM bound, "
                "and the rest by category");
  return {sub, [args] { return runBench(*args); }};
}

}  // namespace lwb::cli
