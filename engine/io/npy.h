// NumPy .npy reader/writer (format versions 1.0, 2.0, 3.0). Files from disk are hostile:
// every size is bounds-checked before anything is allocated.
#pragma once

#include "io/input_error.h"
#include "io/npy_format.h"

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <string>
#include <vector>

namespace lwb::io {

enum class NpyDtype { Float32, Float64 };

struct NpyHeader {
  NpyDtype dtype = NpyDtype::Float32;
  bool bigEndian = false;
  bool fortranOrder = false;
  std::vector<int64_t> shape;
  size_t dataOffset = 0;  // bytes from the start of the buffer
};

// Parses the header of an in-memory .npy image; `what` names the source in errors.
// Throws InputError for anything malformed or unsupported (only float32/float64, C order).
NpyHeader parseNpyHeader(const std::string& bytes, const std::string& what,
                         const NpyLimits& limits = {});

// Reads a .npy file into a CPU tensor of its dtype (float32 or float64). Throws InputError.
at::Tensor readNpy(const std::string& path, const NpyLimits& limits = {});

// Same for bytes already in memory (an .npz member, a test buffer).
at::Tensor decodeNpy(const std::string& bytes, const std::string& what,
                     const NpyLimits& limits = {});

// Writes a float32 C-order .npy (version 1.0) atomically: temp file, fsync, rename.
// Throws std::runtime_error when the file cannot be written.
void writeNpy(const std::string& path, const at::Tensor& t);

// Encodes a tensor as .npy bytes (float32, or float64 for double tensors).
std::string encodeNpy(const at::Tensor& t);

}  // namespace lwb::io
