#include "spectral/constraint_methods.h"

#include "io/json_fields.h"
#include "common/registry_table.h"
#include "common/tr_noop.h"
#include "io/input_error.h"
#include "spectral/softcap_alpha.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace lwb::spectral {
namespace {

using M = ConstraintMethod;
constexpr unsigned kClipFamily = kImpl | kNs;

// The trait table. `reads` is checked against what applyConstraint actually reads by
// tst_constraint_methods (every method, every setting perturbed).
constexpr std::array<MethodTraits, 12> kMethods{{
    // id, key, title, f(σ), reads, enforcesBound, startsFromSign, actsOnTop, lambdaFromOptimizer, lambdaIsFraction, source
    {M::None, "none", LWB_TR_NOOP("Registry", "no constraint"), LWB_TR_NOOP("ScalarMap", "no constraint f(σ) = σ"), 0, false, false, false, false, false, ""},
    {M::WeightDecay, "weight_decay", LWB_TR_NOOP("Registry", "weight decay"), LWB_TR_NOOP("ScalarMap", "weight decay (1 − λη)σ"), kLambda | kLr, false, false, false,
     false, false, "000 §3.1"},
    {M::SpectralWeightDecay, "spectral_weight_decay", LWB_TR_NOOP("Registry", "spectral weight decay"), LWB_TR_NOOP("ScalarMap", "spectral weight decay σ₁ → (1 − λ)σ₁"),
     kLambda | kPowerIters, false, false, true, false, true, "000 §3.1"},
    {M::SpectralNormalize, "spectral_normalize", LWB_TR_NOOP("Registry", "spectral normalize"), LWB_TR_NOOP("ScalarMap", "normalize σ·σmax/max(σ₁, σmax)"),
     kSigmaMax | kPowerIters, true, false, true, false, false, "000 §3.1"},
    {M::SpectralHammer, "spectral_hammer", LWB_TR_NOOP("Registry", "spectral hammer"), LWB_TR_NOOP("ScalarMap", "hammer σ₁ → σmax"), kSigmaMax | kPowerIters, false,
     false, true, false, false, "000 §3.1"},
    {M::Stiefel, "stiefel", LWB_TR_NOOP("Registry", "Stiefel (all σ → σmax)"), LWB_TR_NOOP("ScalarMap", "Stiefel σ → σmax"), kSigmaMax | kNs, true, false, false, false,
     false, "000 §3.1"},
    {M::SpectralSoftCap, "spectral_soft_cap", LWB_TR_NOOP("Registry", "spectral soft cap"), LWB_TR_NOOP("ScalarMap", "soft cap p₂∘p₁"), kSigmaMax | kAlpha | kLambda | kLr,
     true, false, false, true, false, "000 §3.1, App. B"},
    {M::SpectralHardCap, "spectral_hard_cap", LWB_TR_NOOP("Registry", "spectral hard cap"), LWB_TR_NOOP("ScalarMap", "hard cap min(σ, σmax)"), kSigmaMax | kClipFamily,
     true, true, false, false, false, "001 §2.3, §4"},
    {M::SpectralClip, "spectral_clip", LWB_TR_NOOP("Registry", "spectral clip [σmin, σmax]"), LWB_TR_NOOP("ScalarMap", "clip to [σmin, σmax]"), kSigmaMax | kSigmaMin | kClipFamily,
     true, true, false, false, false, "001 §2"},
    {M::SpectralRelu, "spectral_relu", LWB_TR_NOOP("Registry", "spectral ReLU (σ ≥ σmin)"), LWB_TR_NOOP("ScalarMap", "spectral ReLU max(σ, σmin)"), kSigmaMin | kClipFamily, false,
     true, false, false, false, "001 §3.3"},
    {M::SpectralClippedWeightDecay, "spectral_clipped_weight_decay", LWB_TR_NOOP("Registry", "spectral clipped weight decay"), LWB_TR_NOOP("ScalarMap", "clipped weight decay"), kSigmaMax | kLambda | kClipFamily, false, true, false, false,
     true, "001 §3.4; 000 App. C.2"},
    {M::SvdClip, "svd_clip", LWB_TR_NOOP("Registry", "SVD clip (exact)"), LWB_TR_NOOP("ScalarMap", "clip to [σmin, σmax]"), kSigmaMax | kSigmaMin, true, false,
     false, false, false, "exact SVD"},
}};

constexpr std::array<ClipImplTraits, 4> kClipImpls{{
    {ClipImpl::Nested, "nested", LWB_TR_NOOP("Registry", "nested msign (001 §2.3)"), LWB_TR_NOOP("Registry", "nested")},
    {ClipImpl::AbdDense, "abd_dense", LWB_TR_NOOP("Registry", "anti-block-diagonal, dense (001 §4.2)"),
     LWB_TR_NOOP("Registry", "ABD dense")},
    {ClipImpl::AbdBlock, "abd_block", LWB_TR_NOOP("Registry", "anti-block-diagonal, blocks (001 §4.3)"),
     LWB_TR_NOOP("Registry", "ABD blocks")},
    {ClipImpl::Svd, "svd", LWB_TR_NOOP("Registry", "exact SVD"), LWB_TR_NOOP("Registry", "SVD")},
}};

constexpr std::array<SettingInfo, 13> kSettings{{
    {"method", LWB_TR_NOOP("Registry", "method"), 0, ""},
    {"sigma_max", LWB_TR_NOOP("Registry", "σmax"), kSigmaMax, LWB_TR_NOOP("Registry", "target norm (RMS→RMS unless the norm is spectral)")},
    {"sigma_min", LWB_TR_NOOP("Registry", "σmin"), kSigmaMin, LWB_TR_NOOP("Registry", "lower threshold")},
    {"alpha", LWB_TR_NOOP("Registry", "α"), kAlpha, LWB_TR_NOOP("Registry", "a number, or auto for the minimal α* of App. B")},
    {"lambda", LWB_TR_NOOP("Registry", "λ"), kLambda, LWB_TR_NOOP("Registry", "decay strength")},
    {"lr", LWB_TR_NOOP("Registry", "learning rate η"), kLr, ""},
    {"update_norm", LWB_TR_NOOP("Registry", "update norm"), kAlpha, LWB_TR_NOOP("Registry", "bound on ‖ΔW‖ for α* (default η)")},
    {"impl", LWB_TR_NOOP("Registry", "implementation"), kImpl, ""},
    {"ns_coeffs", LWB_TR_NOOP("Registry", "coefficients"), kNs, LWB_TR_NOOP("Registry", "Newton–Schulz coefficient set")},
    {"ns_steps", LWB_TR_NOOP("Registry", "Newton–Schulz steps"), kNs, ""},
    {"ns_polish_steps", LWB_TR_NOOP("Registry", "polishing steps"), kNs, LWB_TR_NOOP("Registry", "convergent (15/8, −10/8, 3/8) tail")},
    {"power_iters", LWB_TR_NOOP("Registry", "power iterations"), kPowerIters, LWB_TR_NOOP("Registry", "per step, warm-started across steps")},
    {"norm", LWB_TR_NOOP("Registry", "threshold norm"), kSigmaMax | kSigmaMin, LWB_TR_NOOP("Registry", "rms: RMS→RMS norm of a (d_out, d_in) matrix; spectral: σ₁")},
}};

constexpr std::array<std::pair<ThresholdNorm, std::string_view>, 2> kNorms{{
    {ThresholdNorm::Rms, "rms"},
    {ThresholdNorm::Spectral, "spectral"},
}};

// One set of ranges. Every number has a finite upper bound: 1e308 is legal JSON and would
// overflow the arithmetic.
constexpr double kMaxNorm = 1e6;   // σ thresholds, α
constexpr double kMaxRate = 1e4;   // η, λ (λ is per unit of η for weight decay)
constexpr fields::Range kSigmaMaxRange{0.0, kMaxNorm, true};
constexpr fields::Range kSigmaMinRange{0.0, kMaxNorm};
constexpr fields::Range kAlphaRange{0.0, kMaxNorm};
constexpr fields::Range kLambdaRange{0.0, kMaxRate};
constexpr fields::Range kFractionRange{0.0, 1.0};
constexpr fields::Range kLrRange{0.0, kMaxRate, true};
constexpr int kMaxNsSteps = 100, kMaxPowerIters = 1000;

using registry::idOf;
using registry::keysOf;

// A choice member: its text must be one of the table's keys (message lists them).
template <class Table, class Id>
void readChoice(fields::FieldReader& r, std::string_view name, const Table& table, Id& out) {
  std::string text(registry::rowOf(table, out).key);
  r.text(name, text);
  if (const auto id = idOf(table, text)) out = *id;
  else fields::checkChoice(text, r.key(name), keysOf(table));  // throws, listing the keys
}

void checkNumber(double v, const std::string& key, fields::Range range) { fields::readNumber(v, key, range); }

bool isTop(double sigma, double sigma1) { return sigma1 <= 0 || std::abs(sigma - sigma1) <= 1e-9 * sigma1; }

}  // namespace

