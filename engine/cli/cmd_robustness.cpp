// lipschitz-cli robustness RUN_DIR|CHECKPOINT [--data PATH] [--eps E1,E2,...] [--examples N]
// [--attack-steps K] [--seed S] [--json]: accuracy under a PGD-l2 attack and accuracy
// certified by the Lipschitz bound vs eps for an image classifier (000 §3.3, Fig. 3).
#include "cli/cli_support.h"
#include "cli/commands.h"
#include "io/input_error.h"
#include "run/robustness.h"
#include "run/robustness_job.h"

#include <CLI/CLI.hpp>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <memory>
#include <sstream>
#include <unistd.h>

namespace lwb::cli {
namespace {

struct RobustnessArgs {
  std::string target, data, eps;
  int64_t examples = 2000;
  int attackSteps = 50;
  uint64_t seed = 0;
  bool json = false;
};

std::atomic<bool> gInterrupted{false};
extern "C" void onRobustnessSignal(int) { gInterrupted.store(true); }

// While the job runs, SIGINT/SIGTERM set gInterrupted (the job then throws Cancelled).
struct CatchInterrupts {
  CatchInterrupts() {
    gInterrupted.store(false);
    std::signal(SIGINT, onRobustnessSignal);
    std::signal(SIGTERM, onRobustnessSignal);
  }
  ~CatchInterrupts() {
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
  }
};

std::vector<double> parseEpsList(const std::string& text) {
  std::vector<double> eps;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    size_t used = 0;
    double v = 0;
    try {
      v = std::stod(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != item.size()) throw InputError("--eps: '" + item + "' is not a number (expected E1,E2,...)");
    eps.push_back(v);
  }
  if (eps.empty() || (!text.empty() && text.back() == ',')) throw InputError("--eps: expected a comma-separated list E1,E2,...");
  run::validateEps(eps);
  return eps;
}

int runRobustness(const RobustnessArgs& a) {
  run::CheckpointRobustnessRequest req;
  req.target = a.target;
  req.dataPath = a.data;
  req.examples = a.examples;
  if (!a.eps.empty()) req.options.eps = parseEpsList(a.eps);
  req.options.attackSteps = a.attackSteps;
  req.options.seed = a.seed;

  const bool tty = isatty(STDERR_FILENO) != 0;
  run::CheckpointRobustness c;
  try {
    const CatchInterrupts interrupts;
    c = run::robustnessOfCheckpoint(
        req,
        [&](int64_t done, int64_t total) {
          if (tty) std::fprintf(stderr, "\r\033[Kattacking: %lld/%lld batches", static_cast<long long>(done), static_cast<long long>(total));
        },
        &gInterrupted);
  } catch (const Cancelled&) {
    std::fprintf(stderr, "%slipschitz-cli: robustness interrupted, nothing printed\n", tty ? "\n" : "");
    return kExitInterrupted;
  }
  if (tty) std::fprintf(stderr, "\n");

  const auto& r = c.result;
  const auto& opt = req.options;
  nlohmann::json points = nlohmann::json::array();
  for (const auto& p : r.points)
    points.push_back({{"eps", p.eps}, {"pgd_acc", p.pgdAcc}, {"certified_acc", p.certifiedAcc}, {"mean_p_correct", p.meanPCorrect}});
  nlohmann::json j{{"file", c.file},
                   {"task", c.task},
                   {"examples", r.examples},
                   {"examples_range", {{"split", "val"}, {"first", c.first}, {"count", c.count}, {"split_size", c.splitSize}}},
                   {"held_out", c.heldOut},
                   {"clean_acc", r.cleanAcc},
                   {"bound", r.bound},
                   {"l2_bound", r.l2Bound},
                   {"sigma1_method", c.sigmaMethod},
                   {"attack", {{"kind", "pgd_l2"}, {"steps", opt.attackSteps}, {"step_size", "2.5 eps / steps"}, {"seed", opt.seed}}},
                   {"points", points}};
  if (a.json) {
    printJson(j);
    return 0;
  }
  std::printf("%s  (%s, %lld examples %s)\n", c.file.c_str(), c.task.c_str(), static_cast<long long>(r.examples),
              c.heldOut ? "held out from training and validation" : "overlapping the trainer's validation examples");
  std::printf("clean accuracy %.4f   bound (RMS->RMS) %.4g   l2 bound %.4g   sigma1: %s\n", r.cleanAcc, r.bound, r.l2Bound,
              c.sigmaMethod.c_str());
  std::printf("%8s %10s %14s %16s\n", "eps", "pgd_acc", "certified_acc", "mean_p_correct");
  for (const auto& p : r.points) std::printf("%8.3g %10.4f %14.4f %16.4f\n", p.eps, p.pgdAcc, p.certifiedAcc, p.meanPCorrect);
  return 0;
}

}  // namespace

Command addRobustnessCommand(CLI::App& app) {
  auto a = std::make_shared<RobustnessArgs>();
  auto* sub = app.add_subcommand("robustness", "PGD-l2 and certified accuracy vs eps of an image classifier (000 Fig. 3)");
  sub->add_option("target", a->target, "run directory (newest checkpoint) or checkpoint .safetensors file")->required();
  sub->add_option("--data", a->data, "data folder (default: the run's data_path)");
  sub->add_option("--eps", a->eps, "comma-separated l2 radii in pixel units (default 0,0.25,0.5,1,1.5,2,3)")->check(nonEmpty());
  sub->add_option("--examples", a->examples, "number of examples: the last N of the validation split (default 2000)")
      ->transform(integerIn(1, 10'000'000));
  sub->add_option("--attack-steps", a->attackSteps, "PGD steps (default 50; step size 2.5 eps / steps)")->transform(integerIn(1, 100000));
  sub->add_option("--seed", a->seed, "seed of the attack's random starts (default 0)")->transform(unsignedInteger());
  sub->add_flag("--json", a->json, "print one JSON object instead of a table");
  return {sub, [a] { return runRobustness(*a); }};
}

}  // namespace lwb::cli
