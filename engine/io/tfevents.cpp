#include "io/tfevents.h"

#include "io/file_io.h"
#include "io/input_error.h"

#include <array>
#include <cctype>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace lwb::io {
namespace {

// CRC-32C table, reflected polynomial 0x82F63B78 (RFC 3720).
constexpr std::array<uint32_t, 256> makeCrcTable() {
  std::array<uint32_t, 256> t{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
    t[i] = c;
  }
  return t;
}
constexpr auto kCrcTable = makeCrcTable();

uint64_t readLe(const char* p, int bytes) {
  uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(p[i]);
  return v;
}

// Protocol-buffer wire format, just what Event → Summary → Value → TensorProto needs. Every
// read is bounds-checked; a malformed message sets ok = false.
struct Wire {
  const char* p;
  const char* end;
  bool ok = true;

  bool more() const { return ok && p < end; }
  uint64_t varint() {
    uint64_t v = 0;
    for (int shift = 0; shift < 70; shift += 7) {
      if (p >= end) break;
      const auto b = static_cast<uint8_t>(*p++);
      v |= static_cast<uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
    ok = false;  // ran off the end or longer than 10 bytes
    return 0;
  }
  uint64_t fixed(int bytes) {
    if (end - p < bytes) {
      ok = false;
      return 0;
    }
    const uint64_t v = readLe(p, bytes);
    p += bytes;
    return v;
  }
  std::string_view lengthDelimited() {
    const uint64_t n = varint();
    if (!ok || n > static_cast<uint64_t>(end - p)) {
      ok = false;
      return {};
    }
    std::string_view s(p, static_cast<size_t>(n));
    p += n;
    return s;
  }
  void skip(int wireType) {
    switch (wireType) {
      case 0: varint(); break;
      case 1: fixed(8); break;
      case 2: lengthDelimited(); break;
      case 5: fixed(4); break;
      default: ok = false;  // groups (3, 4) are not used by these messages
    }
  }
};

double asDouble(uint64_t bits) {
  double d;
  std::memcpy(&d, &bits, 8);
  return d;
}
double asFloat(uint64_t bits) {
  const auto b = static_cast<uint32_t>(bits);
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}
double halfToDouble(uint16_t h) {
  const int sign = h >> 15, exp = (h >> 10) & 0x1f, frac = h & 0x3ff;
  double v = exp == 0 ? std::ldexp(frac, -24) : exp == 31 ? (frac ? NAN : INFINITY) : std::ldexp(frac + 1024, exp - 25);
  return sign ? -v : v;
}

// TensorFlow DataType values a scalar can have.
enum : uint64_t { kDtFloat = 1, kDtDouble = 2, kDtInt32 = 3, kDtInt64 = 9, kDtBfloat16 = 14, kDtHalf = 19 };

// A TensorProto holding exactly one number (a scalar summary); false otherwise (histograms,
// images and text have several values or strings).
bool tensorScalar(std::string_view msg, double* out) {
  Wire w{msg.data(), msg.data() + msg.size()};
  uint64_t dtype = 0;
  std::string_view content;
  std::vector<double> values;
  while (w.more()) {
    const uint64_t key = w.varint();
    const auto field = key >> 3;
    const int type = static_cast<int>(key & 7);
    if (field == 1 && type == 0) dtype = w.varint();
    else if (field == 4 && type == 2) content = w.lengthDelimited();
    else if (field == 5 && type == 5) values.push_back(asFloat(w.fixed(4)));  // float_val, unpacked
    else if (field == 6 && type == 1) values.push_back(asDouble(w.fixed(8)));  // double_val, unpacked
    else if ((field == 5 || field == 6) && type == 2) {                        // packed
      const std::string_view packed = w.lengthDelimited();
      const size_t width = field == 5 ? 4 : 8;
      for (size_t i = 0; w.ok && i + width <= packed.size(); i += width)
        values.push_back(field == 5 ? asFloat(readLe(packed.data() + i, 4)) : asDouble(readLe(packed.data() + i, 8)));
    } else w.skip(type);
  }
  if (!w.ok) return false;
  if (!content.empty()) {
    const auto one = [&](size_t width) { return content.size() == width; };
    if (dtype == kDtFloat && one(4)) values.push_back(asFloat(readLe(content.data(), 4)));
    else if (dtype == kDtDouble && one(8)) values.push_back(asDouble(readLe(content.data(), 8)));
    else if (dtype == kDtHalf && one(2)) values.push_back(halfToDouble(static_cast<uint16_t>(readLe(content.data(), 2))));
    else if (dtype == kDtBfloat16 && one(2)) values.push_back(asFloat(readLe(content.data(), 2) << 16));
    else if (dtype == kDtInt32 && one(4)) values.push_back(static_cast<int32_t>(readLe(content.data(), 4)));
    else if (dtype == kDtInt64 && one(8)) values.push_back(static_cast<double>(static_cast<int64_t>(readLe(content.data(), 8))));
    else return false;
  }
  if (values.size() != 1) return false;
  *out = values.front();
  return true;
}

// Summary.Value: tag (1), simple_value (2), tensor (8); node_name (7) where tag is empty.
void parseValue(std::string_view msg, int64_t step, double wallTime, std::vector<TfScalar>& out, bool* ok) {
  Wire w{msg.data(), msg.data() + msg.size()};
  std::string tag, nodeName;
  bool has = false;
  double value = 0;
  while (w.more()) {
    const uint64_t key = w.varint();
    const auto field = key >> 3;
    const int type = static_cast<int>(key & 7);
    if (field == 1 && type == 2) tag = std::string(w.lengthDelimited());
    else if (field == 7 && type == 2) nodeName = std::string(w.lengthDelimited());
    else if (field == 2 && type == 5) value = asFloat(w.fixed(4)), has = true;
    else if (field == 8 && type == 2) has = tensorScalar(w.lengthDelimited(), &value) || has;
    else w.skip(type);
  }
  if (!w.ok) {
    *ok = false;
    return;
  }
  if (tag.empty()) tag = nodeName;
  if (has && !tag.empty()) out.push_back({tag, step, wallTime, value});
}

// Event: wall_time (1), step (2), summary (5) with repeated Value (1). False: malformed.
bool parseEvent(std::string_view msg, std::vector<TfScalar>& out) {
  Wire w{msg.data(), msg.data() + msg.size()};
  double wallTime = 0;
  int64_t step = 0;
  std::vector<std::string_view> values;
  while (w.more()) {
    const uint64_t key = w.varint();
    const auto field = key >> 3;
    const int type = static_cast<int>(key & 7);
    if (field == 1 && type == 1) wallTime = asDouble(w.fixed(8));
    else if (field == 2 && type == 0) step = static_cast<int64_t>(w.varint());
    else if (field == 5 && type == 2) {
      Wire s{nullptr, nullptr};
      const std::string_view summary = w.lengthDelimited();
      s = Wire{summary.data(), summary.data() + summary.size()};
      while (s.more()) {
        const uint64_t k = s.varint();
        if ((k >> 3) == 1 && (k & 7) == 2) values.push_back(s.lengthDelimited());
        else s.skip(static_cast<int>(k & 7));
      }
      if (!s.ok) return false;
    } else w.skip(type);
  }
  if (!w.ok) return false;
  // The step may follow the summary in the bytes: values are read once the event is.
  bool ok = true;
  for (const auto v : values) parseValue(v, step, wallTime, out, &ok);
  return ok;
}

}  // namespace

uint32_t crc32c(std::string_view bytes) {
  uint32_t c = 0xffffffffu;
  for (const char ch : bytes) c = kCrcTable[(c ^ static_cast<uint8_t>(ch)) & 0xff] ^ (c >> 8);
  return c ^ 0xffffffffu;
}

uint32_t maskedCrc32c(std::string_view bytes) {
  const uint32_t c = crc32c(bytes);
  return ((c >> 15) | (c << 17)) + 0xa282ead8u;
}

TfEventsScan scanTfEvents(std::string_view bytes, const std::string& what, uint64_t offset) {
  TfEventsScan scan;
  uint64_t at = std::min<uint64_t>(offset, bytes.size());
  scan.nextOffset = at;
  const auto where = [&](uint64_t pos) { return what + ": record at byte " + std::to_string(pos) + ": "; };
  while (at < bytes.size()) {
    const uint64_t left = bytes.size() - at;
    if (left < 12) {
      scan.stillBeingWritten = true;  // the header is not all there yet
      break;
    }
    const std::string_view header = bytes.substr(at, 8);
    if (static_cast<uint32_t>(readLe(bytes.data() + at + 8, 4)) != maskedCrc32c(header)) {
      scan.warnings.push_back(where(at) + "length CRC mismatch; the rest of the file cannot be framed and is ignored");
      break;
    }
    const uint64_t length = readLe(header.data(), 8);
    if (length > kMaxTfRecordBytes) {
      scan.warnings.push_back(where(at) + "length " + std::to_string(length) + " (as signed: " +
                              std::to_string(static_cast<int64_t>(length)) + ") exceeds the 64 MiB record limit; the rest is ignored");
      break;
    }
    if (left - 12 < length + 4) {
      scan.stillBeingWritten = true;  // the writer has not finished this record
      break;
    }
    const std::string_view data = bytes.substr(at + 12, length);
    const auto stored = static_cast<uint32_t>(readLe(bytes.data() + at + 12 + length, 4));
    if (stored != maskedCrc32c(data)) scan.warnings.push_back(where(at) + "data CRC mismatch; record skipped");
    else if (!parseEvent(data, scan.scalars)) scan.warnings.push_back(where(at) + "not a readable Event message; record skipped");
    ++scan.records;
    at += 12 + length + 4;
    scan.nextOffset = at;
  }
  return scan;
}

TfEventsScan readTfEventsFile(const std::string& path, uint64_t offset) {
  if (offset == 0) {
    const SharedBytes bytes = readFileBuffer(path, kMaxTfEventsFileBytes);
    return scanTfEvents(bytes.view(), path, 0);
  }
  // A follower's later read: only the bytes appended since `offset` (a record boundary).
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw InputError(path + ": is a folder, not a TensorBoard event file");
  const uint64_t size = std::filesystem::file_size(path, ec);
  if (ec) throw InputError(path + ": cannot read (" + ec.message() + ")");
  if (size < offset)
    throw InputError(path + ": now " + std::to_string(size) + " bytes, shorter than the " + std::to_string(offset) + " already read (rewritten)");
  if (size - offset > kMaxTfEventsFileBytes) throw InputError(path + ": more than 2 GiB appended at once; not read");
  std::string bytes(size - offset, '\0');
  std::ifstream in(path, std::ios::binary);
  in.seekg(static_cast<std::streamoff>(offset));
  in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!in && !in.eof()) throw InputError(path + ": cannot read the bytes after " + std::to_string(offset));
  bytes.resize(static_cast<size_t>(in.gcount()));
  TfEventsScan scan = scanTfEvents(bytes, path + " (from byte " + std::to_string(offset) + ")", 0);
  scan.nextOffset += offset;
  return scan;
}

bool isTfEventsFileName(std::string_view fileName) { return fileName.rfind("events.out.tfevents.", 0) == 0; }

std::string compareKeyForTag(std::string_view tag) {
  std::string t;
  for (char c : tag) t.push_back(c == '/' || c == '-' || c == ' ' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  struct Alias {
    const char* key;
    std::array<const char*, 6> spellings;
  };
  static const Alias aliases[] = {
      {"train_loss", {"loss_train", "train_loss", "training_loss", "loss", "train_loss_step", "loss_training"}},
      {"val_loss", {"loss_val", "val_loss", "validation_loss", "eval_loss", "loss_validation", "valid_loss"}},
      {"train_acc", {"accuracy_train", "train_acc", "train_accuracy", "acc_train", "training_accuracy", "train_acc_step"}},
      {"val_acc", {"accuracy_val", "val_acc", "val_accuracy", "acc_val", "validation_accuracy", "eval_accuracy"}},
  };
  for (const auto& a : aliases)
    for (const char* s : a.spellings)
      if (t == s) return a.key;
  return std::string(tag);
}

}  // namespace lwb::io
