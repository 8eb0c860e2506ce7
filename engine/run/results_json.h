// The one JSON form of run results (run_results.h): metrics.jsonl rows, summary.json, the
// bound trace of `lipschitz-cli bound`. Written by the run directory and the CLI, read back
// by the run directory reader and the app. JSON has no NaN or infinity: non-finite values
// are written as null and read back as NaN.
#pragma once

#include "run/run_results.h"

#include <nlohmann/json.hpp>

#include <optional>

namespace lwb::run {

// A metrics.jsonl row. Keys scripts rely on: step, lr, train_loss, train_acc, steps_per_s,
// eta_s, constraint_s_per_step, step_s_per_step, alpha (soft cap only), rms_norms
// {name: norm}, lipschitz_bound + bound_trace (+ lipschitz_bound_app_d for transformers:
// 000 App. D's single-head value beside the sound bound), val_loss, val_acc, activations, max_act_entry,
// max_act_rms; task chars adds val_loss_paper (every evaluation) and val_loss_full (the last
// step's). "matrices" [{name, role, rms_norm, sigma1}] carries each matrix in full.
nlohmann::json toJson(const StepMetrics& m);
// nullopt unless `row` is an object with an integer "step" (not a metrics row). Absent keys
// keep their defaults, except lr, train_loss and train_acc (NaN: not plotted); rows without
// "matrices" (older run directories) give norms from "rms_norms" with sigma1 = 0.
std::optional<StepMetrics> stepMetricsFromJson(const nlohmann::json& row);

// [{name, role, rms_norm, sigma1}] — metrics rows' "matrices" and `lipschitz-cli bound`'s "norms".
nlohmann::json toJson(const std::vector<MatrixNorm>& norms);
// The per-layer rows of a bound trace ({name, block, lipschitz, activation}), as
// metrics.jsonl's "bound_trace" and `lipschitz-cli bound`'s "trace" write them.
nlohmann::json toJson(const bounds::BoundTrace& t);

// summary.json (and `lipschitz-cli train --json`'s final object). Task chars adds
// val_loss_paper, val_loss_paper_batches, val_loss_full, and reference_levels and
// reference_levels_paper ({"unigram": …, "bigram": …, "trigram": …, "5gram": …} in nats per
// character; a level the data is too short for is absent).
nlohmann::json toJson(const RunSummary& s);
// Absent or null numbers read as NaN (steps as 0); a missing or unknown status as Failed.
RunSummary runSummaryFromJson(const nlohmann::json& summary);

}  // namespace lwb::run
