// A dataset whose examples are the rows of in-memory tensors (MNIST, CIFAR-10, modular).
// Internal to engine/data.
#pragma once

#include "data/dataset.h"

namespace lwb::data {

// inputs: uint8 rows are pixels, kept as bytes (4x less memory) and turned into float32
// pixel / 255 per batch; other dtypes are returned as stored. targets: int64 [N].
struct Examples {
  at::Tensor inputs;   // [N, D]
  at::Tensor targets;  // [N]
};

class ArrayDataset final : public Dataset {
 public:
  ArrayDataset(Examples train, Examples val, int64_t numClasses, std::string description);

  Batch sample(Split split, int64_t batchSize, at::Generator& gen) const override;
  Batch slice(Split split, int64_t start, int64_t count) const override;
  int64_t size(Split split) const override;
  int64_t numClasses() const override { return numClasses_; }
  int64_t inputDim() const override { return train_.inputs.size(1); }
  std::string describe() const override { return description_; }

 private:
  const Examples& part(Split split) const { return split == Split::Train ? train_ : val_; }

  Examples train_;
  Examples val_;
  int64_t numClasses_;
  std::string description_;
};

// First `trainCount` rows train, the rest validate (views, no copy).
std::pair<Examples, Examples> splitExamples(const Examples& all, int64_t trainCount);

}  // namespace lwb::data
