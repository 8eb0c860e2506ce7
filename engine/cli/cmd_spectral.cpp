// lipschitz-cli spectral: apply one constraint method to a matrix stored as .npy.
#include "cli/cli_support.h"
#include "cli/commands.h"
#include "io/input_error.h"
#include "io/npy.h"
#include "spectral/spectral.h"

#include <ATen/TensorOperators.h>
#include <ATen/ops/isfinite.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>

namespace lwb::cli {
namespace {

struct SpectralArgs {
  std::string op, in, out, impl = "abd_block", coeffs, dtype = "float32", norm = "spectral",
              device = "cpu";
  double sigmaMax = 1.0, sigmaMin = 0.0, lambda = 0.0;
  std::optional<double> alpha, lr;
  std::optional<int> steps, polishSteps;
  int powerIters = 20;
};

template <class Table>
std::string joinKeys(const Table& table) {
  std::string s;
  for (const auto& row : table) s += (s.empty() ? "" : ", ") + std::string(row.key);
  return s;
}
std::string joinMethodIds() { return joinKeys(spectral::constraintMethods()); }

// "spectral_clip, spectral_relu, svd_clip": the methods the registry says read `param`.
std::string methodsReading(spectral::MethodParam param) {
  std::string s;
  for (const auto& m : spectral::constraintMethods())
    if (m.reads & param) s += (s.empty() ? "" : ", ") + std::string(m.key);
  return s;
}

// The flag that sets each setting, so the registry's messages name it ("--sigma-max: ...").
std::string flagOf(std::string_view key) {
  static const std::map<std::string_view, std::string> flags = {
      {"method", "--op"}, {"ns_coeffs", "--coeffs"}, {"ns_steps", "--steps"}, {"ns_polish_steps", "--polish-steps"}};
  if (const auto it = flags.find(key); it != flags.end()) return it->second;
  std::string flag = "--" + std::string(key);
  std::replace(flag.begin(), flag.end(), '_', '-');
  return flag;
}

// The flags as the registry's settings (spectral/constraint_methods.h parses and checks them).
spectral::ConstraintParams paramsFromArgs(const SpectralArgs& a) {
  nlohmann::json j{{"method", a.op}, {"impl", a.impl}, {"norm", a.norm}, {"sigma_max", a.sigmaMax},
                   {"sigma_min", a.sigmaMin}, {"lambda", a.lambda}, {"lr", a.lr.value_or(1.0)},
                   {"power_iters", a.powerIters}};
  if (!spectral::parseConstraintMethod(a.op)) throw InputError("unknown --op '" + a.op + "' (one of: " + joinMethodIds() + ")");
  if (a.alpha) j["alpha"] = *a.alpha;
  spectral::ConstraintParams p;
  p.impl = spectral::ClipImpl::AbdBlock;  // the CLI's documented default
  if (!a.coeffs.empty()) {
    j["ns_coeffs"] = a.coeffs;
    // A set of several tuples (you6, polar_express) runs its registry default by default.
    if (const auto c = spectral::parseNsCoefficients(a.coeffs); c && spectral::nsCoefficientSet(*c).tuples.size() > 1)
      j["ns_steps"] = spectral::nsCoefficientSet(*c).defaultSteps;
  }
  if (a.steps) j["ns_steps"] = *a.steps;
  if (a.polishSteps) j["ns_polish_steps"] = *a.polishSteps;
  spectral::readSettings(j, p, flagOf);
  if (p.method == spectral::ConstraintMethod::SpectralSoftCap && !a.alpha && !a.lr)
    throw InputError(std::string(spectral::toString(p.method)) + " needs --alpha, or --lr (and --sigma-max) to compute alpha*");
  return p;
}

int runSpectral(const SpectralArgs& a) {
  const auto params = paramsFromArgs(a);
  const auto device = parseDevice(a.device);
  at::ScalarType dtype;
  if (a.dtype == "float32") dtype = at::kFloat;
  else if (a.dtype == "bfloat16") dtype = at::kBFloat16;
  else throw InputError("--dtype must be float32 or bfloat16, got '" + a.dtype + "'");

  const auto outDir = std::filesystem::absolute(a.out).parent_path();
  if (!std::filesystem::is_directory(outDir))
    throw InputError("--out: directory " + outDir.string() + " does not exist");
  {
    std::error_code ec;
    if (std::filesystem::is_directory(a.out, ec)) throw InputError("--out: " + a.out + " is a folder, not a file name");
    if (std::filesystem::equivalent(a.in, a.out, ec))
      throw InputError("--out: " + a.out + " is the input file: the input would be overwritten; choose another --out");
  }
  const at::Tensor input = io::readNpy(a.in);
  if (input.dim() != 2)
    throw InputError(a.in + ": expected a 2-D matrix, got rank " + std::to_string(input.dim()));
  if (input.numel() == 0) throw InputError(a.in + ": the matrix is empty");
  if (!at::isfinite(input).all().item<bool>()) throw InputError(a.in + ": contains NaN or infinite values");

  const auto w = input.to(device).to(dtype);
  // A float64 matrix can hold values float32 cannot: converted they become inf, and LAPACK's
  // SVD of such a matrix never returned (sbdsqr looped). Large but finite entries fail later:
  // the Frobenius norm the methods scale by overflows, and σ₁ after the op read 0.
  if (!at::isfinite(w.to(at::kFloat).norm()).item<bool>())
    throw InputError(a.in + ": values too large for " + a.dtype +
                     " arithmetic (the matrix's Frobenius norm overflows it, about 3.4e38); scale the matrix down");
  const auto before = exactSingularValues(input);
  const auto t0 = std::chrono::steady_clock::now();
  at::Tensor out = spectral::applyConstraint(w, params);
  out = out.to(at::kFloat).to(at::kCPU);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!at::isfinite(out).all().item<bool>())
    throw std::runtime_error(std::string(spectral::toString(params.method)) +
                             " produced non-finite values (try more --steps or --dtype float32)");
  io::writeNpy(a.out, out);
  const auto after = exactSingularValues(out);

