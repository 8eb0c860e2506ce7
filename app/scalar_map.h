// The scalar map σ ↦ f(σ) that each constraint method applies to every singular value
// (000 §3.1, App. B–C; 001 §2–3.4), for dashboard plot 6. Units are those of the config's
// thresholds (RMS→RMS when constraint.norm is rms). Plain doubles: no tensors, no widgets.
#pragma once

#include "app/run_types.h"

#include <QString>

#include <vector>

namespace lwb::app {

struct ScalarMapParams {
  QString method = QStringLiteral("none");
  double sigmaMax = 1, sigmaMin = 0;
  double lambda = 0, lr = 0;
  double alpha = 0;   // soft cap strength in use
  double sigma1 = 0;  // largest singular value: normalize and hammer act relative to it
};

// f(σ) for σ >= 0.
double constraintScalarMap(const ScalarMapParams& p, double sigma);

// Sample f on [0, xMax] (xMax > 0) at n >= 2 points, plus the kinks (σmin, σmax, σ₁) so
// piecewise maps are drawn exactly.
void sampleScalarMap(const ScalarMapParams& p, double xMax, int n, std::vector<double>& xs, std::vector<double>& ys);

// A legend name: "soft cap p₂∘p₁ (α = 0.0123)", "hard cap min(σ, σmax)", ...
QString scalarMapName(const ScalarMapParams& p);

// The soft-cap α a plot should use: the one the run last reported (StepSample::alpha),
// else the config's fixed α, else α* of App. B from σmax and lr (Muon's bound ‖ΔW‖ ≤ lr).
double resolveAlpha(const ConstraintInfo& c, double reportedAlpha);

}  // namespace lwb::app
