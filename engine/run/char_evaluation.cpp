#include "run/char_evaluation.h"

#include "run/trainer.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>

namespace lwb::run {
namespace {

// The mean loss over `batches` batches, weighted by their windows (all of seq_len targets).
double meanLoss(models::Model& model, const at::Device& device, int64_t batches,
                const std::function<data::Batch(int64_t)>& batchAt) {
  double sum = 0, windows = 0;
  for (int64_t b = 0; b < batches; ++b) {
    const data::Batch batch = batchAt(b);
    const auto n = static_cast<double>(batch.inputs.size(0));
    const auto logits = model.forward(batch.inputs.to(device));
    sum += lossAndAccuracy(logits, batch, device, false).loss.item<double>() * n;
    windows += n;
  }
  return sum / windows;
}

}  // namespace

std::optional<CharEvaluation> prepareCharEvaluation(const data::Dataset& dataset, int64_t batchSize) {
  const auto* chars = dynamic_cast<const data::CharsDataset*>(&dataset);
  if (!chars) return std::nullopt;
  CharEvaluation e;
  e.chars = chars;
  e.batchSize = batchSize;
  const int64_t windows = chars->strideOneWindows(data::Split::Val);
  e.paperBatches = std::min(kPaperWindowBatches, windows / batchSize);
  const std::string split = "the validation split holds " + std::to_string(windows) + " stride-1 windows of " +
                            std::to_string(chars->inputDim()) + " characters";
  if (e.paperBatches == 0)
    e.notes.push_back("val_loss_paper not measured: " + split + ", fewer than one batch of " + std::to_string(batchSize));
  else if (e.paperBatches < kPaperWindowBatches)
    e.notes.push_back("val_loss_paper uses " + std::to_string(e.paperBatches) + " of the paper's " +
                      std::to_string(kPaperWindowBatches) + " batches: " + split + " (batch " + std::to_string(batchSize) + ")");
  const auto start = std::chrono::steady_clock::now();
  e.levels = data::charReferenceLevels(chars->text(data::Split::Train), chars->text(data::Split::Val),
                                       static_cast<int>(chars->numClasses()), e.paperBatches * batchSize, chars->inputDim());
  e.fitSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  e.notes.insert(e.notes.end(), e.levels.notes.begin(), e.levels.notes.end());
  return e;
}

void evaluateCharWindows(const CharEvaluation& e, models::Model& model, const at::Device& device, int64_t evalBatches,
                         bool lastStep, StepMetrics& m) {
  const int64_t batchSize = e.batchSize;
  if (e.paperBatches > 0)
    m.valLossPaper = meanLoss(model, device, e.paperBatches, [&](int64_t b) {
      return e.chars->strideOneSlice(data::Split::Val, b * batchSize, batchSize);
    });
  if (!lastStep) return;
  const int64_t windows = e.chars->size(data::Split::Val);
  const int64_t batches = (windows + batchSize - 1) / batchSize;
  if (evalBatches >= batches && m.valLoss) {
    m.valLossFull = *m.valLoss;  // the trainer's evaluation already read every window
    return;
  }
  m.valLossFull = meanLoss(model, device, batches, [&](int64_t b) {
    return e.chars->slice(data::Split::Val, b * batchSize, std::min(batchSize, windows - b * batchSize));
  });
}

void summarizeCharEvaluation(const CharEvaluation& e, const StepMetrics* lastEval, RunSummary& summary) {
  summary.valLossPaper = kNotMeasured;
  summary.valLossFull = kNotMeasured;
  summary.valPaperBatches = e.paperBatches;
  if (lastEval) {
    if (lastEval->valLossPaper) summary.valLossPaper = *lastEval->valLossPaper;
    if (lastEval->valLossFull) summary.valLossFull = *lastEval->valLossFull;
  }
  summary.referenceLevels = e.levels.full;
  summary.referenceLevelsPaper = e.levels.window;
  for (const auto& note : e.notes) summary.message += (summary.message.empty() ? "" : "; ") + note;
}

std::string describeReferenceLevels(const CharEvaluation& e) {
  std::string line = "reference levels (Witten-Bell n-grams, nats/char, full validation split";
  char buf[96];
  std::snprintf(buf, sizeof buf, "; fitted in %.2f s):", e.fitSeconds);
  line += buf;
  for (size_t i = 0; i < e.levels.full.size(); ++i) {
    const auto& l = e.levels.full[i];
    std::snprintf(buf, sizeof buf, " %s %.3f", l.label.c_str(), l.value);
    line += buf;
    if (i < e.levels.window.size()) {
      std::snprintf(buf, sizeof buf, " (paper window %.3f)", e.levels.window[i].value);
      line += buf;
    }
  }
  return line;
}

}  // namespace lwb::run
