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

const std::array<NsCoefficientSet, 3> kSets{{
    {NsCoefficients::Jordan5, "jordan5", LWB_TR_NOOP("Registry", "Jordan (3.4445, −4.7750, 2.0315)"), kJordan},
    {NsCoefficients::You6, "you6", LWB_TR_NOOP("Registry", "You, six tuples"), kYou},
    {NsCoefficients::Polish, "polish", LWB_TR_NOOP("Registry", "polish (15/8, −10/8, 3/8)"), kPolish},
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
