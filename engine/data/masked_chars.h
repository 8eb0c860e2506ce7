// `chars_masked`: masked-character modelling on any text file (seed 004 §5.2 read as RoBERTa's
// masked LM, SEEDS-002-004 §G.3.6). Non-causal: every position sees the whole window.
// Windows come from CharsDataset (same vocabulary, 90/10 split, window positions); each
// position is selected with probability `maskRate` (at least one per window); of the selected
// positions 80 % show the [MASK] id, 10 % a uniformly random character, 10 % the original.
// Loss and accuracy read only the selected positions: targets there are the original ids,
// elsewhere kIgnoreTarget.
#pragma once

#include "data/chars_dataset.h"

#include <memory>

namespace lwb::data {

// Target id of positions the loss skips (torch's cross_entropy ignore_index default).
inline constexpr int64_t kIgnoreTarget = -100;

struct MaskingRule {
  double maskRate = 0.15;    // share of positions selected for the loss
  double toMask = 0.8;       // of the selected: shown as [MASK]
  double toRandom = 0.1;     // of the selected: shown as a random character (the rest kept)
};

class MaskedCharsDataset final : public Dataset {
 public:
  // Reads the text as CharsDataset does (InputError "<path>: ..."); `maskRate` in (0, 1].
  // `seed` fixes the masks of the validation windows (slice), so evaluation is repeatable.
  MaskedCharsDataset(const std::string& path, int64_t seqLen, double maskRate, uint64_t seed, double valFraction = 0.1);

  // Windows drawn and masked with `gen`: inputs [B, T] int64 in [0, V] (V = [MASK]),
  // targets [B, T] int64: the original id at selected positions, kIgnoreTarget elsewhere.
  Batch sample(Split split, int64_t batchSize, at::Generator& gen) const override;
  // Window w's mask depends only on (seed, split, w), not on how windows are batched.
  Batch slice(Split split, int64_t start, int64_t count) const override;
  int64_t size(Split split) const override { return chars_.size(split); }
  int64_t numClasses() const override { return maskId() + 1; }  // characters + [MASK]
  int64_t inputDim() const override { return chars_.inputDim(); }
  std::string describe() const override;

  int64_t maskId() const { return chars_.numClasses(); }
  const CharsDataset& chars() const { return chars_; }
  const MaskingRule& rule() const { return rule_; }

 private:
  // Masks `clean` [B, T] in place of a copy, with draws from `gen`; returns {inputs, targets}.
  Batch mask(const at::Tensor& clean, at::Generator& gen) const;

  CharsDataset chars_;
  MaskingRule rule_;
  uint64_t seed_;
};

std::unique_ptr<Dataset> makeMaskedCharsDataset(const std::string& path, int64_t seqLen, double maskRate,
                                                uint64_t seed);

}  // namespace lwb::data
