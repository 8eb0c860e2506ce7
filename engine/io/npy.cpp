#include "io/npy.h"

#include <ATen/ops/empty.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <sstream>

namespace lwb::io {
namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicLen = 6;

[[noreturn]] void fail(const std::string& what, const std::string& msg) {
  throw InputError(what + ": " + msg);
}

// The header is a Python dict literal: {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
// Only what numpy writes is accepted: string keys; string, bool or int-tuple values.
struct HeaderValue {
  std::optional<std::string> str;
  std::optional<bool> boolean;
  std::optional<std::vector<int64_t>> tuple;
};

class DictParser {
 public:
  DictParser(const std::string& text, const std::string& what) : s_(text), what_(what) {}

  std::map<std::string, HeaderValue> parse() {
    std::map<std::string, HeaderValue> out;
    expect('{');
    while (true) {
      skipSpace();
      if (peek() == '}') { ++i_; break; }
      const std::string key = parseString();
      expect(':');
      if (out.count(key)) fail(what_, "duplicate key '" + key + "' in .npy header");
      out[key] = parseValue();
      skipSpace();
      if (peek() == ',') { ++i_; continue; }
      expect('}');
      break;
    }
    skipSpace();
    if (i_ != s_.size()) fail(what_, "trailing characters after the .npy header dictionary");
    return out;
  }

 private:
  char peek() const { return i_ < s_.size() ? s_[i_] : '\0'; }
  void skipSpace() { while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_; }
  void expect(char c) {
    skipSpace();
    if (peek() != c) fail(what_, std::string("malformed .npy header: expected '") + c + "'");
    ++i_;
  }
  std::string parseString() {
    skipSpace();
    const char q = peek();
    if (q != '\'' && q != '"') fail(what_, "malformed .npy header: expected a quoted key or string");
    ++i_;
    const size_t start = i_;
    while (i_ < s_.size() && s_[i_] != q) {
      if (s_[i_] == '\\') fail(what_, "malformed .npy header: escapes are not supported");
      ++i_;
    }
    if (i_ >= s_.size()) fail(what_, "malformed .npy header: unterminated string");
    return s_.substr(start, i_++ - start);
  }
  int64_t parseInt() {
    skipSpace();
    const size_t start = i_;
    while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) ++i_;
    if (i_ == start) fail(what_, "malformed .npy header: expected a non-negative integer in 'shape'");
    if (i_ - start > 18) fail(what_, "malformed .npy header: dimension too large in 'shape'");
    if (peek() == 'L') ++i_;  // Python 2 longs
    return std::stoll(s_.substr(start, i_ - start));
  }
  HeaderValue parseValue() {
    skipSpace();
    HeaderValue v;
    const char c = peek();
    if (c == '\'' || c == '"') {
      v.str = parseString();
    } else if (s_.compare(i_, 4, "True") == 0) {
      v.boolean = true;
      i_ += 4;
    } else if (s_.compare(i_, 5, "False") == 0) {
      v.boolean = false;
      i_ += 5;
    } else if (c == '(') {
      ++i_;
      std::vector<int64_t> dims;
      while (true) {
        skipSpace();
        if (peek() == ')') { ++i_; break; }
        dims.push_back(parseInt());
        if (dims.size() > 32) fail(what_, "malformed .npy header: more than 32 dimensions");
        skipSpace();
        if (peek() == ',') { ++i_; continue; }
        expect(')');
        break;
      }
      v.tuple = std::move(dims);
    } else {
      fail(what_, "malformed .npy header: unsupported value");
    }
    return v;
  }

  const std::string& s_;
  const std::string& what_;
  size_t i_ = 0;
};

uint32_t readLittle(const std::string& b, size_t at, size_t n) {
  uint32_t v = 0;
  for (size_t k = 0; k < n; ++k) v |= static_cast<uint32_t>(static_cast<unsigned char>(b[at + k])) << (8 * k);
  return v;
}

template <class T>
void byteSwapInPlace(T* data, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    unsigned char* p = reinterpret_cast<unsigned char*>(data + i);
    std::reverse(p, p + sizeof(T));
  }
}

std::string readWholeFile(const std::string& path, uint64_t maxBytes) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) fail(path, "no such file");
  if (std::filesystem::is_directory(status)) fail(path, "is a directory, expected a .npy file");
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) fail(path, "cannot determine the file size");
  if (size > maxBytes) fail(path, "file is larger than the " + std::to_string(maxBytes) + "-byte limit");
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, "cannot open for reading");
  std::string bytes(static_cast<size_t>(size), '\0');
  in.read(bytes.data(), static_cast<std::streamsize>(size));
  if (static_cast<uint64_t>(in.gcount()) != size) fail(path, "short read");
  return bytes;
}

}  // namespace

