// A test-side TensorBoard event-file writer (issue 29 §3), independent of the reader in
// engine/io/tfevents.*: TFRecord framing with a bit-by-bit CRC-32C (the reader uses a table)
// and Event / Summary / TensorProto protobufs encoded field by field.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

namespace lwb::test::tfevents {

inline uint32_t crc32cBitwise(const std::string& s) {
  uint32_t c = 0xffffffffu;
  for (unsigned char b : s) {
    c ^= b;
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0x82F63B78u & (0u - (c & 1u)));
  }
  return ~c;
}
inline uint32_t masked(const std::string& s) {
  const uint32_t c = crc32cBitwise(s);
  return ((c >> 15) | (c << 17)) + 0xa282ead8u;
}
inline std::string le(uint64_t v, int bytes) {
  std::string s;
  for (int i = 0; i < bytes; ++i) s.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
  return s;
}
inline std::string varint(uint64_t v) {
  std::string s;
  do {
    uint8_t b = v & 0x7f;
    v >>= 7;
    s.push_back(static_cast<char>(v ? b | 0x80 : b));
  } while (v);
  return s;
}
inline std::string key(int field, int type) { return varint(static_cast<uint64_t>(field) << 3 | static_cast<uint64_t>(type)); }
inline std::string bytesField(int field, const std::string& payload) { return key(field, 2) + varint(payload.size()) + payload; }
inline std::string floatBits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return le(b, 4);
}
inline std::string doubleBits(double d) {
  uint64_t b;
  std::memcpy(&b, &d, 8);
  return le(b, 8);
}

// Event{wall_time, step, summary{value{tag, <valueFields>}}}
inline std::string scalarEvent(int64_t step, const std::string& tag, const std::string& valueFields, double wall = 1.7e9) {
  const std::string value = bytesField(1, tag) + valueFields;
  return key(1, 1) + doubleBits(wall) + key(2, 0) + varint(static_cast<uint64_t>(step)) + bytesField(5, bytesField(1, value));
}
inline std::string simpleValue(float v) { return key(2, 5) + floatBits(v); }
inline std::string tensor(const std::string& fields) { return bytesField(8, fields); }
inline std::string tensorFloatVal(float v) { return tensor(key(1, 0) + varint(1) + bytesField(5, floatBits(v))); }        // packed
inline std::string tensorDoubleVal(double v) { return tensor(key(1, 0) + varint(2) + key(6, 1) + doubleBits(v)); }       // unpacked
inline std::string tensorContentFloat(float v) { return tensor(key(1, 0) + varint(1) + bytesField(4, floatBits(v))); }
inline std::string tensorContentDouble(double v) { return tensor(key(1, 0) + varint(2) + bytesField(4, doubleBits(v))); }

inline std::string record(const std::string& data) {
  const std::string len = le(data.size(), 8);
  return len + le(masked(len), 4) + data + le(masked(data), 4);
}

inline std::string fileVersion() { return record(key(1, 1) + doubleBits(1.7e9) + bytesField(3, "brain.Event:2")); }

}  // namespace lwb::test::tfevents
