// The names inside a run directory and a sweep directory (ARCHITECTURE.md "Run directory"):
// the one place they are spelled. The writer (run_directory.h), the readers, the run index,
// the sweep runner, the CLI and the app build paths from these. Plain constants: no
// LibTorch, no Qt, so every layer can include it.
#pragma once

namespace lwb::run::layout {

// A run directory.
inline constexpr char kConfigFile[] = "config.json";     // the resolved config (a valid --config)
inline constexpr char kMetricsFile[] = "metrics.jsonl";  // one JSON row per logged step, appended
inline constexpr char kSummaryFile[] = "summary.json";   // written when the run ends
inline constexpr char kStatusFile[] = "status";          // first line: a status word (run/run_status.h)
inline constexpr char kSpectraIndexFile[] = "spectra.json";  // {step, name, offset, count} per snapshot
inline constexpr char kSpectraDataFile[] = "spectra.bin";    // float32 singular values, appended
inline constexpr char kCheckpointsDir[] = "checkpoints";     // checkpoints/step_N.safetensors
inline constexpr char kCheckpointPrefix[] = "step_";
inline constexpr char kCheckpointSuffix[] = ".safetensors";

// A sweep directory (sweep/sweep_directory.h): one run directory per point under runs/.
inline constexpr char kSweepRunsDir[] = "runs";
inline constexpr char kSweepConfigsDir[] = "configs";    // configs/<point>.json
inline constexpr char kSweepLogsDir[] = "logs";          // logs/<point>.log, Slurm's output
inline constexpr char kSweepSlurmDir[] = "slurm";
inline constexpr char kSweepAttemptsDir[] = "attempts";  // attempts/<point>.<n>: retired runs
inline constexpr char kSweepSpecFile[] = "spec.json";
inline constexpr char kSweepPointsFile[] = "points.json";
inline constexpr char kSweepSpecInputFile[] = "spec.input.json";  // the app's spec, written before it launches
inline constexpr char kSweepLockFile[] = ".lock";
inline constexpr char kIndexFile[] = "index.sqlite";     // the run index (sweep/run_index.h)

}  // namespace lwb::run::layout
