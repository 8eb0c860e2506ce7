// lipschitz-cli train: the headless main job. Trains from a config, writes the run
// directory, shows a progress line on a terminal, or streams JSON with --json.
#include "cli/cli_support.h"
#include "cli/commands.h"
#include "cli/launcher.h"
#include "common/device_info.h"
#include "dist/communicator.h"
#include "dist/world.h"
#include "io/json_read.h"
#include "io/input_error.h"
#include "run/checkpoint.h"
#include "run/launch_run.h"
#include "run/results_json.h"
#include "run/run_config.h"
#include "run/run_directory_reader.h"
#include "run/run_directory_sink.h"
#include "run/run_layout.h"
#include "run/saved_model.h"
#include "run/trainer.h"
#include "sweep/process.h"

#include <ATen/ops/scalar_tensor.h>
#include <CLI/CLI.hpp>

#include <csignal>
#include <filesystem>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>
#include <unistd.h>

namespace lwb::cli {
namespace {

struct TrainArgs {
  std::string config, out, device, resume;
  std::vector<std::string> sets;
  std::optional<int64_t> steps;
  int nproc = 1;
  bool json = false;
};

// SIGINT/SIGTERM ask the trainer to stop cleanly (status "stopped", summary written), and the
// command then exits 130, as sweep, attention and robustness do: with 0 a shell loop of runs
// took Ctrl-C for a finished run and went on to the next.
run::TrainerControl* gControl = nullptr;
volatile std::sig_atomic_t gSignalled = 0;
extern "C" void onSignal(int) {
  gSignalled = 1;
  if (gControl) gControl->stop.store(true);
}

class ConsoleSink final : public run::MetricsSink {
 public:
  ConsoleSink(bool json, bool tty, int64_t total) : json_(json), tty_(tty), total_(total) {}
  void onStep(const run::StepMetrics& m) override {
    if (json_) {
      printJson(run::toJson(m));
      return;
    }
    std::fprintf(stderr, "%sstep %lld/%lld  loss %.4f  %.1f steps/s  ETA %s", tty_ ? "\r\033[K" : "",
                 static_cast<long long>(m.step), static_cast<long long>(total_), m.trainLoss, m.stepsPerSecond,
                 eta(m.etaSeconds).c_str());
    // Regression tasks (ICL) have no accuracy: the loss alone, not "/ nan" or "/ 0".
    if (m.valLoss && m.valAcc && std::isfinite(*m.valAcc)) std::fprintf(stderr, "  val %.4f / %.3f", *m.valLoss, *m.valAcc);
    else if (m.valLoss) std::fprintf(stderr, "  val %.4f", *m.valLoss);
    if (m.lipschitzBound) std::fprintf(stderr, "  bound %.3g", *m.lipschitzBound);
    std::fprintf(stderr, tty_ ? "" : "\n");
  }
  void onFinished(const run::RunSummary& s) override {
    if (tty_ && !json_) std::fprintf(stderr, "\n");
  }

