// Character-level text dataset (nanoGPT's shakespeare_char): public so that a GUI can
// decode samples with the vocabulary.
#pragma once

#include "data/dataset.h"

#include <span>

namespace lwb::data {

class CharsDataset final : public Dataset {
 public:
  // Reads the whole file (at most kMaxTextBytes). Throws InputError "<path>: ..." for a
  // missing, empty or oversized file, bad seqLen / valFraction, or a split shorter than
  // seqLen + 1 characters.
  CharsDataset(const std::string& path, int64_t seqLen, double valFraction = 0.1);

  static constexpr uint64_t kMaxTextBytes = uint64_t{2} << 30;

  Batch sample(Split split, int64_t batchSize, at::Generator& gen) const override;
  Batch slice(Split split, int64_t start, int64_t count) const override;
  int64_t size(Split split) const override;
  int64_t numClasses() const override { return static_cast<int64_t>(vocabulary_.size()); }
  int64_t inputDim() const override { return seqLen_; }
  std::string describe() const override;

  // The distinct bytes of the file, sorted: class id i is the byte vocabulary()[i].
  const std::string& vocabulary() const { return vocabulary_; }
  // Class ids (any integer tensor, flattened) back to text; ids outside the vocabulary
  // become '?'.
  std::string decode(const at::Tensor& ids) const;
  // Characters in a split (size() counts windows).
  int64_t characters(Split split) const { return ids(split).numel(); }
  // A split's class ids, one per character (the n-gram reference levels read them).
  std::span<const uint8_t> text(Split split) const;
  // Stride-1 windows, as 000's validation loader reads them: window w holds characters
  // [w, w + seqLen] (inputs, then targets shifted by one), w in [0, strideOneWindows).
  int64_t strideOneWindows(Split split) const { return characters(split) - seqLen_; }
  Batch strideOneSlice(Split split, int64_t start, int64_t count) const;

 private:
  const at::Tensor& ids(Split split) const { return split == Split::Train ? train_ : val_; }

  std::string path_;
  int64_t seqLen_;
  std::string vocabulary_;
  at::Tensor train_;  // uint8 class ids: a vocabulary has at most 256 entries
  at::Tensor val_;
};

}  // namespace lwb::data
