// End-of-run measurements of the attlip model's attention block (seed 004 Table 2 analogue):
// its PGD Lipschitz estimate and theoretical bound, and the evaluation solver's report.
#pragma once

#include "data/dataset.h"
#include "models/attlip_model.h"
#include "run/run_results.h"

#include <optional>

namespace lwb::run {

// The AttLip solver's report of the model's last forward pass; nullopt for other models and
// attention kinds.
std::optional<models::ProxReport> proxReport(const models::Model& model);

// summary.json's attention_certificate for the last evaluation (empty unless the model is an
// attlip model with AttLip attention): "converged" when every evaluation batch reached
// model.prox_tol, else "certified_step" when the step rule is the fixed certified step
// (1-Lipschitz for every K), else "none".
std::string attentionCertificate(const models::Model& model, std::optional<bool> evalConverged);

// Fills summary.attentionPgdEstimate and attentionBound for an attlip model with attention:
// pgdLipschitz (§D CPU defaults: 30 iterations, 3 restarts, ℓ2 norm, radius ‖x₀‖_F) of the
// attention function alone at x₀ = the embedded first validation window, in float64. AttLip is
// measured as the converged prox (§C.4: ‖g‖ ≤ 1e−6·‖g⁰‖, at most 500 steps), never the
// training-time K. No-op for other models and for `none`.
void measureAttentionBlock(models::Model& model, const data::Dataset& dataset, uint64_t seed, RunSummary& summary);

}  // namespace lwb::run
