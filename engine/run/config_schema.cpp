#include "run/config_schema.h"

#include "attention/attention_kinds.h"
#include "common/registry_table.h"
#include "common/tr_noop.h"
#include "data/task_kinds.h"
#include "models/model_kinds.h"
#include "optim/optimizer_kinds.h"
#include "optim/schedule.h"
#include "spectral/constraint_methods.h"
#include "spectral/ns_coefficients.h"
#include "run/run_config.h"

#include <nlohmann/json.hpp>

namespace lwb::run {
namespace {

using nlohmann::json;

// A value at a dotted key, or nullptr.
const json* at(const json& config, std::string_view key) {
  const json* node = &config;
  size_t start = 0;
  while (true) {
    const size_t dot = key.find('.', start);
    const std::string part(key.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start));
    if (!node->is_object()) return nullptr;
    const auto it = node->find(part);
    if (it == node->end()) return nullptr;
    node = &*it;
    if (dot == std::string_view::npos) return node;
    start = dot + 1;
  }
}

std::string textAt(const json& config, std::string_view key, std::string_view fallback) {
  const json* v = at(config, key);
  return v && v->is_string() ? v->get<std::string>() : std::string(fallback);
}

struct Family {
  std::string_view selector;  // the key that picks the kind
  std::span<const KindInfo> kinds;
  std::string_view fallback;  // RunConfig's default kind
};

std::vector<Family> families() {
  const RunConfig defaults;
  return {{"task", data::taskKinds(), data::toString(defaults.task)},
          {"model.kind", models::modelKinds(), models::toString(defaults.model.kind)},
          {"optimizer.kind", optim::optimizerKinds(), optim::toString(defaults.optimizer.kind)}};
}

using registry::keysOf;

std::vector<FormField> makeFields() {
  using T = FieldType;
  std::vector<FormField> f = {
      {"task", LWB_TR_NOOP("RunForm", "Run"), LWB_TR_NOOP("RunForm", "Task"), T::Choice, LWB_TR_NOOP("RunForm", "chars: any text file; mnist: IDX folder; cifar10: binary folder; modular tasks are generated")},
      {"data_path", LWB_TR_NOOP("RunForm", "Run"), LWB_TR_NOOP("RunForm", "Data"), T::Path, LWB_TR_NOOP("RunForm", "file or folder the task reads")},
      {"modulus", LWB_TR_NOOP("RunForm", "Run"), LWB_TR_NOOP("RunForm", "Modulus p"), T::Integer, ""},
      {"train_fraction", LWB_TR_NOOP("RunForm", "Run"), LWB_TR_NOOP("RunForm", "Train fraction"), T::Number, ""},
      {"steps", LWB_TR_NOOP("RunForm", "Run"), LWB_TR_NOOP("RunForm", "Steps"), T::Integer, ""},
      {"batch_size", LWB_TR_NOOP("RunForm", "Run"), LWB_TR_NOOP("RunForm", "Batch size"), T::Integer, ""},
      {"seed", LWB_TR_NOOP("RunForm", "Run"), LWB_TR_NOOP("RunForm", "Seed"), T::Integer, ""},
      {"device", LWB_TR_NOOP("RunForm", "Run"), LWB_TR_NOOP("RunForm", "Device"), T::Device, ""},
      {"threads", LWB_TR_NOOP("RunForm", "Run"), LWB_TR_NOOP("RunForm", "Threads"), T::Integer, LWB_TR_NOOP("RunForm", "0: $LWB_THREADS or all cores"), LWB_TR_NOOP("RunForm", "auto")},
      {"model.kind", LWB_TR_NOOP("RunForm", "Model"), LWB_TR_NOOP("RunForm", "Model"), T::Choice, ""},
      {"model.widths", LWB_TR_NOOP("RunForm", "Model"), LWB_TR_NOOP("RunForm", "Hidden widths"), T::IntegerList, LWB_TR_NOOP("RunForm", "comma separated, e.g. 256, 256")},
      {"model.d_model", LWB_TR_NOOP("RunForm", "Model"), LWB_TR_NOOP("RunForm", "d_model"), T::Integer, ""},
      {"model.blocks", LWB_TR_NOOP("RunForm", "Model"), LWB_TR_NOOP("RunForm", "Blocks"), T::Integer, ""},
      {"model.heads", LWB_TR_NOOP("RunForm", "Model"), LWB_TR_NOOP("RunForm", "Heads"), T::Integer, ""},
      {"model.seq_len", LWB_TR_NOOP("RunForm", "Model"), LWB_TR_NOOP("RunForm", "Sequence length"), T::Integer, ""},
      {"model.final_logit_scale", LWB_TR_NOOP("RunForm", "Model"), LWB_TR_NOOP("RunForm", "Logit scale"), T::Number, LWB_TR_NOOP("RunForm", "multiplies the logits and the Lipschitz bound")},
      {"model.residual_alpha", LWB_TR_NOOP("RunForm", "Model"), LWB_TR_NOOP("RunForm", "Residual weight a"), T::Number, LWB_TR_NOOP("RunForm", "(1 − a)·x + a·block(x); 0: 1/(2·blocks) as in 000"), LWB_TR_NOOP("RunForm", "auto")},
      {"model.score_scale", LWB_TR_NOOP("RunForm", "Model"), LWB_TR_NOOP("RunForm", "Score scale T"), T::Number, LWB_TR_NOOP("RunForm", "T/d_head inside the softmax (000: 1); the bound's attention term grows by T")},
      {"model.residual", LWB_TR_NOOP("RunForm", "Model"), LWB_TR_NOOP("RunForm", "Residual"), T::Choice, LWB_TR_NOOP("RunForm", "convex: (1 − a)·x + a·block(x) (000); sum: x + block(x), no 1/3 (LT's code in May 2025); the bound follows either")},
      {"model.attention_scores", LWB_TR_NOOP("RunForm", "Model"), LWB_TR_NOOP("RunForm", "Attention scores"), T::Choice, LWB_TR_NOOP("RunForm", "content: q·k/d_head (000); content_position: plus a learned bias per offset i − j, bound unchanged; position: the bias alone, no W_Q, W_K and no 1/3")},
      {"model.input_conv", LWB_TR_NOOP("RunForm", "Model"), LWB_TR_NOOP("RunForm", "Input convolution k"), T::Integer, LWB_TR_NOOP("RunForm", "causal convolution over the last k embedded characters before the blocks (0: none); its d × kd matrix is capped like the others"), LWB_TR_NOOP("RunForm", "none")},
      {"model.logit_bias", LWB_TR_NOOP("RunForm", "Model"), LWB_TR_NOOP("RunForm", "Logit bias"), T::Boolean, LWB_TR_NOOP("RunForm", "a learned vector added to the logits: the characters' overall frequencies, at no cost to the bound")},
      {"model.mlp_activation", LWB_TR_NOOP("RunForm", "Model"), LWB_TR_NOOP("RunForm", "MLP activation"), T::Choice, LWB_TR_NOOP("RunForm", "gelu: GeLU/1.1289 (000); maxmin: sorts the hidden units in pairs, keeps norms, so the MLP uses all of the slope the bound charges")},
      {"model.zero_init", LWB_TR_NOOP("RunForm", "Model"), LWB_TR_NOOP("RunForm", "Zero init"), T::Choice, LWB_TR_NOOP("RunForm", "which output projections start at zero")},
      {"model.embed_dim", LWB_TR_NOOP("RunForm", "Model"), LWB_TR_NOOP("RunForm", "Embedding dim"), T::Integer, ""},
      {"model.width", LWB_TR_NOOP("RunForm", "Model"), LWB_TR_NOOP("RunForm", "Width"), T::Integer, ""},
      // Seed 004 (issue 15): the masked-character task and the one-block attention model.
      {"mask_rate", LWB_TR_NOOP("RunForm", "Run"), LWB_TR_NOOP("RunForm", "Masked share"), T::Number, LWB_TR_NOOP("RunForm", "share of positions the loss reads (RoBERTa: 0.15)")},
      {"model.attention", LWB_TR_NOOP("RunForm", "Model"), LWB_TR_NOOP("RunForm", "Attention"), T::Choice, LWB_TR_NOOP("RunForm", "attlip: proximal 1-Lipschitz; l2: Kim's ℓ2; standard: dot product; none: MLP only")},
      {"model.prox_steps", LWB_TR_NOOP("RunForm", "Model"), LWB_TR_NOOP("RunForm", "Prox steps K (training)"), T::Integer, LWB_TR_NOOP("RunForm", "reached by the schedule 1 → K over the run")},
      {"model.prox_step_rule", LWB_TR_NOOP("RunForm", "Model"), LWB_TR_NOOP("RunForm", "Prox step rule"), T::Choice, LWB_TR_NOOP("RunForm", "armijo: backtracking (004 Alg. 1); fixed: 1-Lipschitz for every K")},
      {"model.prox_steps_eval", LWB_TR_NOOP("RunForm", "Model"), LWB_TR_NOOP("RunForm", "Prox steps K (evaluation)"), T::Integer, ""},
      {"model.prox_tol", LWB_TR_NOOP("RunForm", "Model"), LWB_TR_NOOP("RunForm", "Prox tolerance (evaluation)"), T::Number, LWB_TR_NOOP("RunForm", "stop at ‖g‖ ≤ tol·‖g⁰‖")},
      {"model.prox_eta", LWB_TR_NOOP("RunForm", "Model"), LWB_TR_NOOP("RunForm", "Prox η"), T::Number, LWB_TR_NOOP("RunForm", "AttLip is prox of η·f; smaller η: better conditioned, smaller moves")},
      {"model.prox_w_cap", LWB_TR_NOOP("RunForm", "Model"), LWB_TR_NOOP("RunForm", "AttLip head cap"), T::Number, LWB_TR_NOOP("RunForm", "> 0: each head's ‖W^h‖_F at most this (bounds κ); 0: free"), LWB_TR_NOOP("RunForm", "free")},
      {"model.token_norm", LWB_TR_NOOP("RunForm", "Model"), LWB_TR_NOOP("RunForm", "Unit-norm tokens"), T::Boolean, LWB_TR_NOOP("RunForm", "attention input rows scaled to ‖x_i‖ = 1: bounds the potential's curvature; the fixed rule is certified only with it")},
      {"model.prox_relaxation", LWB_TR_NOOP("RunForm", "Model"), LWB_TR_NOOP("RunForm", "Prox relaxation α"), T::Number, LWB_TR_NOOP("RunForm", "block x + α(prox(x) − x): 1-Lipschitz for α ≤ 2; 1: 004's AttLip")},
      {"optimizer.kind", LWB_TR_NOOP("RunForm", "Optimizer"), LWB_TR_NOOP("RunForm", "Optimizer"), T::Choice, ""},
      {"optimizer.lr", LWB_TR_NOOP("RunForm", "Optimizer"), LWB_TR_NOOP("RunForm", "Learning rate η"), T::Number, ""},
      {"optimizer.weight_decay", LWB_TR_NOOP("RunForm", "Optimizer"), LWB_TR_NOOP("RunForm", "Weight decay λ"), T::Number, LWB_TR_NOOP("RunForm", "decoupled; the soft cap's α* also uses it")},
      {"optimizer.lr_units", LWB_TR_NOOP("RunForm", "Optimizer"), LWB_TR_NOOP("RunForm", "Learning-rate units"), T::Choice, LWB_TR_NOOP("RunForm", "plain: lr × group multiplier; modula: lr × mass share ÷ sensitivity of what follows (000 App. F)")},
      {"optimizer.blocks_mass", LWB_TR_NOOP("RunForm", "Optimizer"), LWB_TR_NOOP("RunForm", "Blocks mass"), T::Number, LWB_TR_NOOP("RunForm", "modula: the blocks' share against 1 each for embedding and head")},
      {"optimizer.momentum", LWB_TR_NOOP("RunForm", "Optimizer"), LWB_TR_NOOP("RunForm", "Momentum"), T::Number, ""},
      {"optimizer.beta1", LWB_TR_NOOP("RunForm", "Optimizer"), LWB_TR_NOOP("RunForm", "β₁"), T::Number, ""},
      {"optimizer.beta2", LWB_TR_NOOP("RunForm", "Optimizer"), LWB_TR_NOOP("RunForm", "β₂"), T::Number, ""},
      {"optimizer.ns_steps", LWB_TR_NOOP("RunForm", "Optimizer"), LWB_TR_NOOP("RunForm", "Muon NS steps"), T::Integer, ""},
      {"optimizer.schedule", LWB_TR_NOOP("RunForm", "Optimizer"), LWB_TR_NOOP("RunForm", "Schedule"), T::Choice, ""},
      // Seed 002 (issue 14): the ICL task, model and Manifold Muon keys a form edits.
      {"icl.pairs", LWB_TR_NOOP("RunForm", "Run"), LWB_TR_NOOP("RunForm", "Pairs per sequence T"), T::Integer, ""},
      {"icl.order", LWB_TR_NOOP("RunForm", "Run"), LWB_TR_NOOP("RunForm", "Pair order"), T::Choice, LWB_TR_NOOP("RunForm", "random: half the sequences show y before x (the paper's data)")},
      {"icl.noise", LWB_TR_NOOP("RunForm", "Run"), LWB_TR_NOOP("RunForm", "Input noise"), T::Number, ""},
      {"model.layers", LWB_TR_NOOP("RunForm", "Model"), LWB_TR_NOOP("RunForm", "Layers"), T::Integer, ""},
      {"model.norm", LWB_TR_NOOP("RunForm", "Model"), LWB_TR_NOOP("RunForm", "Normalisation"), T::Choice, ""},
      {"optimizer.mode", LWB_TR_NOOP("RunForm", "Optimizer"), LWB_TR_NOOP("RunForm", "Dual solver"), T::Choice, ""},
      {"optimizer.dual_lr", LWB_TR_NOOP("RunForm", "Optimizer"), LWB_TR_NOOP("RunForm", "Dual step α"), T::Number, ""},
      {"optimizer.adam_lr", LWB_TR_NOOP("RunForm", "Optimizer"), LWB_TR_NOOP("RunForm", "AdamW group lr"), T::Number, LWB_TR_NOOP("RunForm", "embeddings, head and scalars")},
  };
  // The constraint section is the method registry's settings (lr and the update norm come
  // from the optimizer in training; the polishing tail and power iterations keep their
  // defaults in the form).
  for (const auto& s : spectral::constraintSettings()) {
    if (s.key == "lr" || s.key == "update_norm" || s.key == "ns_polish_steps" || s.key == "power_iters") continue;
    const T type = s.key == "method" || s.key == "impl" || s.key == "ns_coeffs" || s.key == "norm" ? T::Choice
                   : s.key == "alpha"                                                              ? T::NumberOrAuto
                   : s.key == "ns_steps"                                                           ? T::Integer
                                                                                                   : T::Number;
    std::string label(s.label);
    if (!label.empty() && label[0] >= 'a' && label[0] <= 'z') label[0] = static_cast<char>(label[0] - 'a' + 'A');
    f.push_back({"constraint." + std::string(s.key), "Constraint", label, type, std::string(s.tip)});
  }
  for (FormField x : std::vector<FormField>{{"log_every", LWB_TR_NOOP("RunForm", "Logging"), LWB_TR_NOOP("RunForm", "Log every"), T::Integer, LWB_TR_NOOP("RunForm", "steps between metrics rows")},
                                            {"eval_every", LWB_TR_NOOP("RunForm", "Logging"), LWB_TR_NOOP("RunForm", "Evaluate every"), T::Integer, ""},
                                            {"spectra_every", LWB_TR_NOOP("RunForm", "Logging"), LWB_TR_NOOP("RunForm", "Spectra every"), T::Integer, LWB_TR_NOOP("RunForm", "0: no spectra"), LWB_TR_NOOP("RunForm", "no spectra")},
                                            // A run killed or crashed loses the steps since its last checkpoint: the
                                            // form offered no way to have any before the end.
                                            {"checkpoint_every", LWB_TR_NOOP("RunForm", "Logging"), LWB_TR_NOOP("RunForm", "Checkpoint every"), T::Integer,
                                             LWB_TR_NOOP("RunForm", "steps between resumable checkpoints (lipschitz-cli train --resume); 0: only when the run ends or is stopped"),
                                             LWB_TR_NOOP("RunForm", "only at the end")}})
    f.push_back(std::move(x));
  return f;
}

}  // namespace

