// CIFAR-10 binary version: records of 1 label byte + 1024 R + 1024 G + 1024 B bytes.
#include "data/array_dataset.h"
#include "data/file_bytes.h"

#include <ATen/ops/empty.h>

#include <cstring>
#include <filesystem>
#include <optional>
#include <vector>

namespace lwb::data {
namespace {

namespace fs = std::filesystem;

constexpr int64_t kPixels = 3 * 32 * 32;
constexpr int64_t kRecord = 1 + kPixels;

[[noreturn]] void fail(const std::string& what, const std::string& msg) {
  throw InputError(what + ": " + msg);
}

bool anyExists(const fs::path& dir, const std::vector<std::string>& names) {
  for (const auto& n : names) {
    std::error_code ec;
    if (fs::exists(fs::symlink_status(dir / n, ec))) return true;
  }
  return false;
}

// The existing files among `names`, concatenated in that order. Sizes are all checked
// before the one allocation.
std::optional<Examples> loadBatches(const fs::path& dir, const std::vector<std::string>& names) {
  std::vector<std::pair<std::string, int64_t>> files;
  int64_t total = 0;
  for (const auto& name : names) {
    const std::string path = (dir / name).string();
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(path, ec))) continue;
    const uint64_t size = checkedFileSize(path, kMaxDatasetFileBytes);
    if (size == 0) fail(path, "empty file, expected CIFAR-10 records");
    if (size % kRecord != 0)
      fail(path, "size " + std::to_string(size) + " is not a multiple of the 3073-byte record "
                 "(1 label + 3072 pixels)");
    files.emplace_back(path, static_cast<int64_t>(size / kRecord));
    total += static_cast<int64_t>(size / kRecord);
  }
  if (files.empty()) return std::nullopt;
  Examples e{at::empty({total, kPixels}, at::kByte), at::empty({total}, at::kLong)};
  uint8_t* pixels = e.inputs.data_ptr<uint8_t>();
  int64_t* labels = e.targets.data_ptr<int64_t>();
  std::vector<uint8_t> buf;
  for (const auto& [path, records] : files) {
    buf.resize(static_cast<size_t>(records * kRecord));
    readExactly(path, buf.data(), buf.size());
    for (int64_t r = 0; r < records; ++r) {
      const uint8_t* rec = buf.data() + r * kRecord;
      if (rec[0] > 9)
        fail(path, "label " + std::to_string(rec[0]) + " of record " + std::to_string(r) +
                       " is out of range 0..9");
      *labels++ = rec[0];
      std::memcpy(pixels, rec + 1, kPixels);
      pixels += kPixels;
    }
  }
  return e;
}

}  // namespace

std::unique_ptr<Dataset> makeCifar10Dataset(const std::string& path) {
  std::error_code ec;
  const auto status = fs::status(path, ec);
  if (ec || !fs::exists(status)) fail(path, "no such folder (expected CIFAR-10 .bin batches in it)");
  if (!fs::is_directory(status)) fail(path, "is not a folder (expected the folder holding the CIFAR-10 .bin batches)");
  const std::vector<std::string> trainNames = {"data_batch_1.bin", "data_batch_2.bin", "data_batch_3.bin",
                                               "data_batch_4.bin", "data_batch_5.bin"};
  const std::vector<std::string> testNames = {"test_batch.bin"};
  fs::path dir = path;
  // The official archive unpacks into cifar-10-batches-bin/; accept its parent too.
  if (!anyExists(dir, trainNames) && !anyExists(dir, testNames) &&
      fs::is_directory(dir / "cifar-10-batches-bin", ec))
    dir /= "cifar-10-batches-bin";

  auto train = loadBatches(dir, trainNames);
  auto test = loadBatches(dir, testNames);
  if (!train && !test)
    fail(path, "no CIFAR-10 files: expected data_batch_1..5.bin and/or test_batch.bin");
  if (train && test)
    return std::make_unique<ArrayDataset>(
        *train, *test, 10,
        "cifar10: " + dir.string() + ", " + std::to_string(train->targets.size(0)) +
            " train (data_batch_*) / " + std::to_string(test->targets.size(0)) + " val (test_batch)");

  // One kind only: first 90% train, last 10% val.
  const Examples& all = train ? *train : *test;
  const int64_t n = all.targets.size(0);
  const int64_t nTrain = n * 9 / 10;
  if (nTrain < 1 || nTrain >= n)
    fail(path, "only " + std::to_string(n) + " record(s): at least 2 are needed to split 90/10");
  auto [tr, va] = splitExamples(all, nTrain);
  return std::make_unique<ArrayDataset>(
      tr, va, 10,
      "cifar10: " + dir.string() + ", " + (train ? "data_batch_*" : "test_batch") + " divided " +
          std::to_string(nTrain) + " train / " + std::to_string(n - nTrain) + " val");
}

}  // namespace lwb::data
