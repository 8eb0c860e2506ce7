#include "data/masked_chars.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/TensorOperators.h>
#include <ATen/ops/argmin.h>
#include <ATen/ops/full_like.h>
#include <ATen/ops/zeros_like.h>
#include <ATen/ops/cat.h>
#include <ATen/ops/rand.h>
#include <ATen/ops/randint.h>
#include <ATen/ops/where.h>

#include <string>

namespace lwb::data {

MaskedCharsDataset::MaskedCharsDataset(const std::string& path, int64_t seqLen, double maskRate, uint64_t seed,
                                       double valFraction)
    : chars_(path, seqLen, valFraction), seed_(seed) {
  if (!(maskRate > 0.0 && maskRate <= 1.0))
    throw InputError("mask_rate: must be in (0, 1], got " + std::to_string(maskRate));
  rule_.maskRate = maskRate;
}

Batch MaskedCharsDataset::mask(const at::Tensor& clean, at::Generator& gen) const {
  const int64_t b = clean.size(0), t = clean.size(1);
  const auto u = at::rand({b, t}, gen, at::TensorOptions().dtype(at::kDouble));
  auto selected = u < rule_.maskRate;
  // At least one selected position per window, so no window's loss is empty: the position
  // with the smallest draw (changes the rate by (1 - rate)^T, 3e-5 at T = 64).
  const auto none = selected.any(1, true).logical_not();
  if (none.any().item<bool>())
    selected = selected | (at::zeros_like(selected).scatter_(1, at::argmin(u, 1, true), true) & none);
  const auto kind = at::rand({b, t}, gen, at::TensorOptions().dtype(at::kDouble));
  const auto random = at::randint(0, maskId(), {b, t}, gen, at::TensorOptions().dtype(at::kLong));
  auto inputs = at::where(selected & (kind < rule_.toMask), at::full_like(clean, maskId()), clean);
  inputs = at::where(selected & (kind >= rule_.toMask) & (kind < rule_.toMask + rule_.toRandom), random, inputs);
  const auto targets = at::where(selected, clean, at::full_like(clean, kIgnoreTarget));
  return {inputs.contiguous(), targets.contiguous()};
}

Batch MaskedCharsDataset::sample(Split split, int64_t batchSize, at::Generator& gen) const {
  // CharsDataset's inputs are the clean windows (its targets, shifted by one, are unused).
  return mask(chars_.sample(split, batchSize, gen).inputs, gen);
}

Batch MaskedCharsDataset::slice(Split split, int64_t start, int64_t count) const {
  const at::Tensor clean = chars_.slice(split, start, count).inputs;
  std::vector<at::Tensor> in, target;
  for (int64_t i = 0; i < count; ++i) {
    // One generator per window: its mask is the same in any batch that holds it.
    const uint64_t window = static_cast<uint64_t>(start + i) * 2 + (split == Split::Val ? 1 : 0);
    auto gen = at::make_generator<at::CPUGeneratorImpl>(seed_ * 0x9e3779b97f4a7c15ULL + window + 1);
    auto b = mask(clean.narrow(0, i, 1), gen);
    in.push_back(b.inputs);
    target.push_back(b.targets);
  }
  if (count == 0) return {clean, clean.clone()};
  return {at::cat(in), at::cat(target)};
}

std::string MaskedCharsDataset::describe() const {
  return "chars_masked (" + chars_.describe() + "), [MASK] id " + std::to_string(maskId()) + ", " +
         std::to_string(rule_.maskRate * 100.0).substr(0, 4) + " % of positions selected (80/10/10)";
}

std::unique_ptr<Dataset> makeMaskedCharsDataset(const std::string& path, int64_t seqLen, double maskRate,
                                                uint64_t seed) {
  return std::make_unique<MaskedCharsDataset>(path, seqLen, maskRate, seed);
}

}  // namespace lwb::data