std::span<const MethodTraits> constraintMethods() { return kMethods; }

const MethodTraits& traits(ConstraintMethod m) { return registry::rowOf(kMethods, m); }

std::string_view toString(ConstraintMethod m) { return traits(m).key; }
std::optional<ConstraintMethod> parseConstraintMethod(std::string_view key) { return idOf(kMethods, key); }

std::span<const ClipImplTraits> clipImpls() { return kClipImpls; }
std::string_view toString(ClipImpl impl) { return registry::rowOf(kClipImpls, impl).key; }
std::optional<ClipImpl> parseClipImpl(std::string_view key) { return idOf(kClipImpls, key); }

std::string_view toString(ThresholdNorm n) {
  for (const auto& [id, key] : kNorms)
    if (id == n) return key;
  return "?";
}

std::optional<ThresholdNorm> parseThresholdNorm(std::string_view key) {
  for (const auto& [id, k] : kNorms)
    if (k == key) return id;
  return std::nullopt;
}

std::span<const SettingInfo> constraintSettings() { return kSettings; }

bool readsSetting(ConstraintMethod m, std::string_view key) {
  for (const auto& k : kSettings)
    if (k.key == key) return k.param == 0 || (traits(m).reads & k.param) != 0;
  return false;
}

std::string settingLabel(std::string_view key) {
  for (const auto& k : kSettings)
    if (k.key == key) return std::string(k.label);
  return std::string(key);
}