 private:
  static std::string eta(double s) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%d:%02d", static_cast<int>(s) / 60, static_cast<int>(s) % 60);
    return buf;
  }
  bool json_, tty_;
  int64_t total_;
};

run::RunConfig configFromFile(const TrainArgs& a) {
  // Two flags for one key: which one wins was silent (--steps did).
  for (const auto& s : a.sets)
    if (a.steps && s.rfind("steps=", 0) == 0)
      throw InputError("--steps and --set " + s + " both set steps; give one");
  // The shared reader refuses a directory or FIFO (never blocks), deep nesting and 1e999.
  nlohmann::json j = jsonio::readFile(a.config);
  if (!j.is_object()) throw InputError(a.config + ": the config must be a JSON object");
  // The command line's changes on top of the file, in order. When the result is refused,
  // the error names its source: the file when the file alone is refused, else the first
  // change after which it is (a typo in --set optimizer.lrr=… is the flag's, not the file's).
  std::vector<std::pair<std::string, std::function<void(nlohmann::json&)>>> changes;
  for (const auto& s : a.sets) changes.push_back({"--set " + s, [s](nlohmann::json& c) { run::applyOverride(c, s); }});
  if (a.steps) changes.push_back({"--steps", [n = *a.steps](nlohmann::json& c) { c["steps"] = n; }});
  if (!a.device.empty()) changes.push_back({"--device", [d = a.device](nlohmann::json& c) { c["device"] = d; }});
  nlohmann::json full = j;
  for (auto& [source, apply] : changes) apply(full);
  run::RunConfig cfg;
  try {
    cfg = run::parseRunConfig(full);
  } catch (const InputError& e) {
    std::string source = a.config;
    const auto refused = [](const nlohmann::json& c) {
      try {
        run::parseRunConfig(c);
        return false;
      } catch (const InputError&) {
        return true;
      }
    };
    if (!refused(j))
      for (auto& [from, apply] : changes) {
        apply(j);
        if (refused(j)) {
          source = from;
          break;
        }
      }
    throw InputError(source + ": " + e.what());
  }
  return cfg;
}

// The first dotted key where two resolved configs differ ("" when equal), device and threads
// aside: a resume may move to another device, and threads do not change the result.
std::string firstDifference(const nlohmann::json& a, const nlohmann::json& b, const std::string& prefix = "") {
  if (a.is_object() && b.is_object()) {
    for (const auto& [k, v] : a.items()) {
      if (prefix.empty() && (k == "device" || k == "threads")) continue;
      if (!b.contains(k)) return prefix + k;
      if (auto d = firstDifference(v, b[k], prefix + k + "."); !d.empty()) return d;
    }
    for (const auto& [k, v] : b.items())
      if (!a.contains(k)) return prefix + k;
    return {};
  }
  return a == b ? std::string() : (prefix.empty() ? std::string("(root)") : prefix.substr(0, prefix.size() - 1));
}

// --resume RUN_DIR: the run's own config from its newest good checkpoint (the schedule
// depends on every key, so nothing may be overridden except the device). A checkpoint that
// cannot be read (truncated, checksum mismatch) is skipped for the one before it; one whose
// config is not the run's (copied in from another run) is refused.
std::pair<run::RunConfig, run::Checkpoint> resumePoint(const TrainArgs& a) {
  {
    std::error_code ec;
    if (!std::filesystem::is_directory(a.resume, ec))
      throw InputError(a.resume + (std::filesystem::exists(a.resume, ec) ? ": not a run directory (a file)" : ": no such run directory"));
  }
  const run::RunDirectoryReader reader(a.resume);
  const auto files = reader.checkpoints();
  if (files.empty()) throw InputError(a.resume + ": no checkpoints/step_N.safetensors to resume from");
  const auto runConfig = reader.config();
  if (!runConfig) throw InputError(a.resume + ": no config.json, so no checkpoint can be matched to this run");
  const run::RunConfig own =
      run::checkpointConfig(run::Checkpoint{0, *runConfig, {}}, (std::filesystem::path(a.resume) / run::layout::kConfigFile).string());
  std::string skipped;
  for (auto it = files.rbegin(); it != files.rend(); ++it) {
    const std::string where = it->path.string();
    run::Checkpoint ckpt;
    try {
      ckpt = run::readCheckpoint(it->path);
    } catch (const InputError& e) {
      skipped += std::string(skipped.empty() ? "" : "; ") + e.what();
      continue;
    }
    const run::RunConfig cfg = run::checkpointConfig(ckpt, where, a.device);
    if (const auto key = firstDifference(run::toJson(cfg), run::toJson(own)); !key.empty())
      throw InputError(where + ": belongs to another run: its config differs from config.json at '" + key + "'");
    run::checkCheckpointFits(cfg, ckpt, where);  // before the Trainer builds its model
    // Its last checkpoint is its last step: nothing to train. A run that got there but whose
    // record did not end (summary.json could not be written) is said to be so, with where its
    // results are, rather than only "completed".
    if (ckpt.step >= cfg.steps) {
      const auto status = reader.liveStatus();  // "running" with no writer reads as interrupted
      std::string more;
      if (status && status->status != run::RunStatus::Finished)
        more = "; its record did not end (status " + std::string(run::toString(status->status)) +
               (status->message.empty() ? "" : ": " + status->message) + "), and its final weights are " + where +
               ", its evaluations in metrics.jsonl";
      throw InputError(a.resume + ": the run already completed its " + std::to_string(cfg.steps) + " steps" + more);
    }
    if (!skipped.empty()) std::fprintf(stderr, "lipschitz-cli: warning: resuming from %s; skipped %s\n", where.c_str(), skipped.c_str());
    return {cfg, std::move(ckpt)};
  }
  throw InputError(a.resume + ": no readable checkpoint (" + skipped + ")");
}

// Joins the ranks of a distributed run (RANK/WORLD_SIZE or Slurm): every rank must train the
// same run, so a hash of the resolved config (the device and threads aside) is compared
// before the first step. The communicator must outlive the training.
std::unique_ptr<dist::Communicator> joinRanks(run::Trainer& trainer, const run::RunConfig& cfg, const dist::World& world) {
  std::unique_ptr<dist::Communicator> comm;
  // Gloo writes to its peers' sockets without MSG_NOSIGNAL: when a peer dies, the next write
  // would kill this rank silently with SIGPIPE. Ignored, it is an error from the collective,
  // which the trainer reports (rank 0 writes it into the run folder) before exiting 1.
  std::signal(SIGPIPE, SIG_IGN);
  try {
    // NCCL for a CUDA run when the build has it, else Gloo: an unreachable MASTER_ADDR, a port
    // in use, a missing peer all end here.
    comm = dist::connect(world, cfg.device == run::RunDevice::Cuda);
  } catch (const std::runtime_error& e) {
    throw InputError(e.what());
  }
  auto resolved = run::resolvedConfigJson(cfg);
  resolved.erase("device");
  resolved.erase("threads");
  const auto hash = static_cast<int64_t>(std::hash<std::string>{}(resolved.dump()) & 0x7fffffffffffffffULL);
  const auto all = comm->allgather(at::scalar_tensor(hash, at::kLong).reshape({1}));
  for (int r = 0; r < world.size; ++r)
    if (all[static_cast<size_t>(r)].item<int64_t>() != hash)
      throw InputError("rank " + std::to_string(r) + " was started with another config than rank " +
                       std::to_string(world.rank) + " (every rank needs the same --config, --set and --steps)");
  trainer.setCommunicator(comm.get());
  return comm;
}

// A rank other than 0: the same steps, no run directory, no console (rank 0 reports).
int runFollower(const run::RunConfig& cfg, const dist::World& world, const std::optional<run::Checkpoint>& ckpt) {
  run::Trainer trainer(cfg);
  const auto comm = joinRanks(trainer, cfg, world);
  if (ckpt) trainer.resume(*ckpt);
  run::TrainerControl control;  // rank 0 decides when to stop (Trainer::setCommunicator)
  std::signal(SIGINT, SIG_IGN);
  std::signal(SIGTERM, SIG_IGN);
  sweep::dieWithParentIfAsked();
  const auto summary = trainer.run(control);
  return summary.status == run::RunStatus::Finished || summary.status == run::RunStatus::Stopped ? 0 : 1;
}

int runTrain(const TrainArgs& a) {
  const bool resuming = !a.resume.empty();
  const auto world = dist::worldFromEnvironment();
  if (a.nproc > 1 && world)
    throw InputError("--nproc: this process is already rank " + std::to_string(world->rank) + " of " +
                     std::to_string(world->size) + " (RANK/WORLD_SIZE or Slurm set); drop --nproc under srun");
  if (resuming && (!a.config.empty() || !a.sets.empty() || a.steps || !a.out.empty()))
    throw InputError("--resume continues a run with its own config and directory; --config, --set, --steps and --out cannot be combined with it");
  if (!resuming && (a.config.empty() || a.out.empty()))
    throw InputError("train needs --config FILE.json and --out RUN_DIR (or --resume RUN_DIR)");

  std::optional<run::Checkpoint> ckpt;
  run::RunConfig cfg;
  if (resuming) {
    auto [c, k] = resumePoint(a);
    cfg = std::move(c);
    ckpt = std::move(k);
  } else {
    cfg = configFromFile(a);
  }
  const int ranks = world ? world->size : a.nproc;
  if (ranks > cfg.batchSize)
    throw InputError("--nproc: " + std::to_string(ranks) + " processes cannot share a global batch_size of " +
                     std::to_string(cfg.batchSize) + " (each needs at least one example)");
  const bool cuda = cfg.device == run::RunDevice::Cuda;
  int gpus = 0;
  if (cuda && (a.nproc > 1 || world))
    for (const auto& d : availableDevices()) gpus += d.id.rfind("cuda:", 0) == 0 ? 1 : 0;
  if (cuda && a.nproc > 1) {
    if (gpus == 0) throw InputError("--nproc " + std::to_string(a.nproc) + " with --device cuda: this build sees no GPU");
    // NCCL refuses two ranks on one GPU (dist/communicator_nccl.cpp); Gloo carries CUDA tensors
    // through the host and does not mind.
    if (std::string(dist::backendFor("cuda")) == "nccl" && a.nproc > gpus)
      throw InputError("--nproc " + std::to_string(a.nproc) + " with --device cuda: each rank needs a GPU of its own, and this machine has " +
                       std::to_string(gpus));
  }
  // A CUDA rank takes its machine's GPU number localRank (mod the GPUs) before its model is
  // placed on "cuda", which means the current device: every rank once took cuda:0.
  if (cuda && world && gpus > 0) selectCudaDevice(world->localRank % gpus);
  if (a.nproc > 1) {
    run::Trainer check(cfg);  // bad data or model: one clean line here, not one per rank
    (void)check;
    return launchLocalRanks(a.nproc, 15.0, a.resume.empty() ? a.out : a.resume);
  }
  if (world && world->rank != 0) return runFollower(cfg, *world, ckpt);

  ConsoleSink console(a.json, isatty(STDERR_FILENO) != 0, cfg.steps);
  std::unique_ptr<dist::Communicator> comm;
  run::LaunchOptions launch;
  launch.worldSize = world ? world->size : 1;
  launch.runDir = resuming ? a.resume : a.out;
  launch.resumeFrom = ckpt ? &*ckpt : nullptr;
  launch.sinks = {&console};
  launch.built = [&](run::Trainer& trainer) {
    if (world) comm = joinRanks(trainer, cfg, *world);
  };
  launch.ready = [](const std::vector<std::string>& notes, const std::vector<std::string>& warnings) {
    // Task chars: the n-gram levels to read the losses against, and what short data omitted.
    for (size_t i = 0; i < notes.size(); ++i)
      std::fprintf(stderr, "%s%s\n", i == 0 ? "" : "lipschitz-cli: warning: ", notes[i].c_str());
    for (const auto& w : warnings) std::fprintf(stderr, "lipschitz-cli: warning: %s\n", w.c_str());
  };
  run::TrainerControl control;
  launch.recording = [&control] {
    gControl = &control;
    std::signal(SIGINT, onSignal);
    std::signal(SIGTERM, onSignal);
    sweep::dieWithParentIfAsked();  // a point of a sweep stops when the sweep dies (sweep/process.h)
  };
  const run::RunSummary summary = run::launchRun(cfg, launch, control);
  gControl = nullptr;
  if (a.json) printJson(run::toJson(summary));
  else std::fprintf(stderr, "%s: %s\n", run::toString(summary.status), run::toJson(summary).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
  if (summary.status == run::RunStatus::Stopped && gSignalled) return kExitInterrupted;
  return summary.status == run::RunStatus::Finished || summary.status == run::RunStatus::Stopped ? 0 : 1;
}

}  // namespace

Command addTrainCommand(CLI::App& app) {
  auto args = std::make_shared<TrainArgs>();
  auto* sub = app.add_subcommand("train", "train a model with an enforced Lipschitz bound; writes a run directory");
  sub->add_option("--config", args->config, "run config (JSON), e.g. resources/presets/chars_small_cpu.json")->check(nonEmpty());
  sub->add_option("--set", args->sets, "override a config key: --set constraint.sigma_max=2 (repeatable)");
  sub->add_option("--steps", args->steps, "number of steps (overrides the config)")->transform(integerIn(1, 1000000000));
  sub->add_option("--device", args->device, "cpu or cuda (overrides the config)")->check(CLI::IsMember({"cpu", "cuda"}));
  sub->add_option("--out", args->out, "run directory to create (must not exist or be empty)")->check(nonEmpty());
  sub->add_option("--resume", args->resume, "continue the run in RUN_DIR from its newest checkpoint")->check(nonEmpty());
  sub->add_flag("--json", args->json, "print one JSON object per logged step and a final summary");
  sub->add_option("--nproc", args->nproc,
                  "data-parallel processes on this machine (Gloo over 127.0.0.1; batch_size stays the global batch)")
      ->transform(integerIn(1, 256));
  return {sub, [args] { return runTrain(*args); }};
}

}  // namespace lwb::cli