const std::vector<std::string>& formGroups() {
  static const std::vector<std::string> groups{LWB_TR_NOOP("RunForm", "Run"), LWB_TR_NOOP("RunForm", "Model"), LWB_TR_NOOP("RunForm", "Optimizer"),
                                                LWB_TR_NOOP("RunForm", "Constraint"), LWB_TR_NOOP("RunForm", "Logging")};
  return groups;
}

const std::vector<FormField>& formFields() {
  static const std::vector<FormField> fields = makeFields();
  return fields;
}

std::vector<std::string_view> choicesFor(std::string_view key) {
  if (key == "task") return kindIds(data::taskKinds());
  if (key == "model.kind") return kindIds(models::modelKinds());
  if (key == "optimizer.kind") return kindIds(optim::optimizerKinds());
  if (key == "optimizer.ns_coeffs" || key == "constraint.ns_coeffs") return keysOf(spectral::nsCoefficientSets());
  if (key == "optimizer.schedule") {
    std::vector<std::string_view> ids;
    for (const auto& r : optim::scheduleRows()) ids.push_back(r.key);
    return ids;
  }
  if (key == "optimizer.muon_scale") return choiceIds(optim::kMuonScales);
  if (key == "optimizer.embed_update") return choiceIds(optim::kEmbedUpdates);
  if (key == "optimizer.lr_units") return choiceIds(optim::kLrUnits);
  if (key == "model.zero_init") return choiceIds(models::kZeroInits);
  if (key == "model.mlp_activation") return choiceIds(models::kMlpActivations);
  if (key == "model.residual") return choiceIds(models::kResiduals);
  if (key == "model.attention_scores") return choiceIds(models::kAttentionScores);
  if (key == "optimizer.mode") return choiceIds(optim::kDualModes);
  if (key == "model.norm") return choiceIds(models::kNorms);
  if (key == "model.residual_count") return choiceIds(models::kResidualCounts);
  if (key == "icl.order") return choiceIds(kIclOrders);
  if (key == "model.attention") {
    std::vector<std::string_view> ids;
    for (const auto& k : attention::attentionKinds()) ids.push_back(k.id);
    return ids;
  }
  if (key == "model.prox_step_rule") return choiceIds(attention::kProxRules);
  if (key == "optimizer.lambda_init") return choiceIds(optim::kLambdaInits);
  if (key == "device") return choiceIds(kRunDevices);
  if (key == "constraint.method") return keysOf(spectral::constraintMethods());
  if (key == "constraint.impl") return keysOf(spectral::clipImpls());
  if (key == "constraint.norm") return {"rms", "spectral"};
  return {};
}