SettingNamer prefixedNamer(std::string prefix) {
  return [p = std::move(prefix)](std::string_view key) { return p + std::string(key); };
}

void validate(const ConstraintSettings& s, const SettingNamer& name) {
  const MethodTraits& t = traits(s.method);
  checkNumber(s.sigmaMax, name("sigma_max"), kSigmaMaxRange);
  checkNumber(s.sigmaMin, name("sigma_min"), kSigmaMinRange);
  if (s.sigmaMin > s.sigmaMax)
    fields::fail(name("sigma_min"), "must be <= " + name("sigma_max") + " (" + fields::numberText(s.sigmaMax) +
                                        "), got " + fields::numberText(s.sigmaMin));
  if (s.alpha) checkNumber(*s.alpha, name("alpha"), kAlphaRange);
  checkNumber(s.lambda, name("lambda"), t.lambdaIsFraction ? kFractionRange : kLambdaRange);
  checkNumber(s.lr, name("lr"), kLrRange);
  // Decoupled decay multiplies by 1 − λ·η: at λ·η ≥ 1 it flips or zeroes every matrix (and
  // α* of App. B has no meaning). Checked where both are read, with the numbers in the message.
  if ((t.reads & kLambda) && (t.reads & kLr) && !t.lambdaIsFraction && s.lambda * s.lr >= 1.0)
    fields::fail(name("lambda"), "times " + name("lr") + " must be < 1 (the decay factor 1 − λ·η is " +
                                     fields::numberText(1.0 - s.lambda * s.lr) + " at λ = " + fields::numberText(s.lambda) +
                                     ", η = " + fields::numberText(s.lr) + ")");
  if (s.updateNorm >= 0) checkNumber(s.updateNorm, name("update_norm"), {0.0, kMaxRate});
  fields::readInteger(s.ns.steps, name("ns_steps"), 0, kMaxNsSteps);
  fields::readInteger(s.ns.polishSteps, name("ns_polish_steps"), 0, kMaxNsSteps);
  if ((t.reads & kNs) && s.ns.steps + s.ns.polishSteps < 1)
    fields::fail(name("ns_steps"), "at least one Newton–Schulz step is needed (with " + name("ns_polish_steps") + ")");
  fields::readInteger(s.powerIterations, name("power_iters"), 1, kMaxPowerIters);
}

