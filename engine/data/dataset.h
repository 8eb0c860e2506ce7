// Datasets the trainer samples from. Files from disk are hostile: bad or missing files
// raise lwb::InputError naming the file and what is wrong. Nothing is downloaded.
#pragma once

#include "io/input_error.h"

#include <ATen/core/Generator.h>
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <memory>
#include <string>

namespace lwb::data {

enum class Split { Train, Val };

struct Batch {
  at::Tensor inputs;   // see each dataset for shape and dtype
  at::Tensor targets;  // int64 class ids: [B] or [B, T]; float regression targets (icl)
  at::Tensor positions = {};  // icl only: where the loss reads the outputs (see icl_least_squares.h)
};

class Dataset {
 public:
  virtual ~Dataset() = default;
  // A random batch (with replacement) drawn with `gen` (a CPU generator): deterministic
  // for a fixed generator state. Tensors are on the CPU; the trainer moves them.
  virtual Batch sample(Split split, int64_t batchSize, at::Generator& gen) const = 0;
  // Examples [start, start + count) of a split in a fixed order, for full evaluation.
  // For `chars` an example is the window starting at position start * seqLen.
  virtual Batch slice(Split split, int64_t start, int64_t count) const = 0;
  virtual int64_t size(Split split) const = 0;   // number of examples (windows for chars)
  virtual int64_t numClasses() const = 0;         // classes, or vocabulary size for chars
  virtual int64_t inputDim() const = 0;           // features (mnist 784, cifar 3072), seq len for chars, 2 for modular
  virtual std::string describe() const = 0;       // one line for logs and the GUI
};

// Any text file: byte-level vocabulary of the characters present, first 90% of characters
// train / last 10% val (nanoGPT split). inputs [B, seqLen] int64, targets [B, seqLen] int64
// (inputs shifted by one).
std::unique_ptr<Dataset> makeCharsDataset(const std::string& path, int64_t seqLen,
                                          double valFraction = 0.1);

// MNIST IDX files (gzip-compressed or raw). `path` is a folder holding
// t10k-images-idx3-ubyte[.gz] + t10k-labels-idx1-ubyte[.gz] (and/or the train-* pair).
// With only the test split present (the bundled @data/mnist) its first `trainCount`
// images train and the rest validate (likewise with only the train pair); with both pairs,
// train-* trains, t10k-* validates and `trainCount` is unused. Images must be 28x28.
// inputs [B, 784] float32 in [0, 1], targets [B].
std::unique_ptr<Dataset> makeMnistDataset(const std::string& path, int64_t trainCount = 8000);

// CIFAR-10 binary batches: folder with data_batch_1..5.bin and/or test_batch.bin (each
// record 1 label byte + 3072 pixel bytes; the folder may also be the parent of the archive's
// cifar-10-batches-bin/). With only one kind present its first 90% train and the rest
// validate. inputs [B, 3072] float32 in [0, 1] in file order (R plane, G, B), targets [B].
std::unique_ptr<Dataset> makeCifar10Dataset(const std::string& path);

enum class ModularOp { Addition, Multiplication };

// All pairs (a, b) in [0, p)^2 labelled (a op b) mod p, shuffled with `seed`, split into
// train (trainFraction) / val. inputs [B, 2] int64, targets [B] int64.
std::unique_ptr<Dataset> makeModularDataset(ModularOp op, int64_t p = 113,
                                            double trainFraction = 0.3, uint64_t seed = 0);

}  // namespace lwb::data
