#include "data/chars_dataset.h"

#include "data/file_bytes.h"

#include <ATen/ops/empty.h>
#include <ATen/ops/randint.h>

#include <array>
#include <cmath>
#include <stdexcept>

namespace lwb::data {
namespace {

[[noreturn]] void fail(const std::string& what, const std::string& msg) {
  throw InputError(what + ": " + msg);
}

// Window w of a split: inputs are ids [w0, w0 + T), targets the same shifted by one.
void copyWindow(const uint8_t* ids, int64_t w0, int64_t seqLen, int64_t* in, int64_t* target) {
  for (int64_t t = 0; t < seqLen; ++t) {
    in[t] = ids[w0 + t];
    target[t] = ids[w0 + t + 1];
  }
}

// `count` windows of seqLen, the first at character `first`, each `stride` after the last.
Batch windowBatch(const at::Tensor& ids, int64_t first, int64_t count, int64_t stride, int64_t seqLen) {
  Batch b{at::empty({count, seqLen}, at::kLong), at::empty({count, seqLen}, at::kLong)};
  for (int64_t i = 0; i < count; ++i)
    copyWindow(ids.data_ptr<uint8_t>(), first + i * stride, seqLen, b.inputs.data_ptr<int64_t>() + i * seqLen,
               b.targets.data_ptr<int64_t>() + i * seqLen);
  return b;
}

}  // namespace

CharsDataset::CharsDataset(const std::string& path, int64_t seqLen, double valFraction)
    : path_(path), seqLen_(seqLen) {
  if (seqLen < 1) fail(path, "sequence length " + std::to_string(seqLen) + " must be >= 1");
  if (!(valFraction > 0.0 && valFraction < 1.0))
    fail(path, "validation fraction " + std::to_string(valFraction) + " must be in (0, 1)");
  const uint64_t size = checkedFileSize(path, kMaxTextBytes);
  if (size == 0) fail(path, "empty text file");

  // Read straight into the id tensor and translate in place: one copy of the text in memory.
  at::Tensor all = at::empty({static_cast<int64_t>(size)}, at::kByte);
  uint8_t* bytes = all.data_ptr<uint8_t>();
  readExactly(path, bytes, size);
  std::array<bool, 256> present{};
  for (uint64_t i = 0; i < size; ++i) present[bytes[i]] = true;
  std::array<uint8_t, 256> idOf{};
  for (int b = 0; b < 256; ++b) {
    if (!present[b]) continue;
    idOf[b] = static_cast<uint8_t>(vocabulary_.size());
    vocabulary_.push_back(static_cast<char>(b));
  }
  for (uint64_t i = 0; i < size; ++i) bytes[i] = idOf[bytes[i]];

  // nanoGPT: train = data[:int(n * 0.9)].
  const auto n = static_cast<int64_t>(size);
  const auto nTrain = static_cast<int64_t>(static_cast<double>(n) * (1.0 - valFraction));
  train_ = all.narrow(0, 0, nTrain);
  val_ = all.narrow(0, nTrain, n - nTrain);
  for (const Split s : {Split::Train, Split::Val}) {
    if (characters(s) < seqLen + 1)
      fail(path, std::string(s == Split::Train ? "train" : "validation") + " split has " +
                     std::to_string(characters(s)) + " characters, fewer than sequence length + 1 = " +
                     std::to_string(seqLen + 1));
  }
}

Batch CharsDataset::sample(Split split, int64_t batchSize, at::Generator& gen) const {
  if (batchSize < 1) throw std::invalid_argument("sample: batch size must be >= 1");
  const at::Tensor& src = ids(split);
  // Any start whose window of seqLen + 1 characters fits: [0, n - seqLen).
  const at::Tensor starts = at::randint(0, src.numel() - seqLen_, {batchSize}, gen);
  Batch b{at::empty({batchSize, seqLen_}, at::kLong), at::empty({batchSize, seqLen_}, at::kLong)};
  const int64_t* s = starts.data_ptr<int64_t>();
  for (int64_t i = 0; i < batchSize; ++i)
    copyWindow(src.data_ptr<uint8_t>(), s[i], seqLen_, b.inputs.data_ptr<int64_t>() + i * seqLen_,
               b.targets.data_ptr<int64_t>() + i * seqLen_);
  return b;
}

Batch CharsDataset::slice(Split split, int64_t start, int64_t count) const {
  const int64_t windows = size(split);
  if (start < 0 || count < 0 || start > windows - count)
    throw std::out_of_range("slice [" + std::to_string(start) + ", +" + std::to_string(count) +
                            ") outside a split of " + std::to_string(windows) + " windows");
  return windowBatch(ids(split), start * seqLen_, count, seqLen_, seqLen_);
}

std::span<const uint8_t> CharsDataset::text(Split split) const {
  const at::Tensor& t = ids(split);
  return {t.data_ptr<uint8_t>(), static_cast<size_t>(t.numel())};
}

Batch CharsDataset::strideOneSlice(Split split, int64_t start, int64_t count) const {
  if (start < 0 || count < 0 || start > strideOneWindows(split) - count)
    throw std::out_of_range("stride-1 slice [" + std::to_string(start) + ", +" + std::to_string(count) +
                            ") outside a split of " + std::to_string(strideOneWindows(split)) + " windows");
  return windowBatch(ids(split), start, count, 1, seqLen_);
}

// Non-overlapping windows: window w covers [w * T, w * T + T], so w * T + T <= n - 1.
int64_t CharsDataset::size(Split split) const { return (characters(split) - 1) / seqLen_; }

std::string CharsDataset::describe() const {
  return "chars: " + path_ + ", vocabulary " + std::to_string(vocabulary_.size()) + ", " +
         std::to_string(characters(Split::Train)) + " train / " +
         std::to_string(characters(Split::Val)) + " val characters, sequence length " +
         std::to_string(seqLen_);
}

std::string CharsDataset::decode(const at::Tensor& ids) const {
  const at::Tensor flat = ids.to(at::kCPU, at::kLong).contiguous().view(-1);
  const int64_t* p = flat.data_ptr<int64_t>();
  std::string out(static_cast<size_t>(flat.numel()), '?');
  for (int64_t i = 0; i < flat.numel(); ++i)
    if (p[i] >= 0 && p[i] < numClasses()) out[i] = vocabulary_[p[i]];
  return out;
}

std::unique_ptr<Dataset> makeCharsDataset(const std::string& path, int64_t seqLen, double valFraction) {
  return std::make_unique<CharsDataset>(path, seqLen, valFraction);
}

}  // namespace lwb::data
