// RunConfig <-> JSON. The key set is defined once, by toJson(): parseRunConfig first rejects
// every key that toJson(RunConfig{}) lacks, then reads the fields it knows.
#include "run/run_config.h"

#include "io/json_fields.h"
#include "io/json_read.h"
#include "models/model_kinds.h"
#include "optim/optimizer_kinds.h"
#include "run/config_schema.h"


namespace lwb::run {

using nlohmann::json;
using fields::FieldReader;
using fields::Range;

namespace {

constexpr int64_t kMaxCount = 1'000'000'000;  // steps and step intervals
constexpr int64_t kMaxWidth = 65536;
constexpr double kMaxRate = 1e4;              // learning rates, decays, multipliers
constexpr double kMaxNorm = 1e6;              // sigma thresholds, scales


// A registry-kind choice: the id is checked against the schema's choices (the registry's
// ids), then held as the enum.
template <class Kind, class ToString, class Parse>
void kindChoice(FieldReader& r, std::string_view name, std::string_view schemaKey, Kind& out, ToString toString, Parse parse) {
  std::string id(toString(out));
  r.choice(name, id, choicesFor(schemaKey));
  out = *parse(id);
}

// A choice-valued option: the id is checked against the schema's choices, held as the enum.
template <class E, size_t N>
void optionChoice(FieldReader& r, std::string_view name, std::string_view schemaKey, E& out, const std::array<Choice<E>, N>& table) {
  std::string id(choiceId(table, out));
  r.choice(name, id, choicesFor(schemaKey));
  out = *choiceValue(table, id);
}

void readModel(const json& j, models::ModelConfig& m) {
  FieldReader r(j, "model.");
  kindChoice(r, "kind", "model.kind", m.kind, [](auto k) { return models::toString(k); }, models::parseModelKind);
  r.integerList("widths", m.widths, 1, kMaxWidth, 256);
  r.integer("d_model", m.dModel, 1, kMaxWidth);
  r.integer("blocks", m.blocks, 1, 1000);
  r.integer("heads", m.heads, 1, kMaxWidth);
  r.integer("seq_len", m.seqLen, 1, 1'000'000);
  r.integer("mlp_ratio", m.mlpRatio, 1, 64);
  r.number("final_logit_scale", m.finalLogitScale, {0.0, kMaxNorm, true});
  r.number("residual_alpha", m.residualAlpha, {0.0, 1.0, false, true});
  r.number("score_scale", m.scoreScale, {0.0, 1000.0, true});
  optionChoice(r, "residual", "model.residual", m.residual, models::kResiduals);
  optionChoice(r, "attention_scores", "model.attention_scores", m.attentionScores, models::kAttentionScores);
  r.integer("input_conv", m.inputConv, 0, 64);
  r.boolean("standard", m.standard);
  r.boolean("logit_bias", m.logitBias);
  optionChoice(r, "mlp_activation", "model.mlp_activation", m.mlpActivation, models::kMlpActivations);
  optionChoice(r, "zero_init", "model.zero_init", m.zeroInit, models::kZeroInits);
  r.integer("embed_dim", m.embedDim, 1, kMaxWidth);
  r.integer("width", m.width, 1, kMaxWidth);
  r.integer("layers", m.layers, 1, 1000);
  optionChoice(r, "norm", "model.norm", m.norm, models::kNorms);
  r.boolean("lipschitz", m.lipschitz);
  r.boolean("attn_scale_third", m.attnScaleThird);
  r.boolean("mlp_scale_third", m.mlpScaleThird);
  r.number("gain_cap", m.gainCap, {0.0, kMaxNorm});
  optionChoice(r, "residual_count", "model.residual_count", m.residualCount, models::kResidualCounts);
  kindChoice(r, "attention", "model.attention", m.attention, [](auto k) { return attention::toString(k); },
             [](std::string_view id) { return std::optional(attention::attentionKindFromString(id)); });
  r.integer("prox_steps", m.proxSteps, 1, 1000);
  optionChoice(r, "prox_step_rule", "model.prox_step_rule", m.proxStepRule, attention::kProxRules);
  r.integer("prox_steps_eval", m.proxStepsEval, 1, 100000);
  r.number("prox_tol", m.proxTol, {0.0, 1.0});
  r.number("prox_eta", m.proxEta, {0.0, 100.0, true});
  r.number("prox_w_cap", m.proxWCap, {0.0, kMaxNorm});
  r.boolean("token_norm", m.tokenNorm);
  r.number("prox_relaxation", m.proxRelaxation, {0.0, 2.0, true});
  // α ≤ 1 mixes the identity in and keeps any 1-Lipschitz map so; beyond 1 the argument needs
  // firm non-expansiveness, which the converged prox has (Thm 4) and the fixed rule's K-step
  // map is not shown to have.
  if (m.proxRelaxation > 1 && m.proxStepRule == attention::ProxRule::Fixed)
    fields::fail("model.prox_relaxation", "above 1 needs prox_step_rule armijo (the converged prox): the fixed rule's "
                                          "K-step map is not shown firmly non-expansive, so its relaxation has no "
                                          "certificate, got " + fields::numberText(m.proxRelaxation));
  if (m.dModel % m.heads != 0)
    fields::fail("model.heads", "must divide model.d_model (" + std::to_string(m.dModel) + "), got " +
                                    std::to_string(m.heads));
}

void readOptimizer(const json& j, optim::OptimizerConfig& o) {
  FieldReader r(j, "optimizer.");
  kindChoice(r, "kind", "optimizer.kind", o.kind, [](auto k) { return optim::toString(k); }, optim::parseOptimizerKind);
  r.number("lr", o.lr, {0.0, kMaxRate, true});
  r.number("weight_decay", o.weightDecay, {0.0, kMaxRate});
  r.number("beta1", o.beta1, {0.0, 1.0, false, true});
  r.number("beta2", o.beta2, {0.0, 1.0, false, true});
  r.number("eps", o.eps, {0.0, 1.0, true});
  r.boolean("bias_correction", o.biasCorrection);
  r.number("momentum", o.momentum, {0.0, 1.0, false, true});
  r.boolean("nesterov", o.nesterov);
  kindChoice(r, "ns_coeffs", "optimizer.ns_coeffs", o.nsCoeffs, [](auto k) { return spectral::toString(k); },
             spectral::parseNsCoefficients);
  r.integer("ns_steps", o.nsSteps, 0, 100);
  optionChoice(r, "muon_scale", "optimizer.muon_scale", o.muonScale, optim::kMuonScales);
  optionChoice(r, "embed_update", "optimizer.embed_update", o.embedUpdate, optim::kEmbedUpdates);
  r.number("embed_max_inflation", o.embedMaxInflation, {1.0, 1e9});
  // Group multipliers may be 0 (freeze a group).
  r.number("embed_lr", o.embedLr, {0.0, kMaxRate});
  r.number("hidden_lr", o.hiddenLr, {0.0, kMaxRate});
  r.number("head_lr", o.headLr, {0.0, kMaxRate});
  kindChoice(r, "schedule", "optimizer.schedule", o.schedule, [](auto k) { return optim::toString(k); },
             [](std::string_view id) { return std::optional(optim::parseScheduleKind(id)); });
  r.integer("warmup_steps", o.warmupSteps, 0, kMaxCount);
  r.number("decay_fraction", o.decayFraction, {0.0, 1.0});
  r.number("depth_decay", o.depthDecay, {0.0, 1.0, true});
  optionChoice(r, "lr_units", "optimizer.lr_units", o.lrUnits, optim::kLrUnits);
  r.number("blocks_mass", o.blocksMass, {0.0, 1e6, true});
  // Modula's rule already halves the update per residual layer (000 App. F): a second decay
  // by depth on top would be a different recipe that the factors' documentation does not cover.
  if (o.lrUnits == optim::LrUnits::Modula && !optim::row(o.kind).modulaUnits) {
    std::string known;
    for (const auto& k : optim::optimizerRows())
      if (k.modulaUnits) known += (known.empty() ? "" : " or ") + std::string(k.info.id);
    fields::fail("optimizer.lr_units", "modula needs optimizer.kind = " + known + " (its updates have a known norm), got " +
                                           std::string(optim::toString(o.kind)));
  }
  if (o.lrUnits == optim::LrUnits::Modula && o.depthDecay != 1.0)
    fields::fail("optimizer.depth_decay", "must be 1 with optimizer.lr_units = modula (the mass rule already "
                                          "halves the update per residual layer), got " + fields::numberText(o.depthDecay));
  r.number("dual_lr", o.dualLr, {0.0, kMaxRate, true});
  r.integer("dual_steps", o.dualSteps, 1, 10000);
  r.number("dual_tol", o.dualTol, {0.0, 1.0});
  optionChoice(r, "mode", "optimizer.mode", o.mmMode, optim::kDualModes);
  r.boolean("normalize_dual", o.normalizeDual);
  optionChoice(r, "lambda_init", "optimizer.lambda_init", o.lambdaInit, optim::kLambdaInits);
  r.number("adam_lr", o.adamLr, {0.0, kMaxRate});
  r.number("clip_grad_norm", o.clipGradNorm, {0.0, kMaxNorm});
}

void readIcl(const json& j, IclSettings& s) {
  FieldReader r(j, "icl.");
  r.integer("pairs", s.pairs, 1, 100000);
  r.integer("dim", s.dim, 1, 1024);
  optionChoice(r, "order", "icl.order", s.order, kIclOrders);
  r.number("noise", s.noise, {0.0, kMaxNorm});
  r.number("max_cond", s.maxCond, {1.0, 1e12});
  r.boolean("bias_feature", s.biasFeature);
  if (s.dim > s.pairs)
    fields::fail("icl.dim", "must not exceed icl.pairs (" + std::to_string(s.pairs) + "), got " + std::to_string(s.dim));
}

void readConstraint(const json& j, optim::ConstraintConfig& c) {
  spectral::readSettings(j, c, spectral::prefixedNamer("constraint."));
  FieldReader r(j, "constraint.");
  r.number("update_norm_factor", c.updateNormFactor, {0.0, kMaxNorm, true});
  r.number("embed_rms_max", c.embedRmsMax, {0.0, kMaxNorm});  // 0: off
}

}  // namespace

// data_path is NOT required here even for tasks that read a data file: parse({})
// must give the defaults, and the app loads configs before a data folder is chosen. The
// trainer checks it when it opens the dataset.
RunConfig parseRunConfig(const json& input) {
  if (!input.is_object()) throw InputError(std::string("config: expected a JSON object, got ") + input.type_name());
  json settings = input;
  for (const auto key : kConfigRecordKeys) settings.erase(std::string(key));
  const json& j = settings;
  fields::checkKnownKeys(j, toJson(RunConfig{}));

  RunConfig c;
  FieldReader r(j, "");
  kindChoice(r, "task", "task", c.task, [](auto k) { return data::toString(k); }, data::parseTaskKind);
  r.text("data_path", c.dataPath);
  r.integer("steps", c.steps, 1, kMaxCount);
  r.integer("batch_size", c.batchSize, 1, 1'000'000);
  r.unsignedInteger("seed", c.seed);
  optionChoice(r, "device", "device", c.device, kRunDevices);
  r.integer("threads", c.threads, 0, 4096);
  r.integer("eval_every", c.evalEvery, 1, kMaxCount);
  r.integer("eval_batches", c.evalBatches, 1, 1'000'000);
  r.integer("log_every", c.logEvery, 1, kMaxCount);
  r.integer("spectra_every", c.spectraEvery, 0, kMaxCount);  // 0: off
  r.integer("checkpoint_every", c.checkpointEvery, 0, kMaxCount);  // 0: only at the end
  r.integer("keep_checkpoints", c.keepCheckpoints, 1, 1'000'000);
  r.integer("modulus", c.modulus, 2, 1000);
  r.number("train_fraction", c.trainFraction, {0.0, 1.0, true, true});
  r.integer("mnist_train_count", c.mnistTrainCount, 1, 10'000'000);
  r.number("mask_rate", c.maskRate, {0.0, 1.0, true});
  // checkKnownKeys has already made sure these are objects.
  if (const json* i = r.find("icl")) readIcl(*i, c.icl);
  if (const json* m = r.find("model")) readModel(*m, c.model);
  if (const json* o = r.find("optimizer")) readOptimizer(*o, c.optimizer);
  if (const json* k = r.find("constraint")) readConstraint(*k, c.constraint);
  // Modula's mass rule has no share for a score bias (it would get lr × 0 and never move).
  if (c.optimizer.lrUnits == optim::LrUnits::Modula && c.model.attentionScores != models::AttentionScores::Content)
    fields::fail("model.attention_scores", std::string(choiceId(models::kAttentionScores, c.model.attentionScores)) + " adds position biases, which Modula's mass rule "
                 "does not cover; use optimizer.lr_units = plain");
  if (c.optimizer.lrUnits == optim::LrUnits::Modula && c.model.logitBias)
    fields::fail("model.logit_bias", "Modula's mass rule has no share for a bias (it would get lr × 0 and never move); "
                 "use optimizer.lr_units = plain");
  return c;
}

RunConfig loadRunConfig(const std::string& path) {
  // The shared reader: regular files only (a FIFO or directory is refused, not read), a
  // size cap, the nesting-depth limit, and messages that name the file.
  const json j = jsonio::readFile(path);
  if (!j.is_object()) throw InputError(path + ": expected a JSON object, got " + j.type_name());
  try {
    return parseRunConfig(j);
  } catch (const InputError& e) {
    throw InputError(path + ": " + e.what());
  }
}

namespace {

json constraintJson(const optim::ConstraintConfig& k) {
  json j = json::object();
  spectral::writeSettings(k, j);
  j["update_norm_factor"] = k.updateNormFactor;
  j["embed_rms_max"] = k.embedRmsMax;
  return j;
}

}  // namespace

models::ModelContext modelContext(const RunConfig& c) {
  return {c.task, c.icl.dim + 1 + (c.icl.biasFeature ? 1 : 0), c.constraint.embedRmsMax};
}

spectral::ConstraintSettings trainingConstraint(const RunConfig& c) {
  return optim::trainingConstraint(c.constraint, c.optimizer);
}

namespace {

// `input` without the members `schema` lacks (recursively).
json knownPart(const json& input, const json& schema) {
  json out = json::object();
  for (const auto& [k, v] : input.items()) {
    const auto it = schema.find(k);
    if (it == schema.end()) continue;
    out[k] = it->is_object() && v.is_object() ? knownPart(v, *it) : v;
  }
  return out;
}

}  // namespace

std::vector<data::ReferenceLevel> lossReferenceLevels(const RunConfig& c) {
  if (c.task != data::TaskKind::IclLeastSquares) return {};
  return data::iclReferenceLevels(c.icl.pairs, c.icl.dim, c.icl.order == IclOrder::XFirst);
}

std::vector<data::ReferenceLevel> storedLossReferenceLevels(const json& config) {
  if (!config.is_object()) return {};
  try {
    return lossReferenceLevels(parseRunConfig(knownPart(config, toJson(RunConfig{}))));
  } catch (const InputError&) {
    return {};
  }
}

std::optional<spectral::ConstraintSettings> storedTrainingConstraint(const json& config) {
  if (!config.is_object()) return std::nullopt;
  try {
    return trainingConstraint(parseRunConfig(knownPart(config, toJson(RunConfig{}))));
  } catch (const InputError&) {
    return std::nullopt;
  }
}

json toJson(const RunConfig& c) {
  const models::ModelConfig& m = c.model;
  const optim::OptimizerConfig& o = c.optimizer;
  const optim::ConstraintConfig& k = c.constraint;
  return json{
      {"task", data::toString(c.task)}, {"data_path", c.dataPath}, {"steps", c.steps}, {"batch_size", c.batchSize},
      {"seed", c.seed}, {"device", choiceId(kRunDevices, c.device)}, {"threads", c.threads}, {"eval_every", c.evalEvery},
      {"eval_batches", c.evalBatches}, {"log_every", c.logEvery}, {"spectra_every", c.spectraEvery},
      {"checkpoint_every", c.checkpointEvery}, {"keep_checkpoints", c.keepCheckpoints},
      {"modulus", c.modulus}, {"train_fraction", c.trainFraction},
      {"mnist_train_count", c.mnistTrainCount}, {"mask_rate", c.maskRate},
      {"model",
       {{"kind", models::toString(m.kind)}, {"widths", m.widths}, {"d_model", m.dModel}, {"blocks", m.blocks},
        {"heads", m.heads}, {"seq_len", m.seqLen}, {"mlp_ratio", m.mlpRatio},
        {"final_logit_scale", m.finalLogitScale}, {"residual_alpha", m.residualAlpha}, {"score_scale", m.scoreScale}, {"residual", choiceId(models::kResiduals, m.residual)}, {"attention_scores", choiceId(models::kAttentionScores, m.attentionScores)}, {"input_conv", m.inputConv}, {"logit_bias", m.logitBias}, {"mlp_activation", choiceId(models::kMlpActivations, m.mlpActivation)}, {"standard", m.standard}, {"zero_init", choiceId(models::kZeroInits, m.zeroInit)},
        {"embed_dim", m.embedDim}, {"width", m.width}, {"layers", m.layers}, {"norm", choiceId(models::kNorms, m.norm)},
        {"lipschitz", m.lipschitz}, {"attn_scale_third", m.attnScaleThird}, {"mlp_scale_third", m.mlpScaleThird},
        {"gain_cap", m.gainCap}, {"residual_count", choiceId(models::kResidualCounts, m.residualCount)}, {"attention", attention::toString(m.attention)},
        {"prox_steps", m.proxSteps}, {"prox_step_rule", choiceId(attention::kProxRules, m.proxStepRule)}, {"prox_steps_eval", m.proxStepsEval},
        {"prox_tol", m.proxTol}, {"prox_eta", m.proxEta}, {"prox_w_cap", m.proxWCap},
        {"token_norm", m.tokenNorm}, {"prox_relaxation", m.proxRelaxation}}},
      {"icl",
       {{"pairs", c.icl.pairs}, {"dim", c.icl.dim}, {"order", choiceId(kIclOrders, c.icl.order)}, {"noise", c.icl.noise},
        {"max_cond", c.icl.maxCond}, {"bias_feature", c.icl.biasFeature}}},
      {"optimizer",
       {{"kind", optim::toString(o.kind)}, {"lr", o.lr}, {"weight_decay", o.weightDecay}, {"beta1", o.beta1},
        {"beta2", o.beta2}, {"eps", o.eps}, {"bias_correction", o.biasCorrection},
        {"momentum", o.momentum}, {"nesterov", o.nesterov}, {"ns_coeffs", spectral::toString(o.nsCoeffs)},
        {"ns_steps", o.nsSteps}, {"muon_scale", choiceId(optim::kMuonScales, o.muonScale)}, {"embed_update", choiceId(optim::kEmbedUpdates, o.embedUpdate)},
        {"embed_max_inflation", o.embedMaxInflation}, {"embed_lr", o.embedLr},
        {"hidden_lr", o.hiddenLr}, {"head_lr", o.headLr}, {"schedule", optim::toString(o.schedule)},
        {"warmup_steps", o.warmupSteps}, {"decay_fraction", o.decayFraction}, {"depth_decay", o.depthDecay},
        {"lr_units", choiceId(optim::kLrUnits, o.lrUnits)}, {"blocks_mass", o.blocksMass},
        {"dual_lr", o.dualLr}, {"dual_steps", o.dualSteps}, {"dual_tol", o.dualTol}, {"mode", choiceId(optim::kDualModes, o.mmMode)},
        {"normalize_dual", o.normalizeDual}, {"lambda_init", choiceId(optim::kLambdaInits, o.lambdaInit)}, {"adam_lr", o.adamLr},
        {"clip_grad_norm", o.clipGradNorm}}},
      {"constraint", constraintJson(k)},
  };
}

void applyOverride(json& j, const std::string& assignment) {
  const auto bad = [&](const std::string& why) {
    throw InputError("bad override '" + assignment + "': " + why);
  };
  const auto eq = assignment.find('=');
  if (eq == std::string::npos) bad("expected key=value");
  const std::string key = assignment.substr(0, eq), text = assignment.substr(eq + 1);
  if (key.empty()) bad("empty key");

  std::vector<std::string> segments;
  for (size_t start = 0;;) {
    const auto dot = key.find('.', start);
    segments.push_back(key.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (segments.back().empty()) bad("empty key segment");
    if (dot == std::string::npos) break;
    start = dot + 1;
  }

  // JSON if it parses (0.05, true, [256, 256], "quoted"), else the raw text as a string, so
  // constraint.method=spectral_soft_cap and constraint.alpha=auto need no quotes.
  auto parsed = jsonio::tryParse(text);
  json value = parsed ? std::move(*parsed) : json(text);

  if (j.is_null()) j = json::object();
  if (!j.is_object()) bad("the config is not a JSON object");
  json* node = &j;
  std::string path;
  for (size_t i = 0; i + 1 < segments.size(); ++i) {
    path += (path.empty() ? "" : ".") + segments[i];
    json& child = (*node)[segments[i]];
    if (child.is_null()) child = json::object();
    if (!child.is_object()) bad("'" + path + "' is not an object");
    node = &child;
  }
  (*node)[segments.back()] = std::move(value);
}

}  // namespace lwb::run
