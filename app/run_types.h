// Plain values that travel from a run (the engine worker, or a run directory being
// followed) to the GUI. No engine and no LibTorch here: most app files and every widget
// see only these, so they compile in seconds and can be fed synthetic data in tests.
#pragma once

#include "spectral/constraint_methods.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace lwb::app {

// One constrained (or free) matrix at one logged step.
struct LayerNormSample {
  QString name;
  QString role;         // embedding | hidden | head | q | k | v | o | mlp_in | mlp_out (may be empty)
  double rmsNorm = 0;   // σ₁·√(d_in/d_out), the norm σmax targets are stated in
  double sigma1 = 0;    // raw spectral norm (0 when unknown, e.g. a followed run)
};

// One row of the Lipschitz bound's per-layer trace (000 App. D).
struct TraceSample {
  QString name;
  double blockLipschitz = 0;
  double lipschitzAfter = 0;
  double activationBound = 0;
};

struct ActivationSample {
  QString name;           // "block0.attn", ...
  double maxEntry = 0;    // max |entry|
  double maxRms = 0;      // max over tokens of the per-token RMS
};

// One logged step (a metrics.jsonl row).
struct StepSample {
  int64_t step = 0;
  double lr = 0, trainLoss = 0, trainAcc = 0;
  double stepsPerSecond = 0, etaSeconds = 0;
  double alpha = -1;  // soft-cap strength in use (RMS units); -1 when the method has none
  std::vector<LayerNormSample> norms;
  std::optional<double> lipschitzBound;
  std::vector<TraceSample> trace;
  std::optional<double> valLoss, valAcc;
  std::vector<ActivationSample> activations;  // eval steps only
};

// name -> singular values, descending.
using SpectrumMap = std::map<QString, std::vector<double>>;

// Every `spectra_every` steps: the spectra after the constraint step and, for live runs
// with a constraint, the same matrices just before it (empty otherwise).
struct SpectraSample {
  int64_t step = 0;
  SpectrumMap after;
  SpectrumMap before;
};

enum class RunState { Starting, Running, Paused, Stopping, Finished, Diverged, Stopped, Failed, Following };
QString toDisplayString(RunState s);
bool isActive(RunState s);    // Starting, Running, Paused, Stopping, Following
// finished | diverged | stopped | failed -> the state; anything else -> Failed.
RunState runStateFromStatus(const QString& status);

// How a run ended (summary.json / RunSummary); message says why for diverged and failed.
struct RunEnd {
  RunState state = RunState::Finished;
  QString message;
  int64_t steps = 0;
  double seconds = 0, stepsPerSecond = 0;
  std::optional<double> valLoss, valAcc, lipschitzBound;
};

// The constraint settings the dashboard needs (σmax band, f(σ) curve): the registry's
// settings as training applies them (run::trainingConstraint: η, and λ from the optimizer
// where the method couples to it).
using ConstraintInfo = spectral::ConstraintSettings;

// What a mailbox hands the GUI in one swap: everything posted since the last one.
struct RunDelta {
  std::vector<StepSample> steps;
  std::vector<SpectraSample> spectra;
  std::optional<int64_t> totalSteps;        // known once the config is read
  std::optional<ConstraintInfo> constraint; // ditto
  std::optional<RunState> state;            // latest state change (Running, Paused, ...)
  std::optional<RunEnd> end;
  bool reset = false;  // a followed run's metrics were rewritten (resumed run): start over
  bool empty() const {
    return steps.empty() && spectra.empty() && !totalSteps && !constraint && !state && !end && !reset;
  }
};

}  // namespace lwb::app
