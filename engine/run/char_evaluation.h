// Task chars' extra validation (issue 25 §2): 000's validation window beside our full-split
// loss, and the Witten–Bell n-gram reference levels, so that a model's number can be read
// against a bigram model and set beside the paper's 1.29 honestly. Definitions in
// docs/DESIGN.md "Character n-gram reference levels and the paper window".
#pragma once

#include "data/char_ngram.h"
#include "data/chars_dataset.h"
#include "models/model.h"
#include "run/run_results.h"

#include <optional>
#include <string>
#include <vector>

namespace lwb::run {

// 000's code (LT) validates on the first 20 batches of an unshuffled stride-1 loader over the
// validation split: windows starting at characters 0 .. 20·B − 1.
inline constexpr int64_t kPaperWindowBatches = 20;

struct CharEvaluation {
  const data::CharsDataset* chars = nullptr;
  int64_t batchSize = 0;
  // Full batches of stride-1 windows in the window: 20, fewer when the validation split is
  // short (batch b holds windows b·B .. b·B + B − 1), 0 when not one batch fits.
  int64_t paperBatches = 0;
  data::CharReferenceLevels levels;  // .window: the n-gram on the paper window's targets
  double fitSeconds = 0;             // fitting and scoring the n-grams
  std::vector<std::string> notes;    // what was shortened or omitted, one line each
};

// For a CharsDataset: the paper window that fits its validation split and the n-gram levels
// (seconds on Tiny Shakespeare); nullopt for every other dataset.
std::optional<CharEvaluation> prepareCharEvaluation(const data::Dataset& dataset, int64_t batchSize);

// At an evaluation (no-grad, evaluation mode): m.valLossPaper, and at the run's last step
// m.valLossFull over every non-overlapping window of the split; when `evalBatches` batches
// already covered the split, that is m.valLoss itself.
void evaluateCharWindows(const CharEvaluation& e, models::Model& model, const at::Device& device, int64_t evalBatches,
                         bool lastStep, StepMetrics& m);

// The summary's character-task members from the last evaluation (nullptr: none yet); the
// notes are appended to its message.
void summarizeCharEvaluation(const CharEvaluation& e, const StepMetrics* lastEval, RunSummary& summary);

// One line for a console: the levels and how long the fit took.
std::string describeReferenceLevels(const CharEvaluation& e);

}  // namespace lwb::run
