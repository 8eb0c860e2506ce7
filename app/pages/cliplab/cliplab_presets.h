// A lecture's sequence of Clip Lab demos: each preset sets the matrix, the method, the tab
// and the tab's own settings, and carries a one-line cue for the lecturer.
#pragma once

#include "lab/lab.h"

#include <QString>

#include <optional>
#include <vector>

namespace lwb::app::pages {

enum class ClipLabTab { Constraint = 0, NewtonSchulz = 1, CapSweep = 2, Equilibrium = 3, Stiefel = 4 };

struct ClipLabPreset {
  QString id;
  QString title;
  QString cue;  // what to point at
  ClipLabTab tab = ClipLabTab::Constraint;
  std::optional<lab::MatrixSpec> matrix;
  std::optional<lab::ConstraintRequest> method;
  std::optional<lab::NsTraceRequest> newtonSchulz;
  std::optional<lab::CapSweepRequest> sweep;  // set: the sweep runs when the preset is applied
  std::optional<lab::EquilibriumRequest> equilibrium;
};

// In lecture order.
const std::vector<ClipLabPreset>& clipLabPresets();

}  // namespace lwb::app::pages
