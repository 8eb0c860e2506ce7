#include "run/metrics.h"

#include <cmath>

namespace lwb::run {
namespace {

// JSON has no NaN/inf: a diverged loss is written as null.
nlohmann::json number(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }

}  // namespace

nlohmann::json toJson(const bounds::BoundTrace& t) {
  nlohmann::json trace = nlohmann::json::array();
  for (const auto& e : t.layers)
    trace.push_back({{"name", e.name}, {"block", number(e.blockLipschitz)},
                     {"lipschitz", number(e.lipschitzAfter)}, {"activation", number(e.activationBound)}});
  return trace;
}

nlohmann::json toJson(const StepMetrics& m) {
  nlohmann::json j{{"step", m.step},
                   {"lr", number(m.lr)},
                   {"train_loss", number(m.trainLoss)},
                   {"train_acc", number(m.trainAcc)},
                   {"steps_per_s", number(m.stepsPerSecond)},
                   {"eta_s", number(m.etaSeconds)},
                   {"constraint_s_per_step", number(m.constraintSecondsPerStep)},
                   {"step_s_per_step", number(m.stepSecondsPerStep)}};
  if (m.alpha >= 0) j["alpha"] = number(m.alpha);
  nlohmann::json norms = nlohmann::json::object();
  for (const auto& n : m.norms) norms[n.name] = number(n.rmsNorm);
  j["rms_norms"] = norms;
  if (m.lipschitzBound) {
    j["lipschitz_bound"] = number(*m.lipschitzBound);
    j["bound_trace"] = toJson(m.boundTrace);
  }
  if (m.valLoss) j["val_loss"] = number(*m.valLoss);
  if (m.valAcc) j["val_acc"] = number(*m.valAcc);
  if (m.activations) {
    nlohmann::json acts = nlohmann::json::array();
    double maxEntry = 0, maxRms = 0;
    for (size_t i = 0; i < m.activations->names.size(); ++i) {
      acts.push_back({{"name", m.activations->names[i]},
                      {"max_entry", number(m.activations->maxAbsEntry[i])},
                      {"max_rms", number(m.activations->maxTokenRms[i])}});
      maxEntry = std::max(maxEntry, m.activations->maxAbsEntry[i]);
      maxRms = std::max(maxRms, m.activations->maxTokenRms[i]);
    }
    j["activations"] = acts;
    j["max_act_entry"] = number(maxEntry);
    j["max_act_rms"] = number(maxRms);
  }
  return j;
}

nlohmann::json toJson(const RunSummary& s) {
  return {{"status", s.status},         {"message", s.message},
          {"steps", s.steps},           {"val_loss", number(s.valLoss)},
          {"val_acc", number(s.valAcc)}, {"lipschitz_bound", number(s.lipschitzBound)},
          {"max_act_entry", number(s.maxActEntry)}, {"max_act_rms", number(s.maxActRms)},
          {"seconds", number(s.seconds)}, {"steps_per_s", number(s.stepsPerSecond)},
          {"constraint_fraction", number(s.constraintFraction)}};
}

}  // namespace lwb::run
