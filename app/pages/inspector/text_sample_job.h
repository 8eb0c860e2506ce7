// Text from a character-level checkpoint on a worker thread (issue 29 §4): the engine's
// run::loadCharSampler + run::sampleText behind a LibTorch-free door.
#pragma once

#include "common/cancel.h"

#include <QString>

#include <cstdint>
#include <functional>
#include <vector>

namespace lwb::app::pages {

struct TextSampleRequest {
  QString checkpoint;  // a run directory or a checkpoint file
  QString prompt;
  int tokens = 200;
  double temperature = 0.5;
  quint64 seed = 1337;
};

// The temperature presets (engine/run/text_sampler.h).
std::vector<double> sampleTemperaturePresets();

// The generated text (prompt not included). Throws InputError (bad request, not a chars run,
// text file missing) with a one-line message; a cancel returns what was generated so far.
QString sampleTextFrom(const TextSampleRequest& request, const std::function<void(int, int)>& progress,
                       const CancelFlag* cancel);

}  // namespace lwb::app::pages