  nlohmann::json j;
  j["op"] = spectral::toString(params.method);
  j["shape"] = {input.size(0), input.size(1)};
  j["sigma1_before"] = before.front();
  j["sigma1_after"] = after.front();
  j["seconds"] = seconds;
  j["dtype"] = a.dtype;
  j["norm"] = a.norm;
  if (params.norm == spectral::ThresholdNorm::Rms) {
    const double s = spectral::rmsScale(input);
    j["rms_norm_before"] = before.front() * s;
    j["rms_norm_after"] = after.front() * s;
  }
  if (spectral::reads(params.method, spectral::kAlpha)) j["alpha"] = spectral::resolvedAlpha(params);
  using M = spectral::ConstraintMethod;
  const bool newtonSchulzCap = params.impl != spectral::ClipImpl::Svd &&
                               (params.method == M::SpectralHardCap || params.method == M::SpectralClip ||
                                params.method == M::SpectralClippedWeightDecay);
  if (dtype == at::kBFloat16 && newtonSchulzCap) {
    // bfloat16 GEMMs run ~3x the float32 rate here, but a Newton–Schulz cap forms
    // x·sign(x) with x up to σ₁/σmax, so its error grows like 2⁻⁸·σ₁/σmax (docs/BENCHMARKS.md,
    // "Accuracy of the hard cap / clip implementations"): within 1 % of σmax only while σ₁ ≤ 2 σmax.
    const double sigma1 = params.norm == spectral::ThresholdNorm::Rms ? before.front() * spectral::rmsScale(input) : before.front();
    const bool safe = sigma1 <= 2.0 * params.sigmaMax;
    j["bfloat16_safe"] = safe;
    if (!safe)
      std::fprintf(stderr, "lipschitz-cli: note: sigma1 is %.3g x sigma_max; in bfloat16 the cap is accurate only up to 2x (use --dtype float32)\n",
                   sigma1 / std::max(params.sigmaMax, 1e-300));
  }
  if (params.method == M::SpectralSoftCap) {
    // p₁(x) = x − αx³ peaks at x = 1/√(3α) and falls below zero past 1/√α, and p₂ does not
    // fold it back: a singular value beyond the peak is sent to |p₂(p₁(σ))|, which grows
    // without bound. The soft cap keeps bounded weights bounded; it does not repair large
    // ones (the Clip Lab says the same in words). Measured in the norm the cap acts in.
    const double alpha = spectral::resolvedAlpha(params);
    const double sigma1 = params.norm == spectral::ThresholdNorm::Rms ? before.front() * spectral::rmsScale(input) : before.front();
    const double turnover = alpha > 0 ? 1.0 / std::sqrt(3.0 * alpha) : std::numeric_limits<double>::infinity();
    const bool beyond = sigma1 > turnover;
    j["soft_cap_turnover"] = alpha > 0 ? nlohmann::json(turnover) : nlohmann::json(nullptr);
    j["soft_cap_beyond_turnover"] = beyond;
    if (beyond)
      std::fprintf(stderr,
                   "lipschitz-cli: warning: sigma1 %.4g is beyond the soft cap's turnover 1/sqrt(3 alpha) = %.4g: there the "
                   "polynomial p2(p1(sigma)) no longer shrinks sigma and sigma1 came out as %.4g (the soft cap keeps bounded "
                   "weights bounded, it does not repair large ones: use spectral_hard_cap or spectral_normalize)\n",
                   sigma1, turnover, params.norm == spectral::ThresholdNorm::Rms ? after.front() * spectral::rmsScale(input) : after.front());
  }
  j["out"] = a.out;
  printJson(j);
  return 0;
}

}  // namespace

