// The Hugging Face safetensors format, torch-free: an 8-byte little-endian header length N,
// N bytes of JSON {"name": {"dtype", "shape", "data_offsets": [begin, end]}, ...,
// "__metadata__": {string: string}}, then the data buffer. The reader treats the file as
// hostile (sizes, types, offsets, overlaps, duplicate names); the writer is crash-safe.
#pragma once

#include "io/raw_tensor.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace lwb::io {

struct SafetensorsLimits {
  // The reference implementation's own limit (safetensors/src/tensor.rs: 100 MB).
  uint64_t maxHeaderBytes = 100'000'000;
};

// Decodes a whole safetensors image. Tensors come back in data-offset order and view into
// `bytes` (no copy). `what` names the source in errors: InputError("<what>: <problem>").
TensorFile decodeSafetensors(SharedBytes bytes, const std::string& what,
                             const SafetensorsLimits& limits = {});

// Reads a .safetensors file (one read into memory, then decodeSafetensors). Throws InputError.
TensorFile readSafetensors(const std::string& path, const SafetensorsLimits& limits = {});

// Encodes tensors + metadata. Layout is deterministic: tensors sorted by element size
// (largest first, so every tensor stays aligned to its element size) then by name; header
// padded with spaces so the data starts at a multiple of 8. Throws std::invalid_argument for
// duplicate or empty names, the name "__metadata__", or a record whose byte count does not
// match its shape and dtype.
std::string encodeSafetensors(const std::vector<RawTensor>& tensors,
                              const std::map<std::string, std::string>& metadata = {});

// encodeSafetensors + writeFileAtomically (temp file, fsync, rename, fsync the directory).
// Throws std::runtime_error on I/O failure, std::invalid_argument as above.
void writeSafetensors(const std::string& path, const std::vector<RawTensor>& tensors,
                      const std::map<std::string, std::string>& metadata = {});

}  // namespace lwb::io
