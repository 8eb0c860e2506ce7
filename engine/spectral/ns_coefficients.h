// Newton–Schulz coefficient sets: the registry of odd quintic schedules msign iterates
// (Jordan et al. 2024; You 2025; the convergent polishing tail of 001 §2.2), and the
// schedule arithmetic that needs no tensors. No LibTorch: forms, the CLI and plots list the
// sets from here.
#pragma once

#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace lwb::spectral {

// One odd quintic step x -> a x + b x^3 + c x^5, applied to all singular values at once.
struct NsTuple {
  double a, b, c;
};

enum class NsCoefficients {
  Jordan5,  // (3.4445, -4.7750, 2.0315) repeated: fast growth, settles in ~[0.7, 1.2]
  You6,     // You (2025): six tuples / 1024, converging to ~1; the last repeats beyond six
  Polish,   // (15/8, -10/8, 3/8): p(1) = 1, p'(1) = p''(1) = 0, converges but grows slowly
  PolarExpress,  // Amsel et al. (2025): eight tuples with 1.01 safety, converges to 1 (seed 002's retraction)
};

// A registry entry. `tuples` are applied in order; steps beyond their count repeat the last.
struct NsCoefficientSet {
  NsCoefficients id;
  std::string_view key;    // canonical id (ARCHITECTURE.md): "jordan5", "you6", "polish"
  std::string_view title;  // for forms and tables
  std::string_view label;  // short, for legends: "Jordan", "Polar Express"
  std::span<const NsTuple> tuples;
  // msign divides W by ‖W‖_F times this first: Polar Express's tuples are designed for
  // singular values in (0, 1/1.01] (its 1.01 safety factor); 1 for the others.
  double normSafety = 1.0;
  // Steps a caller runs when it names the set without a count (CLI, lab): every tuple once,
  // and for Polar Express the two extra repeats of the last tuple of seed 002's code.
  int defaultSteps = 5;
};

// Every set, in the order forms list them.
std::span<const NsCoefficientSet> nsCoefficientSets();
const NsCoefficientSet& nsCoefficientSet(NsCoefficients c);
std::string_view toString(NsCoefficients c);
std::optional<NsCoefficients> parseNsCoefficients(std::string_view id);

struct NewtonSchulzConfig {
  NsCoefficients coefficients = NsCoefficients::Jordan5;
  int steps = 5;        // main-phase steps of `coefficients`
  int polishSteps = 0;  // convergent tail of (15/8, -10/8, 3/8) after the main phase

  // Muon's orthogonaliser: jordan5 x 5, no tail (singular values land in ~[0.7, 1.2]).
  static NewtonSchulzConfig muon() { return {NsCoefficients::Jordan5, 5, 0}; }
  // Default for constraint methods (hard cap, clip, relu, stiefel): tuned so that the
  // 256x512 accuracy target of the spectral toolkit holds up to sigma1/sigma_max = 1000
  // (see docs/BENCHMARKS.md, "Accuracy"). Tiny normalised singular values (~1e-5) need ~9
  // growth steps of slope ~3.4 before the tail can polish them.
  static NewtonSchulzConfig accurate() { return {NsCoefficients::Jordan5, 10, 4}; }
  friend bool operator==(const NewtonSchulzConfig&, const NewtonSchulzConfig&) = default;
};

// The full list of tuples the iteration applies, main phase then tail. Throws
// std::invalid_argument outside 0..1000 steps in all.
std::vector<NsTuple> nsSchedule(const NewtonSchulzConfig& cfg);

// Largest value the scalar iteration reaches from any x in (0, 1]: the factor by which the
// schedule can inflate a singular value above 1 (Muon's update norm is lr * this; 000 App. F
// quotes 1.14502 for its coefficients). Evaluated on a fine log grid, in double.
double nsMaxInflation(const NewtonSchulzConfig& cfg);

}  // namespace lwb::spectral
