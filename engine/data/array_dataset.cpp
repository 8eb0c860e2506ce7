#include "data/array_dataset.h"

#include <ATen/ops/index_select.h>
#include <ATen/ops/randint.h>

#include <stdexcept>

namespace lwb::data {
namespace {

// Always new storage: callers never get a view into the dataset that they could modify.
at::Tensor toModelInputs(const at::Tensor& rows) {
  if (rows.scalar_type() == at::kByte) return rows.to(at::kFloat).div_(255.0);
  return rows.clone();
}

}  // namespace

ArrayDataset::ArrayDataset(Examples train, Examples val, int64_t numClasses, std::string description)
    : train_(std::move(train)), val_(std::move(val)), numClasses_(numClasses),
      description_(std::move(description)) {}

Batch ArrayDataset::sample(Split split, int64_t batchSize, at::Generator& gen) const {
  if (batchSize < 1) throw std::invalid_argument("sample: batch size must be >= 1");
  const Examples& p = part(split);
  const at::Tensor idx = at::randint(0, p.targets.size(0), {batchSize}, gen);
  return {toModelInputs(p.inputs.index_select(0, idx)), p.targets.index_select(0, idx)};
}

Batch ArrayDataset::slice(Split split, int64_t start, int64_t count) const {
  const Examples& p = part(split);
  if (start < 0 || count < 0 || start > p.targets.size(0) - count)
    throw std::out_of_range("slice [" + std::to_string(start) + ", +" + std::to_string(count) +
                            ") outside a split of " + std::to_string(p.targets.size(0)));
  return {toModelInputs(p.inputs.narrow(0, start, count)),
          p.targets.narrow(0, start, count).clone()};
}

int64_t ArrayDataset::size(Split split) const { return part(split).targets.size(0); }

std::pair<Examples, Examples> splitExamples(const Examples& all, int64_t trainCount) {
  const int64_t n = all.targets.size(0);
  return {{all.inputs.narrow(0, 0, trainCount), all.targets.narrow(0, 0, trainCount)},
          {all.inputs.narrow(0, trainCount, n - trainCount),
           all.targets.narrow(0, trainCount, n - trainCount)}};
}

}  // namespace lwb::data