void readSettings(const nlohmann::json& j, ConstraintSettings& s, const SettingNamer& name) {
  if (!j.is_object()) throw InputError("constraint settings: expected a JSON object");
  fields::FieldReader r(j, fields::FieldReader::Namer(name));
  readChoice(r, "method", kMethods, s.method);
  if (const nlohmann::json* v = r.find("alpha")) {
    if (v->is_string() && v->get<std::string>() == "auto") s.alpha.reset();
    else if (v->is_number()) s.alpha = fields::readNumber(*v, r.key("alpha"), kAlphaRange);
    else {
      // Built with append: `"'" + string` here drew GCC 12's -Wstringop-overflow false positive.
      std::string got = v->is_string() ? std::string(1, '\'').append(v->get<std::string>()).append(1, '\'') : fields::describe(*v);
      fields::fail(r.key("alpha"), "expected a number or \"auto\", got " + got);
    }
  }
  // Ranges are validate()'s; here only the types (a generous range that rejects NaN).
  constexpr fields::Range any{-1e300, 1e300};
  r.number("sigma_max", s.sigmaMax, any);
  r.number("sigma_min", s.sigmaMin, any);
  r.number("lambda", s.lambda, any);
  r.number("lr", s.lr, any);
  r.number("update_norm", s.updateNorm, any);
  readChoice(r, "impl", kClipImpls, s.impl);
  readChoice(r, "ns_coeffs", nsCoefficientSets(), s.ns.coefficients);
  constexpr int kAnyInt = 1 << 30;
  r.integer("ns_steps", s.ns.steps, -kAnyInt, kAnyInt);
  r.integer("ns_polish_steps", s.ns.polishSteps, -kAnyInt, kAnyInt);
  r.integer("power_iters", s.powerIterations, -kAnyInt, kAnyInt);
  std::string norm(toString(s.norm));
  r.text("norm", norm);
  if (const auto n = parseThresholdNorm(norm)) s.norm = *n;
  else fields::checkChoice(norm, r.key("norm"), {"rms", "spectral"});
  validate(s, name);
}

void writeSettings(const ConstraintSettings& s, nlohmann::json& j) {
  j["method"] = toString(s.method);
  j["sigma_max"] = s.sigmaMax;
  j["sigma_min"] = s.sigmaMin;
  j["alpha"] = s.alpha ? nlohmann::json(*s.alpha) : nlohmann::json("auto");
  j["lambda"] = s.lambda;
  j["impl"] = toString(s.impl);
  j["ns_coeffs"] = toString(s.ns.coefficients);
  j["ns_steps"] = s.ns.steps;
  j["ns_polish_steps"] = s.ns.polishSteps;
  j["power_iters"] = s.powerIterations;
  j["norm"] = toString(s.norm);
}

double resolvedAlpha(const ConstraintSettings& s) {
  if (s.alpha) {
    if (!std::isfinite(*s.alpha) || *s.alpha < 0.0) throw InputError("alpha must be a finite number >= 0");
    return *s.alpha;
  }
  return softCapAlphaStar(s.sigmaMax, s.lr, s.lambda, s.updateNorm);
}

bool startsFromSign(const ConstraintSettings& s) {
  if (!traits(s.method).startsFromSign || s.impl == ClipImpl::Svd) return false;
  switch (s.method) {
    case ConstraintMethod::SpectralClip:
      // σmin = 0 is the hard cap (spectralClip); the ABD forms add a sign term only above it.
      return s.impl == ClipImpl::Nested || s.sigmaMin > 0;
    case ConstraintMethod::SpectralRelu: return true;
    default: return s.impl == ClipImpl::Nested;  // hard cap, clipped decay: nested only
  }
}

double scalarMap(const ConstraintSettings& s, double sigma, double sigma1, double alpha) {
  switch (s.method) {
    case M::None: return sigma;
    case M::WeightDecay: return (1 - s.lambda * s.lr) * sigma;
    case M::SpectralWeightDecay: return isTop(sigma, sigma1) ? (1 - s.lambda) * sigma : sigma;
    case M::SpectralNormalize: return sigma * s.sigmaMax / std::max(sigma1 > 0 ? sigma1 : sigma, s.sigmaMax);
    case M::SpectralHammer: return isTop(sigma, sigma1) ? s.sigmaMax : sigma;
    case M::Stiefel: return sigma > 0 ? s.sigmaMax : 0.0;
    case M::SpectralSoftCap: return softCapPolynomial(sigma, alpha);
    case M::SpectralHardCap: return std::min(sigma, s.sigmaMax);
    case M::SpectralClip:
    case M::SvdClip: return std::clamp(sigma, s.sigmaMin, s.sigmaMax);
    case M::SpectralRelu: return std::max(sigma, s.sigmaMin);
    // 001 §3.4 / 000 eq. (9): (1 − λ) σ + λ min(σ, β).
    case M::SpectralClippedWeightDecay: return (1 - s.lambda) * sigma + s.lambda * std::min(sigma, s.sigmaMax);
  }
  return sigma;
}

}  // namespace lwb::spectral
