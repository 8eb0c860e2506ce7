// Harnesses for the restricted pickle reader (contract: see harness_safetensors.h). Mutated
// pickles inside a real zip almost never get past the CRC check, so the pickle gets targets
// of its own: the reader alone, and the reader + flattening + tensor bounds checks of the
// PyTorch path with the input as `archive/data.pkl` of a well-formed zip whose storage
// records have fixed sizes (4096 bytes for keys "0".."5", 3 bytes for "6", 0 for "7").
#pragma once

#include "harness_zip.h"
#include "io/pickle_reader.h"

#include <zlib.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace lwb::fuzz {

inline void runPickle(const uint8_t* data, size_t size) {
  try {
    (void)io::parsePickle(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.pkl",
                         fuzzPytorchLimits().pickle);
  } catch (const InputError&) {
  }
}

// A zip of stored members, written by hand (local headers, central directory, end record).
inline std::string storedZip(const std::vector<std::pair<std::string, std::string>>& members) {
  std::string out, central;
  auto put = [](std::string& s, uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) s.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
  };
  for (const auto& [name, body] : members) {
    const uint32_t crc = static_cast<uint32_t>(
        crc32(0L, reinterpret_cast<const Bytef*>(body.data()), static_cast<uInt>(body.size())));
    const uint64_t offset = out.size();
    put(out, 0x04034b50, 4); put(out, 20, 2); put(out, 0, 2); put(out, 0, 2);  // sig, version, flags, stored
    put(out, 0, 2); put(out, 0x21, 2);                                        // 1980-01-01 00:00
    put(out, crc, 4); put(out, body.size(), 4); put(out, body.size(), 4);
    put(out, name.size(), 2); put(out, 0, 2);
    out += name;
    out += body;
    put(central, 0x02014b50, 4); put(central, 20, 2); put(central, 20, 2); put(central, 0, 2); put(central, 0, 2);
    put(central, 0, 2); put(central, 0x21, 2);
    put(central, crc, 4); put(central, body.size(), 4); put(central, body.size(), 4);
    put(central, name.size(), 2); put(central, 0, 2); put(central, 0, 2);     // name, extra, comment
    put(central, 0, 2); put(central, 0, 2); put(central, 0, 4); put(central, offset, 4);
    central += name;
  }
  const uint64_t cdOffset = out.size();
  out += central;
  put(out, 0x06054b50, 4); put(out, 0, 2); put(out, 0, 2);
  put(out, members.size(), 2); put(out, members.size(), 2);
  put(out, central.size(), 4); put(out, cdOffset, 4); put(out, 0, 2);
  return out;
}

inline void runPytorchPickle(const uint8_t* data, size_t size) {
  std::vector<std::pair<std::string, std::string>> members{
      {"archive/data.pkl", std::string(reinterpret_cast<const char*>(data), size)}, {"archive/version", "3\n"}};
  for (int key = 0; key < 8; ++key) {
    const size_t n = key < 6 ? 4096 : key == 6 ? 3 : 0;
    std::string body(n, '\0');
    for (size_t i = 0; i < n; ++i) body[i] = static_cast<char>(i % 2);  // valid bool bytes too
    members.emplace_back("archive/data/" + std::to_string(key), std::move(body));
  }
  const std::string zip = storedZip(members);
  runPytorch(reinterpret_cast<const uint8_t*>(zip.data()), zip.size());
}

}  // namespace lwb::fuzz
