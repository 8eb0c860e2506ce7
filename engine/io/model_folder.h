// A Hugging Face model folder read as one model (issue 29 §2): `model.safetensors.index.json`
// or `pytorch_model.bin.index.json` with its `weight_map` (tensor name → shard file), or a
// folder holding a single `model.safetensors` / `pytorch_model.bin`. Torch-free.
#pragma once

#include "io/raw_tensor.h"

#include <cstdint>
#include <filesystem>

namespace lwb::io {

// Every tensor the weight map names, in the map's order, from shards read once each (the sum
// of the shards at most `maxBytes`). Unknown index keys (metadata.total_size, ...) are
// ignored. InputError naming the folder or the index for: no index and no single weights
// file, a weight_map that is not an object of file names, a shard named with a path (outside
// the folder: "/", "..") or that is an index itself (a cycle), a missing shard (named), a
// tensor the map names but its shard does not hold. format "huggingface", metadata
// {"shards": "<n>", "index": "<file>"}.
TensorFile readModelFolder(const std::filesystem::path& dir, uint64_t maxBytes);

}  // namespace lwb::io
