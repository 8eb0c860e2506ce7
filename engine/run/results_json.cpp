#include "run/results_json.h"

#include "data/char_ngram.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <set>

namespace lwb::run {
namespace {

using nlohmann::json;

// JSON has no NaN/inf: a diverged loss is written as null.
json number(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

// Null (non-finite in the run) and non-numbers read as NaN; an absent key as `absent`.
double numberAt(const json& j, const char* key, double absent) {
  const auto it = j.find(key);
  if (it == j.end()) return absent;
  return it->is_number() ? it->get<double>() : kNotMeasured;
}

std::optional<double> optionalAt(const json& j, const char* key) {
  if (!j.contains(key)) return std::nullopt;
  return numberAt(j, key, kNotMeasured);
}

std::optional<int64_t> integerAt(const json& j, const char* key) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_number_integer()) return std::nullopt;
  return it->get<int64_t>();
}

bool flagAt(const json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_boolean() && it->get<bool>();
}

std::string textAt(const json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// The AttLip diagnostics of a metrics row: JSON key and field, one table for both directions.
template <class M>
auto attlipDiagnostics(M& m) {
  using Field = decltype(&m.attlipMovement);
  return std::array<std::pair<const char*, Field>, 6>{{{"attlip_movement", &m.attlipMovement},
                                                       {"attlip_step_mean", &m.attlipStepMean},
                                                       {"attlip_step_min", &m.attlipStepMin},
                                                       {"attlip_residual_ratio", &m.attlipResidualRatio},
                                                       {"val_attlip_movement", &m.valAttlipMovement},
                                                       {"val_attlip_residual_ratio", &m.valAttlipResidualRatio}}};
}

json activationsJson(const models::ActivationStats& a, double& maxEntry, double& maxRms) {
  json acts = json::array();
  maxEntry = 0;
  maxRms = 0;
  for (size_t i = 0; i < a.names.size(); ++i) {
    acts.push_back({{"name", a.names[i]}, {"max_entry", number(a.maxAbsEntry[i])}, {"max_rms", number(a.maxTokenRms[i])}});
    if (i < a.meanTokenRms.size()) acts.back()["mean_rms"] = number(a.meanTokenRms[i]);
    maxEntry = std::max(maxEntry, a.maxAbsEntry[i]);
    maxRms = std::max(maxRms, a.maxTokenRms[i]);
  }
  return acts;
}

std::vector<MatrixNorm> normsFromJson(const json& row) {
  std::vector<MatrixNorm> norms;
  if (const auto it = row.find("matrices"); it != row.end() && it->is_array()) {
    for (const json& m : *it)
      if (m.is_object())
        norms.push_back({textAt(m, "name"), textAt(m, "role"), numberAt(m, "rms_norm", kNotMeasured), numberAt(m, "sigma1", 0)});
    return norms;
  }
  if (const auto it = row.find("rms_norms"); it != row.end() && it->is_object())
    for (const auto& [name, value] : it->items())
      norms.push_back({name, {}, value.is_number() ? value.get<double>() : kNotMeasured, 0});
  return norms;
}

bounds::BoundTrace traceFromJson(const json& row, double bound) {
  bounds::BoundTrace t;
  t.bound = bound;
  t.singleHeadBound = numberAt(row, "lipschitz_bound_app_d", 0);
  if (const auto it = row.find("bound_trace"); it != row.end() && it->is_array())
    for (const json& e : *it)
      if (e.is_object())
        t.layers.push_back({textAt(e, "name"), numberAt(e, "block", kNotMeasured), numberAt(e, "lipschitz", kNotMeasured),
                            numberAt(e, "activation", kNotMeasured)});
  return t;
}

std::optional<models::ActivationStats> activationsFromJson(const json& row) {
  const auto it = row.find("activations");
  if (it == row.end() || !it->is_array()) return std::nullopt;
  models::ActivationStats a;
  for (const json& e : *it) {
    if (!e.is_object()) continue;
    a.names.push_back(textAt(e, "name"));
    a.maxAbsEntry.push_back(numberAt(e, "max_entry", kNotMeasured));
    a.maxTokenRms.push_back(numberAt(e, "max_rms", kNotMeasured));
    if (e.contains("mean_rms")) a.meanTokenRms.push_back(numberAt(e, "mean_rms", kNotMeasured));
  }
  return a;
}

// {key: value}: summary.json's reference levels (char_ngram.h keys).
json levelsJson(const std::vector<data::ReferenceLevel>& levels) {
  json out = json::object();
  for (const auto& l : levels) out[l.key.empty() ? l.label : l.key] = number(l.value);
  return out;
}

// Finite numbers only: a hand-edited null or string draws no line.
std::vector<data::ReferenceLevel> levelsFromJson(const json& summary, const char* key) {
  std::vector<data::ReferenceLevel> levels;
  const auto it = summary.find(key);
  if (it == summary.end() || !it->is_object()) return levels;
  for (const auto& [name, v] : it->items())
    if (v.is_number() && std::isfinite(v.get<double>())) levels.push_back({data::charLevelLabel(name), v.get<double>(), name});
  return levels;
}

}  // namespace

json toJson(const std::vector<MatrixNorm>& norms) {
  json out = json::array();
  for (const auto& n : norms)
    out.push_back({{"name", n.name}, {"role", n.role}, {"rms_norm", number(n.rmsNorm)}, {"sigma1", number(n.sigma1)}});
  return out;
}

json toJson(const bounds::BoundTrace& t) {
  json trace = json::array();
  for (const auto& e : t.layers)
    trace.push_back({{"name", e.name}, {"block", number(e.blockLipschitz)},
                     {"lipschitz", number(e.lipschitzAfter)}, {"activation", number(e.activationBound)}});
  return trace;
}

json toJson(const StepMetrics& m) {
  json j{{"step", m.step},
         {"lr", number(m.lr)},
         {"train_loss", number(m.trainLoss)},
         {"train_acc", number(m.trainAcc)},
         {"steps_per_s", number(m.stepsPerSecond)},
         {"eta_s", number(m.etaSeconds)},
         {"constraint_s_per_step", number(m.constraintSecondsPerStep)},
         {"step_s_per_step", number(m.stepSecondsPerStep)}};
  if (m.alpha >= 0) j["alpha"] = number(m.alpha);
  if (m.commSecondsPerStep >= 0) j["comm_s_per_step"] = number(m.commSecondsPerStep);
  json rmsNorms = json::object();
  for (const auto& n : m.norms) rmsNorms[n.name] = number(n.rmsNorm);
  j["rms_norms"] = rmsNorms;
  // rms_norms is keyed by name (scripts read it); matrices keeps order, role and sigma1.
  if (!m.norms.empty()) j["matrices"] = toJson(m.norms);
  if (m.lipschitzBound) {
    j["lipschitz_bound"] = number(*m.lipschitzBound);
    // 000 App. D's single-head value beside the sound bound (transformers only).
    if (m.boundTrace.singleHeadBound > 0) j["lipschitz_bound_app_d"] = number(m.boundTrace.singleHeadBound);
    j["bound_trace"] = toJson(m.boundTrace);
  }
  if (m.valLoss) j["val_loss"] = number(*m.valLoss);
  if (m.valAcc) j["val_acc"] = number(*m.valAcc);
  if (m.valLossPaper) j["val_loss_paper"] = number(*m.valLossPaper);
  if (m.valLossFull) j["val_loss_full"] = number(*m.valLossFull);
  if (!m.stiefel.empty()) {
    json st = json::array();
    for (const auto& s : m.stiefel)
      st.push_back({{"name", s.name}, {"tangency", number(s.tangency)}, {"sigma_min", number(s.sigmaMin)},
                    {"sigma_max", number(s.sigmaMax)}, {"retraction_steps", s.retractionSteps},
                    {"retraction_exact", s.retractionExact}, {"retractions_extended", s.retractionsExtended},
                    {"retractions_exact", s.retractionsExact}});
    j["stiefel"] = st;
  }
  if (m.attlipResidual) j["attlip_residual"] = number(*m.attlipResidual);
  if (m.attlipSteps) j["attlip_steps"] = *m.attlipSteps;
  if (m.valAttlipResidual) j["val_attlip_residual"] = number(*m.valAttlipResidual);
  if (m.valAttlipSteps) j["val_attlip_steps"] = *m.valAttlipSteps;
  for (const auto& [key, value] : attlipDiagnostics(m))
    if (value->has_value()) j[key] = number(**value);
  if (m.activations) {
    double maxEntry = 0, maxRms = 0;
    j["activations"] = activationsJson(*m.activations, maxEntry, maxRms);
    j["max_act_entry"] = number(maxEntry);
    j["max_act_rms"] = number(maxRms);
  }
  return j;
}

std::optional<StepMetrics> stepMetricsFromJson(const json& row) {
  if (!row.is_object()) return std::nullopt;
  const auto step = row.find("step");
  if (step == row.end() || !step->is_number_integer() ||
      (step->is_number_unsigned() && step->get<uint64_t>() > uint64_t(INT64_MAX)))
    return std::nullopt;
  StepMetrics m;
  m.step = step->get<int64_t>();
  m.lr = numberAt(row, "lr", kNotMeasured);
  m.trainLoss = numberAt(row, "train_loss", kNotMeasured);
  m.trainAcc = numberAt(row, "train_acc", kNotMeasured);
  m.stepsPerSecond = numberAt(row, "steps_per_s", 0);
  m.etaSeconds = numberAt(row, "eta_s", 0);
  m.constraintSecondsPerStep = numberAt(row, "constraint_s_per_step", 0);
  m.commSecondsPerStep = numberAt(row, "comm_s_per_step", -1);
  m.stepSecondsPerStep = numberAt(row, "step_s_per_step", 0);
  m.alpha = numberAt(row, "alpha", -1);
  m.norms = normsFromJson(row);
  m.lipschitzBound = optionalAt(row, "lipschitz_bound");
  if (m.lipschitzBound) m.boundTrace = traceFromJson(row, *m.lipschitzBound);
  m.valLoss = optionalAt(row, "val_loss");
  m.valAcc = optionalAt(row, "val_acc");
  m.valLossPaper = optionalAt(row, "val_loss_paper");
  m.valLossFull = optionalAt(row, "val_loss_full");
  m.activations = activationsFromJson(row);
  if (const auto it = row.find("stiefel"); it != row.end() && it->is_array())
    for (const json& e : *it)
      if (e.is_object())
        m.stiefel.push_back({textAt(e, "name"), numberAt(e, "tangency", kNotMeasured), numberAt(e, "sigma_min", kNotMeasured),
                             numberAt(e, "sigma_max", kNotMeasured),
                             static_cast<int>(std::clamp<int64_t>(integerAt(e, "retraction_steps").value_or(0), 0, 1 << 20)),
                             flagAt(e, "retraction_exact"), integerAt(e, "retractions_extended").value_or(0),
                             integerAt(e, "retractions_exact").value_or(0)});
  m.attlipResidual = optionalAt(row, "attlip_residual");
  m.valAttlipResidual = optionalAt(row, "val_attlip_residual");
  m.attlipSteps = integerAt(row, "attlip_steps");
  m.valAttlipSteps = integerAt(row, "val_attlip_steps");
  for (const auto& [key, value] : attlipDiagnostics(m)) *value = optionalAt(row, key);
  return m;
}

json toJson(const RunSummary& s) {
  json j = {{"status", toString(s.status)},      {"message", s.message},
          {"steps", s.steps},                  {"val_loss", number(s.valLoss)},
          {"val_acc", number(s.valAcc)},       {"lipschitz_bound", number(s.lipschitzBound)},
          {"max_act_entry", number(s.maxActEntry)}, {"max_act_rms", number(s.maxActRms)},
          {"seconds", number(s.seconds)},      {"steps_per_s", number(s.stepsPerSecond)},
          {"constraint_fraction", number(s.constraintFraction)}, {"train_loss_last50", number(s.trainLossLast50)}};
  // Attention models only; other runs' summaries keep their keys.
  if (!std::isnan(s.attentionPgdEstimate) || !std::isnan(s.attentionBound) || s.attlipEvalSteps) {
    j["attention_pgd_estimate"] = number(s.attentionPgdEstimate);
    j["attention_bound"] = number(s.attentionBound);
    if (!std::isnan(s.attentionMixingMovement)) {
      j["attention_mixing_movement"] = number(s.attentionMixingMovement);
      j["attention_self_movement"] = number(s.attentionSelfMovement);
    }
  }
  if (s.attlipEvalSteps) {
    j["attlip_eval_residual"] = number(s.attlipEvalResidual);
    j["attlip_eval_steps"] = *s.attlipEvalSteps;
    j["attlip_eval_converged"] = s.attlipEvalConverged ? json(*s.attlipEvalConverged) : json(nullptr);
  }
  // Character tasks only (run_results.h).
  if (s.valLossPaper || s.valLossFull || !s.referenceLevels.empty()) {
    j["val_loss_paper"] = number(s.valLossPaper.value_or(kNotMeasured));
    j["val_loss_paper_batches"] = s.valPaperBatches;
    j["val_loss_full"] = number(s.valLossFull.value_or(kNotMeasured));
    j["reference_levels"] = levelsJson(s.referenceLevels);
    j["reference_levels_paper"] = levelsJson(s.referenceLevelsPaper);
  }
  if (!s.attentionCertificate.empty()) j["attention_certificate"] = s.attentionCertificate;
  return j;
}

namespace {

// The keys of a summary whose value has a type toJson(RunSummary) never writes (null is
// "not measured" and fine). Named with the type found, for the reader's warning.
std::vector<std::string> summaryWrongTypes(const json& j) {
  static const std::set<std::string> kSummaryNumbers = {
      "val_loss", "val_acc", "lipschitz_bound", "max_act_entry", "max_act_rms", "seconds", "steps_per_s",
      "constraint_fraction", "train_loss_last50", "attention_pgd_estimate", "attention_bound",
      "attention_mixing_movement", "attention_self_movement", "attlip_eval_residual", "val_loss_paper", "val_loss_full"};
  std::vector<std::string> wrong;
  const auto note = [&](const std::string& key, const json& v) { wrong.push_back(key + " (" + v.type_name() + ")"); };
  for (const auto& [key, v] : j.items()) {
    if (v.is_null()) continue;
    if (key == "status") {
      if (!v.is_string()) note(key, v);  // a word of a newer version is not judged
    } else if (key == "message" || key == "attention_certificate") {
      if (!v.is_string()) note(key, v);
    } else if (key == "steps" || key == "attlip_eval_steps" || key == "val_loss_paper_batches") {
      if (!v.is_number_integer()) note(key, v);
    } else if (key == "attlip_eval_converged") {
      if (!v.is_boolean()) note(key, v);
    } else if (key == "reference_levels" || key == "reference_levels_paper") {
      if (!v.is_object()) note(key, v);  // {"unigram": 3.3, ...}: levelsJson
    } else if (kSummaryNumbers.count(key) && !v.is_number()) {
      note(key, v);  // keys of a newer version are not judged
    }
  }
  return wrong;
}

}  // namespace

RunSummary runSummaryFromJson(const json& j) {
  RunSummary s;
  if (!j.is_object()) {
    s.status = RunStatus::Failed;
    return s;
  }
  s.status = parseRunStatus(textAt(j, "status")).value_or(RunStatus::Failed);
  s.message = textAt(j, "message");
  if (const auto it = j.find("steps"); it != j.end() && it->is_number_integer()) s.steps = it->get<int64_t>();
  s.valLoss = numberAt(j, "val_loss", kNotMeasured);
  s.valAcc = numberAt(j, "val_acc", kNotMeasured);
  s.lipschitzBound = numberAt(j, "lipschitz_bound", kNotMeasured);
  s.maxActEntry = numberAt(j, "max_act_entry", kNotMeasured);
  s.maxActRms = numberAt(j, "max_act_rms", kNotMeasured);
  s.seconds = numberAt(j, "seconds", kNotMeasured);
  s.stepsPerSecond = numberAt(j, "steps_per_s", kNotMeasured);
  s.constraintFraction = numberAt(j, "constraint_fraction", kNotMeasured);
  s.trainLossLast50 = numberAt(j, "train_loss_last50", kNotMeasured);
  s.attentionPgdEstimate = numberAt(j, "attention_pgd_estimate", kNotMeasured);
  s.attentionBound = numberAt(j, "attention_bound", kNotMeasured);
  s.attentionMixingMovement = numberAt(j, "attention_mixing_movement", kNotMeasured);
  s.attentionSelfMovement = numberAt(j, "attention_self_movement", kNotMeasured);
  s.attlipEvalResidual = numberAt(j, "attlip_eval_residual", kNotMeasured);
  s.attlipEvalSteps = integerAt(j, "attlip_eval_steps");
  if (const auto it = j.find("attlip_eval_converged"); it != j.end() && it->is_boolean()) s.attlipEvalConverged = it->get<bool>();
  s.valLossPaper = optionalAt(j, "val_loss_paper");
  s.valLossFull = optionalAt(j, "val_loss_full");
  s.valPaperBatches = integerAt(j, "val_loss_paper_batches").value_or(0);
  s.referenceLevels = levelsFromJson(j, "reference_levels");
  s.referenceLevelsPaper = levelsFromJson(j, "reference_levels_paper");
  s.attentionCertificate = textAt(j, "attention_certificate");
  if (s.attentionCertificate != "converged" && s.attentionCertificate != "certified_step" && s.attentionCertificate != "none")
    s.attentionCertificate.clear();  // a hostile or unknown value is not a certificate
  s.wrongTypes = summaryWrongTypes(j);
  return s;
}

}  // namespace lwb::run
