#include "spectral/ns_coefficients.h"

#include "common/registry_table.h"
#include "common/tr_noop.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

namespace lwb::spectral {
namespace {

constexpr std::array<NsTuple, 1> kJordan{{{3.4445, -4.7750, 2.0315}}};
constexpr std::array<NsTuple, 1> kPolish{{{15.0 / 8.0, -10.0 / 8.0, 3.0 / 8.0}}};
// You (2025), ARCHITECTURE.md canonical set: each tuple divided by 1024.
constexpr std::array<NsTuple, 6> kYou{{
    {3955 / 1024.0, -8306 / 1024.0, 5008 / 1024.0},
    {3735 / 1024.0, -6681 / 1024.0, 3463 / 1024.0},
    {3799 / 1024.0, -6499 / 1024.0, 3211 / 1024.0},
    {4019 / 1024.0, -6385 / 1024.0, 2906 / 1024.0},
    {2677 / 1024.0, -3029 / 1024.0, 1162 / 1024.0},
    {2172 / 1024.0, -1833 / 1024.0, 682 / 1024.0},
}};

// Polar Express (Amsel et al. 2025), as seed 002's code (bluey / TM manifolds) uses it: the
// first seven tuples divided as (a/1.01, b/1.01³, c/1.01⁵) so that the iteration tolerates
// inputs up to 1.01 (rounding), the last, (15/8, −10/8, 3/8), exact. SEEDS-002-004 §A.4.
constexpr NsTuple safe(double a, double b, double c) {
  constexpr double s = 1.01;
  return {a / s, b / (s * s * s), c / (s * s * s * s * s)};
}
constexpr std::array<NsTuple, 8> kPolarExpress{{
    safe(8.28721201814563, -23.595886519098837, 17.300387312530933),
    safe(4.107059111542203, -2.9478499167379106, 0.5448431082926601),
    safe(3.9486908534822946, -2.908902115962949, 0.5518191394370137),
    safe(3.3184196573706015, -2.488488024314874, 0.51004894012372),
    safe(2.300652019954817, -1.6689039845747493, 0.4188073119525673),
    safe(1.891301407787398, -1.2679958271945868, 0.37680408948524835),
    safe(1.8750014808534479, -1.2500016453999487, 0.3750001645474248),
    {1.875, -1.25, 0.375},
}};

const std::array<NsCoefficientSet, 4> kSets{{
    {NsCoefficients::Jordan5, "jordan5", LWB_TR_NOOP("Registry", "Jordan (3.4445, −4.7750, 2.0315)"), LWB_TR_NOOP("Registry", "Jordan"),
     kJordan, 1.0, 5},
    {NsCoefficients::You6, "you6", LWB_TR_NOOP("Registry", "You, six tuples"), LWB_TR_NOOP("Registry", "You"), kYou, 1.0, 6},
    {NsCoefficients::Polish, "polish", LWB_TR_NOOP("Registry", "polish (15/8, −10/8, 3/8)"), LWB_TR_NOOP("Registry", "polish"),
     kPolish, 1.0, 5},
    {NsCoefficients::PolarExpress, "polar_express", LWB_TR_NOOP("Registry", "Polar Express, eight tuples"),
     LWB_TR_NOOP("Registry", "Polar Express"), kPolarExpress, 1.01, 10},
}};

}  // namespace

std::span<const NsCoefficientSet> nsCoefficientSets() { return kSets; }

const NsCoefficientSet& nsCoefficientSet(NsCoefficients c) { return registry::rowOf(kSets, c); }

std::string_view toString(NsCoefficients c) { return nsCoefficientSet(c).key; }

std::optional<NsCoefficients> parseNsCoefficients(std::string_view id) { return registry::idOf(kSets, id); }

std::vector<NsTuple> nsSchedule(const NewtonSchulzConfig& cfg) {
  if (cfg.steps < 0 || cfg.polishSteps < 0 || cfg.steps + cfg.polishSteps > 1000)
    throw std::invalid_argument("Newton-Schulz steps must be in [0, 1000]");
  const auto tuples = nsCoefficientSet(cfg.coefficients).tuples;
  std::vector<NsTuple> s;
  s.reserve(static_cast<size_t>(cfg.steps + cfg.polishSteps));
  for (int i = 0; i < cfg.steps; ++i) s.push_back(tuples[std::min<size_t>(i, tuples.size() - 1)]);
  for (int i = 0; i < cfg.polishSteps; ++i) s.push_back(kPolish[0]);
  return s;
}

double nsMaxInflation(const NewtonSchulzConfig& cfg) {
  const auto schedule = nsSchedule(cfg);
  double worst = 0.0;
  constexpr int kPoints = 20000;
  for (int i = 0; i <= kPoints; ++i) {
    double x = std::pow(10.0, -8.0 + 8.0 * i / kPoints);  // 1e-8 .. 1
    for (const auto& t : schedule) {
      const double x2 = x * x;
      x = x * (t.a + x2 * (t.b + t.c * x2));
    }
    worst = std::max(worst, std::abs(x));
  }
  return worst;
}

}  // namespace lwb::spectral
