// lipschitz-cli bench: steps/s of every preset (or the given configs) and the share of each
// step spent in the constraint step, measured side by side in one process.
#include "cli/cli_support.h"
#include "cli/commands.h"
#include "io/input_error.h"
#include "run/run_config.h"
#include "run/trainer.h"

#include <CLI/CLI.hpp>

#include <ATen/Parallel.h>

#include <algorithm>
#include <vector>
#include <chrono>
#include <cstdio>
#include <filesystem>
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
};

int runBench(const BenchArgs& a) {
  std::vector<std::string> files = a.configs;
  if (files.empty()) {
    if (!std::filesystem::is_directory(a.presets)) throw InputError("--presets: " + a.presets + " is not a directory");
    for (const auto& e : std::filesystem::directory_iterator(a.presets))
      if (e.path().extension() == ".json") files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
  }
  // Every config is read and checked before anything is printed: a bad one is one line on
  // stderr and exit 2, not a table header followed by an error (issue 32).
  std::vector<run::RunConfig> configs;
  for (const auto& f : files) configs.push_back(run::loadRunConfig(f));
  if (!a.json) std::printf("| config | steps/s | ms/step | constraint ms/step | constraint share |\n|---|---:|---:|---:|---:|\n");
  for (size_t i = 0; i < files.size(); ++i) {
    const auto& f = files[i];
    auto cfg = configs[i];
    // Timing only: no evaluation, spectra or logging beyond the last step.
    cfg.steps = a.steps;
    cfg.evalEvery = a.steps;
    cfg.evalBatches = 1;
    cfg.logEvery = a.steps;
    cfg.spectraEvery = 0;
    run::Trainer trainer(cfg);
    trainer.skipCharEvaluation();
    run::TrainerControl control;
    // A time budget per config, so a loaded machine (or a GPU-sized preset) cannot stretch a
    // benchmark sweep without bound: the run stops between two steps once it has passed.
    std::jthread deadline;
    if (a.maxSeconds > 0)
      deadline = std::jthread([&control, limit = a.maxSeconds](std::stop_token done) {
        const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(limit);
        while (!done.stop_requested() && std::chrono::steady_clock::now() < until)
          std::this_thread::sleep_for(std::chrono::milliseconds(5));
        if (!done.stop_requested()) control.stop = true;
      });
    const auto s = trainer.run(control);
    if (deadline.joinable()) deadline.request_stop();
    const int threadsUsed = at::get_num_threads();  // the tuner's last choice, or the pinned count
    const double msPerStep = 1000.0 / std::max(1e-9, s.stepsPerSecond);
    const std::string name = std::filesystem::path(f).stem().string();
    if (a.json) {
      printJson({{"config", name}, {"steps", s.steps}, {"steps_per_s", s.stepsPerSecond},
                 {"constraint_fraction", s.constraintFraction}, {"status", s.status}, {"threads", threadsUsed}});
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
  sub->add_option("--steps", args->steps, "steps per config (default 30)")->check(CLI::Range(int64_t{2}, int64_t{100000}));
  sub->add_option("--max-seconds", args->maxSeconds, "stop each config after this many seconds (at least one step; default: no limit)")
      ->check(CLI::Range(0.0, 86400.0));
  sub->add_flag("--json", args->json, "one JSON object per config instead of a Markdown table");
  return {sub, [args] { return runBench(*args); }};
}

}  // namespace lwb::cli
