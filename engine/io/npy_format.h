// The NumPy .npy format without LibTorch: header parsing for every dtype a RawTensor can hold
// and decoding into a RawTensor. npy.h (float32/float64 at::Tensor, used by the CLI) and the
// .npz reader are built on it. Files are hostile: every size is bounds-checked before
// anything is allocated.
#pragma once

#include "io/raw_tensor.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace lwb::io {

struct NpyLimits {
  size_t maxHeaderBytes = 64 * 1024;
  uint64_t maxDataBytes = uint64_t{8} << 30;  // 8 GiB
};

struct NpyArrayHeader {
  std::string descr;  // as written, e.g. "<f4"
  DType dtype = DType::F32;
  bool bigEndian = false;
  bool fortranOrder = false;
  std::vector<int64_t> shape;
  size_t dataOffset = 0;  // bytes from the start of the image
  uint64_t dataBytes = 0;  // numel × element size, == image size − dataOffset
};

// Parses and checks the header of a whole in-memory .npy image (versions 1.0–3.0): magic,
// the Python-dict literal, a dtype of kAllDTypes in either byte order, the shape, and that
// exactly numel × element size bytes follow. Throws InputError("<what>: ...").
NpyArrayHeader parseNpyArrayHeader(std::string_view bytes, const std::string& what,
                                   const NpyLimits& limits = {});

// Decodes an image into a little-endian C-order record named `name`. A little-endian C-order
// array views into `bytes` (no copy); a big-endian or Fortran-ordered one is converted into a
// buffer of its own. Throws InputError("<what>: ...").
RawTensor decodeNpyRecord(SharedBytes bytes, std::string name,
                          const std::string& what, const NpyLimits& limits = {});

}  // namespace lwb::io
