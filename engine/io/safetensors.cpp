#include "io/safetensors.h"

#include "io/file_io.h"
#include "io/input_error.h"
#include "io/json_read.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <optional>
#include <bit>
#include <limits>
#include <set>
#include <stdexcept>
#include <tuple>

namespace lwb::io {
namespace {

using nlohmann::json;

static_assert(std::endian::native == std::endian::little,
              "safetensors data is little-endian; records hold it as is");

constexpr size_t kLengthPrefix = 8;
constexpr const char* kMetadataKey = "__metadata__";

[[noreturn]] void fail(const std::string& what, const std::string& msg) {
  throw InputError(what + ": " + msg);
}

// Thrown from the header walk; caught in parseHeader and reported with the file.
struct HeaderShapeError {
  std::string msg;
};

// nlohmann keeps the last of two equal keys without a word, and nests as deep as the input
// does. The walk (jsonio::walkJson) sees every key and nesting level first: duplicate names
// are refused, and so is anything deeper than root → tensor entry → shape array.
json parseHeader(std::string_view text, const std::string& what) {
  std::vector<std::set<std::string>> keysPerObject;
  try {
    jsonio::walkJson(text, [&](jsonio::JsonEvent event, int depth, const std::string& key) {
      using E = jsonio::JsonEvent;
      if ((event == E::ObjectStart || event == E::ArrayStart) && depth > 2)
        throw HeaderShapeError{"JSON header nests deeper than a safetensors header can"};
      if (event == E::ObjectStart) keysPerObject.emplace_back();
      if (event == E::ObjectEnd) keysPerObject.pop_back();
      if (event == E::Key && !keysPerObject.back().insert(key).second)
        throw HeaderShapeError{(depth == 0 ? "duplicate tensor name '" : "duplicate key '") + key + "' in the JSON header"};
    });
    return json::parse(text.begin(), text.end());
  } catch (const HeaderShapeError& e) {
    fail(what, e.msg);
  } catch (const json::exception& e) {
    fail(what, std::string("header is not valid JSON (") + e.what() + ")");
  }
}

uint64_t readU64Le(std::string_view b) {
  uint64_t v = 0;
  for (size_t k = 0; k < kLengthPrefix; ++k) v |= uint64_t{static_cast<unsigned char>(b[k])} << (8 * k);
  return v;
}

uint64_t checkedIndex(const json& v, const std::string& what, const std::string& field) {
  if (!v.is_number_integer()) fail(what, field + " must be a non-negative integer");
  if (v.is_number_unsigned()) return v.get<uint64_t>();
  const int64_t s = v.get<int64_t>();
  if (s < 0) fail(what, field + " must be a non-negative integer, got " + std::to_string(s));
  return static_cast<uint64_t>(s);
}

struct Entry {
  RawTensor tensor;
  uint64_t begin = 0, end = 0;
  std::string unreadDtype;  // a dtype this tool does not read: listed under the file's skipped
};

// Element sizes of the safetensors dtypes that have no DType here (FP8 checkpoints, unsigned
// wide integers, complex): such a tensor is checked like any other and then skipped with a
// note, so one FP8 tensor does not make the whole file unreadable.
std::optional<uint64_t> unreadDtypeSize(const std::string& name) {
  if (name.starts_with("F8_")) return 1;
  if (name == "U16") return 2;
  if (name == "U32") return 4;
  if (name == "U64" || name == "C64") return 8;
  return std::nullopt;  // unknown: the offsets are still checked, the byte count cannot be
}

Entry parseEntry(const std::string& name, const json& info, uint64_t bufferBytes, const std::string& what) {
  const std::string where = "tensor '" + name + "'";
  if (!info.is_object()) fail(what, where + ": entry must be a JSON object");
  for (const char* key : {"dtype", "shape", "data_offsets"})
    if (!info.contains(key)) fail(what, where + ": entry lacks \"" + key + "\"");
  Entry e;
  e.tensor.name = name;
  const json& dtype = info["dtype"];
  if (!dtype.is_string()) fail(what, where + ": \"dtype\" must be a string");
  const auto d = dtypeFromSafetensorsName(dtype.get_ref<const std::string&>());
  if (d) e.tensor.dtype = *d;
  else e.unreadDtype = dtype.get<std::string>();
  if (!d && (e.unreadDtype.empty() || e.unreadDtype.size() > 32))
    fail(what, where + ": unknown dtype \"" + e.unreadDtype.substr(0, 32) + "\"");

  const json& shape = info["shape"];
  if (!shape.is_array()) fail(what, where + ": \"shape\" must be an array of integers");
  if (shape.size() > 64) fail(what, where + ": shape has more than 64 dimensions");
  for (const json& dim : shape) {
    const uint64_t n = checkedIndex(dim, what, where + ": shape entry");
    if (n > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
      fail(what, where + ": shape entry " + std::to_string(n) + " is too large");
    e.tensor.shape.push_back(static_cast<int64_t>(n));
  }
  // Every partial product stays ≤ the data buffer, so nothing below can overflow; a zero
  // anywhere makes an empty tensor whatever the other dimensions are.
  const bool empty = std::find(e.tensor.shape.begin(), e.tensor.shape.end(), 0) != e.tensor.shape.end();
  uint64_t numel = empty ? 0 : 1;
  for (const int64_t n : e.tensor.shape) {
    if (empty) break;
    if (numel > bufferBytes / static_cast<uint64_t>(n))
      fail(what, where + ": shape describes more bytes than the file holds");
    numel *= static_cast<uint64_t>(n);
  }
  const std::optional<uint64_t> size = d ? std::optional<uint64_t>(elementSize(*d)) : unreadDtypeSize(e.unreadDtype);
  const uint64_t item = size.value_or(1);
  if (numel > bufferBytes / item) fail(what, where + ": shape describes more bytes than the file holds");

  const json& offsets = info["data_offsets"];
  if (!offsets.is_array() || offsets.size() != 2)
    fail(what, where + ": \"data_offsets\" must be an array [begin, end]");
  e.begin = checkedIndex(offsets[0], what, where + ": data_offsets begin");
  e.end = checkedIndex(offsets[1], what, where + ": data_offsets end");
  if (e.begin > e.end) fail(what, where + ": data_offsets begin is after end");
  if (e.end > bufferBytes)
    fail(what, where + ": data_offsets end " + std::to_string(e.end) + " is beyond the data buffer of " +
                   std::to_string(bufferBytes) + " bytes");
  if (size && e.end - e.begin != numel * item)
    fail(what, where + ": byte count " + std::to_string(e.end - e.begin) + " does not match shape × " +
                   (d ? std::string(safetensorsName(*d)) : e.unreadDtype) + " = " + std::to_string(numel * item) + " bytes");
  e.tensor.nbytes = static_cast<size_t>(e.end - e.begin);
  return e;
}

std::map<std::string, std::string> parseMetadata(const json& meta, const std::string& what) {
  if (meta.is_null()) return {};
  if (!meta.is_object()) fail(what, "\"__metadata__\" must be a JSON object of strings");
  std::map<std::string, std::string> out;
  for (const auto& [k, v] : meta.items()) {
    if (!v.is_string()) fail(what, "\"__metadata__\" value of '" + k + "' must be a string");
    out.emplace(k, v.get<std::string>());
  }
  return out;
}

}  // namespace

TensorFile decodeSafetensors(SharedBytes bytes, const std::string& what,
                             const SafetensorsLimits& limits) {
  const std::string_view b = bytes.view();
  if (b.size() < kLengthPrefix) fail(what, "too short for a safetensors file (" + std::to_string(b.size()) + " bytes)");
  const uint64_t headerLen = readU64Le(b);
  if (headerLen > limits.maxHeaderBytes)
    fail(what, "header length " + std::to_string(headerLen) + " exceeds the limit of " +
                   std::to_string(limits.maxHeaderBytes) + " bytes");
  if (headerLen > b.size() - kLengthPrefix)
    fail(what, "header length " + std::to_string(headerLen) + " is beyond the end of the file (" +
                   std::to_string(b.size()) + " bytes)");
  const json header = parseHeader(b.substr(kLengthPrefix, headerLen), what);
  if (!header.is_object()) fail(what, "header must be a JSON object");

  const size_t dataStart = kLengthPrefix + static_cast<size_t>(headerLen);
  const uint64_t bufferBytes = b.size() - dataStart;
  TensorFile file;
  file.format = "safetensors";
  std::vector<Entry> entries;
  for (const auto& [name, info] : header.items()) {
    if (name == kMetadataKey) file.metadata = parseMetadata(info, what);
    else entries.push_back(parseEntry(name, info, bufferBytes, what));
  }
  std::sort(entries.begin(), entries.end(), [](const Entry& x, const Entry& y) {
    return std::tie(x.begin, x.end, x.tensor.name) < std::tie(y.begin, y.end, y.tensor.name);
  });
  // The format requires the tensors to tile the data buffer exactly: no overlap (two names
  // over the same bytes), no gap, nothing left over.
  uint64_t expected = 0;
  for (const Entry& e : entries) {
    if (e.begin < expected)
      fail(what, "tensor '" + e.tensor.name + "' overlaps the previous tensor's data");
    if (e.begin > expected)
      fail(what, "gap of " + std::to_string(e.begin - expected) + " bytes before tensor '" + e.tensor.name +
                     "' (data_offsets must be contiguous)");
    expected = e.end;
  }
  if (expected != bufferBytes)
    fail(what, "the tensors do not cover the data buffer: " + std::to_string(bufferBytes - expected) +
                   " trailing bytes");
  file.tensors.reserve(entries.size());
  for (Entry& e : entries) {
    if (!e.unreadDtype.empty()) {
      file.skipped.push_back(e.tensor.name + ": dtype " + e.unreadDtype + ", which this tool does not read");
      continue;
    }
    e.tensor.data = bytes.at(dataStart + static_cast<size_t>(e.begin));
    file.tensors.push_back(std::move(e.tensor));
  }
  return file;
}

TensorFile readSafetensors(const std::string& path, const SafetensorsLimits& limits) {
  TensorFile file = decodeSafetensors(readFileBuffer(path), path, limits);
  file.path = path;
  return file;
}

std::string encodeSafetensors(const std::vector<RawTensor>& tensors,
                              const std::map<std::string, std::string>& metadata) {
  std::vector<const RawTensor*> order;
  std::set<std::string_view> names;
  for (const RawTensor& t : tensors) {
    if (t.name.empty() || t.name == kMetadataKey)
      throw std::invalid_argument("safetensors: invalid tensor name '" + t.name + "'");
    if (!names.insert(t.name).second)
      throw std::invalid_argument("safetensors: duplicate tensor name '" + t.name + "'");
    for (const int64_t d : t.shape)
      if (d < 0) throw std::invalid_argument("safetensors: tensor '" + t.name + "' has a negative dimension");
    if (t.nbytes != static_cast<uint64_t>(t.numel()) * elementSize(t.dtype) || (t.nbytes > 0 && !t.data))
      throw std::invalid_argument("safetensors: tensor '" + t.name + "' holds " + std::to_string(t.nbytes) +
                                  " bytes, its shape and dtype need " +
                                  std::to_string(t.numel() * elementSize(t.dtype)));
    order.push_back(&t);
  }
  std::sort(order.begin(), order.end(), [](const RawTensor* x, const RawTensor* y) {
    const size_t ex = elementSize(x->dtype), ey = elementSize(y->dtype);
    return ex != ey ? ex > ey : x->name < y->name;
  });
  json header = json::object();
  uint64_t offset = 0;
  for (const RawTensor* t : order) {
    header[t->name] = {{"dtype", std::string(safetensorsName(t->dtype))},
                       {"shape", t->shape},
                       {"data_offsets", {offset, offset + t->nbytes}}};
    offset += t->nbytes;
  }
  if (!metadata.empty()) header[kMetadataKey] = metadata;
  std::string text;
  try {
    text = header.dump();
  } catch (const json::exception& e) {
    throw std::invalid_argument(std::string("safetensors: a name or metadata string is not UTF-8 (") +
                                e.what() + ")");
  }
  text.append((8 - text.size() % 8) % 8, ' ');
  std::string out;
  out.reserve(kLengthPrefix + text.size() + offset);
  for (size_t k = 0; k < kLengthPrefix; ++k) out.push_back(static_cast<char>((uint64_t{text.size()} >> (8 * k)) & 0xff));
  out += text;
  for (const RawTensor* t : order)
    if (t->nbytes > 0) out.append(reinterpret_cast<const char*>(t->data.get()), t->nbytes);
  return out;
}

void writeSafetensors(const std::string& path, const std::vector<RawTensor>& tensors,
                      const std::map<std::string, std::string>& metadata) {
  writeFileAtomically(path, encodeSafetensors(tensors, metadata));
}

}  // namespace lwb::io
