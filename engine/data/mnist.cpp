// MNIST from a folder of IDX files (gzip or raw). Only the test split ships with the
// project (resources/data/mnist), so one split alone is divided first-N / rest.
#include "data/array_dataset.h"
#include "data/idx.h"

#include <filesystem>
#include <optional>

namespace lwb::data {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void fail(const std::string& what, const std::string& msg) {
  throw InputError(what + ": " + msg);
}

// "<dir>/<stem>" or "<dir>/<stem>.gz"; anything that exists counts (a directory with that
// name is then reported by the reader, not silently skipped).
std::optional<std::string> findIdx(const fs::path& dir, const std::string& stem) {
  for (const std::string& name : {stem, stem + ".gz"}) {
    std::error_code ec;
    const fs::path p = dir / name;
    if (fs::exists(fs::symlink_status(p, ec))) return p.string();
  }
  return std::nullopt;
}

// One split ("t10k" or "train"): both files or neither.
std::optional<Examples> loadPair(const fs::path& dir, const std::string& prefix) {
  const std::string imagesStem = prefix + "-images-idx3-ubyte";
  const std::string labelsStem = prefix + "-labels-idx1-ubyte";
  const auto images = findIdx(dir, imagesStem);
  const auto labels = findIdx(dir, labelsStem);
  if (!images && !labels) return std::nullopt;
  if (!labels) fail(*images, "found, but its labels " + labelsStem + "[.gz] are missing");
  if (!images) fail(*labels, "found, but its images " + imagesStem + "[.gz] are missing");
  Examples e{readIdxImages(*images), readIdxLabels(*labels)};
  if (e.inputs.size(0) != e.targets.size(0))
    fail(*images, "holds " + std::to_string(e.inputs.size(0)) + " images but " + *labels +
                      " holds " + std::to_string(e.targets.size(0)) + " labels");
  return e;
}

}  // namespace

std::unique_ptr<Dataset> makeMnistDataset(const std::string& path, int64_t trainCount) {
  std::error_code ec;
  const auto status = fs::status(path, ec);
  if (ec || !fs::exists(status)) fail(path, "no such folder (expected the MNIST IDX files in it)");
  if (!fs::is_directory(status)) fail(path, "is not a folder (expected the folder holding the MNIST IDX files)");
  auto test = loadPair(path, "t10k");
  auto train = loadPair(path, "train");
  if (!test && !train)
    fail(path, "no MNIST files: expected t10k-images-idx3-ubyte[.gz] + t10k-labels-idx1-ubyte[.gz] "
               "and/or train-images-idx3-ubyte[.gz] + train-labels-idx1-ubyte[.gz]");
  if (test && train)
    return std::make_unique<ArrayDataset>(
        *train, *test, 10,
        "mnist: " + path + ", " + std::to_string(train->targets.size(0)) + " train (train-*) / " +
            std::to_string(test->targets.size(0)) + " val (t10k-*)");

  const Examples& all = test ? *test : *train;
  const int64_t n = all.targets.size(0);
  if (trainCount < 1 || trainCount >= n)
    fail(path, "train count " + std::to_string(trainCount) + " must be in 1.." + std::to_string(n - 1) +
                   " (only the " + (test ? "t10k" : "train") + " split is present, " +
                   std::to_string(n) + " images)");
  auto [tr, va] = splitExamples(all, trainCount);
  return std::make_unique<ArrayDataset>(
      tr, va, 10,
      "mnist: " + path + ", " + (test ? "t10k" : "train") + " split divided " +
          std::to_string(trainCount) + " train / " + std::to_string(n - trainCount) + " val");
}

}  // namespace lwb::data
