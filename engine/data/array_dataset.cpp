#include "data/array_dataset.h"

#include <ATen/ops/empty.h>
#include <ATen/ops/index_select.h>
#include <ATen/ops/randint.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace lwb::data {
namespace {

// Always new storage: callers never get a view into the dataset that they could modify.
at::Tensor toModelInputs(const at::Tensor& rows) {
  if (rows.scalar_type() == at::kByte) return rows.to(at::kFloat).div_(255.0);
  return rows.clone();
}

// rows[idx] as model inputs in one pass: for bytes (MNIST, CIFAR) the gather, the conversion
// and the /255 of toModelInputs fused (three ATen ops, two temporaries, per training batch).
at::Tensor gatherModelInputs(const at::Tensor& rows, const at::Tensor& idx) {
  if (rows.scalar_type() != at::kByte || !rows.is_contiguous() || !rows.device().is_cpu() || rows.dim() < 1)
    return toModelInputs(rows.index_select(0, idx));
  std::vector<int64_t> shape = rows.sizes().vec();
  shape[0] = idx.size(0);
  auto out = at::empty(shape, rows.options().dtype(at::kFloat));
  const int64_t width = rows.numel() / std::max<int64_t>(rows.size(0), 1);
  const uint8_t* src = rows.data_ptr<uint8_t>();
  const int64_t* ix = idx.data_ptr<int64_t>();
  float* dst = out.data_ptr<float>();
  for (int64_t r = 0; r < idx.size(0); ++r) {
    const uint8_t* row = src + ix[r] * width;
    float* o = dst + r * width;
    for (int64_t j = 0; j < width; ++j) o[j] = static_cast<float>(row[j]) / 255.0f;
  }
  return out;
}

}  // namespace

ArrayDataset::ArrayDataset(Examples train, Examples val, int64_t numClasses, std::string description)
    : train_(std::move(train)), val_(std::move(val)), numClasses_(numClasses),
      description_(std::move(description)) {}

Batch ArrayDataset::sample(Split split, int64_t batchSize, at::Generator& gen) const {
  if (batchSize < 1) throw std::invalid_argument("sample: batch size must be >= 1");
  const Examples& p = part(split);
  const at::Tensor idx = at::randint(0, p.targets.size(0), {batchSize}, gen);
  return {gatherModelInputs(p.inputs, idx), p.targets.index_select(0, idx)};
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
