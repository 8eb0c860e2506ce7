#include "io/npy_format.h"

#include "io/input_error.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <cstring>
#include <map>
#include <optional>

namespace lwb::io {
namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicLen = 6;

static_assert(std::endian::native == std::endian::little, "records hold little-endian bytes");

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
    } else if (c == '[') {
      // NumPy writes a structured (record) dtype's descr as a list of fields.
      fail(what_, "a structured (record) dtype: only plain numeric arrays are read");
    } else {
      fail(what_, "malformed .npy header: unsupported value");
    }
    return v;
  }

  const std::string& s_;
  const std::string& what_;
  size_t i_ = 0;
};

// NumPy's type strings for the dtypes a record holds: byte order ('<', '>', '=' native,
// '|' not applicable) + kind + item size.
std::optional<DType> dtypeOfDescr(const std::string& d, bool& bigEndian) {
  if (d.size() != 3) return std::nullopt;
  const char order = d[0];
  const std::string kind = d.substr(1);
  static constexpr struct { const char* kind; DType dtype; } kTable[] = {
      {"f8", DType::F64}, {"f4", DType::F32}, {"f2", DType::F16}, {"i8", DType::I64}, {"i4", DType::I32},
      {"i2", DType::I16}, {"i1", DType::I8},  {"u1", DType::U8},  {"b1", DType::Bool}};
  for (const auto& row : kTable) {
    if (kind != row.kind) continue;
    const bool single = elementSize(row.dtype) == 1;
    if (order == '<' || order == '=' || (order == '|' && single)) bigEndian = false;
    else if (order == '>') bigEndian = !single;
    else return std::nullopt;
    return row.dtype;
  }
  return std::nullopt;
}

uint32_t readLittle(std::string_view b, size_t at, size_t n) {
  uint32_t v = 0;
  for (size_t k = 0; k < n; ++k) v |= static_cast<uint32_t>(static_cast<unsigned char>(b[at + k])) << (8 * k);
  return v;
}

// C-order copy of a Fortran-ordered array (the column-major layout np.save writes for a
// transposed array), swapping byte order on the way when `swap`.
void reorderToC(const std::byte* src, std::byte* dst, const std::vector<int64_t>& shape, size_t item, bool fortran,
                bool swap, uint64_t numel) {
  // The header parser allows at most 32 dimensions.
  const size_t rank = shape.size();
  std::array<uint64_t, 32> fStride{};  // Fortran strides in elements
  std::array<int64_t, 32> index{};
  if (rank > fStride.size()) return;
  for (size_t k = 0; k < rank; ++k) fStride[k] = k == 0 ? 1 : fStride[k - 1] * static_cast<uint64_t>(shape[k - 1]);
  uint64_t srcElem = 0;
  for (uint64_t c = 0; c < numel; ++c) {
    const std::byte* from = src + (fortran ? srcElem : c) * item;
    std::byte* to = dst + c * item;
    if (swap) std::reverse_copy(from, from + item, to);
    else std::memcpy(to, from, item);
    if (!fortran) continue;
    // Next C-order multi-index: the last dimension runs fastest.
    for (size_t k = rank; k-- > 0;) {
      if (++index[k] < shape[k]) { srcElem += fStride[k]; break; }
      srcElem -= fStride[k] * static_cast<uint64_t>(index[k] - 1);
      index[k] = 0;
    }
  }
}

}  // namespace

NpyArrayHeader parseNpyArrayHeader(std::string_view bytes, const std::string& what, const NpyLimits& limits) {
  if (bytes.size() < kMagicLen + 4 || bytes.compare(0, kMagicLen, std::string_view(kMagic, kMagicLen)) != 0)
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
  std::string text(bytes.substr(prefix, headerLen));
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
  NpyArrayHeader h;
  const auto& descr = get("descr");
  if (!descr.str) fail(what, "'descr' must be a string");
  h.descr = *descr.str;
  const auto dtype = dtypeOfDescr(h.descr, h.bigEndian);
  if (!dtype) fail(what, "dtype '" + h.descr + "' is not supported");
  h.dtype = *dtype;
  const auto& fortran = get("fortran_order");
  if (!fortran.boolean) fail(what, "'fortran_order' must be True or False");
  h.fortranOrder = *fortran.boolean;
  const auto& shape = get("shape");
  if (!shape.tuple) fail(what, "'shape' must be a tuple of integers");
  h.shape = *shape.tuple;
  h.dataOffset = prefix + headerLen;

  const uint64_t item = elementSize(h.dtype);
  const bool empty = std::find(h.shape.begin(), h.shape.end(), 0) != h.shape.end();
  uint64_t count = empty ? 0 : 1;
  for (const int64_t dim : h.shape) {
    if (empty) break;
    if (count > limits.maxDataBytes / item / static_cast<uint64_t>(dim))
      fail(what, "array is larger than the " + std::to_string(limits.maxDataBytes) + "-byte limit");
    count *= static_cast<uint64_t>(dim);
  }
  h.dataBytes = count * item;
  const uint64_t available = bytes.size() - h.dataOffset;
  if (available != h.dataBytes)
    fail(what, "data size mismatch: header says " + std::to_string(h.dataBytes) + " bytes, file has " +
                   std::to_string(available));
  return h;
}

RawTensor decodeNpyRecord(SharedBytes bytes, std::string name, const std::string& what,
                          const NpyLimits& limits) {
  const NpyArrayHeader h = parseNpyArrayHeader(bytes.view(), what, limits);
  RawTensor r;
  r.name = std::move(name);
  r.dtype = h.dtype;
  r.shape = h.shape;
  r.nbytes = static_cast<size_t>(h.dataBytes);
  const bool swap = h.bigEndian;
  if (!swap && (!h.fortranOrder || h.shape.size() < 2)) {
    r.data = bytes.at(h.dataOffset);
    return r;
  }
  std::string converted(r.nbytes, '\0');
  reorderToC(reinterpret_cast<const std::byte*>(bytes.view().data() + h.dataOffset),
             reinterpret_cast<std::byte*>(converted.data()), h.shape, elementSize(h.dtype), h.fortranOrder, swap,
             h.dataBytes / elementSize(h.dtype));
  r.data = ownBytes(std::move(converted));
  return r;
}

}  // namespace lwb::io
