// Torch-free tensor records shared by every tensor-file reader and writer (safetensors, npy,
// npz, PyTorch zip). Bytes are little-endian, C order. A record views into a buffer it shares
// with the other records of the same file, so reading a 500 MB checkpoint copies the data
// once (disk → buffer); tensor_convert.h turns a record into an at::Tensor.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lwb::io {

// The element types LibTorch 1.13 can hold and checkpoints use. Safetensors' U16/U32/U64 and
// F8 types have no LibTorch 1.13 counterpart and are rejected by name.
enum class DType { F64, F32, F16, BF16, I64, I32, I16, I8, U8, Bool };

inline constexpr DType kAllDTypes[] = {DType::F64, DType::F32, DType::F16, DType::BF16, DType::I64,
                                       DType::I32, DType::I16, DType::I8,  DType::U8,   DType::Bool};

// Bytes per element.
constexpr size_t elementSize(DType d) {
  switch (d) {
    case DType::F64: case DType::I64: return 8;
    case DType::F32: case DType::I32: return 4;
    case DType::F16: case DType::BF16: case DType::I16: return 2;
    case DType::I8: case DType::U8: case DType::Bool: return 1;
  }
  return 1;
}

// The safetensors spelling ("F32", "BF16", "BOOL", ...).
constexpr std::string_view safetensorsName(DType d) {
  switch (d) {
    case DType::F64: return "F64";
    case DType::F32: return "F32";
    case DType::F16: return "F16";
    case DType::BF16: return "BF16";
    case DType::I64: return "I64";
    case DType::I32: return "I32";
    case DType::I16: return "I16";
    case DType::I8: return "I8";
    case DType::U8: return "U8";
    case DType::Bool: return "BOOL";
  }
  return "?";
}

// The user-facing name, as `inspect` prints it ("float32", "bfloat16", "bool", ...).
constexpr std::string_view dtypeName(DType d) {
  switch (d) {
    case DType::F64: return "float64";
    case DType::F32: return "float32";
    case DType::F16: return "float16";
    case DType::BF16: return "bfloat16";
    case DType::I64: return "int64";
    case DType::I32: return "int32";
    case DType::I16: return "int16";
    case DType::I8: return "int8";
    case DType::U8: return "uint8";
    case DType::Bool: return "bool";
  }
  return "?";
}

inline std::optional<DType> dtypeFromSafetensorsName(std::string_view s) {
  for (const DType d : kAllDTypes)
    if (safetensorsName(d) == s) return d;
  return std::nullopt;
}

constexpr bool isFloating(DType d) {
  return d == DType::F64 || d == DType::F32 || d == DType::F16 || d == DType::BF16;
}

struct RawTensor {
  std::string name;
  DType dtype = DType::F32;
  std::vector<int64_t> shape;  // empty: a 0-d (scalar) tensor
  // `nbytes` bytes at `data`; the shared_ptr keeps the owning buffer (the whole file, a
  // decompressed member, or a tensor) alive. Readers guarantee nbytes == numel × elementSize.
  std::shared_ptr<const std::byte> data;
  size_t nbytes = 0;

  std::span<const std::byte> bytes() const { return {data.get(), nbytes}; }
  // A zero dimension makes the count 0 whatever the others are: readers accept shapes such as
  // (4e6, 4e6, 0), whose non-zero prefix alone overflows int64 (found by fuzz_npy). A count
  // that does not fit saturates at INT64_MAX, which never matches a real byte count.
  int64_t numel() const {
    for (const int64_t d : shape)
      if (d == 0) return 0;
    int64_t n = 1;
    for (const int64_t d : shape)
      if (__builtin_mul_overflow(n, d, &n)) return std::numeric_limits<int64_t>::max();
    return n;
  }
};

// A view of `size` bytes at `offset` in `buffer`, sharing its ownership (no copy).
inline std::shared_ptr<const std::byte> viewInto(const std::shared_ptr<const std::string>& buffer,
                                                 size_t offset) {
  return {buffer, reinterpret_cast<const std::byte*>(buffer->data()) + offset};
}

// Bytes that records view into: a whole file (file_io.h maps it in one go), a decompressed
// member, a string built in memory. Converts implicitly from shared_ptr<const std::string>.
class SharedBytes {
 public:
  SharedBytes() = default;
  SharedBytes(const std::shared_ptr<const std::string>& s)  // NOLINT(google-explicit-constructor)
      : data_(s ? viewInto(s, 0) : nullptr), size_(s ? s->size() : 0) {}
  SharedBytes(std::shared_ptr<const std::byte> data, size_t size) : data_(std::move(data)), size_(size) {}

  std::string_view view() const { return {reinterpret_cast<const char*>(data_.get()), size_}; }
  size_t size() const { return size_; }
  // `offset` bytes in, sharing ownership of the whole buffer.
  std::shared_ptr<const std::byte> at(size_t offset) const { return {data_, data_.get() + offset}; }

 private:
  std::shared_ptr<const std::byte> data_;
  size_t size_ = 0;
};

// A buffer that owns `bytes` (moved in), for records built in memory.
inline std::shared_ptr<const std::byte> ownBytes(std::string bytes) {
  return viewInto(std::make_shared<const std::string>(std::move(bytes)), 0);
}

struct TensorFile {
  std::string path;
  std::string format;  // "safetensors", "npy", "npz", "pytorch"
  std::vector<RawTensor> tensors;  // in file order (safetensors: by data offset)
  std::map<std::string, std::string> metadata;  // safetensors __metadata__; empty otherwise
  // Entries the reader left out, one line each ("name: why"): a PyTorch pickle's Python
  // objects (a whole nn.Module, a NumPy array) and entries under keys that make no name.
  std::vector<std::string> skipped;
};

}  // namespace lwb::io