Command addSpectralCommand(CLI::App& app) {
  auto args = std::make_shared<SpectralArgs>();
  auto* sub = app.add_subcommand("spectral", "apply a weight-constraint method to a 2-D .npy matrix");
  sub->add_option("--op", args->op, "method id: " + joinMethodIds())->required();
  sub->add_option("--in", args->in, "input .npy (2-D float32/float64, C order)")->required()->check(nonEmpty());
  sub->add_option("--out", args->out, "output .npy (float32)")->required()->check(nonEmpty());
  sub->add_option("--sigma-max", args->sigmaMax, "upper threshold (default 1)")->check(finiteNonNegative());
  sub->add_option("--sigma-min", args->sigmaMin, "lower threshold for " + methodsReading(spectral::kSigmaMin) + " (default 0)")
      ->check(finiteNonNegative());
  sub->add_option("--alpha", args->alpha, "soft-cap strength (default: alpha* from --sigma-max, --lr, --lambda)")
      ->check(finiteNonNegative());
  sub->add_option("--lambda", args->lambda, "decay for " + methodsReading(spectral::kLambda))
      ->check(finiteNonNegative());
  sub->add_option("--lr", args->lr, "learning rate (weight decay factor 1 - lambda*lr; alpha*); default 1")
      ->check(finiteNonNegative());
  sub->add_option("--impl", args->impl, "hard cap / clip implementation: " + joinKeys(spectral::clipImpls()));
  sub->add_option("--coeffs", args->coeffs, "Newton-Schulz coefficients: " + joinKeys(spectral::nsCoefficientSets()));
  sub->add_option("--steps", args->steps, "Newton-Schulz main-phase steps (default 10 for jordan5, 6 for you6)");
  sub->add_option("--polish-steps", args->polishSteps, "Newton-Schulz (15/8,-10/8,3/8) tail steps (default 4)");
  sub->add_option("--power-iters", args->powerIters, "power iterations for normalize/hammer/spectral decay")
      ->transform(integerIn(1, 100000));
  sub->add_option("--dtype", args->dtype, "compute dtype: float32 or bfloat16");
  sub->add_option("--norm", args->norm, "thresholds as raw spectral norms (spectral) or RMS->RMS norms (rms)");
  sub->add_option("--device", args->device, "cpu or cuda");
  return {sub, [args] { return runSpectral(*args); }};
}

}  // namespace lwb::cli
