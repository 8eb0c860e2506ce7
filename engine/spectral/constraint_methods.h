// The one home of what the workbench knows about weight-constraint methods (000 §3.1,
// App. B–C; 001 §2–4): the trait table (id, title, which settings each method reads, whether
// it enforces a bound, whether it starts from msign), the settings themselves, the scalar map
// f(σ) each method applies to the singular values, and the one parser/validator of settings
// with one set of ranges and messages. No LibTorch: the run form, the Clip Lab, Compare, the
// dashboard's f(σ) plot and the CLI all derive from this header.
//
// Adding a method: an enum value, a row in kMethods (constraint_methods.cpp), its f(σ) case
// in scalarMap, its tensor implementation in constraint.cpp, and its test.
#pragma once

#include "spectral/ns_coefficients.h"

#include <nlohmann/json_fwd.hpp>

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace lwb::spectral {

enum class ConstraintMethod {
  None,
  WeightDecay,
  SpectralWeightDecay,
  SpectralNormalize,
  SpectralHammer,
  Stiefel,
  SpectralSoftCap,
  SpectralHardCap,
  SpectralClip,
  SpectralRelu,
  SpectralClippedWeightDecay,
  SvdClip,
};

// Hard cap / clip implementations (001 §2.3, §4.2, §4.3, exact reference).
enum class ClipImpl {
  Nested,    // 001 §2.3: msign of (beta msign(W) - W); fails for large sigma1 in low precision
  AbdDense,  // 001 §4.2: Higham's anti-block-diagonal trick on the full (m+n)^2 matrix
  AbdBlock,  // 001 §4.3: the same iteration on the P, Q, R blocks, never materialised
  Svd,       // exact reference by SVD (float32 at least)
};

// How thresholds (sigma_max, sigma_min, alpha) are measured.
enum class ThresholdNorm {
  Spectral,  // raw sigma1
  Rms,       // RMS->RMS operator norm of a (d_out, d_in) matrix: sigma1 sqrt(d_in / d_out)
};

// The settings a method may read, as bit flags (MethodTraits::reads).
enum MethodParam : unsigned {
  kSigmaMax = 1u << 0,
  kSigmaMin = 1u << 1,
  kAlpha = 1u << 2,       // soft cap strength (a number, or α* from σmax, λ, η, ‖ΔW‖)
  kLambda = 1u << 3,      // decay strength
  kLr = 1u << 4,          // η: weight decay's factor 1 − λη, and α*
  kImpl = 1u << 5,        // clip implementation
  kNs = 1u << 6,          // Newton–Schulz coefficients and steps
  kPowerIters = 1u << 7,  // power iteration for the top singular triple
};

struct MethodTraits {
  ConstraintMethod id;
  std::string_view key;      // canonical id (ARCHITECTURE.md)
  std::string_view title;    // "spectral soft cap"
  std::string_view mapName;  // f(σ) in words, for legends: "hard cap min(σ, σmax)"
  unsigned reads;            // MethodParam flags
  // ‖W‖ <= σmax holds after every step (000 §3.1, Fig. 4 right: hammer, ReLU, the decays do not).
  bool enforcesBound;
  // Some implementation starts from msign(W) (nested forms, the ABD forms' sign term), so a
  // caller holding it may pass it in (startsFromSign(settings) says when it is used).
  bool startsFromSign;
  // f acts on σ₁ alone (found by power iteration): normalize, hammer, spectral weight decay.
  bool actsOnTop;
  // In training, λ is the optimizer's decoupled weight decay (Theorem B.1's decay step), not
  // constraint.lambda: the soft cap's α* couples to it.
  bool lambdaFromOptimizer;
  // λ multiplies σ directly ((1 − λ)σ): it must lie in [0, 1].
  bool lambdaIsFraction;
  std::string_view source;  // where the formula is: "000 §3.1"
};

// Every method, in the order forms list them.
std::span<const MethodTraits> constraintMethods();
const MethodTraits& traits(ConstraintMethod m);
std::string_view toString(ConstraintMethod m);
std::optional<ConstraintMethod> parseConstraintMethod(std::string_view key);
inline bool reads(ConstraintMethod m, MethodParam p) { return (traits(m).reads & p) != 0; }

struct ClipImplTraits {
  ClipImpl id;
  std::string_view key;    // "nested", "abd_dense", "abd_block", "svd"
  std::string_view title;  // "nested msign (001 §2.3)": forms and tables
  std::string_view label;  // "nested": legends, where four titles would not fit
};
std::span<const ClipImplTraits> clipImpls();
std::string_view toString(ClipImpl impl);
std::optional<ClipImpl> parseClipImpl(std::string_view key);

std::string_view toString(ThresholdNorm n);  // "spectral", "rms"
std::optional<ThresholdNorm> parseThresholdNorm(std::string_view key);

// One set of constraint settings: the run config's constraint section, the Clip Lab's
// request, the CLI's flags and the dashboard's f(σ) all are (or extend) this struct.
struct ConstraintSettings {
  ConstraintMethod method = ConstraintMethod::None;
  double sigmaMax = 1.0;
  double sigmaMin = 0.0;
  std::optional<double> alpha;  // soft cap strength; empty = α* from lr, lambda, updateNorm
  double lambda = 0.0;          // weight decay / spectral weight decay / clipped decay
  double lr = 1.0;              // η (weight decay factor 1 − λη; α*)
  double updateNorm = -1.0;     // bound on ‖ΔW‖ for α*; < 0 means lr (Muon: ‖ΔW‖ <= η)
  ClipImpl impl = ClipImpl::Nested;
  NewtonSchulzConfig ns = NewtonSchulzConfig::accurate();  // clip family and stiefel
  int powerIterations = 20;
  ThresholdNorm norm = ThresholdNorm::Spectral;
};

// The settings by JSON key (the run config's constraint.<key>), with their labels and the
// trait flag that says which methods read them (0: every method, e.g. "method", "norm").
struct SettingInfo {
  std::string_view key;    // "sigma_max"
  std::string_view label;  // "σmax"
  unsigned param;          // MethodParam, or 0
  std::string_view tip;
};
std::span<const SettingInfo> constraintSettings();
// Whether the method reads the setting `key` at all (with its α resolved automatically).
bool readsSetting(ConstraintMethod m, std::string_view key);
// A namer that calls settings by their labels ("σmax: must be > 0"), for the Clip Lab.
std::string settingLabel(std::string_view key);

// How a setting's JSON key ("sigma_max") is named in messages: "constraint.sigma_max" in a
// config, "--sigma-max" on the command line, "σmax" in the Clip Lab.
using SettingNamer = std::function<std::string(std::string_view key)>;
SettingNamer prefixedNamer(std::string prefix);

// Range checks (one set for configs, the CLI and the lab). Throws InputError
// "<name(key)>: must be ..., got ...". Settings the method does not read are checked too, so
// a config stays valid when its method changes.
void validate(const ConstraintSettings& s, const SettingNamer& name);

// Reads the members of `j` that name settings (method, sigma_max, sigma_min, alpha (number or
// "auto"), lambda, lr, update_norm, impl, ns_coeffs, ns_steps, ns_polish_steps, power_iters,
// norm) into `s`, leaving absent ones as they are, then validates. Other members are the
// caller's (a run config's checkKnownKeys rejects unknown ones). Throws InputError.
void readSettings(const nlohmann::json& j, ConstraintSettings& s, const SettingNamer& name);
// The inverse for the keys a run config stores (every key readSettings reads but lr and
// update_norm, which come from the optimizer).
void writeSettings(const ConstraintSettings& s, nlohmann::json& j);

// The soft-cap strength the settings resolve to: α, or α* of App. B from σmax, lr, λ and
// updateNorm. Throws InputError for a negative or non-finite α.
double resolvedAlpha(const ConstraintSettings& s);

// Whether the method's implementation starts from msign(W) with these settings: every nested
// clip form, and the ABD forms' sign term (clip with σmin > 0, relu).
bool startsFromSign(const ConstraintSettings& s);

// f(σ): what the method does to a singular value σ >= 0 in exact arithmetic, in the
// settings' threshold units. `sigma1` is the matrix's top singular value (normalize, hammer
// and spectral weight decay act on it alone); <= 0 when unknown, and then every σ is taken
// as the top one (the curve shows where a matrix's σ₁ goes). `alpha` is the resolved soft-cap
// strength. Signed: the exact result's singular values are |f(σ)|.
double scalarMap(const ConstraintSettings& s, double sigma, double sigma1, double alpha);

}  // namespace lwb::spectral