NpyHeader parseNpyHeader(const std::string& bytes, const std::string& what, const NpyLimits& limits) {
  if (bytes.size() < kMagicLen + 4 || bytes.compare(0, kMagicLen, kMagic, kMagicLen) != 0)
    fail(what, "not a .npy file (missing \\x93NUMPY magic)");
  const int major = static_cast<unsigned char>(bytes[6]);
  size_t lenBytes = 0;
  if (major == 1) lenBytes = 2;
  else if (major == 2 || major == 3) lenBytes = 4;
  else fail(what, "unsupported .npy format version " + std::to_string(major));
  const size_t prefix = kMagicLen + 2 + lenBytes;
  if (bytes.size() < prefix) fail(what, "truncated .npy header");
  const size_t headerLen = readLittle(bytes, kMagicLen + 2, lenBytes);
  if (headerLen > limits.maxHeaderBytes)
    fail(what, ".npy header of " + std::to_string(headerLen) + " bytes exceeds the limit of " +
                   std::to_string(limits.maxHeaderBytes));
  if (bytes.size() - prefix < headerLen) fail(what, "truncated .npy header");
  std::string text = bytes.substr(prefix, headerLen);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ' || text.back() == '\0'))
    text.pop_back();

  const auto dict = DictParser(text, what).parse();
  for (const auto& [key, _] : dict)
    if (key != "descr" && key != "fortran_order" && key != "shape")
      fail(what, "unexpected key '" + key + "' in .npy header");
  auto get = [&](const char* key) -> const HeaderValue& {
    const auto it = dict.find(key);
    if (it == dict.end()) fail(what, std::string(".npy header lacks '") + key + "'");
    return it->second;
  };
  NpyHeader h;
  const auto& descr = get("descr");
  if (!descr.str) fail(what, "'descr' must be a string");
  const std::string& d = *descr.str;
  if (d == "<f4" || d == "=f4") h.dtype = NpyDtype::Float32;
  else if (d == ">f4") { h.dtype = NpyDtype::Float32; h.bigEndian = true; }
  else if (d == "<f8" || d == "=f8") h.dtype = NpyDtype::Float64;
  else if (d == ">f8") { h.dtype = NpyDtype::Float64; h.bigEndian = true; }
  else fail(what, "dtype '" + d + "' is not supported (need float32 or float64)");
  const auto& fortran = get("fortran_order");
  if (!fortran.boolean) fail(what, "'fortran_order' must be True or False");
  h.fortranOrder = *fortran.boolean;
  if (h.fortranOrder) fail(what, "Fortran-ordered arrays are not supported (save with C order)");
  const auto& shape = get("shape");
  if (!shape.tuple) fail(what, "'shape' must be a tuple of integers");
  h.shape = *shape.tuple;
  h.dataOffset = prefix + headerLen;

  const uint64_t item = h.dtype == NpyDtype::Float32 ? 4 : 8;
  uint64_t count = 1;
  for (const int64_t dim : h.shape) {
    if (dim != 0 && count > limits.maxDataBytes / item / static_cast<uint64_t>(dim))
      fail(what, "array is larger than the " + std::to_string(limits.maxDataBytes) + "-byte limit");
    count *= static_cast<uint64_t>(dim);
  }
  const uint64_t expected = count * item;
  const uint64_t available = bytes.size() - h.dataOffset;
  if (available != expected)
    fail(what, "data size mismatch: header says " + std::to_string(expected) + " bytes, file has " +
                   std::to_string(available));
  return h;
}

at::Tensor decodeNpy(const std::string& bytes, const std::string& what, const NpyLimits& limits) {
  const NpyHeader h = parseNpyHeader(bytes, what, limits);
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

at::Tensor readNpy(const std::string& path, const NpyLimits& limits) {
  return decodeNpy(readWholeFile(path, limits.maxDataBytes + limits.maxHeaderBytes + 16), path, limits);
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
  const std::string bytes = encodeNpy(t.scalar_type() == at::kFloat ? t : t.to(at::kFloat));
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error(path + ": cannot open for writing");
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out) {
      std::remove(tmp.c_str());
      throw std::runtime_error(path + ": write failed");
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::remove(tmp.c_str());
    throw std::runtime_error(path + ": cannot rename temporary file (" + ec.message() + ")");
  }
}

}  // namespace lwb::io
