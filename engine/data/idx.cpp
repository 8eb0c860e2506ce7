#include "data/idx.h"

#include "data/file_bytes.h"
#include "io/input_error.h"

#include <ATen/ops/empty.h>

#include <cstdio>
#include <cstring>
#include <vector>

namespace lwb::data {
namespace {

[[noreturn]] void fail(const std::string& what, const std::string& msg) {
  throw InputError(what + ": " + msg);
}

uint32_t readBigEndian32(const std::string& b, size_t at) {
  uint32_t v = 0;
  for (size_t k = 0; k < 4; ++k) v = (v << 8) | static_cast<unsigned char>(b[at + k]);
  return v;
}

std::string hex32(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", v);
  return buf;
}

// Checks the magic, then returns the dimensions; the data starts at 4 + 4 * dims.size().
std::vector<uint32_t> parseHeader(const std::string& bytes, const std::string& what,
                                  uint32_t magic, const char* kind) {
  if (bytes.empty()) fail(what, std::string("empty file, expected ") + kind);
  if (bytes.size() < 4) fail(what, std::string("truncated IDX header (") + kind + ")");
  const uint32_t found = readBigEndian32(bytes, 0);
  if (found != magic)
    fail(what, "bad magic " + hex32(found) + ", expected " + hex32(magic) + " (" + kind + ")");
  const size_t dims = magic & 0xff;
  if (bytes.size() < 4 + 4 * dims)
    fail(what, "truncated IDX header: " + std::to_string(bytes.size()) + " bytes, the header needs " +
                   std::to_string(4 + 4 * dims) + " (" + kind + ")");
  std::vector<uint32_t> out(dims);
  for (size_t i = 0; i < dims; ++i) out[i] = readBigEndian32(bytes, 4 + 4 * i);
  return out;
}

// The bytes after the header must be exactly `expected`: fewer means a truncated file,
// more means the header lies (or the file is not what its name says).
void checkPayload(const std::string& bytes, size_t headerBytes, uint64_t expected,
                  const std::string& what, const std::string& claim) {
  const uint64_t available = bytes.size() - headerBytes;
  if (available < expected)
    fail(what, "truncated: header says " + claim + " = " + std::to_string(expected) +
                   " bytes, file has " + std::to_string(available));
  if (available > expected)
    fail(what, "size mismatch: header says " + claim + " = " + std::to_string(expected) +
                   " bytes, file has " + std::to_string(available) + " (trailing data)");
}

}  // namespace

at::Tensor decodeIdxImages(const std::string& bytes, const std::string& what) {
  const auto dims = parseHeader(bytes, what, kIdxImagesMagic, "IDX images");
  const uint64_t count = dims[0];
  if (dims[1] != kMnistSide || dims[2] != kMnistSide)
    fail(what, "images are " + std::to_string(dims[1]) + "x" + std::to_string(dims[2]) +
                   ", expected 28x28");
  if (count == 0) fail(what, "holds no images");
  // count <= 2^32 and 784 < 2^10, so the product cannot overflow 64 bits.
  const uint64_t pixels = count * kMnistSide * kMnistSide;
  checkPayload(bytes, 16, pixels, what, std::to_string(count) + " images x 28 x 28");
  at::Tensor t = at::empty({static_cast<int64_t>(count), kMnistSide * kMnistSide}, at::kByte);
  std::memcpy(t.data_ptr<uint8_t>(), bytes.data() + 16, pixels);
  return t;
}

at::Tensor decodeIdxLabels(const std::string& bytes, const std::string& what) {
  const auto dims = parseHeader(bytes, what, kIdxLabelsMagic, "IDX labels");
  const uint64_t count = dims[0];
  if (count == 0) fail(what, "holds no labels");
  checkPayload(bytes, 8, count, what, std::to_string(count) + " labels");
  at::Tensor t = at::empty({static_cast<int64_t>(count)}, at::kLong);
  int64_t* out = t.data_ptr<int64_t>();
  for (uint64_t i = 0; i < count; ++i) {
    const unsigned char v = static_cast<unsigned char>(bytes[8 + i]);
    if (v > 9)
      fail(what, "label " + std::to_string(v) + " at index " + std::to_string(i) +
                     " is out of range 0..9");
    out[i] = v;
  }
  return t;
}

at::Tensor readIdxImages(const std::string& path) {
  return decodeIdxImages(readMaybeGzipped(path), path);
}

at::Tensor readIdxLabels(const std::string& path) {
  return decodeIdxLabels(readMaybeGzipped(path), path);
}

}  // namespace lwb::data
