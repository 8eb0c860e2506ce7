// Plot 6's and the Clip Lab's constraint curve: the registry's f(σ) (spectral::scalarMap, the
// one scalar map) sampled for a plot, with a legend name. Units are those of the settings'
// thresholds (RMS→RMS when constraint.norm is rms). Plain doubles: no tensors, no widgets.
#pragma once

#include "spectral/constraint_methods.h"

#include <QString>

#include <vector>

namespace lwb::app {

// f on [0, xMax] (xMax > 0) at n >= 2 points, plus the kinks (σmin, σmax, σ₁) so piecewise
// maps are drawn exactly. sigma1 <= 0: unknown (see spectral::scalarMap).
void sampleScalarMap(const spectral::ConstraintSettings& s, double sigma1, double alpha, double xMax, int n,
                     std::vector<double>& xs, std::vector<double>& ys);

// A legend name from the method's registry entry: "soft cap p₂∘p₁ (α = 0.0123)", ...
QString scalarMapName(const spectral::ConstraintSettings& s, double alpha);

// The soft-cap α a plot should use: the one the run last reported (run::StepMetrics::alpha), else
// the settings' own (α, or α* of App. B from σmax, η, λ and the update bound).
double resolveAlpha(const spectral::ConstraintSettings& s, double reportedAlpha);

}  // namespace lwb::app
