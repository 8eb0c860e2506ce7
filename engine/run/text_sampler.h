// Text from a character-level checkpoint (issue 29 §4; `lipschitz-cli sample`, the Inspector's
// and Train page's "Generate text"): autoregressive sampling at a temperature, as the paper's
// repository offers (nanoGPT's sample.py: softmax(logits / T), one multinomial draw per
// character, the context cropped to the model's sequence length).
#pragma once

#include "run/saved_model.h"

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>

namespace lwb::run {

struct SampleRequest {
  std::string prompt = "\n";  // empty: "\n" (sample.py's start), as bytes of the text
  int64_t tokens = 200;       // characters to generate, 1 … kMaxSampleTokens
  double temperature = 1.0;   // > 0 (0: greedy, the most likely character each time)
  uint64_t seed = 1337;       // sample.py's seed
};

inline constexpr int64_t kMaxSampleTokens = 100000;
// The temperature presets the app offers (issue 29 §4).
inline constexpr double kSampleTemperaturePresets[] = {0.2, 0.5, 1.0};

// A chars checkpoint ready to sample: the model and its vocabulary (the distinct bytes of the
// run's text file, sorted, as CharsDataset numbers them).
struct CharSampler {
  SavedModel saved;
  std::string vocabulary;
  std::filesystem::path checkpoint;
};

// RUN_DIR (its newest checkpoint) or a checkpoint file. InputError naming the file for: not a
// workbench checkpoint, a task other than chars, a text file that is missing or whose
// vocabulary does not match the embedding's rows. `dataPathOverride` (non-empty) replaces
// the config's data_path (a run made on another machine).
CharSampler loadCharSampler(const std::filesystem::path& runDirOrFile, const std::string& dataPathOverride = {});

// The request checked against the sampler: InputError for a bad token count or temperature
// or a prompt character outside the vocabulary (named, with its byte value).
void checkSampleRequest(const CharSampler& sampler, const SampleRequest& request);

// The generated characters (the prompt not included). `progress(done, total)` after each
// character; `cancel` checked between characters (a cancelled run returns what it has).
std::string sampleText(CharSampler& sampler, const SampleRequest& request,
                       const std::function<void(int64_t, int64_t)>& progress = {},
                       const std::atomic<bool>* cancel = nullptr);

}  // namespace lwb::run
