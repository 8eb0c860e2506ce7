#include "io/npy.h"

#include "io/file_io.h"

#include <ATen/ops/empty.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <sstream>

namespace lwb::io {
namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicLen = 6;

[[noreturn]] void fail(const std::string& what, const std::string& msg) {
  throw InputError(what + ": " + msg);
}

template <class T>
void byteSwapInPlace(T* data, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    unsigned char* p = reinterpret_cast<unsigned char*>(data + i);
    std::reverse(p, p + sizeof(T));
  }
}

}  // namespace

namespace {

NpyHeader floatHeader(std::string_view bytes, const std::string& what, const NpyLimits& limits) {
  const NpyArrayHeader a = parseNpyArrayHeader(bytes, what, limits);
  NpyHeader h;
  if (a.dtype == DType::F32) h.dtype = NpyDtype::Float32;
  else if (a.dtype == DType::F64) h.dtype = NpyDtype::Float64;
  else fail(what, "dtype '" + a.descr + "' is not supported (need float32 or float64)");
  if (a.fortranOrder) fail(what, "Fortran-ordered arrays are not supported (save with C order)");
  h.bigEndian = a.bigEndian;
  h.fortranOrder = a.fortranOrder;
  h.shape = a.shape;
  h.dataOffset = a.dataOffset;
  return h;
}

at::Tensor decodeFloat(std::string_view bytes, const std::string& what, const NpyLimits& limits) {
  const NpyHeader h = floatHeader(bytes, what, limits);
  const auto dtype = h.dtype == NpyDtype::Float32 ? at::kFloat : at::kDouble;
  at::Tensor t = at::empty(h.shape, at::TensorOptions().dtype(dtype));
  std::memcpy(t.data_ptr(), bytes.data() + h.dataOffset, bytes.size() - h.dataOffset);
  const bool hostBig = std::endian::native == std::endian::big;
  if (h.bigEndian != hostBig) {
    if (dtype == at::kFloat) byteSwapInPlace(t.data_ptr<float>(), t.numel());
    else byteSwapInPlace(t.data_ptr<double>(), t.numel());
  }
  return t;
}

}  // namespace

NpyHeader parseNpyHeader(const std::string& bytes, const std::string& what, const NpyLimits& limits) {
  return floatHeader(bytes, what, limits);
}

at::Tensor decodeNpy(const std::string& bytes, const std::string& what, const NpyLimits& limits) {
  return decodeFloat(bytes, what, limits);
}

at::Tensor readNpy(const std::string& path, const NpyLimits& limits) {
  return decodeFloat(readFileBuffer(path, limits.maxDataBytes + limits.maxHeaderBytes + 16).view(), path, limits);
}

std::string encodeNpy(const at::Tensor& input) {
  const auto t = (input.scalar_type() == at::kDouble ? input : input.to(at::kFloat))
                     .to(at::kCPU).contiguous();
  const bool isDouble = t.scalar_type() == at::kDouble;
  std::ostringstream shape;
  shape << "(";
  for (int64_t i = 0; i < t.dim(); ++i) shape << t.size(i) << (t.dim() == 1 || i + 1 < t.dim() ? ", " : "");
  shape << ")";
  std::string dict = std::string("{'descr': '") + (isDouble ? "<f8" : "<f4") +
                     "', 'fortran_order': False, 'shape': " + shape.str() + ", }";
  // Pad with spaces so magic + length + header + '\n' is a multiple of 64 bytes.
  const size_t unpadded = kMagicLen + 2 + 2 + dict.size() + 1;
  dict.append((64 - unpadded % 64) % 64, ' ');
  dict.push_back('\n');
  std::string out(kMagic, kMagicLen);
  out.push_back('\x01');
  out.push_back('\x00');
  out.push_back(static_cast<char>(dict.size() & 0xff));
  out.push_back(static_cast<char>((dict.size() >> 8) & 0xff));
  out += dict;
  static_assert(std::endian::native == std::endian::little, "encodeNpy writes little-endian data");
  out.append(static_cast<const char*>(t.data_ptr()), static_cast<size_t>(t.numel() * t.element_size()));
  return out;
}

void writeNpy(const std::string& path, const at::Tensor& t) {
  writeFileAtomically(path, encodeNpy(t.scalar_type() == at::kFloat ? t : t.to(at::kFloat)));
}

}  // namespace lwb::io