ChoiceText choiceText(std::string_view key, std::string_view id) {
  for (const Family& family : families())
    if (key == family.selector)
      if (const KindInfo* kind = findKind(family.kinds, id)) return {kind->title, kind->description};
  const auto titleOf = [id](const auto& table) -> ChoiceText {
    for (const auto& row : table)
      if (row.key == id) return {row.title, {}};
    return {};
  };
  if (key == "constraint.method") return titleOf(spectral::constraintMethods());
  if (key == "constraint.impl") return titleOf(spectral::clipImpls());
  if (key == "optimizer.ns_coeffs" || key == "constraint.ns_coeffs") return titleOf(spectral::nsCoefficientSets());
  return {};
}

bool appliesTo(const json& config, std::string_view key) {
  constexpr std::string_view kConstraint = "constraint.";
  if (key.starts_with(kConstraint)) {
    const auto method = spectral::parseConstraintMethod(textAt(config, "constraint.method", "none"));
    if (!method) return true;  // the form marks the method itself
    const std::string_view setting = key.substr(kConstraint.size());
    // A method whose λ is the optimizer's decay ignores constraint.lambda.
    if (setting == "lambda" && spectral::traits(*method).lambdaFromOptimizer) return false;
    for (const auto& known : spectral::constraintSettings())
      if (known.key == setting) return spectral::readsSetting(*method, setting);
    return true;  // training-only keys (update_norm_factor, embed_rms_max)
  }
  for (const Family& family : families()) {
    bool claimed = false;
    for (const auto& k : family.kinds) claimed = claimed || k.readsKey(key);
    if (!claimed) continue;
    const KindInfo* selected = findKind(family.kinds, textAt(config, family.selector, family.fallback));
    return selected && selected->readsKey(key);
  }
  return true;
}

}  // namespace lwb::run
